import Foundation
import StaticService
import Testing
import TransitModel
import TransitStore
import TransitTesting

/// SIGHUP's work (`reload`), called directly: a new import is served after it, queries on the old store
/// still work, and failures leave the old database serving.
@Suite struct ReloadTests {
    let service: ServiceFixture

    init() throws { service = try ServiceFixture() }

    private func stationName() throws -> String? {
        try service.result(.stop(StopQuery(stopId: "STA"))).stopResult?.stop.name
    }

    @Test func reimportIsServedAfterReload() throws {
        let oldVersion = service.server.databaseVersion
        let oldStore = service.server.stores.store
        try service.reimport(TestFeed(variant: 2))
        #expect(try stationName() == "Central Test Station", "nothing changes before the reload")

        let outcome = service.server.reload()
        let newVersion = try outcome.get()
        #expect(newVersion != oldVersion)
        #expect(try stationName() == "Central Renamed Station")
        #expect(try service.result(.feedInfo).feedInfo?.feeds.first?.version == "test-v2")
        #expect(try service.ask(.stop(StopQuery(stopId: "NEW"))).failure == nil)

        // A query holding the old store (as an in-flight request does) still runs on the old file.
        #expect(oldStore.databaseVersion == oldVersion)
        #expect(try oldStore.stop(id: "STA").stop.name == "Central Test Station")
        #expect(throws: StoreError.self) { try oldStore.stop(id: "NEW") }
    }

    @Test func reloadIfReplacedNoticesTheNewFileOnce() throws {
        #expect(!service.server.reloadIfReplaced())
        try service.reimport(TestFeed(variant: 2))
        #expect(service.server.reloadIfReplaced())
        #expect(try stationName() == "Central Renamed Station")
        #expect(!service.server.reloadIfReplaced())
    }

    @Test func failedImportLeavesTheOldDatabaseServing() throws {
        let version = service.server.databaseVersion
        var files = TestFeed(variant: 2).files
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nSTA,\"Broken quote,-33.8,151.2\n"
        let feed = try service.folder.writeFeed("broken", files)
        let error = #expect(throws: (any Error).self) {
            try GTFSImporter(
                options: ImportOptions(
                    feeds: [.init(path: feed)], databasePath: service.db, handleInterrupts: false)
            ).run()
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("stops.txt"))

        #expect(!service.server.reloadIfReplaced(), "the file was not replaced")
        #expect(try service.server.reload().get() == version)
        #expect(try stationName() == "Central Test Station")
    }

    @Test func unreadableReplacementKeepsTheOldStore() throws {
        let version = service.server.databaseVersion
        let garbage = service.folder.path("garbage.db")
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: garbage))
        #expect(rename(garbage, service.db) == 0)

        #expect(throws: StoreError.self) { try service.server.reload().get() }
        #expect(service.server.databaseVersion == version)
        #expect(try stationName() == "Central Test Station")
        #expect(service.log.all.contains { $0.level == .error && $0.message.contains("reopening") })

        // The watch tries a broken file once, not on every tick; a good file afterwards is picked up.
        #expect(service.server.reloadIfReplaced())
        #expect(!service.server.reloadIfReplaced())
        try service.reimport(TestFeed(variant: 2))
        #expect(service.server.reloadIfReplaced())
        #expect(try stationName() == "Central Renamed Station")
    }

    @Test func missingDatabaseAtStartIsAClearError() throws {
        let folder = try TemporaryFolder()
        let error = #expect(throws: StaticServerError.self) {
            try StaticServer(
                configuration: .init(databasePath: folder.path("none.db"), listenURL: "ipc://\(folder.path("s.sock"))"),
                logger: LogRecorder().logger)
        }
        #expect(error?.description.contains("none.db") == true)
    }

    @Test func corruptDatabaseAtStartIsAClearError() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("corrupt.db")
        try Data("SQLite format 3\u{0}".utf8 + [UInt8](repeating: 7, count: 4000)).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StaticServerError.self) {
            try StaticServer(
                configuration: .init(databasePath: path, listenURL: "ipc://\(folder.path("s.sock"))"),
                logger: LogRecorder().logger)
        }
        #expect(error?.description.contains("corrupt.db") == true)
    }
}
