// A source's id prefix (the static import's prefix of its feed) goes on trip, route and agency ids, never
// on stop ids: the static import does not prefix stops (protocol/README.md, realtime values).
import GTFSRealtime
import RealtimeCore
import Testing
import TransitModel

@testable import RealtimeService

@Suite struct IdPrefixTests {
    typealias F = StateFixture

    /// T1 imported with prefix "B:" (trip and route prefixed, stops S1…S3 not).
    static var prefixedSchedules: ScheduleCache {
        var cache = ScheduleCache()
        cache.use(dates: 20250313...20250315)
        var stops: [PatternStop] = []
        for k in 0..<3 {
            let offset = Int32(k * 300)
            stops.append(
                PatternStop(
                    stopId: "S\(k + 1)", stopSequence: UInt32(k + 1), arrivalOffset: offset, departureOffset: offset))
        }
        cache.add(
            TripSchedules(
                databaseVersion: "db1", patterns: [Pattern(patternId: 1, stops: stops)],
                trips: [
                    TripSchedule(
                        tripId: "B:T1", routeId: "B:R1", routeType: 700, directionId: 0, patternId: 1,
                        startSecs: 8 * 3600, serviceDates: [F.day], timezone: "UTC")
                ],
                unknownTripIds: []))
        return cache
    }

    static func state() -> LiveState { F.state([SourceSettings(name: "buses", idPrefix: "B:", timeZone: "UTC")]) }

    @Test func tripUpdatesMatchStopsWithoutThePrefix() throws {
        var state = Self.state()
        let update = TripUpdate(
            trip: TripDescriptor(tripId: "T1", startDate: F.dayText),
            stopTimeUpdates: [StopTimeUpdate(stopId: "S2", departure: StopTimeEvent(delay: 90))])
        let changes = try mustApply(&state, F.feed([F.entity("a", update)]), schedules: Self.prefixedSchedules)
        let trip = try #require(changes.trips.first)
        #expect(trip.instance.tripId == "B:T1")
        #expect(trip.routeId == "B:R1")
        #expect(trip.stops.map(\.stopId) == ["S1", "S2", "S3"])
        #expect(trip.stops.map(\.departureDelay) == [nil, 90, 90])
        #expect(state.statuses(now: F.now)[0].drops["unmatched_stop_update"] == nil)
    }

    @Test func vehiclesPrefixTripAndRouteNotStop() throws {
        var state = Self.state()
        let vehicle = FeedEntity(
            id: "v",
            vehicle: VehiclePosition(
                trip: TripDescriptor(tripId: "T1", routeId: "R1", startDate: F.dayText), stopId: "S2",
                timestamp: UInt64(F.now)))
        let changes = try mustApply(&state, F.feed([vehicle]), schedules: Self.prefixedSchedules)
        let live = try #require(changes.vehicles.first)
        #expect(live.tripId == "B:T1")
        #expect(live.routeId == "B:R1")
        #expect(live.stopId == "S2")
        #expect(live.trip == TripInstanceKey(tripId: "B:T1", serviceDate: F.day))
    }

    @Test func alertsPrefixAgencyRouteAndTripNotStop() throws {
        var state = Self.state()
        let alert = FeedEntity(
            id: "x",
            alert: Alert(
                informedEntities: [
                    EntitySelector(agencyId: "A1"),
                    EntitySelector(routeId: "R1", stopId: "S2"),
                    EntitySelector(trip: TripDescriptor(tripId: "T1", routeId: "R9")),
                    EntitySelector(routeType: 700, stopId: "S3"),
                ], headerText: TranslatedText("Diversion")))
        let changes = try mustApply(&state, F.feed([alert]), schedules: Self.prefixedSchedules)
        let entities = try #require(changes.alerts.first).informedEntities
        #expect(entities.map(\.agencyId) == ["B:A1", nil, nil, nil])
        #expect(entities.map(\.routeId) == [nil, "B:R1", "B:R9", nil])
        #expect(entities.map(\.tripId) == [nil, nil, "B:T1", nil])
        #expect(entities.map(\.stopId) == [nil, "S2", nil, "S3"])
        #expect(entities[3].routeType == 700)
    }
}
