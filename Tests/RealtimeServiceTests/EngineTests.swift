// The engine: bad input (empty, truncated, garbage or oversized bodies, bad entities) never crashes and keeps
// the last good state; schedules fetched once per trip and cached; a new static database resolves everything
// again.
import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeService

@Suite struct BadInputTests {
    typealias F = StateFixture

    /// A harness holding one good feed (T1 and T2), then `bad` bytes.
    private func afterGoodFeed(_ bad: [UInt8], maxFeedBytes: Int = GTFSRealtimeCodec.defaultMaxBytes) async throws -> (
        EngineHarness, LiveSourceStatus
    ) {
        let h = try EngineHarness(maxFeedBytes: maxFeedBytes)
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2"))]))
        h.clock.advance(30)
        await h.bytes(bad)
        let status = await h.status()
        // The last good state is kept and still served.
        #expect(h.hub.snapshot(.tripUpdates).map { snapshotTrips($0).count } == 2)
        #expect(status.updatesApplied == 1)
        #expect(status.errors == 1)
        #expect(status.lastErrorUnix == h.clock.now)
        return (h, status)
    }

    @Test func zeroByteBody() async throws {
        let (_, status) = try await afterGoodFeed([])
        #expect(status.lastError?.contains("empty") == true)
    }

    @Test func truncatedFeed() async throws {
        let good = GTFSRealtimeCodec.encode(
            F.feed([F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T3"))]))
        let (_, status) = try await afterGoodFeed(Array(good.prefix(good.count - 7)))
        #expect(status.lastError?.contains("truncated or invalid") == true)
    }

    @Test func garbageBytes() async throws {
        let (_, status) = try await afterGoodFeed([0xFF, 0xFE, 0x00, 0x13, 0x37, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(status.lastError?.hasPrefix("not a GTFS-Realtime FeedMessage") == true)
    }

    @Test func htmlErrorPageWithStatus200() async throws {
        let html = Array("<!DOCTYPE html>\n<html><body><h1>503 Service Unavailable</h1></body></html>".utf8)
        let (_, status) = try await afterGoodFeed(html)
        #expect(status.lastError?.contains("<!DOCTYPE html>") == true)
    }

    @Test func oversizeFeed() async throws {
        let big = GTFSRealtimeCodec.encode(F.feed((0..<50).map { F.entity("e\($0)", F.tripUpdate("T1")) }))
        let (_, status) = try await afterGoodFeed(big, maxFeedBytes: 512)
        #expect(status.lastError?.contains("too large") == true)
        #expect(status.lastError?.contains("512") == true)
    }

    /// A broken body that stays (an unchanged file, a 304 carrying the broken body's ETag) stays an error: each
    /// "not modified" is one more failure in the run, keeping the first error's message and time, never a
    /// recovery; the first feed that decodes and is applied ends the run.
    @Test func anUnchangedBrokenFeedStaysAnErrorUntilAGoodFeedIsApplied() async throws {
        let h = try EngineHarness()
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))], timestamp: UInt64(h.clock.now)))
        let good = GTFSRealtimeCodec.encode(F.feed([F.entity("a", F.tripUpdate("T1", delay: 90))]))
        h.clock.advance(30)
        let brokenAt = h.clock.now
        await h.bytes(Array(good.prefix(good.count - 7)))
        let firstError = try #require(await h.status().lastError)
        for poll in 1...2 {
            h.clock.advance(30)
            await h.engine.handle(.notModified(source: "tu", at: h.clock.now))
            let status = await h.status()
            #expect(status.consecutiveErrors == UInt64(1 + poll) && status.errors == UInt64(1 + poll))
            #expect(status.recoveredUnix == nil)
            #expect(status.lastError == firstError && status.lastErrorUnix == brokenAt)
            #expect(status.notModified == UInt64(poll))
        }
        // A failed fetch meanwhile leaves the broken body the one held: "not modified" is still a failure.
        h.clock.advance(30)
        await h.engine.handle(.failed(source: "tu", message: "cannot read x: a FIFO", at: h.clock.now))
        h.clock.advance(30)
        await h.engine.handle(.notModified(source: "tu", at: h.clock.now))
        #expect(await h.status().consecutiveErrors == 5 && h.hub.snapshot(.tripUpdates) != nil)

        h.clock.advance(30)
        let recoveredAt = h.clock.now
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1", delay: 120))], timestamp: UInt64(recoveredAt)))
        var status = await h.status()
        #expect(status.consecutiveErrors == 0 && status.recoveredUnix == recoveredAt)
        #expect(status.updatesApplied == 2)
        #expect(status.lastError == "cannot read x: a FIFO" && status.errors == 5)
        // "Not modified" now means the good feed: a success that keeps the recovery's time.
        h.clock.advance(30)
        await h.engine.handle(.notModified(source: "tu", at: h.clock.now))
        status = await h.status()
        #expect(status.consecutiveErrors == 0 && status.recoveredUnix == recoveredAt)
        #expect(status.lastSuccessUnix == h.clock.now)
        // After a failed fetch, "not modified" of a good feed is a recovery (that feed is still the one applied).
        h.clock.advance(30)
        await h.engine.handle(.failed(source: "tu", message: "HTTP 503 Service Unavailable", at: h.clock.now))
        h.clock.advance(30)
        await h.engine.handle(.notModified(source: "tu", at: h.clock.now))
        status = await h.status()
        #expect(status.consecutiveErrors == 0 && status.recoveredUnix == h.clock.now)
    }

    @Test func fetchFailureMessageIsKept() async throws {
        let h = try EngineHarness()
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        await h.engine.handle(.failed(source: "tu", message: "HTTP 401 Unauthorized", at: h.clock.now + 1))
        await h.engine.handle(.failed(source: "tu", message: "timed out after 8 s", at: h.clock.now + 2))
        let status = await h.status()
        #expect(status.errors == 2)
        #expect(status.lastError == "timed out after 8 s")
        #expect(h.hub.snapshot(.tripUpdates).map { snapshotTrips($0).count } == 1)
    }

    @Test func badEntitiesAreCountedAndTheRestApplied() async throws {
        let h = try EngineHarness()
        var feed = F.feed([
            F.entity("ok", F.tripUpdate("T1")),
            F.entity("unknown", F.tripUpdate("NOPE")),
            F.entity("absurd", F.tripUpdate("T2", delay: -200_000)),
            F.entity("ok", F.tripUpdate("T3")),  // duplicate entity id
            F.alert("lonely"),
        ])
        feed.entities[4].alert?.informedEntities = []  // an alert with no informed entity
        await h.feed(feed)
        let status = await h.status()
        #expect(status.drops["unknown_trip"] == 1)
        #expect(status.drops["absurd_delay"] == 1)
        #expect(status.drops["duplicate_entity_id"] == 1)
        #expect(status.drops["alert_without_informed_entity"] == 1)
        #expect(status.lastDrop != nil)
        #expect(status.entities == 1)
        #expect(h.hub.snapshot(.tripUpdates).map(snapshotTrips)?.map(\.instance.tripId) == ["T1"])
    }

    @Test func unknownSourceIsIgnored() async throws {
        let h = try EngineHarness()
        await h.engine.handle(.failed(source: "nobody", message: "x", at: 1))
        #expect(await h.status().errors == 0)
    }
}

@Suite struct ScheduleFetchTests {
    typealias F = StateFixture

    @Test func schedulesAreFetchedOncePerTrip() async throws {
        let h = try EngineHarness()
        await h.feed(
            F.feed([
                F.entity("a", F.tripUpdate("T1")), F.entity("b", F.tripUpdate("T2")),
                F.entity("c", F.tripUpdate("GONE")),
            ]))
        h.clock.advance(30)
        await h.feed(
            F.feed([
                F.entity("a", F.tripUpdate("T1", delay: 30)), F.entity("b", F.tripUpdate("T3")),
                F.entity("c", F.tripUpdate("GONE")),
            ]))
        // First update: all three in one bulk request; second: only the new T3 (GONE is known unknown).
        #expect(h.schedules.requests == [["T1", "T2", "GONE"], ["T3"]])
        #expect(await h.status().drops["unknown_trip"] == 2)
        // The second request named the pattern already held, so its answer left it out: T3 still resolves.
        let known = h.schedules.data.withLock { $0.known }
        #expect(known.map(\.0) == [[], [1]])
        #expect(known.map(\.1) == [nil, "db1"])
        #expect(h.hub.snapshot(.tripUpdates).map(snapshotTrips)?.map(\.instance.tripId) == ["T1", "T3"])
    }

    @Test func staticServiceDownCountsScheduleUnavailable() async throws {
        let h = try EngineHarness()
        h.schedules.data.withLock { $0.failing = true }
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        let status = await h.status()
        #expect(status.drops["schedule_unavailable"] == 1)
        #expect(status.lastDrop?.contains("static service") == true)
        #expect(status.errors == 0)  // the source itself is fine
        // The service comes back: the next update resolves.
        h.schedules.data.withLock { $0.failing = false }
        h.clock.advance(30)
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1", delay: 45))]))
        #expect(h.hub.snapshot(.tripUpdates).map(snapshotTrips)?.first?.stops.first?.departureDelay == 45)
    }

    @Test func newDatabaseVersionResolvesEverythingAgain() async throws {
        let h = try EngineHarness()
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        await h.engine.tick()
        #expect(await h.engine.databaseVersion == "db1")
        // A new import moves T1 to 09:00.
        h.schedules.data.withLock { d in
            d.version = "db2"
            d.trips["T1"]?.startSecs = 9 * 3600
        }
        h.sink.clear()
        h.clock.advance(61)
        await h.engine.tick()  // feed_info shows db2
        #expect(await h.engine.databaseVersion == "db2")
        let republished = h.sink.messages(.tripUpdates)
        #expect(republished.count == 1)
        guard case .tripUpdates(let batch) = republished.first?.payload else { Issue.record("no tu message"); return }
        #expect(batch.trips.first?.stops.first?.scheduledDeparture == F.dayUnix + 9 * 3600)
        #expect(h.schedules.requests.last == ["T1"])
        // Heartbeats carry the version.
        h.hub.heartbeat()
        guard case .heartbeat(let beat) = h.sink.messages(.heartbeat).last?.payload else {
            Issue.record("no hb"); return
        }
        #expect(beat.databaseVersion == "db2")
    }

    @Test func aTimetableThatRenamesItsTripsMatchesAgainAfterTheVersionMove() async throws {
        // The producer publishes a new timetable (issue 24): its realtime feed names trips N1 (was T1) before the
        // refresher has swapped the new database in. Once it is in, the next poll matches again, no restart.
        let h = try EngineHarness()
        let renamed = F.feed([F.entity("a", F.tripUpdate("N1", delay: 60))])
        await h.feed(renamed)
        await h.engine.tick()
        #expect((h.hub.snapshot(.tripUpdates).map(snapshotTrips) ?? []).isEmpty)
        #expect(await h.status().match?.tripUpdates.matched == 0)
        h.schedules.data.withLock { d in
            d.version = "db2"
            var trip = d.trips.removeValue(forKey: "T1")!
            trip.tripId = "N1"
            d.trips["N1"] = trip
        }
        h.clock.advance(61)
        await h.engine.tick()  // feed_info names db2: the move
        #expect(await h.engine.databaseVersion == "db2")
        h.clock.advance(30)
        await h.feed(F.feed([F.entity("a", F.tripUpdate("N1", delay: 60))], timestamp: UInt64(h.clock.now)))
        let trips = h.hub.snapshot(.tripUpdates).map(snapshotTrips) ?? []
        #expect(trips.map(\.instance.tripId) == ["N1"])
        #expect(trips.first?.stops.first?.departureDelay == 60)
        let match = await h.status().match
        #expect(match?.tripUpdates.considered == 1 && match?.tripUpdates.matched == 1)
    }

    @Test func newVersionSeenInABulkAnswerAlsoResolvesAgain() async throws {
        let h = try EngineHarness()
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))], timestamp: UInt64(F.now)))
        h.schedules.data.withLock { d in
            d.version = "db2"
            d.trips["T1"]?.startSecs = 9 * 3600
        }
        h.clock.advance(30)
        // The next feed names T2 (not cached): its answer says db2, so T1 is fetched and resolved again too.
        let tu = try EngineHarness.differential(
            F.feed([F.entity("b", F.tripUpdate("T2"))], timestamp: UInt64(F.now + 30)))
        await h.feed(tu)
        let trips = h.hub.snapshot(.tripUpdates).map(snapshotTrips) ?? []
        #expect(trips.first { $0.instance.tripId == "T1" }?.stops.first?.scheduledDeparture == F.dayUnix + 9 * 3600)
        #expect(trips.count == 2)
    }

    @Test func stalenessFlipIsPublished() async throws {
        let h = try EngineHarness()
        await h.feed(F.feed([F.entity("a", F.tripUpdate("T1"))]))
        await h.engine.tick()
        h.sink.clear()
        h.clock.advance(91)
        await h.engine.tick()
        let st = h.sink.messages(.sources)
        #expect(st.count == 1)
        guard case .sources(let list) = st.first?.payload else { Issue.record("no st"); return }
        #expect(list.first?.stale == true)
    }
}

extension EngineHarness {
    static func differential(_ feed: FeedMessage) throws -> FeedMessage {
        var copy = feed
        copy.header.incrementality = .differential
        return copy
    }
}

func snapshotTrips(_ snapshot: RealtimeSnapshot) -> [LiveTrip] {
    guard case .tripUpdates(let batch) = snapshot.payload else { return [] }
    return batch.trips.sorted { $0.instance.tripId < $1.instance.tripId }
}
