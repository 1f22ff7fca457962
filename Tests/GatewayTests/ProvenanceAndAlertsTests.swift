import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// A board and a trip through the gateway over the sample feed: each row says where its prediction comes from
/// and how old it is, and names the alerts that apply to it only (GATEWAY.md "Prediction sources", "Alerts on
/// rows"). Central (200060) on the sample Monday at 20:00, as in LiveBoardTests.
@Suite struct ProvenanceAndAlertsTests {
    private let at = SampleTimes.mondayEvening
    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// T2.WKD.0.1922 400 s late by propagation (its update 30 s old), T1.WKD.0.1910 380 s early estimated from
    /// its vehicle (a position 50 s old); an alert on T1.WKD.0.1910 only, one on route T4 at platform 24 only,
    /// and one on the same trip that ended before its departure.
    private func scenario(now: Int64) -> RealtimeState {
        var delayed = LiveFixtures.trip(
            "T2.WKD.0.1922", routeId: "ST_T2",
            stops: [("20006018", at - 120, at + 280), ("20005002", at + 60, at + 460)], firstSequence: 6)
        delayed.stops[0].predictionSource = .propagated
        delayed.timestamp = UInt64(now - 30)
        var early = LiveFixtures.trip(
            "T1.WKD.0.1910", routeId: "ST_T1",
            stops: [("20006016", at + 1380, at + 1000), ("next", at + 1600, at + 1300)], firstSequence: 5,
            source: "vp")
        for i in early.stops.indices { early.stops[i].predictionSource = .vehicle }
        early.timestamp = UInt64(now - 50)
        let alerts = [
            LiveAlert(
                key: "al/trip", source: "al", entityId: "trip",
                informedEntities: [LiveInformedEntity(tripId: "T1.WKD.0.1910")], effect: "SIGNIFICANT_DELAYS"),
            LiveAlert(
                key: "al/t4-p24", source: "al", entityId: "t4-p24",
                informedEntities: [LiveInformedEntity(routeId: "ST_T4", stopId: "20006024")], effect: "STOP_MOVED"),
            LiveAlert(
                key: "al/over", source: "al", entityId: "over",
                activePeriods: [LivePeriod(start: UInt64(at - 3600), end: UInt64(at + 900))],
                informedEntities: [LiveInformedEntity(tripId: "T1.WKD.0.1910")]),
        ]
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: [delayed, early])))
        assembler.applySnapshot(.alerts(LiveAlertBatch(alerts: alerts)))
        assembler.applySnapshot(
            .sources([
                LiveFixtures.freshSource(now: now), LiveFixtures.freshSource("vp", kind: .vehiclePositions, now: now),
                LiveFixtures.freshSource("al", kind: .alerts, now: now),
            ]))
        return assembler.state
    }

    @Test func aBoardSaysWhereEachPredictionComesFromAndShowsAlertsOnTheirRowsOnly() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let asked = now
            view.replace(scenario(now: asked))
            let board = try await client.ask(
                #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":12}"#)
            #expect(board.ok, "\(board)")
            let rows = board.list("departures")
            func row(_ trip: String, _ stop: String? = nil) throws -> [String: Any] {
                try #require(
                    rows.first {
                        $0["trip_id"] as? String == trip && (stop == nil || $0["stop_id"] as? String == stop)
                    },
                    "\(trip) on the board")
            }
            let delayed = try row("T2.WKD.0.1922")
            #expect(delayed["prediction_source"] as? String == "propagated")
            let delayedAge = try #require(delayed["prediction_age_s"] as? Int)
            #expect(delayedAge >= 30 && delayedAge < 40)
            let early = try row("T1.WKD.0.1910")
            #expect(early["prediction_source"] as? String == "vehicle")
            let earlyAge = try #require(early["prediction_age_s"] as? Int)
            #expect(earlyAge >= 50 && earlyAge < 60)
            #expect(early["alert_ids"] as? [String] == ["trip"])  // "over" ended before it leaves
            let scheduled = try row("M1.WKD.1.FREQ")
            #expect(scheduled["prediction_source"] as? String == "schedule")
            #expect(scheduled["prediction_age_s"] is NSNull)

            // Only the early trip's row and T4's row at platform 24 name an alert.
            for r in rows {
                let ids = r["alert_ids"] as? [String] ?? ["missing"]
                switch (r["trip_id"] as? String, r["stop_id"] as? String) {
                case ("T1.WKD.0.1910"?, _): #expect(ids == ["trip"])
                case (_, "20006024"?) where (r["route_id"] as? String) == "ST_T4": #expect(ids == ["t4-p24"])
                default: #expect(ids == [], "\(r["trip_id"] ?? "?")")
                }
            }
            let alerts = (board.data["alerts"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "?" }
            #expect(Set(alerts) == Set(rows.flatMap { $0["alert_ids"] as? [String] ?? [] }))
            #expect(alerts.count == Set(alerts).count)

            // The trip answer shows the same provenance and alert for the same stop.
            let trip = try await client.ask(
                #"{"op":"trip","trip_id":"T1.WKD.0.1910","date":"20251222","at":\#(at)}"#)
            #expect(trip.ok, "\(trip)")
            let stop = try #require(trip.list("stops").first { $0["stop_id"] as? String == "20006016" })
            #expect(stop["prediction_source"] as? String == "vehicle")
            #expect(stop["alert_ids"] as? [String] == ["trip"])
            // Its first stops leave before "over" ends: they name it too, and the trip carries both once.
            #expect(trip.list("stops").first?["alert_ids"] as? [String] == ["over", "trip"])
            #expect((trip.data["alerts"] as? [[String: Any]])?.map { $0["id"] as? String } == ["over", "trip"])
        }
    }
}
