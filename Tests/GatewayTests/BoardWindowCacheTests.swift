import Testing
import TransitModel

@testable import Gateway

/// The board window cache: used only under a recently confirmed database version, emptied by a new one,
/// least recently used stop dropped first, never storing a window fetched under another version.
@Suite struct BoardWindowCacheTests {
    private let t0 = ContinuousClock.now

    private func window(_ stopId: String, anchor: Int64 = 1000) -> BoardWindow {
        let route = Route(routeId: "R", routeType: 3, mode: "bus", section: "R")
        let rows = (0..<3).map { i in
            Departure(
                tripId: "\(stopId).\(i)", route: route, headsign: nil, stopId: stopId, stopSequence: 1, stopIndex: 0,
                serviceDate: 20_251_222, scheduledSecs: Int32(i * 60), scheduledUnix: anchor + Int64(i * 60))
        }
        let board = DepartureBoard(
            stopId: stopId, at: anchor, direction: .future, departures: rows, hasMoreFuture: true)
        return BoardWindow(stopId: stopId, anchor: anchor, fetchLimit: 3, board: board)
    }

    private func confirmed(_ cache: BoardWindowCache, _ version: String, at offset: Duration) {
        #expect(cache.wantsVersionCheck(now: t0 + offset))
        cache.confirm(version: version, sentAt: t0 + offset)
    }

    /// `confirm` says when a version replaced another (the gateway then also drops the trips it holds), not
    /// for the first version, an unchanged one or an answer older than the last confirmation.
    @Test func confirmSaysWhenTheVersionMoved() {
        let cache = BoardWindowCache(capacity: 4, versionCheck: .seconds(1))
        #expect(!cache.confirm(version: "v1", sentAt: t0), "the first version replaces none")
        #expect(!cache.confirm(version: "v1", sentAt: t0 + .seconds(1)))
        #expect(!cache.confirm(version: "v2", sentAt: t0 + .milliseconds(500)), "older than the last confirmation")
        #expect(cache.confirm(version: "v2", sentAt: t0 + .seconds(2)))
    }

    @Test func aStoredWindowIsAHitWhileTheVersionIsConfirmed() throws {
        let cache = BoardWindowCache(capacity: 4, versionCheck: .seconds(1))
        // Nothing is stored before a version is confirmed.
        #expect(cache.generation(now: t0) == nil)
        confirmed(cache, "v1", at: .zero)
        let generation = try #require(cache.generation(now: t0))
        cache.store(window("A"), generation: generation, now: t0)
        #expect(cache.window("A", now: t0 + .milliseconds(10))?.rows.count == 3)
        #expect(cache.window("B", now: t0 + .milliseconds(10)) == nil)
        // Half the check interval on, a check is due; meanwhile the window is still used.
        #expect(!cache.wantsVersionCheck(now: t0 + .milliseconds(400)))
        #expect(cache.wantsVersionCheck(now: t0 + .milliseconds(600)))
        #expect(!cache.wantsVersionCheck(now: t0 + .milliseconds(610)), "one check at a time")
        #expect(cache.window("A", now: t0 + .milliseconds(900)) != nil)
        // Not confirmed for a whole interval (the check failed): not used.
        cache.checkFailed()
        #expect(cache.window("A", now: t0 + .milliseconds(1000)) == nil)
        // The same version confirmed again: used again.
        confirmed(cache, "v1", at: .milliseconds(1100))
        #expect(cache.window("A", now: t0 + .milliseconds(1200)) != nil)
    }

    @Test func aNewVersionDropsEveryWindow() throws {
        let cache = BoardWindowCache(capacity: 4, versionCheck: .seconds(1))
        confirmed(cache, "v1", at: .zero)
        let old = try #require(cache.generation(now: t0))
        cache.store(window("A"), generation: old, now: t0)
        confirmed(cache, "v2", at: .milliseconds(600))
        #expect(cache.window("A", now: t0 + .milliseconds(700)) == nil)
        #expect(cache.counts.stops == 0)
        // A window fetched under v1 that arrives after v2 was seen is not kept.
        cache.store(window("A"), generation: old, now: t0 + .milliseconds(700))
        #expect(cache.window("A", now: t0 + .milliseconds(710)) == nil)
        // An answer older than the last confirmation changes nothing (v1 does not come back).
        #expect(cache.wantsVersionCheck(now: t0 + .milliseconds(1200)))
        cache.confirm(version: "v1", sentAt: t0 + .milliseconds(500))
        let current = try #require(cache.generation(now: t0 + .milliseconds(1200)))
        cache.store(window("B"), generation: current, now: t0 + .milliseconds(1200))
        #expect(cache.window("B", now: t0 + .milliseconds(1300)) != nil)
    }

    @Test func theLeastRecentlyUsedStopIsDroppedFirst() throws {
        let cache = BoardWindowCache(capacity: 2, versionCheck: .seconds(60))
        confirmed(cache, "v1", at: .zero)
        let generation = try #require(cache.generation(now: t0))
        cache.store(window("A"), generation: generation, now: t0)
        cache.store(window("B"), generation: generation, now: t0)
        _ = cache.window("A", now: t0)  // A is now more recent than B
        cache.store(window("C"), generation: generation, now: t0)
        #expect(cache.window("A", now: t0) != nil)
        #expect(cache.window("B", now: t0) == nil)
        #expect(cache.window("C", now: t0) != nil)
        #expect(cache.counts == BoardWindowCache.Counts(hits: 0, misses: 0, evictions: 1, stops: 2, windows: 2))
        // Replacing a stop's window evicts nothing.
        cache.store(window("C", anchor: 5000), generation: generation, now: t0)
        #expect(cache.window("C", now: t0)?.anchor == 5000)
        #expect(cache.counts.evictions == 1)
    }

    @Test func aStopKeepsWindowsAtSeveralTimesAndPicksTheOneHoldingTheMostRowsFromT() throws {
        let cache = BoardWindowCache(capacity: 2, windowsPerStop: 2, versionCheck: .seconds(60))
        confirmed(cache, "v1", at: .zero)
        let generation = try #require(cache.generation(now: t0))
        cache.store(window("A", anchor: 1000), generation: generation, now: t0)
        cache.store(window("A", anchor: 5000), generation: generation, now: t0 + .milliseconds(1))
        // Rows at 1000, 1060, 1120 and 5000, 5060, 5120.
        #expect(cache.window("A", from: 1060, now: t0 + .milliseconds(2)).best?.anchor == 1000)
        #expect(cache.window("A", from: 5000, now: t0 + .milliseconds(2)).best?.anchor == 5000)
        #expect(cache.window("A", from: 999, now: t0 + .milliseconds(2)).best == nil, "no window starts before")
        #expect(cache.window("A", from: 999, now: t0 + .milliseconds(2)).latest?.anchor == 5000)
        // A third window drops the stop's least recently used one (5000: 1000 was used last, above).
        _ = cache.window("A", from: 1000, now: t0 + .milliseconds(3))
        cache.store(window("A", anchor: 9000), generation: generation, now: t0 + .milliseconds(4))
        #expect(cache.window("A", from: 1000, now: t0 + .milliseconds(5)).best?.anchor == 1000)
        #expect(
            cache.window("A", from: 5000, now: t0 + .milliseconds(5)).best == nil,
            "5000 was dropped (1000's end before)")
        #expect(cache.window("A", from: 9000, now: t0 + .milliseconds(5)).best?.anchor == 9000)
        // Storing a window again at the same anchor replaces it; stops are still counted once.
        cache.store(window("A", anchor: 9000), generation: generation, now: t0 + .milliseconds(6))
        #expect(cache.counts == BoardWindowCache.Counts(hits: 0, misses: 0, evictions: 0, stops: 1, windows: 2))
    }

    @Test func aBusyStopHoldsManyWindowsWithinTheTotal() throws {
        let cache = BoardWindowCache(capacity: 10, windowsPerStop: 8, maxWindows: 4, versionCheck: .seconds(60))
        confirmed(cache, "v1", at: .zero)
        let generation = try #require(cache.generation(now: t0))
        var step = 0
        func store(_ stop: String, _ anchor: Int64) {
            step += 1
            cache.store(window(stop, anchor: anchor), generation: generation, now: t0 + .milliseconds(step))
        }
        store("quiet", 1000)
        store("other", 1000)
        store("busy", 1000)
        store("busy", 5000)
        #expect(cache.counts.windows == 4)
        // A fifth window in all: the busy stop's third takes the place of the least recently used stop's only one.
        store("busy", 9000)
        #expect(cache.counts == BoardWindowCache.Counts(hits: 0, misses: 0, evictions: 1, stops: 2, windows: 4))
        #expect(cache.window("quiet", now: t0 + .milliseconds(10)) == nil)
        #expect(cache.window("other", now: t0 + .milliseconds(10)) != nil)
        for anchor in [1000, 5000, 9000] as [Int64] {
            #expect(cache.window("busy", from: anchor, now: t0 + .milliseconds(11)).best?.anchor == anchor)
        }
        // A stop whose turn it is gives up its least recently used window, not all of them.
        store("other", 20000)
        #expect(cache.counts.windows == 4)
        #expect(cache.window("busy", from: 1000, now: t0 + .milliseconds(20)).best == nil, "busy's oldest went")
        #expect(cache.window("busy", from: 9000, now: t0 + .milliseconds(20)).best?.anchor == 9000)
        #expect(cache.window("other", from: 20000, now: t0 + .milliseconds(20)).best?.anchor == 20000)
        // A new version empties the cache and its count.
        cache.versionMoved(to: "v2")
        #expect(cache.counts.windows == 0 && cache.counts.stops == 0)
    }

    @Test func aWindowOutlivingItsLifetimeIsNotUsed() throws {
        let cache = BoardWindowCache(capacity: 2, versionCheck: .seconds(60), lifetime: .seconds(10))
        confirmed(cache, "v1", at: .zero)
        cache.store(window("A"), generation: try #require(cache.generation(now: t0)), now: t0)
        #expect(cache.window("A", now: t0 + .milliseconds(4999)) != nil, "kept at least half of its lifetime")
        #expect(cache.window("A", now: t0 + .seconds(10)) == nil)
    }

    /// Windows stored in the same instant (a gateway's first minute) do not all run out in the same instant:
    /// each keeps for a time drawn from the second half of the lifetime, so their refetches spread out.
    @Test func windowsStoredTogetherExpireOverTheSecondHalfOfTheirLifetime() throws {
        let cache = BoardWindowCache(
            capacity: 400, windowsPerStop: 1, maxWindows: 400, versionCheck: .seconds(600), lifetime: .seconds(100))
        confirmed(cache, "v1", at: .zero)
        let generation = try #require(cache.generation(now: t0))
        let stops = (0..<400).map { "S\($0)" }
        for stop in stops { cache.store(window(stop), generation: generation, now: t0) }
        func held(at offset: Duration) -> Int {
            stops.filter { cache.window($0, now: t0 + offset) != nil }.count
        }
        #expect(held(at: .milliseconds(49_999)) == 400)
        // A quarter of the spread gone, then half, then three quarters: none of the three is near 0 or 400.
        let quarters = [held(at: .milliseconds(62_500)), held(at: .seconds(75)), held(at: .milliseconds(87_500))]
        #expect((240...360).contains(quarters[0]), "\(quarters)")
        #expect((140...260).contains(quarters[1]), "\(quarters)")
        #expect((40...160).contains(quarters[2]), "\(quarters)")
        #expect(held(at: .seconds(100)) == 0)
    }

    @Test func capacityZeroIsOff() {
        let cache = BoardWindowCache(capacity: 0)
        #expect(!cache.enabled)
        #expect(!cache.wantsVersionCheck(now: t0))
    }
}
