// A real file source polled into the engine: a truncated TripUpdates.pb left in place stays an error (the
// file fetcher answers "not modified" for it, which used to count as a recovery); a good file recovers it.
import Foundation
import GTFSRealtime
import ProcessSupport
import RealtimeSources
import Testing
import TransitTesting

@testable import RealtimeService

@Suite struct FileSourceHealthTests {
    typealias F = StateFixture

    @Test(.timeLimit(.minutes(1))) func aTruncatedFileLeftInPlaceStaysAnErrorUntilAGoodFileArrives() async throws {
        let folder = try TemporaryFolder("health")
        let path = folder.path("TripUpdates.pb")
        let h = try EngineHarness()
        let engine = h.engine
        let clock = h.clock
        let good = GTFSRealtimeCodec.encode(F.feed([F.entity("a", F.tripUpdate("T1"))], timestamp: UInt64(F.now)))
        try write(Array(good.prefix(good.count - 7)), to: path)
        let source = SourceConfig(
            name: "tu", kind: .auto, location: .file(path: path), pollInterval: .milliseconds(20))
        // The pollers' wall clock runs from the engine's frozen time (fetch times land a few seconds at most
        // after it, whatever the machine's speed).
        let group = try SourceGroup(
            config: RealtimeConfig(sources: [source], dailyRequestBudget: Int.max, maxRequestsPerSecond: 1000),
            options: PollingOptions(clock: ServiceClock(start: Double(F.now))), logger: quietLogger
        ) { event in
            await engine.handle(FeedEvent(event, now: clock.now))
        }
        group.start()
        // The truncated file once, then "not modified" polls of it: still failing, never recovered.
        let failing = await eventually(timeout: .seconds(20)) { await h.status().consecutiveErrors >= 4 }
        let broken = await h.status()
        #expect(failing, "\(broken)")
        #expect(broken.recoveredUnix == nil && broken.updatesApplied == 0 && broken.notModified >= 3)
        #expect(broken.lastError?.contains("truncated or invalid") == true, "\(broken.lastError ?? "nil")")
        let firstErrorAt = try #require(broken.lastErrorUnix)
        #expect(broken.errors == broken.consecutiveErrors)

        // A good file replaces it: applied, recovered, the first error kept with its time.
        let temporary = path + ".tmp"
        try write(good, to: temporary)
        try #require(rename(temporary, path) == 0)
        let recovered = await eventually(timeout: .seconds(20)) { await h.status().updatesApplied == 1 }
        await group.stop()
        let status = await h.status()
        #expect(recovered, "\(status)")
        #expect(status.consecutiveErrors == 0)
        #expect(status.recoveredUnix != nil && status.recoveredUnix! >= firstErrorAt)
        #expect(status.lastError == broken.lastError && status.lastErrorUnix == firstErrorAt)
        #expect(h.hub.snapshot(.tripUpdates).map { snapshotTrips($0).count } == 1)
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
