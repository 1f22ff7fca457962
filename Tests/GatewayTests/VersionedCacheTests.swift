import Foundation
import GatewayProtocol
import SQLiteKit
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// Static answers kept per query while the database version holds: used only under the version they were
/// fetched under, never stored while no version is confirmed, gone after a re-import; answers from the cache
/// are the same bytes as fresh ones.
@Suite struct VersionedCacheTests {
    private let t0 = ContinuousClock.now

    private func confirmed(_ board: BoardWindowCache, _ version: String, at offset: Duration) throws
        -> BoardWindowCache.Generation
    {
        #expect(board.wantsVersionCheck(now: t0 + offset))
        board.confirm(version: version, sentAt: t0 + offset)
        return try #require(board.generation(now: t0 + offset))
    }

    @Test func aValueIsUsedOnlyUnderTheGenerationItWasFetchedUnder() throws {
        let board = BoardWindowCache(capacity: 4, versionCheck: .seconds(1))
        let cache = VersionedCache<String, Int>(capacity: 10, lifetime: .seconds(60))
        // No version confirmed: nothing is kept.
        cache.store(1, for: "a", generation: board.generation(now: t0), now: t0)
        #expect(cache.count == 0)
        let v1 = try confirmed(board, "v1", at: .zero)
        cache.store(1, for: "a", generation: v1, now: t0)
        #expect(cache.value("a", generation: board.generation(now: t0), now: t0) == 1)
        #expect(cache.value("b", generation: board.generation(now: t0), now: t0) == nil)
        // Not confirmed for a whole check interval: not used.
        #expect(cache.value("a", generation: board.generation(now: t0 + .seconds(2)), now: t0 + .seconds(2)) == nil)
        // A new version: the old value is not used and is dropped.
        let v2 = try confirmed(board, "v2", at: .seconds(3))
        #expect(v2 != v1)
        #expect(cache.value("a", generation: v2, now: t0 + .seconds(3)) == nil)
        #expect(cache.count == 0)
        // A value fetched under v1 that arrives after v2 was confirmed is never used under v2.
        cache.store(1, for: "a", generation: v1, now: t0 + .seconds(3))
        #expect(cache.value("a", generation: v2, now: t0 + .seconds(3)) == nil)
        cache.store(2, for: "a", generation: v2, now: t0 + .seconds(3))
        #expect(cache.value("a", generation: v2, now: t0 + .seconds(3)) == 2)
        #expect(cache.counts == .init(hits: 2, misses: 4))
    }

    @Test func valuesExpireAndTheCacheIsBounded() throws {
        let board = BoardWindowCache(capacity: 4, versionCheck: .seconds(600))
        let cache = VersionedCache<Int, Int>(capacity: 3, lifetime: .seconds(10))
        let v1 = try confirmed(board, "v1", at: .zero)
        cache.store(0, for: 0, generation: v1, now: t0)
        #expect(
            cache.value(0, generation: v1, now: t0 + .milliseconds(4999)) == 0, "kept at least half of its lifetime")
        #expect(cache.value(0, generation: v1, now: t0 + .seconds(10)) == nil)
        for key in 1...3 { cache.store(key, for: key, generation: v1, now: t0) }
        #expect(cache.count == 3)
        cache.store(4, for: 4, generation: v1, now: t0)
        #expect(cache.count == 1, "emptied when full")
        #expect(cache.value(4, generation: v1, now: t0) == 4)
    }

    /// `stop` and `search` from the cache answer the same bytes as from the static service (apart from
    /// `elapsed_us`), and a new database version is seen within the version check.
    @Test func stopAndSearchAnswersFollowADatabaseVersionChange() async throws {
        let folder = try TemporaryFolder("versioned-cache")
        let renamed = folder.path("renamed.db")
        try FileManager.default.copyItem(atPath: try SampleDatabase.path(), toPath: renamed)
        do {
            let db = try Database(path: renamed)
            try db.exec("UPDATE stops SET name = 'Grand Central Renamed' WHERE stop_id = '200060'")
            try db.exec("UPDATE meta SET value = 'renamed-version' WHERE key = 'db_version'")
        }
        try await withGateway { fixture in
            let client = try fixture.client()
            let dispatcher = fixture.gateway.services.dispatcher
            let stopLine = #"{"id":1,"op":"stop","stop_id":"200060"}"#
            let searchLine = #"{"id":2,"op":"search","q":"central","limit":5}"#
            // The first answers may come before a version is confirmed (nothing kept): ask until one is a hit.
            var first = try await client.ask(stopLine)
            #expect(first.ok, "\(first)")
            #expect(
                try await eventually {
                    first = try await client.ask(stopLine)
                    return dispatcher.staticAnswers.counts.hits > 0
                })
            let hits = dispatcher.staticAnswers.counts.hits
            let again = try await client.ask(stopLine)
            #expect(dispatcher.staticAnswers.counts.hits == hits + 1)
            #expect(Self.withoutTiming(again) == Self.withoutTiming(first))
            #expect((again.data["stop"] as? [String: Any])?["name"] as? String == "Central Station")
            let search = try await client.ask(searchLine)
            let searchAgain = try await client.ask(searchLine)
            #expect(search.ok && Self.withoutTiming(search) == Self.withoutTiming(searchAgain))

            // A re-import: the static service now serves another database version.
            fixture.stopStaticService()
            try fixture.startStaticService(databasePath: renamed)
            #expect(
                try await eventually(timeout: .seconds(10)) {
                    let now = try await client.ask(stopLine)
                    return (now.data["stop"] as? [String: Any])?["name"] as? String == "Grand Central Renamed"
                })
            let found = try await client.ask(searchLine).list("stops")
            #expect(found.contains { $0["name"] as? String == "Grand Central Renamed" }, "\(found)")
        }
    }

    /// `alerts` keeps the stop it resolves, never the alerts: a realtime update shows at once.
    @Test func alertsOfAKeptStopFollowARealtimeUpdate() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            let dispatcher = fixture.gateway.services.dispatcher
            let at = SampleTimes.mondayEvening
            func alert(_ id: String) -> AlertRecord {
                AlertRecord(id: id, informedEntities: [AlertView.InformedEntity(stopId: "200060")])
            }
            view.replace(
                RealtimeState(alerts: [alert("a1")], sources: [RealtimeSourceStatus(name: "al", kind: .alerts)]))
            let line = #"{"op":"alerts","stop_id":"20006016","at":\#(at)}"#
            var seen: [String?] = []
            let kept = try await eventually {
                seen = try await client.ask(line).list("alerts").map { $0["id"] as? String }
                return dispatcher.staticResults.counts.hits > 0
            }
            #expect(kept)
            #expect(seen == ["a1"])
            view.replace(
                RealtimeState(
                    alerts: [alert("a1"), alert("a2")], sources: [RealtimeSourceStatus(name: "al", kind: .alerts)]))
            let hits = dispatcher.staticResults.counts.hits
            let after = try await client.ask(line)
            #expect(dispatcher.staticResults.counts.hits == hits + 1, "the stop came from the cache")
            #expect(Set(after.list("alerts").compactMap { $0["id"] as? String }) == ["a1", "a2"])
        }
    }

    /// The answer without `meta.elapsed_us`, for comparing a kept answer with a fresh one.
    static func withoutTiming(_ line: JSONLine) -> String {
        var object = line.object
        var meta = object["meta"] as? [String: Any] ?? [:]
        meta["elapsed_us"] = nil
        object["meta"] = meta
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
