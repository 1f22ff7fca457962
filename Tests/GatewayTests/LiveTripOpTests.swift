import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// `trip` for trips the static data does not know, and with the static service down (GATEWAY.md "trip"),
/// over the sample feed with a live state set directly.
@Suite struct LiveTripOpTests {
    private let at = SampleTimes.mondayEvening
    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    private func scenario() -> RealtimeState {
        // Not in the schedule: Central P19 at +300, then Town Hall P4; headsigns from the update.
        var added = LiveFixtures.trip(
            "X.ADDED.1", relationship: .new, routeId: "ST_T2",
            stops: [
                ("20006019", nil, at + 300), ("20007004", nil, at + 500),
            ])
        added.tripHeadsign = "Extra service"
        added.stops[0].stopHeadsign = "Via Town Hall"
        let trips: [LiveTrip] = [
            added,
            // Added on a route and at a stop the static data does not know.
            LiveFixtures.trip(
                "X.ADDED.2", relationship: .added, routeId: "NOPE",
                stops: [
                    ("unknown-stop", nil, at + 100), ("20006019", nil, at + 400),
                ]),
            // A REPLACEMENT of no scheduled trip: its own stops, added.
            LiveFixtures.trip(
                "X.REPL", relationship: .replacement, routeId: "ST_T1",
                stops: [
                    ("20006019", at + 600, at + 660), ("20007004", at + 800, at + 860),
                ]),
            // Scheduled 19:58 from P18, 400 s late.
            LiveFixtures.trip(
                "T2.WKD.0.1922", routeId: "ST_T2",
                stops: [
                    ("20006018", at - 120, at + 280), ("20005002", at + 60, at + 460),
                ], firstSequence: 6),
            // Scheduled, 380 s early at Central.
            LiveFixtures.trip(
                "T1.WKD.0.1910", routeId: "ST_T1",
                stops: [
                    ("20006016", at + 1380, at + 1000)
                ], firstSequence: 5),
            // From a stale source: not used.
            LiveFixtures.trip(
                "X.STALE", relationship: .new, routeId: "ST_T2",
                stops: [
                    ("20006019", nil, at + 300), ("20007004", nil, at + 500),
                ], source: "old"),
        ]
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: trips)))
        var old = LiveFixtures.freshSource("old", now: now)
        old.stale = true
        assembler.applySnapshot(.sources([LiveFixtures.freshSource(now: now), old]))
        return assembler.state
    }

    private func trip(_ client: LineClient, _ id: String, _ extra: String = "") async throws -> JSONLine {
        try await client.ask(#"{"op":"trip","trip_id":"\#(id)","at":\#(at)\#(extra)}"#)
    }

    private func stops(_ answer: JSONLine) -> [[String: Any]] { answer.list("stops") }

    @Test func addedTripsAreAnsweredFromTheLiveState() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            view.replace(scenario())

            let added = try await trip(client, "X.ADDED.1")
            try #require(added.ok, "\(added)")
            #expect(added.meta["source"] as? String == "static+rt" && added.meta["stale"] as? Bool == false)
            #expect(added.data["status"] as? String == "added" && added.data["realtime"] as? Bool == true)
            #expect(
                added.data["service_date"] as? String == "20251222" && added.data["start_time"] as? String == "20:05:00"
            )
            #expect(added.data["timezone"] as? String == "Australia/Sydney")
            let route = try #require(added.data["route"] as? [String: Any])
            #expect(
                route["route_id"] as? String == "ST_T2" && route["short_name"] as? String == "T2"
                    && route["mode"] as? String == "train")
            let first = try #require(stops(added).first)
            #expect(
                first["stop_name"] as? String == "Central Station, Platform 19" && first["platform"] as? String == "19")
            #expect(first["parent_station"] as? String == "200060" && first["lat"] as? Double == -33.88316)
            #expect(first["scheduled_departure_unix"] is NSNull && first["scheduled_departure_secs"] is NSNull)
            #expect(
                first["realtime_departure_unix"] as? Int == Int(at) + 300
                    && first["realtime_departure_secs"] as? Int == 72_300)
            #expect(
                first["status"] as? String == "added" && first["delay_s"] is NSNull && first["delay_badge"] is NSNull)
            #expect(stops(added).last?["stop_name"] as? String == "Town Hall Station, Platform 4")
            #expect(added.data["headsign"] as? String == "Extra service")
            #expect(stops(added).map { $0["stop_headsign"] as? String } == ["Via Town Hall", nil])

            // On its date; not on another.
            #expect(try await trip(client, "X.ADDED.1", #","date":"20251222""#).ok)
            #expect(try await trip(client, "X.ADDED.1", #","date":"20251223""#).errorCode == "NOT_FOUND")

            // An unknown route and stop: the route id alone (mode other), the stop's facts null.
            let unknown = try await trip(client, "X.ADDED.2")
            try #require(unknown.ok, "\(unknown)")
            let other = try #require(unknown.data["route"] as? [String: Any])
            #expect(other["route_id"] as? String == "NOPE" && other["mode"] as? String == "other")
            #expect(stops(unknown).map { $0["stop_name"] as? String } == [nil, "Central Station, Platform 19"])
            #expect(stops(unknown).first?["lat"] is NSNull)

            // A replacement of no scheduled trip is added, on `trip` and on the board.
            let replacement = try await trip(client, "X.REPL")
            #expect(replacement.data["status"] as? String == "added", "\(replacement)")
            #expect(stops(replacement).first?["scheduled_departure_unix"] is NSNull)
            let board = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(at),"limit":10}"#)
            let row = board.list("departures").first { $0["trip_id"] as? String == "X.REPL" }
            #expect(row?["status"] as? String == "added" && row?["realtime_unix"] as? Int == Int(at) + 660, "\(board)")
            // The update's stop_headsign is the added trip's headsign on the board.
            let addedRow = board.list("departures").first { $0["trip_id"] as? String == "X.ADDED.1" }
            #expect(addedRow?["headsign"] as? String == "Via Town Hall")

            // Nobody knows these: NOT_FOUND, also for a trip only a stale source names.
            #expect(try await trip(client, "NOPE.1").errorCode == "NOT_FOUND")
            #expect(try await trip(client, "X.STALE").errorCode == "NOT_FOUND")

            // A scheduled trip is still the static answer with its predictions.
            let scheduled = try await trip(client, "T2.WKD.0.1922")
            #expect(scheduled.meta["source"] as? String == "static+rt")
            #expect(stops(scheduled).count > 2)
            #expect(stops(scheduled).first { $0["stop_sequence"] as? Int == 6 }?["delay_s"] as? Int == 400)
        }
    }

    @Test func withTheStaticServiceDownLiveTripsAreAnsweredRtOnly() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view, configure: { $0.staticTimeout = .milliseconds(300) }) { fixture in
            let client = try fixture.client()
            view.replace(scenario())
            // Met while the static service answers: the added trip's stops and the route list, one trip's detail.
            #expect(try await trip(client, "X.ADDED.1").ok)
            let full = try await trip(client, "T1.WKD.0.1910")
            try #require(full.ok, "\(full)")
            fixture.stopStaticService()

            let added = try await trip(client, "X.ADDED.1")
            try #require(added.ok, "\(added)")
            #expect(added.meta["source"] as? String == "rt_only")
            #expect(added.data["status"] as? String == "added")
            #expect((added.data["route"] as? [String: Any])?["short_name"] as? String == "T2")
            #expect(stops(added).first?["stop_name"] as? String == "Central Station, Platform 19")
            #expect(added.data["headsign"] as? String == "Extra service")

            // An rt_only board row of a trip the static service never described: the update's headsign.
            let board = try await client.ask(#"{"op":"departures","stop_id":"20006019","at":\#(at),"limit":4}"#)
            #expect(board.meta["source"] as? String == "rt_only", "\(board)")
            let row = board.list("departures").first { $0["trip_id"] as? String == "X.ADDED.1" }
            #expect(row?["headsign"] as? String == "Via Town Hall", "\(board)")

            // A scheduled trip never asked: the live state's stops and schedule, static facts null.
            let live = try await trip(client, "T2.WKD.0.1922")
            try #require(live.ok, "\(live)")
            #expect(live.meta["source"] as? String == "rt_only")
            #expect(live.data["frequency_based"] as? Bool == false && live.data["start_time"] as? String == "19:58:00")
            #expect(live.data["headsign"] is NSNull && live.data["bikes_allowed"] is NSNull)
            #expect((live.data["route"] as? [String: Any])?["short_name"] as? String == "T2")
            #expect(stops(live).count == 2)
            let first = try #require(stops(live).first)
            #expect(
                first["scheduled_departure_unix"] as? Int == Int(at) - 120
                    && first["realtime_departure_unix"] as? Int == Int(at) + 280)
            #expect(first["delay_s"] as? Int == 400 && first["status"] as? String == "very_late")
            #expect(first["stop_name"] is NSNull && first["pickup_type"] is NSNull)
            #expect(live.data["status"] as? String == "very_late")

            // A scheduled trip whose detail was cached: the full answer, rt_only.
            let cached = try await trip(client, "T1.WKD.0.1910")
            try #require(cached.ok, "\(cached)")
            #expect(cached.meta["source"] as? String == "rt_only")
            #expect(
                stops(cached).count == stops(full).count
                    && cached.data["headsign"] as? String == full.data["headsign"] as? String)
            #expect(stops(cached).first { $0["stop_sequence"] as? Int == 5 }?["delay_s"] as? Int == -380)

            // Nothing can answer: STATIC_UNAVAILABLE.
            #expect(try await trip(client, "NOPE.1").errorCode == "STATIC_UNAVAILABLE")
            #expect(try await trip(client, "T2.WKD.0.1922", #","date":"20251223""#).errorCode == "STATIC_UNAVAILABLE")
            #expect(try await trip(client, "X.STALE").errorCode == "STATIC_UNAVAILABLE")
        }
    }
}
