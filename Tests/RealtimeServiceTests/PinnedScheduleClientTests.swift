import Foundation
import Testing
import TransitModel
import TransitTesting

@testable import RealtimeService
@testable import StaticService

/// The realtime service's static client over two in-process static replicas while a new import is rolled
/// out: schedules come from the old version until both replicas have the new one, then only from the new.
@Suite struct PinnedScheduleClientTests {
    @Test func schedulesComeFromOneVersionThroughARollingReimport() async throws {
        let folder = try TemporaryFolder("pinned-schedules")
        let dbs = ["a", "b"].map { folder.path + "/\($0).db" }
        for db in dbs { try FileManager.default.copyItem(atPath: try SampleDatabase.path(), toPath: db) }
        let newDB = folder.path + "/new.db"
        let newVersion = try runImport([.init(path: SampleDatabase.feedPath, name: "sample")], into: newDB)
            .databaseVersion
        let urls = [UniqueURL.ipc("pin-static-a"), UniqueURL.ipc("pin-static-b")]
        let servers = try zip(dbs, urls).map { db, url in
            try StaticServer(
                configuration: .init(databasePath: db, listenURL: url, contexts: 2), logger: quietLogger)
        }
        defer { for server in servers { server.stop() } }
        let oldVersion = servers[0].databaseVersion
        let client = try StaticScheduleClient(url: urls.joined(separator: ","), versionProbe: .milliseconds(50))
        defer { client.close() }
        let query = TripSchedulesQuery(tripIds: ["no-such-trip"], fromDate: 20251222, toDate: 20251223)
        func versions() async throws -> [String] {
            var seen: [String] = []
            for _ in 0..<6 {
                seen.append(try await client.feedInfo().databaseVersion)
                seen.append(try await client.tripSchedules(query).databaseVersion)
            }
            return seen
        }
        #expect(try await versions() == Array(repeating: oldVersion, count: 12))

        // Replica a reloads onto the new import: still the old version.
        try FileManager.default.copyItem(atPath: newDB, toPath: dbs[0] + ".new")
        #expect(rename(dbs[0] + ".new", dbs[0]) == 0)
        _ = try servers[0].reload().get()
        #expect(try await versions() == Array(repeating: oldVersion, count: 12))
        #expect(client.versionPin.pinned == oldVersion)

        // Replica b too: the client moves (the probe sees it within 50 ms), then only the new version.
        try FileManager.default.copyItem(atPath: newDB, toPath: dbs[1] + ".new")
        #expect(rename(dbs[1] + ".new", dbs[1]) == 0)
        _ = try servers[1].reload().get()
        #expect(try await eventually(timeout: .seconds(5)) { client.versionPin.pinned == newVersion })
        #expect(try await versions() == Array(repeating: newVersion, count: 12))
        #expect(client.versionPin.moves == 1)
    }
}
