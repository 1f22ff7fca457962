// Trip updates without trip_id through the engine and the real static store: the fixture feed with every
// scheduled trip renamed to route_id, direction_id, start_date and start_time (what other encoders may
// send) resolves to the same instances and predictions as with trip_id.
import Foundation
import GTFSRealtime
import Testing
import TransitModel
import TransitTesting

@testable import RealtimeFixtures
@testable import RealtimeService

@Suite struct TripStartEndToEndTests {
    let at = SampleTimes.mondayMorning

    private func resolve(_ feed: FeedMessage) async throws -> (trips: [LiveTrip], status: LiveSourceStatus) {
        let hub = RealtimeHub(sink: RecordingSink())
        let now = at
        let engine = try RealtimeEngine(
            sources: [SourceSettings(name: "tu", timeZone: SampleDatabase.timeZone)], hub: hub,
            schedules: StoreSchedules(store: SampleDatabase.store), timeZone: SampleDatabase.timeZone,
            logger: quietLogger, clock: { now })
        await engine.handle(.fetched(source: "tu", bytes: GTFSRealtimeCodec.encode(feed), at: now))
        return (snapshotTrips(try #require(hub.snapshot(.tripUpdates))), await engine.statuses()[0])
    }

    @Test func updatesWithoutTripIdResolveLikeTheirTrips() async throws {
        let feeds = try FixtureGenerator(schedule: FixtureSchedule.read(databasePath: SampleDatabase.path(), at: at))
            .feeds()
        var stripped = feeds.tripUpdates
        var renamed: Set<String> = []
        for i in stripped.entities.indices {
            guard let update = stripped.entities[i].tripUpdate, let id = update.trip.tripId,
                [.scheduled, .canceled].contains(update.trip.scheduleRelationship ?? .scheduled)
            else { continue }
            let date = update.trip.startDate.flatMap { UInt32($0) }
            let detail = try SampleDatabase.store.trip(
                id: id, serviceDate: date, startTime: update.trip.startTime, at: at)
            guard let direction = detail.directionId else { continue }
            let start = detail.startTime
            stripped.entities[i].tripUpdate?.trip = TripDescriptor(
                routeId: detail.route.routeId, directionId: UInt32(direction), startTime: start,
                startDate: String(detail.serviceDate), scheduleRelationship: update.trip.scheduleRelationship)
            renamed.insert(id)
        }
        #expect(renamed.count >= 5)
        #expect(renamed.contains { id in feeds.cases.contains { $0.tripId == id && $0.name == "cancelled" } })

        let named = try await resolve(feeds.tripUpdates)
        let unnamed = try await resolve(stripped)
        #expect(unnamed.status.drops.isEmpty, "\(unnamed.status.drops) \(unnamed.status.lastDrop ?? "")")
        #expect(unnamed.trips == named.trips)
        #expect(Set(unnamed.trips.map(\.instance.tripId)).isSuperset(of: renamed))
    }
}
