import GatewayProtocol
import Testing
import TransitModel

@testable import Gateway

/// The caches' byte bounds (GATEWAY.md §1 "caches", `--max-cache-bytes`): counted per entry as it is stored
/// and dropped, never past the bound, whatever the keys.
@Suite struct CacheBytesTests {
    private let t0 = ContinuousClock.now

    private func window(_ key: String, anchor: Int64 = 1000, rows: Int = 3) -> BoardWindow {
        let route = Route(routeId: "R", routeType: 3, mode: "bus", section: "R")
        let departures = (0..<rows).map { i in
            Departure(
                tripId: "\(key).\(i)", route: route, headsign: nil, stopId: key, stopSequence: 1, stopIndex: 0,
                serviceDate: 20_251_222, scheduledSecs: Int32(i * 60), scheduledUnix: anchor + Int64(i * 60))
        }
        let board = DepartureBoard(
            stopId: key, at: anchor, direction: .future, departures: departures, hasMoreFuture: true)
        return BoardWindow(stopId: key, anchor: anchor, fetchLimit: rows, board: board)
    }

    @Test func boardWindowsStayWithinTheirBytesLeastRecentlyUsedStopFirst() throws {
        let one = window("A").bytes
        // Room for three windows of this size, far fewer than the windows and stops bounds.
        let cache = BoardWindowCache(capacity: 100, maxWindows: 100, maxBytes: 3 * one + one / 2)
        #expect(cache.wantsVersionCheck(now: t0))
        cache.confirm(version: "v1", sentAt: t0)
        let generation = try #require(cache.generation(now: t0))
        for key in ["A", "B", "C"] { cache.store(window(key), generation: generation, now: t0) }
        #expect(cache.heldBytes == 3 * one)
        #expect(cache.window("A", now: t0) != nil)  // A is used: B is now the least recently used stop
        cache.store(window("D"), generation: generation, now: t0)
        #expect(cache.heldBytes == 3 * one)
        #expect(cache.window("B", now: t0) == nil)
        #expect(cache.window("A", now: t0) != nil && cache.window("D", now: t0) != nil)
        // Distinct long keys (what a client chooses) count too: a window of a 4 KiB key is bigger.
        let long = window(String(repeating: "x", count: 4096))
        #expect(long.bytes > one + 8192)
        cache.store(long, generation: generation, now: t0)
        #expect(cache.heldBytes <= 3 * one + one / 2)
        // A window larger than the whole bound is not kept.
        let tiny = BoardWindowCache(capacity: 100, maxBytes: one - 1)
        tiny.confirm(version: "v1", sentAt: t0)
        tiny.store(window("A"), generation: try #require(tiny.generation(now: t0)), now: t0)
        #expect(tiny.heldBytes == 0 && tiny.counts.windows == 0)
    }

    @Test func aVersionedCacheStartsOverPastItsBytes() throws {
        let board = BoardWindowCache()
        board.confirm(version: "v1", sentAt: t0)
        let generation = board.generation(now: t0)
        // Each entry counts its heap bytes (given) and its slot (added by the cache).
        let slot = VersionedCache<Int, [UInt8]>.slotBytes
        #expect(slot > 0)
        let cache = VersionedCache<Int, [UInt8]>(capacity: 1000, maxBytes: 1000 + 3 * slot)
        for key in 0..<4 { cache.store([1], for: key, bytes: 300, generation: generation, now: t0) }
        // The fourth would pass the bound: the cache started over with it.
        #expect(cache.count == 1 && cache.heldBytes == 300 + slot)
        cache.store([1], for: 3, bytes: 500, generation: generation, now: t0)
        #expect(cache.heldBytes == 500 + slot, "a replaced entry's bytes are given back")
        cache.store([1], for: 9, bytes: 1001 + 2 * slot, generation: generation, now: t0)
        #expect(cache.value(9, generation: generation, now: t0) == nil, "larger than the bound: not kept")
    }

    @Test func aGenerationalTableTurnsAtItsBytes() {
        var table = GenerationalTable<Int, String>(generationSize: 1000, generationBytes: 100)
        var dropped: GenerationalTable<Int, String>.Dropped = nil
        for i in 0..<9 { table.set(i, "v", bytes: 10, dropped: &dropped) }
        #expect(dropped == nil && table.bytes == 90)
        table.set(9, "v", bytes: 10, dropped: &dropped)
        #expect(dropped != nil, "100 bytes: the young generation turned old")
        for i in 10..<1000 {
            table.set(i, "v", bytes: 10, dropped: &dropped)
            #expect(table.bytes <= 200)
        }
        table.set(5000, "v", bytes: 30, dropped: &dropped)
        table.set(5000, "w", bytes: 10, dropped: &dropped)
        #expect(table.get(5000, dropped: &dropped) == "w")
    }

    @Test func theSplitOfMaxCacheBytesAddsUpToIt() {
        let parts = CacheBytes(total: 256 << 20)
        #expect(parts.boardWindows == 128 << 20)
        #expect(
            parts.boardWindows + parts.typicalDelays + parts.staticDetails + parts.staticAnswers + parts.staticResults
                == 256 << 20)
    }

    @Test func entryEstimatesFollowTheLayouts() {
        // Strings up to 15 UTF-8 bytes live inline; longer ones take a rounded allocation.
        #expect(EntryBytes.heap("200060") == 0)
        let long = String(repeating: "x", count: 40)
        #expect(EntryBytes.heap(long) >= 32 + 40 && EntryBytes.heap(long) % 16 == 0)
        // A trip's typical-delay list grows by its two arrays' strides a stop, at least.
        let trip = TripInstanceKey(tripId: "T1", serviceDate: 20_261_201)
        let perStop =
            TypicalDelayCache.bytes(of: trip, stops: 41) - TypicalDelayCache.bytes(of: trip, stops: 1)
        #expect(
            perStop >= 40 * (MemoryLayout<TypicalDelayCache.VisitKey?>.stride + MemoryLayout<TypicalDelay?>.stride))
        // A visit key counts its slot: both generations' dictionaries keep key and value at up to twice their size.
        let key = TypicalDelayCache.VisitKey(routeId: "R", stopId: "S", hour: 8, dayType: .weekday)
        #expect(TypicalDelayCache.bytes(of: key) >= 2 * MemoryLayout<TypicalDelayCache.VisitKey>.stride)
    }

    @Test func aKeptAnswerHoldsOnlyItsBytes() {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("a"); w.int(1)
        w.endObject()
        let kept = w.finishCompact()
        #expect(String(decoding: kept, as: UTF8.self) == "{\"a\":1}")
        #expect(kept.capacity < 64, "not the writer's 4,096")
    }
}
