// Queries of the static-data service. Mirrors protocol/transit.proto; TransitProto converts them to and
// from protobuf-c, GatewayProtocol parses them from the gateway's JSON lines.

/// A service date as GTFS writes it: YYYYMMDD (20251225).
public typealias ServiceDate = UInt32

/// Which way a departure board pages from its instant.
public enum BoardDirection: String, Sendable, Hashable, Codable {
    /// The departures from the instant on.
    case future
    /// The departures up to the instant (still listed in ascending time).
    case past
}

/// The `stop` query: one stop or station with its platforms and routes (answered by `StaticResult.stop`).
public struct StopQuery: Sendable, Hashable {
    /// The stop's id (stop ids never carry an import prefix).
    public var stopId: String
    /// A query for the stop `stopId`.
    public init(stopId: String) { self.stopId = stopId }
}

/// The `search` query: stations and stops whose names match a text, best first (answered by
/// `StaticResult.stops`).
public struct SearchQuery: Sendable, Hashable {
    /// The text to match against stop names.
    public var query: String
    /// At most this many stops (1...100; default 10).
    public var limit: Int
    /// Only stops served by this mode (train, metro, bus, …); nil: any.
    public var mode: String?
    /// List platforms on their own; false (the default) folds them into their station.
    public var includePlatforms: Bool
    /// A search for `query`; by default 10 stops of any mode, platforms folded into stations.
    public init(query: String, limit: Int = 10, mode: String? = nil, includePlatforms: Bool = false) {
        self.query = query
        self.limit = limit
        self.mode = mode
        self.includePlatforms = includePlatforms
    }
}

/// The `nearby` query: stops around a point, nearest first (answered by `StaticResult.stops`).
public struct NearbyQuery: Sendable, Hashable {
    /// Latitude of the point, in degrees (WGS 84).
    public var lat: Double
    /// Longitude of the point, in degrees (WGS 84).
    public var lon: Double
    /// How far from the point, in metres (more than 0, at most 5000; default 500).
    public var radiusMetres: Double
    /// At most this many stops (1...100; default 10).
    public var limit: Int
    /// Only stops served by this mode; nil: any.
    public var mode: String?
    /// Stops within `radiusMetres` of (`lat`, `lon`); by default 500 m, 10 stops, any mode.
    public init(lat: Double, lon: Double, radiusMetres: Double = 500, limit: Int = 10, mode: String? = nil) {
        self.lat = lat
        self.lon = lon
        self.radiusMetres = radiusMetres
        self.limit = limit
        self.mode = mode
    }
}

/// The `routes` query: the route list (answered by `StaticResult.routes`).
public struct RoutesQuery: Sendable, Hashable {
    /// Only routes of this mode; nil: every route.
    public var mode: String?
    /// Every route, or those of `mode`.
    public init(mode: String? = nil) { self.mode = mode }
}

/// The `departures` query: one page of a stop's departure board (answered by `StaticResult.departures`).
public struct DeparturesQuery: Sendable, Hashable {
    /// The stop, platform or station whose departures are listed (a station: all its platforms).
    public var stopId: String
    /// Unix seconds; nil means now.
    public var at: Int64?
    /// `future`: the departures from `at` on; `past`: those up to `at`.
    public var direction: BoardDirection
    /// At most this many departures (1...100; default 10).
    public var limit: Int
    /// Opaque continuation from a previous board; when set it overrides `at` and `direction`. It continues the
    /// board of the same filters: pass them again with it.
    public var cursor: String?
    /// Only departures of this route (its id as imported); nil: every route.
    public var routeId: String?
    /// Only departures of trips with this GTFS direction_id (0 or 1); nil: both.
    public var directionId: Int?
    /// Only departures of routes of this mode (train, metro, bus, …); nil: any.
    public var mode: String?
    /// The next 10 departures of `stopId` from now, unless told otherwise.
    public init(
        stopId: String, at: Int64? = nil, direction: BoardDirection = .future, limit: Int = 10, cursor: String? = nil,
        routeId: String? = nil, directionId: Int? = nil, mode: String? = nil
    ) {
        self.stopId = stopId
        self.at = at
        self.direction = direction
        self.limit = limit
        self.cursor = cursor
        self.routeId = routeId
        self.directionId = directionId
        self.mode = mode
    }

    /// True when a filter (route, direction or mode) narrows the board.
    public var isFiltered: Bool { routeId != nil || directionId != nil || mode != nil }

    /// The board's identity for caches: the stop and its filters (two boards with the same key hold the
    /// same rows).
    public var boardKey: String {
        guard isFiltered else { return stopId }
        return "\(stopId)\u{1}\(routeId ?? "")\u{1}\(directionId.map(String.init) ?? "")\u{1}\(mode ?? "")"
    }
}

/// The `trip` query: one trip instance with all its stops and times (answered by `StaticResult.trip`).
public struct TripQuery: Sendable, Hashable {
    /// The trip's id as imported (with the feed's id prefix, if any).
    public var tripId: String
    /// The service date of the instance; nil: the instance running nearest to `at`.
    public var serviceDate: ServiceDate?
    /// HH:MM:SS, for frequency-based trips.
    public var startTime: String?
    /// Unix seconds; nil means now. Without a service date the instance running nearest to it is chosen.
    public var at: Int64?
    /// The instance of `tripId` on `serviceDate` (or nearest to `at`, or to now).
    public init(tripId: String, serviceDate: ServiceDate? = nil, startTime: String? = nil, at: Int64? = nil) {
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startTime = startTime
        self.at = at
    }
}

/// The `trip_schedules` query: the realtime service's bulk schedules of many trips over a few service
/// dates (answered by `StaticResult.tripSchedules`).
public struct TripSchedulesQuery: Sendable, Hashable {
    /// The trips wanted, by static id (with import prefix); at most 20,000.
    public var tripIds: [String]
    /// First service date to report, inclusive.
    public var fromDate: ServiceDate
    /// Last service date to report, inclusive.
    public var toDate: ServiceDate
    /// Patterns the client already holds for `knownDatabaseVersion`: the answer leaves them out (its trips
    /// still name them). Honoured only when `knownDatabaseVersion` is the version being served; otherwise
    /// every pattern is sent, and the answer's `databaseVersion` tells the client its cache is stale.
    public var knownPatternIds: [UInt32]
    /// The `databaseVersion` of the answers `knownPatternIds` came from; required when they are given.
    public var knownDatabaseVersion: String?
    /// Trips named by route, direction and start instead of an id: the answer's `descriptorMatches` (one
    /// per descriptor, in order) name the static trips that match, whose schedules come in `trips`.
    public var descriptors: [TripStartDescriptor]
    /// Schedules of `tripIds` (and of the trips `descriptors` name) on the dates `fromDate`...`toDate`.
    public init(
        tripIds: [String], fromDate: ServiceDate, toDate: ServiceDate, knownPatternIds: [UInt32] = [],
        knownDatabaseVersion: String? = nil, descriptors: [TripStartDescriptor] = []
    ) {
        self.tripIds = tripIds
        self.fromDate = fromDate
        self.toDate = toDate
        self.knownPatternIds = knownPatternIds
        self.knownDatabaseVersion = knownDatabaseVersion
        self.descriptors = descriptors
    }
}

/// A trip named the GTFS-Realtime way when trip_id is absent: route_id, direction_id, start_date and
/// start_time together. A static trip matches when route and direction are equal, its service runs on
/// `startDate`, and `startTime` is its first stop's scheduled departure or, for a frequency-based trip, lies
/// in a frequency window [start, end) (exact_times=1: only the scheduled starts).
public struct TripStartDescriptor: Sendable, Hashable {
    /// As stored in the static database: with the feed's import prefix.
    public var routeId: String
    /// GTFS direction_id (0 or 1).
    public var directionId: Int
    /// The service date the trip runs on.
    public var startDate: ServiceDate
    /// "HH:MM:SS"; hours may exceed 23.
    public var startTime: String
    /// A trip of `routeId` in `directionId` starting at `startTime` on `startDate`.
    public init(routeId: String, directionId: Int, startDate: ServiceDate, startTime: String) {
        self.routeId = routeId
        self.directionId = directionId
        self.startDate = startDate
        self.startTime = startTime
    }
}

/// What a request to the static-data service asks; one case per query of protocol/transit.proto.
public enum StaticQuery: Sendable, Hashable {
    case stop(StopQuery)
    case search(SearchQuery)
    case nearby(NearbyQuery)
    case routes(RoutesQuery)
    case departures(DeparturesQuery)
    case trip(TripQuery)
    case tripSchedules(TripSchedulesQuery)
    case feedInfo
    case shape(ShapeQuery)
    case route(RouteQuery)
    case stopsInBBox(StopsInBBoxQuery)
    case plan(PlanRequest)

    /// The query's entry in the table of query kinds.
    public var kind: StaticQueryKind {
        switch self {
        case .stop: .stop
        case .search: .search
        case .nearby: .nearby
        case .routes: .routes
        case .departures: .departures
        case .trip: .trip
        case .tripSchedules: .tripSchedules
        case .feedInfo: .feedInfo
        case .shape: .shape
        case .route: .route
        case .stopsInBBox: .stopsInBBox
        case .plan: .plan
        }
    }
}

/// The kinds of `StaticQuery`, one per case: the one table of the static service's query names. The raw value
/// is the kind's position in `allCases` (declaration order), so values kept per kind live in arrays made from
/// `allCases` and are found by `rawValue` without a lookup.
public enum StaticQueryKind: Int, Sendable, Hashable, CaseIterable {
    case stop
    case search
    case nearby
    case routes
    case departures
    case trip
    case tripSchedules
    case feedInfo
    case shape
    case route
    case stopsInBBox
    case plan

    /// The kind's name (protocol/transit.proto's field of the query): the `query` label of the static service's
    /// metrics and the `query` field of its log lines.
    public var name: String {
        switch self {
        case .stop: "stop"
        case .search: "search"
        case .nearby: "nearby"
        case .routes: "routes"
        case .departures: "departures"
        case .trip: "trip"
        case .tripSchedules: "trip_schedules"
        case .feedInfo: "feed_info"
        case .shape: "shape"
        case .route: "route"
        case .stopsInBBox: "stops_in_bbox"
        case .plan: "plan"
        }
    }
}

/// A request to the static-data service (REQ/REP); answered by a `StaticResponse` with the same id.
public struct StaticRequest: Sendable, Hashable {
    /// Chosen by the client and echoed in the response.
    public var requestId: UInt64
    /// What is asked.
    public var query: StaticQuery
    /// A request `requestId` asking `query`.
    public init(requestId: UInt64, query: StaticQuery) {
        self.requestId = requestId
        self.query = query
    }
}
