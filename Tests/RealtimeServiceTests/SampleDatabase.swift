import Foundation
import TransitModel
import TransitStore
import TransitTesting
@testable import RealtimeService

extension SampleDatabase {
    /// The sample database opened once per test run.
    static let store: StaticStore = try! StaticStore(path: SampleDatabase.path(), connections: 2)
}

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
