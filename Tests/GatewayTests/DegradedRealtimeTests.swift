import Foundation
import GatewayProtocol
import ProcessSupport
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// Realtime silent or stale (GATEWAY.md §2): what stays true stays on boards and trips, marked stale —
/// cancellations and skipped stops until the trip's end, alerts until their period ends or an hour after the
/// last feed that carried them — while stale predictions are left out. The gateway's clock is frozen at `at`.
@Suite struct DegradedRealtimeTests {
    private let at = SampleTimes.mondayEvening

    /// At Central: T2.WKD.0.1922 delayed 400 s into the window, T1.WKD.1.1940 cancelled (P17, +900),
    /// T4.WKD.0.2007 skipping P24 (+1140); an alert at Central. Both sources' last feeds at `feedAt`.
    private func scenario(stale: Bool, feedAt: Int64) -> RealtimeState {
        let trips: [LiveTrip] = [
            LiveFixtures.trip(
                "T2.WKD.0.1922", routeId: "ST_T2",
                stops: [("20006018", at - 120, at + 280), ("20005002", at + 60, at + 460)], firstSequence: 6),
            LiveFixtures.trip(
                "T1.WKD.1.1940", relationship: .canceled, routeId: "ST_T1",
                stops: [("20006017", at + 900, nil), ("21351004", at + 1800, nil)], firstSequence: 6),
            LiveFixtures.trip(
                "T4.WKD.0.2007", routeId: "ST_T4",
                stops: [("20006024", at + 1140, nil), ("next", at + 1500, at + 1500)], firstSequence: 6,
                skipped: ["20006024"]),
        ]
        func source(_ name: String, _ kind: LiveSourceKind) -> LiveSourceStatus {
            LiveSourceStatus(
                name: name, kind: kind, feedTimestamp: UInt64(feedAt), lastSuccessUnix: feedAt, stale: stale)
        }
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: trips)))
        assembler.applySnapshot(.sources([source("tu", .tripUpdates), source("al", .alerts)]))
        var state = assembler.state
        state.apply(
            alerts: [
                (
                    "al/lifts",
                    AlertRecord(
                        id: "lifts", header: TranslatedText([.init(text: "Lifts out of service")]),
                        informedEntities: [AlertView.InformedEntity(stopId: "200060")])
                ),
                (
                    "al/over",
                    AlertRecord(
                        id: "over", activePeriods: [AlertView.Period(start: 0, end: at - 1)],
                        informedEntities: [AlertView.InformedEntity(stopId: "200060")])
                ),
            ], removed: [])
        return state
    }

    private func withFrozenGateway(_ body: (LineClient, RealtimeView) async throws -> Void) async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view, configure: { $0.clock = ServiceClock(start: Double(at), rate: 0) }) {
            fixture in
            try await body(try fixture.client(), view)
        }
    }

    private func board(_ client: LineClient) async throws -> JSONLine {
        let answer = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(at),"limit":12}"#)
        try #require(answer.ok, "\(answer)")
        return answer
    }

    private func status(_ answer: JSONLine, _ tripId: String) -> String? {
        answer.list("departures").first { $0["trip_id"] as? String == tripId }?["status"] as? String
    }

    /// The board, the cancelled trip and the alerts while the held state is old; `feedAge` expected.
    private func expectLastingFactsShownAsOld(_ client: LineClient, feedAge: Int) async throws {
        let board = try await board(client)
        #expect(board.meta["source"] as? String == "static_only")
        #expect(board.meta["stale"] as? Bool == true)
        #expect(board.meta["feed_age_s"] as? Int == feedAge)
        #expect(status(board, "T1.WKD.1.1940") == "cancelled", "\(board)")
        #expect(status(board, "T4.WKD.0.2007") == "skipped", "\(board)")
        // The stale delay is left out: the 19:58 run is back at its scheduled time, before `at`.
        #expect(status(board, "T2.WKD.0.1922") == nil)
        #expect(board.list("departures").allSatisfy { $0["realtime_unix"] is NSNull }, "\(board)")

        let trip = try await client.ask(#"{"op":"trip","trip_id":"T1.WKD.1.1940","at":\#(at)}"#)
        #expect(trip.ok, "\(trip)")
        #expect(trip.data["status"] as? String == "cancelled", "\(trip)")
        #expect(trip.meta["source"] as? String == "static_only" && trip.meta["stale"] as? Bool == true)

        let alerts = try await client.ask(#"{"op":"alerts","stop_id":"200060","at":\#(at)}"#)
        #expect(alerts.list("alerts").map { $0["id"] as? String } == ["lifts"], "\(alerts)")
        #expect(alerts.meta["source"] as? String == "static_only" && alerts.meta["stale"] as? Bool == true)
        #expect(alerts.meta["feed_age_s"] as? Int == feedAge)
    }

    @Test func freshRealtimeIsMergedAsBefore() async throws {
        try await withFrozenGateway { client, view in
            view.replace(scenario(stale: false, feedAt: at - 5))
            let board = try await board(client)
            #expect(board.meta["source"] as? String == "static+rt" && board.meta["stale"] as? Bool == false)
            #expect(board.meta["feed_age_s"] as? Int == 5)
            #expect(status(board, "T2.WKD.0.1922") == "very_late")
            #expect(status(board, "T1.WKD.1.1940") == "cancelled")
        }
    }

    @Test func staleSourcesKeepCancellationsSkipsAndAlerts() async throws {
        try await withFrozenGateway { client, view in
            view.replace(scenario(stale: true, feedAt: at - 200))
            try await expectLastingFactsShownAsOld(client, feedAge: 200)
        }
    }

    @Test func aSilentPublisherKeepsThemToo() async throws {
        try await withFrozenGateway { client, view in
            // Held but not heard: the publisher counts as silent (as after the silence limit).
            view.replace(scenario(stale: false, feedAt: at - 30), heard: false)
            try await expectLastingFactsShownAsOld(client, feedAge: 30)
            let health = try await client.ask(#"{"op":"health"}"#)
            #expect((health.data["realtime"] as? [String: Any])?["status"] as? String == "silent")
            #expect(health.data["status"] as? String == "degraded")
        }
    }

    @Test func alertsGoAnHourAfterTheLastFeedThatCarriedThem() async throws {
        try await withFrozenGateway { client, view in
            let ask = #"{"op":"alerts","stop_id":"200060","at":\#(at)}"#
            view.replace(scenario(stale: true, feedAt: at - 3599))
            #expect(try await client.ask(ask).list("alerts").map { $0["id"] as? String } == ["lifts"])
            view.replace(scenario(stale: true, feedAt: at - 3600))
            let gone = try await client.ask(ask)
            #expect(gone.ok && gone.list("alerts").isEmpty, "\(gone)")
            #expect(gone.meta["stale"] as? Bool == true)
        }
    }

    @Test func aCancellationOfAStaleSourceEndsWithTheTrip() async throws {
        try await withFrozenGateway { client, view in
            view.replace(scenario(stale: true, feedAt: at - 200))
            // Ask about the trip after its scheduled end (its last static arrival): the schedule only.
            let trip = try await client.ask(#"{"op":"trip","trip_id":"T1.WKD.1.1940","at":\#(at)}"#)
            let stops = trip.data["stops"] as? [[String: Any]] ?? []
            let lastStatic = try #require(stops.last?["scheduled_arrival_unix"] as? Int, "\(trip)")
            let end = max(lastStatic, Int(at) + 1800)  // the prediction's last scheduled arrival
            let later = try await client.ask(#"{"op":"trip","trip_id":"T1.WKD.1.1940","at":\#(end + 1)}"#)
            #expect(later.ok, "\(later)")
            #expect(later.data["status"] as? String != "cancelled", "\(later)")
        }
    }
}
