import Foundation
import Logging
import ProcessSupport
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// The realtime subscriber against a fake publisher and REP speaking the contract (protocol/README.md
/// flows 3–4): late join, gaps, lost tails, epoch changes, silence and recovery, pushes to subscriptions.
@Suite struct RealtimeSubscriberTests {
    private let date: ServiceDate = 20_251_222
    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    private func trip(_ id: String) -> LiveTrip {
        LiveFixtures.trip(id, stops: [("s1", 1_766_394_000, 1_766_394_060), ("s2", 1_766_394_300, 1_766_394_360)])
    }

    private func tripIds(_ view: RealtimeView) -> Set<String> {
        Set(view.read().state.trips.keys.map(\.tripId))
    }

    /// A subscriber on `fake`, run for `body`, always stopped.
    private func withSubscriber(
        _ fake: FakeRealtimeService, silence: Duration = .seconds(5), _ body: (RealtimeView) async throws -> Void
    ) async throws {
        let view = RealtimeView(configured: true, silenceLimit: silence)
        let subscriber = try GatewayRealtimeSubscriber(
            consumer: GatewayLiveFeed(view: view), fence: view.fence,
            options: .init(
                subscribeURL: fake.pubURL, realtimeURL: fake.repURL, silenceLimit: silence,
                snapshotTimeout: .milliseconds(300), retryMin: .milliseconds(20), retryMax: .milliseconds(100)),
            logger: GatewayFixture.quietLogger)
        subscriber.start()
        do {
            try await body(view)
            await subscriber.stop()
        } catch {
            await subscriber.stop()
            throw error
        }
    }

    /// Heartbeats until the view is live (the SUB socket is connected and the snapshots applied).
    private func beatUntilLive(_ fake: FakeRealtimeService, _ view: RealtimeView) async throws {
        try await eventually("the view goes live") {
            fake.heartbeat()
            return view.read().status == .ok
        }
    }

    @Test func lateJoinTakesASnapshotThenFollowsTheStreamWithoutAnotherOne() async throws {
        let fake = try FakeRealtimeService()
        defer { fake.stop() }
        // Published before anyone listened: lost on the wire, but part of the state.
        fake.publishTrips([trip("A")])
        fake.publishTrips([trip("B")])
        fake.publishSources([LiveFixtures.freshSource(now: now)])
        try await withSubscriber(fake) { view in
            try await beatUntilLive(fake, view)
            #expect(tripIds(view) == ["A", "B"])
            #expect(view.read().sources.map(\.name) == ["tu"])
            #expect(view.publisherResidentBytes == FakeRealtimeService.residentBytes)  // for `stats`
            fake.publishTrips([trip("C")], removed: [TripInstanceKey(tripId: "A", serviceDate: date)])
            try await eventually("C arrives") { tripIds(view) == ["B", "C"] }
            fake.heartbeat()
            try await Task.sleep(for: .milliseconds(100))
            #expect(fake.snapshotRequests(.tripUpdates) == 1)
            #expect(fake.snapshotRequests(.vehicles) == 1 && fake.snapshotRequests(.alerts) == 1)
        }
    }

    /// Detours (`dt`) arrive by the same handshake: in the snapshot of a late join, then message by message.
    @Test func detoursFollowTheirTopic() async throws {
        let fake = try FakeRealtimeService()
        defer { fake.stop() }
        func detour(_ trip: String) -> LiveDetour {
            LiveDetour(
                key: "tu/M1/\(trip)", source: "tu", modificationsId: "M1", tripId: trip, serviceDates: [date],
                stops: [
                    LiveDetourStop(
                        stopId: "a", role: .detoured, originalSequence: 1, arrivalOffset: 0, departureOffset: 0)
                ])
        }
        fake.publishDetours([detour("A")])
        fake.publishSources([LiveFixtures.freshSource(now: now)])
        try await withSubscriber(fake) { view in
            try await beatUntilLive(fake, view)
            #expect(view.read().state.detours.map(\.tripId) == ["A"])
            #expect(view.read().state.detour(for: TripInstanceKey(tripId: "A", serviceDate: date)) != nil)
            fake.publishDetours([detour("B")], removed: ["tu/M1/A"])
            try await eventually("B replaces A") { view.read().state.detours.map(\.tripId) == ["B"] }
            #expect(fake.snapshotRequests(.detours) == 1)
        }
    }

    @Test func aGapOrALostTailTakesANewSnapshot() async throws {
        let fake = try FakeRealtimeService()
        defer { fake.stop() }
        fake.publishTrips([trip("A")])
        try await withSubscriber(fake) { view in
            try await beatUntilLive(fake, view)
            #expect(fake.snapshotRequests(.tripUpdates) == 1)

            // Message 2 is lost, 3 arrives: a gap, so a snapshot (with 2 in it).
            fake.publishTrips([trip("B")], send: false)
            fake.publishTrips([trip("C")])
            try await eventually("the gap is repaired") { tripIds(view) == ["A", "B", "C"] }
            #expect(fake.snapshotRequests(.tripUpdates) == 2)

            // The last message is lost and nothing follows it: the heartbeat shows it.
            fake.publishTrips([], removed: [TripInstanceKey(tripId: "A", serviceDate: date)], send: false)
            fake.heartbeat()
            try await eventually("the lost tail is repaired") { tripIds(view) == ["B", "C"] }
            #expect(fake.snapshotRequests(.tripUpdates) == 3)
            // Vehicles never lost anything: still the one snapshot.
            #expect(fake.snapshotRequests(.vehicles) == 1)
        }
    }

    @Test func aNewEpochResyncsEveryTopic() async throws {
        let fake = try FakeRealtimeService(epoch: 41)
        defer { fake.stop() }
        fake.publishTrips([trip("A")])
        try await withSubscriber(fake) { view in
            try await beatUntilLive(fake, view)
            let before = RealtimeTopic.stateful.map { fake.snapshotRequests($0) }
            // The publisher restarts with a state of its own.
            fake.restart(epoch: 42, trips: [trip("Z")], sources: [LiveFixtures.freshSource("tu2", now: now)])
            fake.heartbeat()
            try await eventually("the new state replaces the old") {
                tripIds(view) == ["Z"] && view.read().sources.map(\.name) == ["tu2"]
            }
            let after = RealtimeTopic.stateful.map { fake.snapshotRequests($0) }
            #expect(zip(before, after).allSatisfy { $0 + 1 == $1 }, "\(before) → \(after)")
            // Messages of the new epoch follow on.
            fake.publishTrips([trip("Y")])
            try await eventually("Y arrives") { tripIds(view) == ["Y", "Z"] }
        }
    }

    @Test func aFailingSnapshotIsRetriedAndThePreviousStateKept() async throws {
        let fake = try FakeRealtimeService()
        defer { fake.stop() }
        fake.publishTrips([trip("A")])
        try await withSubscriber(fake) { view in
            try await beatUntilLive(fake, view)
            fake.setAnswering(false)
            fake.publishTrips([trip("B")], send: false)
            fake.publishTrips([trip("C")])
            // The snapshot times out: the old state stays in use meanwhile.
            try await Task.sleep(for: .milliseconds(400))
            fake.heartbeat()
            #expect(tripIds(view) == ["A"])
            fake.setAnswering(true)
            try await eventually("the retry succeeds") { tripIds(view) == ["A", "B", "C"] }
        }
    }

    @Test func silenceMeansStaticOnlyAndAReturningPublisherIsUsedAgain() async throws {
        let fake = try FakeRealtimeService()
        let (pub, rep) = (fake.pubURL, fake.repURL)
        // T1.WKD.1.1940 leaves Central P17 (seq 6) at 20:15 on the sample Monday: make it 2 minutes late.
        let at = SampleTimes.mondayEvening
        let late = LiveFixtures.trip(
            "T1.WKD.1.1940", routeId: "ST_T1",
            stops: [
                ("20006017", at + 900, at + 1020), ("21351004", at + 1800, at + 1920),
            ], firstSequence: 6)
        fake.publishTrips([late])
        fake.publishSources([LiveFixtures.freshSource(now: now)])
        try await withGateway(configure: {
            $0.subscribeURL = pub
            $0.realtimeURL = rep
            $0.realtimeSilence = .milliseconds(600)
            $0.realtimeTimeout = .milliseconds(300)
        }) { fixture in
            let view = fixture.realtime
            let client = try fixture.client()
            let request = #"{"op":"departures","stop_id":"20006017","at":\#(at),"limit":1}"#
            try await beatUntilLive(fake, view)
            let live = try await client.ask(request)
            #expect(live.meta["source"] as? String == "static+rt" && live.meta["stale"] as? Bool == false, "\(live)")
            #expect(live.list("departures").first?["delay_s"] as? Int == 120)

            // Silent (the service is gone): static departures, stale, never an error.
            fake.stop()
            try await Task.sleep(for: .milliseconds(800))
            let silent = try await client.ask(request)
            #expect(silent.ok)
            #expect(silent.meta["source"] as? String == "static_only" && silent.meta["stale"] as? Bool == true)
            #expect(silent.list("departures").first?["delay_s"] is NSNull)
            #expect(
                (try await client.ask(#"{"op":"health"}"#).data["realtime"] as? [String: Any])?["status"] as? String
                    == "silent")

            // It comes back (a new process at the same URLs): used again without restarting the gateway.
            let back = try FakeRealtimeService(epoch: 9, pubURL: pub, repURL: rep)
            defer { back.stop() }
            var later = late
            later.stops[0].predictedDeparture = at + 1200
            back.publishTrips([later])
            back.publishSources([LiveFixtures.freshSource(now: now)])
            try await beatUntilLive(back, view)
            // The new epoch's heartbeat can arrive before its snapshot is applied: wait for the new delay.
            try await eventually("the returning publisher's state is served") {
                let again = try await client.ask(request)
                return again.meta["source"] as? String == "static+rt"
                    && again.list("departures").first?["delay_s"] as? Int == 300
            }
        }
    }

    @Test func allSourcesStaleMeansStaticOnly() async throws {
        let fake = try FakeRealtimeService()
        defer { fake.stop() }
        let at = SampleTimes.mondayEvening
        fake.publishTrips([
            LiveFixtures.trip(
                "T1.WKD.1.1940",
                stops: [
                    ("20006017", at + 900, at + 1020), ("21351004", at + 1800, at + 1920),
                ], firstSequence: 6)
        ])
        var stale = LiveFixtures.freshSource(now: now)
        stale.stale = true
        fake.publishSources([stale])
        try await withGateway(configure: {
            $0.subscribeURL = fake.pubURL
            $0.realtimeURL = fake.repURL
        }) { fixture in
            try await eventually("heard") {
                fake.heartbeat()
                return fixture.realtime.read().status == .ok
            }
            let answer = try await fixture.client().ask(
                #"{"op":"departures","stop_id":"20006017","at":\#(at),"limit":1}"#)
            #expect(answer.meta["source"] as? String == "static_only" && answer.meta["stale"] as? Bool == true)
            #expect(answer.list("departures").first?["status"] as? String == "scheduled")
        }
    }

    @Test func aSubscriptionIsPushedTheBoardAPubMessageChanged() async throws {
        let fake = try FakeRealtimeService()
        defer { fake.stop() }
        fake.publishSources([LiveFixtures.freshSource(now: now)])
        try await withGateway(configure: {
            $0.subscribeURL = fake.pubURL
            $0.realtimeURL = fake.repURL
            $0.subscriptionInterval = .milliseconds(200)
            $0.realtimeSilence = .milliseconds(1500)
            // The board is at the gateway's now: pinned, so that the next departures (and whether the delayed
            // first one stays among the ten) do not depend on the time of day.
            $0.clock = ServiceClock(start: Double(SampleTimes.mondayEvening), rate: 0)
        }) { fixture in
            try await beatUntilLive(fake, fixture.realtime)
            let client = try fixture.client()
            try client.sendLines([#"{"id":1,"op":"subscribe","topic":"departures","stop_id":"200060","limit":10}"#])
            #expect(try JSONLine(try await client.readLine()).ok)
            let first = try JSONLine(try await client.readLine())
            #expect(first.event == "departures" && first.meta["source"] as? String == "static+rt")
            let firstRow = try #require(first.list("departures").first)
            let tripId = try #require(firstRow["trip_id"] as? String)
            let scheduled = Int64(try #require(firstRow["scheduled_unix"] as? Int))
            let sequence = UInt32(try #require(firstRow["stop_sequence"] as? Int))
            let stopId = try #require(firstRow["stop_id"] as? String)
            let start = (firstRow["start_time"] as? String).flatMap { text -> Int32? in
                let p = text.split(separator: ":").compactMap { Int32($0) }
                return p.count == 3 ? p[0] * 3600 + p[1] * 60 + p[2] : nil
            }
            let date = ServiceDate(try #require(firstRow["service_date"] as? String))!

            // A burst of updates to the first row's trip: one or two events, the last with the final delay.
            for delay in [60, 90, 120, 150, 180] as [Int64] {
                fake.publishTrips([
                    LiveFixtures.trip(
                        tripId, date: date, startSecs: start,
                        stops: [
                            (stopId, scheduled, scheduled + delay), ("next", scheduled + 600, scheduled + 600 + delay),
                        ], firstSequence: sequence)
                ])
            }
            var events: [JSONLine] = []
            while events.last.map({ row(of: $0, tripId)?["delay_s"] as? Int != 180 }) ?? true {
                events.append(try JSONLine(try await client.readLine(timeout: .seconds(3))))
            }
            #expect(events.allSatisfy { $0.event == "departures" && $0.object["sub"] as? Int == 1 })
            #expect(events.count <= 3, "bursts are coalesced: \(events.count) events")
            #expect(row(of: events.last!, tripId)?["status"] as? String == "late")

            // A change at another stop pushes nothing.
            fake.publishTrips([trip("elsewhere")])
            let more = try? await client.readLine(timeout: .milliseconds(600))
            #expect(more == nil, "\(more ?? "")")

            // The publisher falls silent: the board loses its predictions, and that is pushed too.
            let silent = try JSONLine(try await client.readLine(timeout: .seconds(3)))
            #expect(silent.event == "departures" && silent.meta["source"] as? String == "static_only")
            #expect(silent.meta["stale"] as? Bool == true)
            #expect(row(of: silent, tripId)?["status"] as? String == "scheduled")
        }
    }

    private func row(of event: JSONLine, _ tripId: String) -> [String: Any]? {
        event.list("departures").first { $0["trip_id"] as? String == tripId }
    }

    @Test func vehiclesAskTheRealtimeServiceWhenTheViewIsNotLive() async throws {
        let fake = try FakeRealtimeService()
        defer { fake.stop() }
        fake.publishVehicles([
            LiveVehicle(
                key: "vp/9", source: "vp", entityId: "9", tripId: "T1.WKD.1.1940", routeId: "ST_T1", vehicleId: "V9",
                position: LivePosition(lat: -33.88, lon: 151.2))
        ])
        // A PUB URL where nothing publishes: the view is never live; the REP is the fake's.
        try await withGateway(configure: {
            $0.subscribeURL = UniqueURL.ipc("gwt-nopub")
            $0.realtimeURL = fake.repURL
            $0.realtimeTimeout = .milliseconds(300)
        }) { fixture in
            let client = try fixture.client()
            let vehicles = try await client.ask(#"{"op":"vehicles","route_id":"ST_T1"}"#)
            #expect(vehicles.ok, "\(vehicles)")
            #expect(vehicles.list("vehicles").map { $0["vehicle_id"] as? String } == ["V9"])
            #expect(vehicles.list("vehicles").first?["lat"] as? Double == -33.88)
            let none = try await client.ask(#"{"op":"vehicles","route_id":"XX"}"#)
            #expect(none.errorCode == "NOT_FOUND")
            fake.setAnswering(false)
            let down = try await client.ask(#"{"op":"vehicles","route_id":"ST_T1"}"#)
            #expect(down.errorCode == "REALTIME_UNAVAILABLE")
            fake.setAnswering(true)
        }
    }
}

/// Polls `condition` every 20 ms until it holds; fails the test after `timeout`.
func eventually(
    _ what: String, timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async throws {
    guard try await TransitTesting.eventually(timeout: timeout, interval: .milliseconds(20), condition) else {
        Issue.record("timed out waiting until \(what)")
        throw EventuallyTimedOut()
    }
}

struct EventuallyTimedOut: Error {}
