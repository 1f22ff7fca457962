// Sample values for the round trips: each result kind with every optional set ("full") and with every
// optional nil ("minimal"), plus unicode and extreme numbers where the wire could mangle them.
import TransitModel

enum Fixtures {
    static let unicodeName = "Zürich Hbf → 東京駅 🚆 (שלום) e\u{301}"

    static func fullStop(_ i: Int = 0) -> Stop {
        Stop(
            stopId: "2000\(i)", code: "c\(i)", name: "Central Station \(i) \(unicodeName)",
            lat: -33.8830 + Double(i) * 1e-5,
            lon: 151.2065, locationType: 1, parentStation: "P\(i)", platformCode: "12a", wheelchairBoarding: 2,
            primaryRouteType: 2, mode: "train", distanceMetres: 123.5, timezone: "Australia/Sydney"
        )
    }

    static func minimalStop(_ i: Int = 0) -> Stop {
        Stop(stopId: "s\(i)", name: "", lat: 0, lon: -0.0, locationType: 0, wheelchairBoarding: 0)
    }

    static func fullRoute(_ i: Int = 0) -> Route {
        Route(
            routeId: "R\(i)", agencyId: "A", shortName: "T\(i)", longName: "Airport & South Line \(unicodeName)",
            routeType: 2, mode: "train", color: "#F6891F", textColor: "#FFFFFF", section: "T", feed: "sydneytrains"
        )
    }

    static func minimalRoute(_ i: Int = 0) -> Route {
        Route(routeId: "r\(i)", routeType: -1, mode: "", section: "#")
    }

    static func fullDeparture(_ i: Int = 0) -> Departure {
        Departure(
            tripId: "trip-\(i)", startTime: "25:10:00", route: fullRoute(i % 7), headsign: "Bondi Junction",
            stopId: "200060", stopSequence: UInt32(i + 1), stopIndex: UInt32(i), serviceDate: 20251225,
            scheduledSecs: Int32(90_000 + i), scheduledUnix: 1_766_620_800 + Int64(i), platform: "3",
            wheelchairAccessible: 1, directionId: 1, frequencyBased: true
        )
    }

    static func minimalDeparture(_ i: Int = 0) -> Departure {
        Departure(
            tripId: "t\(i)", route: minimalRoute(i), headsign: nil, stopId: "s", stopSequence: 0, stopIndex: 0,
            serviceDate: 0, scheduledSecs: Int32.min, scheduledUnix: Int64.min
        )
    }

    static func fullBoard(departures count: Int = 3) -> DepartureBoard {
        DepartureBoard(
            stopId: "200060", at: 1_766_620_800, direction: .past, departures: (0..<count).map { fullDeparture($0) },
            earlierCursor: "e:abc", laterCursor: "l:def", hasMorePast: true, hasMoreFuture: true,
            timezone: "Australia/Sydney"
        )
    }

    static func minimalBoard() -> DepartureBoard {
        DepartureBoard(stopId: "x", at: 0, direction: .future, departures: [])
    }

    static func fullTripStop(_ i: Int = 0) -> TripStop {
        TripStop(
            stopId: "st\(i)", stopName: "Stop \(i) \(unicodeName)", stopSequence: UInt32(i * 10),
            arrivalSecs: Int32(30_000 + i),
            departureSecs: Int32(30_030 + i), arrivalUnix: 1_700_000_000, departureUnix: 1_700_000_030, lat: 1.5,
            lon: -2.25, platformCode: "1", wheelchairBoarding: 1, pickupType: 2, dropOffType: 3,
            stopHeadsign: "City", parentStation: "PS"
        )
    }

    static func minimalTripStop() -> TripStop {
        TripStop(
            stopId: "a", stopName: "b", stopSequence: UInt32.max, arrivalSecs: Int32.max, departureSecs: 0,
            arrivalUnix: Int64.max, departureUnix: 0, lat: 90, lon: 180
        )
    }

    static func fullTrip() -> TripDetail {
        TripDetail(
            tripId: "T1", route: fullRoute(), headsign: "Airport", directionId: 0, serviceDate: 20250101,
            startTime: "08:00:00", frequencyBased: true, wheelchairAccessible: 1, bikesAllowed: 2, blockId: "B1",
            shapeId: "SH1", shortName: "123", timezone: "Australia/Sydney",
            stops: (0..<5).map { fullTripStop($0) }, undatedRange: 1_735_650_000..<1_735_700_000
        )
    }

    static func minimalTrip() -> TripDetail {
        TripDetail(
            tripId: "T2", route: minimalRoute(), headsign: nil, directionId: nil, serviceDate: 20250101,
            startTime: "", frequencyBased: false, timezone: "UTC", stops: []
        )
    }

    static func fullSchedules() -> TripSchedules {
        TripSchedules(
            databaseVersion: "v42",
            patterns: [
                Pattern(
                    patternId: 7,
                    stops: [
                        PatternStop(
                            stopId: "a", stopSequence: 1, arrivalOffset: 0, departureOffset: 30, pickupType: 1,
                            dropOffType: 2),
                        PatternStop(stopId: "b", stopSequence: 2, arrivalOffset: 300, departureOffset: 330),
                        PatternStop(
                            stopId: "c", stopSequence: 3, arrivalOffset: 450, departureOffset: 450, timepoint: false),
                    ]),
                Pattern(patternId: 8, stops: []),
            ],
            trips: [
                TripSchedule(
                    tripId: "T1", routeId: "R1", routeType: 3, directionId: 1, patternId: 7, startSecs: 28_800,
                    frequencies: [
                        FrequencyWindow(startSecs: 21_600, endSecs: 36_000, headwaySecs: 600, exactTimes: true),
                        FrequencyWindow(startSecs: 36_000, endSecs: 72_000, headwaySecs: 900, exactTimes: false),
                    ],
                    serviceDates: [20250101, 20250102, 20250103], timezone: "Australia/Sydney"
                ),
                TripSchedule(
                    tripId: "T2", routeId: "R2", routeType: 0, directionId: nil, patternId: 8, startSecs: -5,
                    serviceDates: [], timezone: "UTC"
                ),
            ],
            unknownTripIds: ["nope", "🚆"],
            descriptorMatches: [["T1"], [], ["T1", "T2"]],
            stations: [
                StationPlatforms(
                    stationId: "STA",
                    platforms: [
                        StationPlatform(stopId: "a", platformCode: "1"),
                        StationPlatform(stopId: "a2", platformCode: ""),
                        StationPlatform(stopId: "entrance"),
                    ]),
                StationPlatforms(stationId: "", platforms: []),
            ]
        )
    }

    static func minimalSchedules() -> TripSchedules {
        TripSchedules(databaseVersion: "", patterns: [], trips: [], unknownTripIds: [])
    }

    static func fullFeedInfo() -> FeedInfo {
        FeedInfo(
            databaseVersion: "v42", importedAt: 1_700_000_000,
            feeds: [
                FeedSummary(
                    name: "sydneytrains", prefix: "st:", publisher: "TfNSW", version: "2025-01-01", startDate: 20250101,
                    endDate: 20251231, timezone: "Australia/Sydney", lang: "en", importedAt: 1_700_000_000, stops: 1,
                    routes: 2, trips: 3, stopTimes: UInt64.max, source: "/data/full_greater_sydney_gtfs_static.zip"
                ),
                FeedSummary(name: "min", timezone: "UTC", importedAt: -1, stops: 0, routes: 0, trips: 0, stopTimes: 0),
            ],
            stops: 10, routes: 20, trips: 30, stopTimes: 40, patterns: 50,
            dayTypes: DayTypeCalendar(runsAs: [20_260_126: 7, 20_251_226: 6])
        )
    }

    static func minimalFeedInfo() -> FeedInfo {
        FeedInfo(
            databaseVersion: "v", importedAt: 0, feeds: [], stops: 0, routes: 0, trips: 0, stopTimes: 0, patterns: 0)
    }

    /// Every result kind, full and minimal, each with a label for failure messages.
    static let allResults: [(String, StaticResult)] = [
        (
            "stop full",
            .stop(
                StopResult(
                    stop: fullStop(), parent: fullStop(1), platforms: [fullStop(2), minimalStop(3)],
                    routes: [fullRoute(), minimalRoute()]
                ))
        ),
        ("stop minimal", .stop(StopResult(stop: minimalStop()))),
        ("stops full", .stops((0..<30).map { fullStop($0) })),
        ("stops minimal", .stops([minimalStop()])),
        ("stops empty", .stops([])),
        ("routes full", .routes((0..<30).map { fullRoute($0) })),
        ("routes minimal", .routes([minimalRoute()])),
        ("routes empty", .routes([])),
        ("departures full", .departures(fullBoard(departures: 30))),
        (
            "departures mixed",
            .departures(
                DepartureBoard(
                    stopId: "s", at: 1, direction: .future, departures: [fullDeparture(), minimalDeparture()]
                ))
        ),
        ("departures minimal", .departures(minimalBoard())),
        ("trip full", .trip(fullTrip())),
        ("trip minimal", .trip(minimalTrip())),
        ("trip schedules full", .tripSchedules(fullSchedules())),
        ("trip schedules minimal", .tripSchedules(minimalSchedules())),
        ("feed info full", .feedInfo(fullFeedInfo())),
        ("feed info minimal", .feedInfo(minimalFeedInfo())),
        (
            "shape full",
            .shape(
                Shape(
                    shapeId: "ST_T1.1", tripId: "T1", source: .shapes, polyline: "_p~iF~ps|U_ulLnnqC_mqNvxq`@",
                    pointCount: 3, distances: [0, 12.5, 1e6]))
        ),
        ("shape minimal", .shape(Shape(shapeId: nil, source: .stops, polyline: "", pointCount: 0))),
        (
            "route full",
            .route(
                RouteDetail(
                    route: Route(routeId: "R", routeType: 3, mode: "bus", section: "#"),
                    patterns: [
                        RoutePattern(
                            directionId: 1, headsigns: ["A", unicodeName], shapeIds: ["S1"], tripCount: 12,
                            firstDeparture: "05:00:00", lastDeparture: "25:10:00",
                            stops: [
                                PatternStopSummary(
                                    stopId: "1", name: "One", lat: -33.8, lon: 151.2, parentStation: "P"),
                                PatternStopSummary(stopId: "2", name: "", lat: nil, lon: nil),
                            ],
                            dateSpan: ServiceSpan(first: "05:00:00", last: "24:41:00"),
                            dayTypeSpans: DayTypeSpans(
                                weekday: ServiceSpan(first: "05:00:00", last: "25:10:00"), saturday: nil,
                                sunday: ServiceSpan(first: "07:30:00", last: "22:00:00"))),
                        RoutePattern(
                            directionId: nil, headsigns: [], shapeIds: [], tripCount: 0, firstDeparture: "00:00:00",
                            lastDeparture: "00:00:00", stops: []),
                    ], date: 20_261_125, dateSpan: ServiceSpan(first: "05:00:00", last: "24:41:00"),
                    dayTypeSpans: DayTypeSpans(saturday: ServiceSpan(first: "06:00:00", last: "23:00:00")),
                    typicalWeek: 20_261_123))
        ),
        (
            "route minimal",
            .route(
                RouteDetail(route: Route(routeId: "R", routeType: 3, mode: "bus", section: "#"), patterns: [], date: 1))
        ),
        (
            "plan full",
            .plan(
                PlanAnswer(
                    journeys: [
                        PlanJourney(
                            departureUnix: 1_766_394_000, arrivalUnix: 1_766_397_600, transfers: 1, walkSeconds: 90,
                            legs: [
                                .walk(
                                    PlanWalk(
                                        fromStopId: nil, toStopId: "A", toStopName: unicodeName, distanceMetres: 99.5,
                                        durationSeconds: 83)),
                                .ride(
                                    PlanRide(
                                        board: fullDeparture(), stops: fullTrip().stops,
                                        plannedDepartureUnix: 1_766_394_100, plannedArrivalUnix: 1_766_395_000,
                                        live: true, polyline: "_p~iF~ps|U")),
                                .ride(
                                    PlanRide(
                                        board: nil, stops: [], plannedDepartureUnix: 1_766_396_000,
                                        plannedArrivalUnix: 1_766_397_500, live: true, addedTripId: unicodeName)),
                                .walk(
                                    PlanWalk(
                                        fromStopId: "B", toStopId: nil, fromStopName: "B", distanceMetres: 0,
                                        durationSeconds: 7)),
                            ])
                    ], cut: true, laterAt: 1_766_394_060, realtimeUsed: true, timezone: "Australia/Sydney"))
        ),
        ("plan minimal", .plan(PlanAnswer(journeys: [], reason: "nothing connects within 24 h"))),
    ]

    /// Every query kind, with every optional set and with every optional nil.
    static let allQueries: [(String, StaticQuery)] = [
        ("stop", .stop(StopQuery(stopId: "200060"))),
        ("stop unicode", .stop(StopQuery(stopId: unicodeName))),
        ("search full", .search(SearchQuery(query: "central 東京", limit: 25, mode: "train", includePlatforms: true))),
        ("search minimal", .search(SearchQuery(query: ""))),
        ("nearby full", .nearby(NearbyQuery(lat: -33.88, lon: 151.2, radiusMetres: 1500.5, limit: 100, mode: "bus"))),
        ("nearby minimal", .nearby(NearbyQuery(lat: 0, lon: 0))),
        ("routes full", .routes(RoutesQuery(mode: "ferry"))),
        ("routes minimal", .routes(RoutesQuery())),
        (
            "departures full",
            .departures(
                DeparturesQuery(
                    stopId: "200060", at: 1_766_620_800, direction: .past, limit: 50, cursor: "opaque:cursor/==",
                    routeId: "ST_T1", directionId: 0, mode: "train"))
        ),
        ("departures minimal", .departures(DeparturesQuery(stopId: "200060"))),
        ("trip full", .trip(TripQuery(tripId: "T1", serviceDate: 20251225, startTime: "25:00:00", at: -1))),
        ("trip minimal", .trip(TripQuery(tripId: "T1"))),
        (
            "trip schedules full",
            .tripSchedules(
                TripSchedulesQuery(
                    tripIds: ["a", "b", "🚆", ""], fromDate: 20250101, toDate: 20250107,
                    knownPatternIds: [0, 1, 4079, 300_000, UInt32.max], knownDatabaseVersion: "db-v7",
                    descriptors: [
                        TripStartDescriptor(
                            routeId: "B:333", directionId: 1, startDate: 20251225, startTime: "25:10:00"),
                        TripStartDescriptor(routeId: "", directionId: -1, startDate: 0, startTime: ""),
                    ]
                ))
        ),
        (
            "trip schedules descriptors only",
            .tripSchedules(
                TripSchedulesQuery(
                    tripIds: [], fromDate: 20250101, toDate: 20250101,
                    descriptors: [
                        TripStartDescriptor(routeId: "R", directionId: 0, startDate: 20250101, startTime: "08:00:00")
                    ]
                ))
        ),
        (
            "trip schedules cold",
            .tripSchedules(TripSchedulesQuery(tripIds: ["a"], fromDate: 20250101, toDate: 20250101))
        ),
        ("trip schedules empty", .tripSchedules(TripSchedulesQuery(tripIds: [], fromDate: 0, toDate: 0))),
        ("feed info", .feedInfo),
        ("shape by id", .shape(ShapeQuery(shapeId: "ST_T1.1"))),
        ("shape by trip", .shape(ShapeQuery(tripId: unicodeName))),
        ("route", .route(RouteQuery(routeId: "ST_T1"))),
        ("route on a date", .route(RouteQuery(routeId: "ST_T1", date: 20_261_125))),
        (
            "stops in bbox full",
            .stopsInBBox(
                StopsInBBoxQuery(minLat: -33.9, minLon: 151.1, maxLat: -33.8, maxLon: 151.3, mode: "ferry", limit: 7))
        ),
        ("stops in bbox minimal", .stopsInBBox(StopsInBBoxQuery(minLat: 0, minLon: 0, maxLat: 0, maxLon: 0))),
        (
            "plan full",
            .plan(
                PlanRequest(
                    from: .stop(unicodeName), to: .coordinate(lat: -33.87, lon: 151.2), at: nil,
                    arriveBy: 1_766_394_000, maxTransfers: 0, transferSlackSeconds: 1800, walkRadiusMetres: 0,
                    walkSpeed: 3, accessRadiusMetres: 2000, modes: ["bus", "train"], wheelchair: true,
                    windowSeconds: 10800, limit: 20, realtime: false, budgetMilliseconds: 60_000))
        ),
        ("plan minimal", .plan(PlanRequest(from: .stop("A"), to: .stop("B")))),
    ]
}
