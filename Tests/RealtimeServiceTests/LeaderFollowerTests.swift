import Foundation
import Logging
import NNGKit
import Synchronization
import Testing
import TransitModel
import TransitTesting

@testable import RealtimeService

/// A standby records the leader's departures from its stream: the same trip seen before and after it left,
/// published by a leader, gives the follower's store the sample the leader's own store gets.
struct LeaderFollowerTests {
    @Test func theFollowerRecordsTheSameDeparturesAsTheLeader() async throws {
        let folder = try TemporaryFolder("follow")
        let clock = Mutex<Int64>(DelayTrips.at(stop: 0, plus: -600))
        let now: @Sendable () -> Int64 = { clock.withLock { $0 } }
        let leaderDelays = try TypicalDelays(path: folder.path("leader.db"), timeZone: "Australia/Sydney", clock: now)
        let followerDelays = try TypicalDelays(
            path: folder.path("follower.db"), timeZone: "Australia/Sydney", clock: now)
        let pub = "ipc://\(folder.path("pub"))"
        // The leader's hub on a PUB socket, on the test's clock.
        let publisher = try NNGPublisher(listeningOn: pub, sendBuffer: 64)
        defer { publisher.close() }
        let hub = RealtimeHub(
            sink: PublisherSink(publisher: publisher), epoch: 9, nowMs: { now() * 1000 }, delays: leaderDelays)
        let follower = try LeaderFollower(
            publishURL: pub, delays: followerDelays, nowMs: { now() * 1000 }, logger: Logger(label: "test"))
        follower.start()

        var changes = LiveChanges()
        changes.trips = [DelayTrips.trip([120, 120, 120])]
        let departure = changes.trips[0].stops[0].scheduledDeparture!
        clock.withLock { $0 = departure - 60 }
        // PUB drops what it sends before the subscriber is connected: send the first sight until it arrives
        // (each time a little different, or the hub would publish nothing new).
        var sent = 0
        let connected = try await eventually(timeout: .seconds(10), interval: .milliseconds(50)) {
            sent += 1
            changes.trips[0].vehicleLabel = "sight \(sent)"
            hub.publish(changes, sources: nil)
            return follower.appliedBatches > 0
        }
        try #require(connected)
        let before = follower.appliedBatches
        clock.withLock { $0 = departure + 200 }
        changes.trips[0].stops[0].predictedDeparture! += 1  // a new prediction after it left
        hub.publish(changes, sources: nil)
        let arrived = try await eventually(timeout: .seconds(10), interval: .milliseconds(20)) {
            follower.appliedBatches > before
        }
        try #require(arrived)
        #expect(leaderDelays.pendingCount == 1)
        #expect(followerDelays.pendingCount == leaderDelays.pendingCount)
        await follower.stop()  // writes and closes the follower's store
        #expect(throws: Never.self) { try leaderDelays.close() }
    }
}
