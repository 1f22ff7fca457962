// The refresher against a local HTTP server whose feed changes: a new version is renamed into place and a
// watching replica (ReloadableStore, what `serve --watch-interval` runs) swaps it in; a 304 imports nothing;
// HTML, a broken zip, a shrunken feed, a removed mode and server errors are refused with the serving database
// untouched and the reason in the state file.
import FeedRefresh
import Foundation
import HTTPFetching
import Logging
import StaticService
import Synchronization
import Testing
import TransitStore
import TransitTesting
import ZIPFoundation

@Suite struct RefreshEndToEndTests {
    /// What the fake server answers now: bytes with an ETag, or a status.
    final class Published: Sendable {
        let reply = Mutex<FakeHTTPServer.Reply>(.respond(status: 404))

        func publish(zip: [UInt8], etag: String) {
            reply.withLock { $0 = .respond(status: 200, headers: [("ETag", etag)], body: zip, chunked: true) }
        }

        func answer(_ request: FakeHTTPServer.Request) -> FakeHTTPServer.Reply {
            let reply = reply.withLock { $0 }
            if case .respond(200, let headers, _, _) = reply, let etag = headers.first?.1,
                request.header("If-None-Match") == etag
            {
                return .respond(status: 304, headers: [("ETag", etag)])
            }
            return reply
        }
    }

    /// A small feed: `trips` trips on a bus route and `trains` on a train route, all running every day of 2026;
    /// `tripPrefix` names the trips (a new timetable renames them).
    static func feedZip(in folder: TemporaryFolder, _ label: String, trips: Int, trains: Int, tripPrefix: String = "T")
        throws -> [UInt8]
    {
        var tripRows = ["route_id,service_id,trip_id"]
        var times = ["trip_id,stop_sequence,stop_id,arrival_time,departure_time"]
        for i in 0..<(trips + trains) {
            let id = "\(tripPrefix)\(i)"
            tripRows.append("\(i < trips ? "B1" : "R1"),ALL,\(id)")
            times.append("\(id),1,S1,08:\(String(format: "%02d", i % 60)):00,08:\(String(format: "%02d", i % 60)):00")
            times.append("\(id),2,S2,09:\(String(format: "%02d", i % 60)):00,09:\(String(format: "%02d", i % 60)):00")
        }
        let files = [
            "agency.txt":
                "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://a.example,Australia/Sydney\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,-33.88,151.20\nS2,Two,-33.80,151.10\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nB1,A,100,3\nR1,A,T1,2\n",
            "calendar.txt":
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + "ALL,1,1,1,1,1,1,1,20260101,20261231\n",
            "trips.txt": tripRows.joined(separator: "\n") + "\n",
            "stop_times.txt": times.joined(separator: "\n") + "\n",
        ]
        let source = try folder.writeFeed(label, files)
        let zip = folder.path("\(label).zip")
        try FileManager.default.zipItem(
            at: URL(fileURLWithPath: source), to: URL(fileURLWithPath: zip), shouldKeepParent: false)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip)))
    }

    @Test func aChangingFeedIsSwappedInAndBadVersionsAreRefused() async throws {
        let folder = try TemporaryFolder("refresh")
        let published = Published()
        let server = try await FakeHTTPServer.start { published.answer($0) }
        defer { Task { await server.shutdown() } }
        let db = folder.path("transit.db")
        let feeds = try RefreshConfiguration.feeds(
            arguments: ["city=" + server.url("/gtfs.zip")], headers: ["X-Test: yes"], prefixes: [], environment: [:])
        let refresher = FeedRefresher(
            configuration: RefreshConfiguration(databasePath: db, feeds: feeds), logger: LogRecorder().logger,
            now: { 1_772_000_000 }, serviceNow: { Date(timeIntervalSince1970: 1_772_400_000) })  // 2026-03-02

        // v1: the first import (nothing serves yet).
        published.publish(zip: try Self.feedZip(in: folder, "v1", trips: 40, trains: 10), etag: "\"v1\"")
        guard case .swapped(let v1) = await refresher.check() else {
            Issue.record("v1 not imported: \(RefreshState.load(forDatabase: db))")
            return
        }
        let replica = try ReloadableStore(path: db, connections: 1)
        #expect(replica.store.feedInfo().databaseVersion == v1 && replica.store.feedInfo().trips == 50)
        #expect(server.requests.last?.header("X-Test") == "yes")

        // Unchanged: a conditional GET answered 304, nothing imported.
        #expect(await refresher.check(force: true) == .unchanged)
        #expect(server.requests.last?.header("If-None-Match") == "\"v1\"")
        #expect(!replica.fileWasReplaced)

        // Refused versions: the serving file stays, the reason is in the state.
        let refusedCases: [(String, FakeHTTPServer.Reply, String)] = [
            (
                "html",
                .respond(
                    status: 200, headers: [("ETag", "\"h\"")], body: Array("<!DOCTYPE html><html><body>Sign in".utf8)),
                "HTML page"
            ),
            (
                "broken zip",
                .respond(
                    status: 200, headers: [("ETag", "\"b\"")],
                    body: [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 9, count: 300)), "import failed"
            ),
            (
                "shrunk",
                .respond(
                    status: 200, headers: [("ETag", "\"s\"")],
                    body: try Self.feedZip(in: folder, "s", trips: 10, trains: 10)), "--gtfs-max-shrink"
            ),
            (
                "no trains",
                .respond(
                    status: 200, headers: [("ETag", "\"n\"")],
                    body: try Self.feedZip(in: folder, "n", trips: 50, trains: 0)), "removes every train trip"
            ),
            ("server error", .respond(status: 503), "HTTP 503"),
        ]
        for (label, reply, reason) in refusedCases {
            published.reply.withLock { $0 = reply }
            _ = await refresher.check(force: true)
            let status = try #require(RefreshState.load(forDatabase: db)[feed: "city"])
            #expect(
                status.refresh.lastError?.contains(reason) == true,
                "\(label): \(status.refresh.lastError ?? "no error")")
            #expect(!replica.fileWasReplaced, "\(label) replaced the serving database")
            #expect(!FileManager.default.fileExists(atPath: db + ".candidate"))
        }
        let failing = try #require(RefreshState.load(forDatabase: db)[feed: "city"])
        #expect(
            failing.refresh.consecutiveFailures == 5 && failing.version == nil
                && failing.refresh.lastChange == 1_772_000_000)
        #expect(failing.refresh.nextCheck.map { $0 > 1_772_000_000 } == true)

        // A new timetable with new trip ids: swapped in, the replica reopens it.
        published.publish(
            zip: try Self.feedZip(in: folder, "v2", trips: 45, trains: 12, tripPrefix: "N"), etag: "\"v2\"")
        guard case .swapped(let v2) = await refresher.check(force: true) else {
            Issue.record("v2 not imported: \(RefreshState.load(forDatabase: db))")
            return
        }
        #expect(v2 != v1 && replica.fileWasReplaced)
        try replica.reopen()
        #expect(replica.store.feedInfo().databaseVersion == v2 && replica.store.feedInfo().trips == 57)
        let status = try #require(RefreshState.load(forDatabase: db)[feed: "city"])
        #expect(
            status.refresh.lastError == nil && status.refresh.consecutiveFailures == 0 && status.refresh.refused == nil)
        #expect(status.refresh.source == server.url("/gtfs.zip") && status.validators.etag == "\"v2\"")
        // Only the last good download is kept.
        let kept = try FileManager.default.contentsOfDirectory(atPath: RefreshState.folder(forDatabase: db) + "/feeds")
        #expect(kept == ["city.zip"])
    }

    @Test func aDownloadOverTheCapIsRefused() async throws {
        let folder = try TemporaryFolder("refresh")
        let published = Published()
        published.publish(zip: try Self.feedZip(in: folder, "v1", trips: 40, trains: 10), etag: "\"v1\"")
        let server = try await FakeHTTPServer.start { published.answer($0) }
        defer { Task { await server.shutdown() } }
        let db = folder.path("transit.db")
        let feeds = try RefreshConfiguration.feeds(
            arguments: [server.url("/gtfs.zip")], headers: [], prefixes: [], environment: [:])
        let refresher = FeedRefresher(
            configuration: RefreshConfiguration(databasePath: db, feeds: feeds, maxDownloadBytes: 500),
            logger: LogRecorder().logger, serviceNow: { Date(timeIntervalSince1970: 1_772_400_000) })
        #expect(await refresher.check() == .unchanged)
        #expect(!FileManager.default.fileExists(atPath: db))
        let status = try #require(RefreshState.load(forDatabase: db)[feed: "gtfs"])
        #expect(
            status.refresh.lastError?.contains("over the limit of 500 bytes") == true,
            "\(status.refresh.lastError ?? "")")
    }
}
