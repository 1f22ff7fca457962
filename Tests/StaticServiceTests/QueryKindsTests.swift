import Foundation
import Testing
import TransitModel
import TransitTesting

/// Every query kind, over nng, against the imported test feed.
@Suite struct QueryKindsTests {
    let service: ServiceFixture

    init() throws { service = try ServiceFixture() }

    @Test func stopWithPlatformsAndRoutes() throws {
        let response = try service.ask(.stop(StopQuery(stopId: "STA")), id: 7)
        #expect(response.requestId == 7)
        let result = try #require(try response.result.get().stopResult)
        #expect(result.stop.name == "Central Test Station")
        #expect(result.stop.locationType == 1)
        #expect(Set(result.platforms.map(\.stopId)) == ["STA1", "STA2"])
        #expect(Set(result.routes.map(\.routeId)) == ["R1"])
        #expect(result.stop.primaryRouteType == 2)
    }

    @Test func platformHasItsParent() throws {
        let result = try #require(try service.result(.stop(StopQuery(stopId: "STA2"))).stopResult)
        #expect(result.parent?.stopId == "STA")
        #expect(result.stop.platformCode == "2")
    }

    @Test func searchFindsTheStationNotItsPlatforms() throws {
        let stops = try #require(try service.result(.search(SearchQuery(query: "central", limit: 5))).stops)
        #expect(stops.map(\.stopId) == ["STA"])
        let withPlatforms = try #require(
            try service.result(.search(SearchQuery(query: "central", limit: 5, includePlatforms: true))).stops)
        #expect(Set(withPlatforms.map(\.stopId)).isSuperset(of: ["STA1", "STA2"]))
    }

    @Test func searchTextIsSafeForFTS() throws {
        for text in ["\"", "NEAR(", "a OR b*", "'; DROP TABLE stops; --"] {
            let response = try service.ask(.search(SearchQuery(query: text, limit: 5)))
            #expect(response.failure == nil, "search for \(text)")
        }
    }

    @Test func nearbyNearestFirstWithDistances() throws {
        let stops = try #require(
            try service.result(
                .nearby(NearbyQuery(lat: -33.8731, lon: 151.2065, radiusMetres: 2000, limit: 10))
            ).stops)
        #expect(stops.first?.stopId == "MID")
        #expect((stops.first?.distanceMetres ?? 99) < 1)
        let distances = stops.compactMap(\.distanceMetres)
        #expect(distances.count == stops.count)
        #expect(distances == distances.sorted())
        #expect(stops.contains { $0.stopId == "STA" })
        #expect(!stops.contains { $0.stopId == "STA1" }, "platforms fold into their station")
    }

    @Test func routesWithModeFilter() throws {
        let all = try #require(try service.result(.routes(RoutesQuery())).routes)
        #expect(Set(all.map(\.routeId)) == ["R1", "R2"])
        #expect(all.first { $0.routeId == "R1" }?.color == "#F99D1C")
        let buses = try #require(try service.result(.routes(RoutesQuery(mode: "bus"))).routes)
        #expect(buses.map(\.routeId) == ["R2"])
        #expect(buses.first?.mode == "bus")
    }

    @Test func departuresAtAStationIncludePlatforms() throws {
        let board = try #require(
            try service.result(
                .departures(DeparturesQuery(stopId: "STA", at: SampleTimes.mondayMorning, limit: 2))
            ).board)
        #expect(board.departures.map(\.tripId) == ["TA", "TB"])
        #expect(board.departures.map(\.stopId) == ["STA1", "STA2"])
        #expect(board.departures.first?.scheduledUnix == SampleTimes.mondayMorning + 300)
        #expect(board.departures.first?.serviceDate == 20251222)
    }

    @Test func departuresPageOnWithTheCursor() throws {
        let first = try #require(
            try service.result(
                .departures(DeparturesQuery(stopId: "STA", at: SampleTimes.mondayMorning, limit: 1))
            ).board)
        #expect(first.departures.map(\.tripId) == ["TA"])
        #expect(first.hasMoreFuture)
        let later = try #require(first.laterCursor)
        let next = try #require(
            try service.result(
                .departures(DeparturesQuery(stopId: "STA", at: SampleTimes.mondayMorning, limit: 1, cursor: later))
            ).board)
        #expect(next.departures.map(\.tripId) == ["TB"])
        let past = try #require(
            try service.result(
                .departures(DeparturesQuery(stopId: "STA", at: SampleTimes.mondayMorning, direction: .past, limit: 2))
            ).board)
        #expect(past.departures.map(\.tripId) == ["TA", "TB"], "the previous day's trains, in time order")
        #expect(past.departures.allSatisfy { $0.serviceDate == 20251221 })
    }

    @Test func departuresOfFrequencyTripsCarryTheirStartTime() throws {
        let board = try #require(
            try service.result(
                .departures(DeparturesQuery(stopId: "MID", at: SampleTimes.mondayMorning, limit: 3))
            ).board)
        let bus = try #require(board.departures.first { $0.tripId == "BUSF" })
        #expect(bus.startTime == "08:00:00")
        #expect(bus.scheduledUnix == SampleTimes.mondayMorning)
    }

    @Test func tripOnADate() throws {
        let trip = try #require(
            try service.result(
                .trip(TripQuery(tripId: "TA", serviceDate: 20251222, at: SampleTimes.mondayMorning))
            ).trip)
        #expect(trip.stops.map(\.stopId) == ["STA1", "MID", "END"])
        #expect(trip.stops[1].arrivalUnix == SampleTimes.mondayMorning + 600)
        #expect(trip.stops[1].departureUnix == SampleTimes.mondayMorning + 660)
        #expect(trip.route.routeId == "R1")
        #expect(trip.timezone == "Australia/Sydney")
    }

    @Test func bulkTripSchedules() throws {
        let schedules = try #require(
            try service.result(
                .tripSchedules(
                    TripSchedulesQuery(tripIds: ["TA", "BUSF", "nope"], fromDate: 20251222, toDate: 20251223))
            )
            .schedules)
        #expect(Set(schedules.trips.map(\.tripId)) == ["TA", "BUSF"])
        #expect(schedules.unknownTripIds == ["nope"])
        #expect(schedules.trips.allSatisfy { $0.serviceDates == [20251222, 20251223] })
        #expect(schedules.trips.first { $0.tripId == "BUSF" }?.frequencies.first?.headwaySecs == 900)
        #expect(!schedules.databaseVersion.isEmpty)
    }

    /// Trips named by route, direction and start (GTFS-Realtime descriptors without trip_id) come back as
    /// matches per descriptor, with the matched trips' schedules.
    @Test func bulkTripSchedulesByDescriptor() throws {
        let schedules = try #require(
            try service.result(
                .tripSchedules(
                    TripSchedulesQuery(
                        tripIds: [], fromDate: 20251222, toDate: 20251222,
                        descriptors: [
                            TripStartDescriptor(
                                routeId: "R1", directionId: 0, startDate: 20251222, startTime: "08:05:00"),
                            TripStartDescriptor(
                                routeId: "R1", directionId: 1, startDate: 20251222, startTime: "08:05:00"),
                        ]))
            ).schedules)
        #expect(schedules.descriptorMatches == [["TA"], []])
        #expect(schedules.trips.map(\.tripId) == ["TA"])
    }

    /// A client naming the patterns it holds (for the served version) gets the trips without them.
    @Test func bulkTripSchedulesWithKnownPatterns() throws {
        let query = TripSchedulesQuery(tripIds: ["TA", "BUSF"], fromDate: 20251222, toDate: 20251222)
        let cold = try #require(try service.result(.tripSchedules(query)).schedules)
        #expect(cold.patterns.count == 2)
        var warmQuery = query
        warmQuery.knownPatternIds = [cold.patterns[0].patternId]
        warmQuery.knownDatabaseVersion = cold.databaseVersion
        let warm = try #require(try service.result(.tripSchedules(warmQuery)).schedules)
        #expect(warm.trips == cold.trips)
        #expect(warm.patterns == [cold.patterns[1]])
    }

    @Test func feedInfoNamesTheImport() throws {
        let info = try #require(try service.result(.feedInfo).feedInfo)
        #expect(info.feeds.map(\.version) == ["test-v1"])
        #expect(info.stops == 5)
        #expect(info.routes == 2)
        #expect(info.databaseVersion == service.server.databaseVersion)
    }
}
