import Foundation
import RealtimeService
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// The gateway's subscriber against the real realtime service's publishing side (`RealtimeSockets`: its
/// `RealtimeHub` behind real PUB and REP sockets), in process: late join, then live changes.
@Suite struct RealtimeServiceEndToEndTests {
    @Test func theGatewayFollowsTheRealPublisher() async throws {
        let pub = UniqueURL.ipc("gwt-hubpub")
        let rep = UniqueURL.ipc("gwt-hubrep")
        let sockets = try RealtimeSockets(listen: rep, publish: pub)
        defer { sockets.stop() }
        let at = SampleTimes.mondayEvening
        let now = Int64(Date().timeIntervalSince1970)
        func update(delay: Int64) -> LiveChanges {
            var changes = LiveChanges()
            changes.trips = [
                LiveFixtures.trip(
                    "T1.WKD.1.1940", routeId: "ST_T1",
                    stops: [
                        ("20006017", at + 900, at + 900 + delay), ("21351004", at + 1800, at + 1800 + delay),
                    ], firstSequence: 6)
            ]
            return changes
        }
        // Published before the gateway exists: it learns it from the snapshot.
        sockets.hub.publish(update(delay: 120), sources: [LiveFixtures.freshSource(now: now)])

        try await withGatewayFollowing(sockets, pub: pub, rep: rep) { fixture in
            let client = try fixture.client()
            let request = #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":10}"#
            func delayOfTheT1() async throws -> Int? {
                let board = try await client.ask(request)
                #expect(board.meta["source"] as? String == "static+rt", "\(board)")
                return board.list("departures").first { $0["trip_id"] as? String == "T1.WKD.1.1940" }?["delay_s"]
                    as? Int
            }
            #expect(try await delayOfTheT1() == 120)

            sockets.hub.publish(update(delay: 300), sources: nil)
            try await eventually("the change arrives") { try await delayOfTheT1() == 300 }

            let health = try await client.ask(#"{"op":"health"}"#)
            let realtime = health.data["realtime"] as? [String: Any]
            #expect(realtime?["status"] as? String == "ok")
            #expect((realtime?["sources"] as? [[String: Any]])?.first?["name"] as? String == "tu")
        }
    }

    /// Two gateways subscribed to one publisher see the same live state: after an update, both boards show it
    /// (the time between the two is printed; target 100 ms, the check is generous).
    @Test func twoGatewaysSeeTheSameUpdate() async throws {
        let pub = UniqueURL.ipc("gwt-two-pub")
        let rep = UniqueURL.ipc("gwt-two-rep")
        let sockets = try RealtimeSockets(listen: rep, publish: pub)
        defer { sockets.stop() }
        let at = SampleTimes.mondayEvening
        let now = Int64(Date().timeIntervalSince1970)
        func update(delay: Int64) -> LiveChanges {
            var changes = LiveChanges()
            changes.trips = [
                LiveFixtures.trip(
                    "T1.WKD.1.1940", routeId: "ST_T1",
                    stops: [("20006017", at + 900, at + 900 + delay), ("21351004", at + 1800, at + 1800 + delay)],
                    firstSequence: 6)
            ]
            return changes
        }
        sockets.hub.publish(update(delay: 60), sources: [LiveFixtures.freshSource(now: now)])
        try await withGatewayFollowing(sockets, pub: pub, rep: rep) { first in
            try await withGatewayFollowing(sockets, pub: pub, rep: rep) { second in
                let request = #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":10}"#
                func delay(_ fixture: GatewayFixture) async throws -> Int? {
                    let board = try await fixture.client().ask(request)
                    return board.list("departures").first { $0["trip_id"] as? String == "T1.WKD.1.1940" }?["delay_s"]
                        as? Int
                }
                #expect(try await delay(first) == 60)
                #expect(try await delay(second) == 60)
                let published = ContinuousClock.now
                sockets.hub.publish(update(delay: 240), sources: nil)
                var seen: [ContinuousClock.Instant?] = [nil, nil]
                let both = try await TransitTesting.eventually(timeout: .seconds(5), interval: .milliseconds(1)) {
                    for (i, fixture) in [first, second].enumerated() where seen[i] == nil {
                        if try await delay(fixture) == 240 { seen[i] = .now }
                    }
                    return seen.allSatisfy { $0 != nil }
                }
                #expect(both, "both gateways show the update")
                if let a = seen[0], let b = seen[1] {
                    let apart = a > b ? a - b : b - a
                    print(
                        "two gateways: the update shown \(published.duration(to: a)) and \(published.duration(to: b)) after publishing, \(apart) apart"
                    )
                    #expect(apart < .seconds(1))
                }
            }
        }
    }

    /// A source whose feed turned to garbage: the failures in a row and the recovery reach `health` over the
    /// real wire, degraded after the second failure and ok again (dated) after the first good feed.
    @Test func failuresAndTheRecoveryReachHealthThroughThePublisher() async throws {
        let pub = UniqueURL.ipc("gwt-hubpub")
        let rep = UniqueURL.ipc("gwt-hubrep")
        let sockets = try RealtimeSockets(listen: rep, publish: pub)
        defer { sockets.stop() }
        let now = Int64(Date().timeIntervalSince1970)
        func source(failures: UInt64, lastErrorUnix: Int64? = nil, recovered: Int64? = nil) -> LiveSourceStatus {
            var status = LiveFixtures.freshSource(now: now)
            status.errors = lastErrorUnix == nil ? 0 : 2
            status.lastError = lastErrorUnix == nil ? nil : "the body did not decode"
            status.lastErrorUnix = lastErrorUnix
            status.consecutiveErrors = failures
            status.recoveredUnix = recovered
            return status
        }
        sockets.hub.publish(LiveChanges(), sources: [source(failures: 0)])
        try await withGatewayFollowing(sockets, pub: pub, rep: rep) { fixture in
            let client = try fixture.client()
            func health() async throws -> (String?, [String: Any]) {
                let answer = try await client.ask(#"{"op":"health"}"#)
                let sources = (answer.data["realtime"] as? [String: Any])?["sources"] as? [[String: Any]]
                return (answer.data["status"] as? String, sources?.first ?? [:])
            }
            #expect(try await health().0 == "ok")

            sockets.hub.publish(LiveChanges(), sources: [source(failures: 2, lastErrorUnix: now - 1)])
            try await eventually("two failures in a row make it degraded") { try await health().0 == "degraded" }
            let (_, failing) = try await health()
            #expect(failing["consecutive_errors"] as? Int == 2)
            #expect(failing["last_error_unix"] as? Int == Int(now - 1))
            #expect(failing["recovered_unix"] is NSNull)

            sockets.hub.publish(LiveChanges(), sources: [source(failures: 0, lastErrorUnix: now - 1, recovered: now)])
            try await eventually("the recovery makes it ok") { try await health().0 == "ok" }
            let (_, recovered) = try await health()
            #expect(recovered["recovered_unix"] as? Int == Int(now))
            #expect(recovered["last_error"] as? String == "the body did not decode")
        }
    }

    /// `trip` of an added trip learnt from the real publisher, with its vehicle; then with the static service
    /// gone (rt_only); a trip nobody knows stays NOT_FOUND (STATIC_UNAVAILABLE once static is down).
    @Test func tripOfAnAddedTripFromTheRealPublisherAlsoWithTheStaticServiceDown() async throws {
        let pub = UniqueURL.ipc("gwt-hubpub")
        let rep = UniqueURL.ipc("gwt-hubrep")
        let sockets = try RealtimeSockets(listen: rep, publish: pub)
        defer { sockets.stop() }
        let at = SampleTimes.mondayEvening
        let now = Int64(Date().timeIntervalSince1970)
        var changes = LiveChanges()
        let instance = TripInstanceKey(tripId: "NEW.E2E.1", serviceDate: 20_251_222, startSecs: 72_300)
        changes.trips = [
            LiveFixtures.trip(
                "NEW.E2E.1", startSecs: 72_300, relationship: .new, routeId: "ST_T1",
                stops: [
                    ("20006019", at + 300, at + 360), ("20007004", at + 500, at + 560),
                ])
        ]
        changes.vehicles = [
            LiveVehicle(
                key: "vp/v1", source: "vp", entityId: "v1", trip: instance, tripId: "NEW.E2E.1", vehicleId: "V-NEW",
                label: "Extra service", position: LivePosition(lat: -33.88, lon: 151.2), timestamp: UInt64(now - 3))
        ]
        sockets.hub.publish(
            changes,
            sources: [
                LiveFixtures.freshSource(now: now), LiveFixtures.freshSource("vp", kind: .vehiclePositions, now: now),
            ])

        try await withGateway(configure: {
            $0.subscribeURL = pub
            $0.realtimeURL = rep
            $0.staticTimeout = .milliseconds(300)
        }) { fixture in
            try await eventually("the gateway holds the added trip") {
                sockets.hub.heartbeat()
                return fixture.realtime.read().usable && !fixture.realtime.read().state.trips.isEmpty
                    && !fixture.realtime.read().state.vehicles.isEmpty
            }
            let client = try fixture.client()
            let request = #"{"op":"trip","trip_id":"NEW.E2E.1","at":\#(at)}"#
            let added = try await client.ask(request)
            try #require(added.ok, "\(added)")
            #expect(added.meta["source"] as? String == "static+rt")
            #expect(added.data["status"] as? String == "added" && added.data["start_time"] as? String == "20:05:00")
            #expect((added.data["route"] as? [String: Any])?["short_name"] as? String == "T1")
            #expect((added.data["vehicle"] as? [String: Any])?["vehicle_id"] as? String == "V-NEW")
            let stops = added.list("stops")
            #expect(stops.map { $0["realtime_departure_unix"] as? Int } == [Int(at) + 360, Int(at) + 560])
            #expect(stops.allSatisfy { $0["scheduled_arrival_unix"] is NSNull && $0["status"] as? String == "added" })
            #expect(stops.first?["stop_name"] as? String == "Central Station, Platform 19")
            #expect(try await client.ask(#"{"op":"trip","trip_id":"NOBODY.1","at":\#(at)}"#).errorCode == "NOT_FOUND")

            fixture.stopStaticService()
            let alone = try await client.ask(request)
            try #require(alone.ok, "\(alone)")
            #expect(alone.meta["source"] as? String == "rt_only")
            #expect(alone.data["status"] as? String == "added")
            #expect((alone.data["vehicle"] as? [String: Any])?["label"] as? String == "Extra service")
            #expect(alone.list("stops").first?["platform"] as? String == "19")
            #expect(
                try await client.ask(#"{"op":"trip","trip_id":"NOBODY.1","at":\#(at)}"#).errorCode
                    == "STATIC_UNAVAILABLE")
        }
    }
}
