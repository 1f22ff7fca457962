// Queries of the static-data service. Mirrors protocol/transit.proto; TransitProto converts them to and
// from protobuf-c, TransitJSON parses them from the gateway's JSON lines.

/// A service date as GTFS writes it: YYYYMMDD (20251225).
public typealias ServiceDate = UInt32

public enum BoardDirection: String, Sendable, Hashable, Codable {
    case future
    case past
}

public struct StopQuery: Sendable, Hashable {
    public var stopId: String
    public init(stopId: String) { self.stopId = stopId }
}

public struct SearchQuery: Sendable, Hashable {
    public var query: String
    public var limit: Int
    public var mode: String?
    public var includePlatforms: Bool
    public init(query: String, limit: Int = 10, mode: String? = nil, includePlatforms: Bool = false) {
        self.query = query
        self.limit = limit
        self.mode = mode
        self.includePlatforms = includePlatforms
    }
}

public struct NearbyQuery: Sendable, Hashable {
    public var lat: Double
    public var lon: Double
    public var radiusMetres: Double
    public var limit: Int
    public var mode: String?
    public init(lat: Double, lon: Double, radiusMetres: Double = 500, limit: Int = 10, mode: String? = nil) {
        self.lat = lat
        self.lon = lon
        self.radiusMetres = radiusMetres
        self.limit = limit
        self.mode = mode
    }
}

public struct RoutesQuery: Sendable, Hashable {
    public var mode: String?
    public init(mode: String? = nil) { self.mode = mode }
}

public struct DeparturesQuery: Sendable, Hashable {
    public var stopId: String
    /// Unix seconds; nil means now.
    public var at: Int64?
    public var direction: BoardDirection
    public var limit: Int
    /// Opaque continuation from a previous board; when set it overrides `at` and `direction`.
    public var cursor: String?
    public init(stopId: String, at: Int64? = nil, direction: BoardDirection = .future, limit: Int = 10, cursor: String? = nil) {
        self.stopId = stopId
        self.at = at
        self.direction = direction
        self.limit = limit
        self.cursor = cursor
    }
}

public struct TripQuery: Sendable, Hashable {
    public var tripId: String
    public var serviceDate: ServiceDate?
    /// HH:MM:SS, for frequency-based trips.
    public var startTime: String?
    /// Unix seconds; nil means now. Without a service date the instance running nearest to it is chosen.
    public var at: Int64?
    public init(tripId: String, serviceDate: ServiceDate? = nil, startTime: String? = nil, at: Int64? = nil) {
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startTime = startTime
        self.at = at
    }
}

public struct TripSchedulesQuery: Sendable, Hashable {
    public var tripIds: [String]
    public var fromDate: ServiceDate
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
    public init(tripIds: [String], fromDate: ServiceDate, toDate: ServiceDate, knownPatternIds: [UInt32] = [],
                knownDatabaseVersion: String? = nil, descriptors: [TripStartDescriptor] = []) {
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
    public var directionId: Int
    public var startDate: ServiceDate
    /// "HH:MM:SS"; hours may exceed 23.
    public var startTime: String
    public init(routeId: String, directionId: Int, startDate: ServiceDate, startTime: String) {
        self.routeId = routeId
        self.directionId = directionId
        self.startDate = startDate
        self.startTime = startTime
    }
}

public enum StaticQuery: Sendable, Hashable {
    case stop(StopQuery)
    case search(SearchQuery)
    case nearby(NearbyQuery)
    case routes(RoutesQuery)
    case departures(DeparturesQuery)
    case trip(TripQuery)
    case tripSchedules(TripSchedulesQuery)
    case feedInfo
}

public struct StaticRequest: Sendable, Hashable {
    public var requestId: UInt64
    public var query: StaticQuery
    public init(requestId: UInt64, query: StaticQuery) {
        self.requestId = requestId
        self.query = query
    }
}
