import Foundation
import Logging
import TransitModel
import TransitStore
import TransitTesting

@testable import RealtimeService

extension SampleDatabase {
    /// The sample feed's agency zone.
    static let timeZone = "Australia/Sydney"
    /// The sample database opened once per test run.
    static let store: StaticStore = try! StaticStore(path: SampleDatabase.path(), connections: 2)
}

/// A logger that drops everything (the engine and the service take their logger from the caller).
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// A `ScheduleSource` answering straight from a store (no sockets).
struct StoreSchedules: ScheduleSource {
    let store: StaticStore
    func tripSchedules(_ query: TripSchedulesQuery) async throws -> TripSchedules {
        try store.tripSchedules(
            tripIds: query.tripIds, from: query.fromDate, through: query.toDate,
            knownPatternIds: query.knownPatternIds, knownDatabaseVersion: query.knownDatabaseVersion,
            descriptors: query.descriptors)
    }
    func feedInfo() async throws -> FeedInfo { store.feedInfo() }
}
