import Foundation
import Logging
import TransitModel
import TransitStore
@testable import RealtimeService

/// The bundled sample feed (data/sample-gtfs) imported once per test run into a temporary database.
enum SampleDatabase {
    /// 2025-12-22 (a Monday) 08:00 in Sydney (AEDT, UTC+11).
    static let mondayMorning: Int64 = 1_766_350_800
    /// The sample feed's agency zone.
    static let timeZone = "Australia/Sydney"

    static let folder: String = {
        let path = "/tmp/rts-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static let path: String = {
        let feed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/sample-gtfs").path
        let db = folder + "/sample.db"
        _ = try! GTFSImporter(options: ImportOptions(feeds: [.init(path: feed, name: "sample")], databasePath: db,
                                                     handleInterrupts: false)).run()
        return db
    }()

    static let store: StaticStore = try! StaticStore(path: path, connections: 2)
}

/// A logger that drops everything (the engine and the service take their logger from the caller).
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// A `ScheduleSource` answering straight from a store (no sockets).
struct StoreSchedules: ScheduleSource {
    let store: StaticStore
    func tripSchedules(_ query: TripSchedulesQuery) async throws -> TripSchedules {
        try store.tripSchedules(tripIds: query.tripIds, from: query.fromDate, through: query.toDate,
                                knownPatternIds: query.knownPatternIds, knownDatabaseVersion: query.knownDatabaseVersion,
                                descriptors: query.descriptors)
    }
    func feedInfo() async throws -> FeedInfo { store.feedInfo() }
}
