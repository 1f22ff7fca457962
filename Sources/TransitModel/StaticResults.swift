// Results of the static-data service. Mirrors protocol/transit.proto. Optionals are values GTFS allows
// to be absent; the JSON writer prints them as null.

public struct Stop: Sendable, Hashable {
    public var stopId: String
    public var code: String?
    public var name: String
    public var lat: Double
    public var lon: Double
    /// GTFS location_type: 0 stop/platform, 1 station, 2 entrance, 3 node, 4 boarding area.
    public var locationType: Int
    public var parentStation: String?
    public var platformCode: String?
    /// GTFS wheelchair_boarding 0/1/2.
    public var wheelchairBoarding: Int
    /// The route type with the most scheduled trips at the stop (and its children); nil if none.
    public var primaryRouteType: Int?
    /// `mode` of primaryRouteType.
    public var mode: String?
    /// Set by nearby only.
    public var distanceMetres: Double?
    public var timezone: String?

    public init(
        stopId: String, code: String? = nil, name: String, lat: Double, lon: Double, locationType: Int = 0,
        parentStation: String? = nil, platformCode: String? = nil, wheelchairBoarding: Int = 0,
        primaryRouteType: Int? = nil, mode: String? = nil, distanceMetres: Double? = nil, timezone: String? = nil
    ) {
        self.stopId = stopId
        self.code = code
        self.name = name
        self.lat = lat
        self.lon = lon
        self.locationType = locationType
        self.parentStation = parentStation
        self.platformCode = platformCode
        self.wheelchairBoarding = wheelchairBoarding
        self.primaryRouteType = primaryRouteType
        self.mode = mode
        self.distanceMetres = distanceMetres
        self.timezone = timezone
    }
}

public struct Route: Sendable, Hashable {
    public var routeId: String
    public var agencyId: String?
    public var shortName: String?
    public var longName: String?
    public var routeType: Int
    public var mode: String
    /// "#RRGGBB" or nil when the feed gives none.
    public var color: String?
    public var textColor: String?
    /// A–Z index key of the route list: an uppercase letter, or "#" for digits and other characters.
    public var section: String
    /// Name of the feed the route was imported from.
    public var feed: String?

    public init(
        routeId: String, agencyId: String? = nil, shortName: String? = nil, longName: String? = nil,
        routeType: Int, mode: String, color: String? = nil, textColor: String? = nil, section: String, feed: String? = nil
    ) {
        self.routeId = routeId
        self.agencyId = agencyId
        self.shortName = shortName
        self.longName = longName
        self.routeType = routeType
        self.mode = mode
        self.color = color
        self.textColor = textColor
        self.section = section
        self.feed = feed
    }
}

public struct StopResult: Sendable, Hashable {
    public var stop: Stop
    public var parent: Stop?
    public var platforms: [Stop]
    public var routes: [Route]
    public init(stop: Stop, parent: Stop? = nil, platforms: [Stop] = [], routes: [Route] = []) {
        self.stop = stop
        self.parent = parent
        self.platforms = platforms
        self.routes = routes
    }
}

public struct Departure: Sendable, Hashable {
    public var tripId: String
    /// HH:MM:SS the trip instance starts: its first departure, for a frequency-based trip the instance's
    /// start. Nil only for a row made from live data that names no start.
    public var startTime: String?
    /// `startTime` names a frequencies.txt instance; only then is it part of the instance's key.
    public var frequencyBased: Bool
    public var route: Route
    public var headsign: String?
    /// The platform or stop the trip departs from.
    public var stopId: String
    public var stopSequence: UInt32
    /// 0-based position in the trip's stop list.
    public var stopIndex: UInt32
    public var serviceDate: ServiceDate
    /// Seconds since the service day's noon minus 12 h (may exceed 86400).
    public var scheduledSecs: Int32
    public var scheduledUnix: Int64
    public var platform: String?
    public var wheelchairAccessible: Int
    public var directionId: Int?

    public init(
        tripId: String, startTime: String? = nil, route: Route, headsign: String?, stopId: String,
        stopSequence: UInt32, stopIndex: UInt32, serviceDate: ServiceDate, scheduledSecs: Int32,
        scheduledUnix: Int64, platform: String? = nil, wheelchairAccessible: Int = 0, directionId: Int? = nil,
        frequencyBased: Bool = false
    ) {
        self.tripId = tripId
        self.startTime = startTime
        self.frequencyBased = frequencyBased
        self.route = route
        self.headsign = headsign
        self.stopId = stopId
        self.stopSequence = stopSequence
        self.stopIndex = stopIndex
        self.serviceDate = serviceDate
        self.scheduledSecs = scheduledSecs
        self.scheduledUnix = scheduledUnix
        self.platform = platform
        self.wheelchairAccessible = wheelchairAccessible
        self.directionId = directionId
    }

    /// The start that tells this trip's instances apart (`TripInstanceKey`): frequency-based trips only.
    public var instanceStartTime: String? { frequencyBased ? startTime : nil }
}

public struct DepartureBoard: Sendable, Hashable {
    public var stopId: String
    public var at: Int64
    public var direction: BoardDirection
    /// Ascending by scheduled time, also for a past board.
    public var departures: [Departure]
    public var earlierCursor: String?
    public var laterCursor: String?
    public var hasMorePast: Bool
    public var hasMoreFuture: Bool
    public var timezone: String?

    public init(
        stopId: String, at: Int64, direction: BoardDirection, departures: [Departure], earlierCursor: String? = nil,
        laterCursor: String? = nil, hasMorePast: Bool = false, hasMoreFuture: Bool = false, timezone: String? = nil
    ) {
        self.stopId = stopId
        self.at = at
        self.direction = direction
        self.departures = departures
        self.earlierCursor = earlierCursor
        self.laterCursor = laterCursor
        self.hasMorePast = hasMorePast
        self.hasMoreFuture = hasMoreFuture
        self.timezone = timezone
    }
}

public struct TripStop: Sendable, Hashable {
    public var stopId: String
    public var stopName: String
    public var stopSequence: UInt32
    public var arrivalSecs: Int32
    public var departureSecs: Int32
    public var arrivalUnix: Int64
    public var departureUnix: Int64
    public var lat: Double
    public var lon: Double
    public var platformCode: String?
    public var wheelchairBoarding: Int
    public var pickupType: Int
    public var dropOffType: Int
    public var stopHeadsign: String?
    public var parentStation: String?

    public init(
        stopId: String, stopName: String, stopSequence: UInt32, arrivalSecs: Int32, departureSecs: Int32,
        arrivalUnix: Int64, departureUnix: Int64, lat: Double, lon: Double, platformCode: String? = nil,
        wheelchairBoarding: Int = 0, pickupType: Int = 0, dropOffType: Int = 0, stopHeadsign: String? = nil,
        parentStation: String? = nil
    ) {
        self.stopId = stopId
        self.stopName = stopName
        self.stopSequence = stopSequence
        self.arrivalSecs = arrivalSecs
        self.departureSecs = departureSecs
        self.arrivalUnix = arrivalUnix
        self.departureUnix = departureUnix
        self.lat = lat
        self.lon = lon
        self.platformCode = platformCode
        self.wheelchairBoarding = wheelchairBoarding
        self.pickupType = pickupType
        self.dropOffType = dropOffType
        self.stopHeadsign = stopHeadsign
        self.parentStation = parentStation
    }
}

public struct TripDetail: Sendable, Hashable {
    public var tripId: String
    public var route: Route
    public var headsign: String?
    public var directionId: Int?
    public var serviceDate: ServiceDate
    /// HH:MM:SS: the first departure, or the frequency instance's start.
    public var startTime: String
    public var frequencyBased: Bool
    public var wheelchairAccessible: Int
    public var bikesAllowed: Int
    public var blockId: String?
    public var shapeId: String?
    public var shortName: String?
    public var timezone: String
    public var stops: [TripStop]

    public init(
        tripId: String, route: Route, headsign: String?, directionId: Int?, serviceDate: ServiceDate,
        startTime: String, frequencyBased: Bool, wheelchairAccessible: Int = 0, bikesAllowed: Int = 0,
        blockId: String? = nil, shapeId: String? = nil, shortName: String? = nil, timezone: String, stops: [TripStop]
    ) {
        self.tripId = tripId
        self.route = route
        self.headsign = headsign
        self.directionId = directionId
        self.serviceDate = serviceDate
        self.startTime = startTime
        self.frequencyBased = frequencyBased
        self.wheelchairAccessible = wheelchairAccessible
        self.bikesAllowed = bikesAllowed
        self.blockId = blockId
        self.shapeId = shapeId
        self.shortName = shortName
        self.timezone = timezone
        self.stops = stops
    }
}

/// One stop of a pattern: the stop sequence shared by trips with the same stops and time offsets.
public struct PatternStop: Sendable, Hashable {
    public var stopId: String
    public var stopSequence: UInt32
    /// Seconds after the trip's start time.
    public var arrivalOffset: Int32
    public var departureOffset: Int32
    public var pickupType: Int
    public var dropOffType: Int
    public init(stopId: String, stopSequence: UInt32, arrivalOffset: Int32, departureOffset: Int32, pickupType: Int = 0, dropOffType: Int = 0) {
        self.stopId = stopId
        self.stopSequence = stopSequence
        self.arrivalOffset = arrivalOffset
        self.departureOffset = departureOffset
        self.pickupType = pickupType
        self.dropOffType = dropOffType
    }
}

public struct Pattern: Sendable, Hashable {
    public var patternId: UInt32
    public var stops: [PatternStop]
    public init(patternId: UInt32, stops: [PatternStop]) {
        self.patternId = patternId
        self.stops = stops
    }
}

public struct FrequencyWindow: Sendable, Hashable {
    public var startSecs: Int32
    public var endSecs: Int32
    public var headwaySecs: Int32
    public var exactTimes: Bool
    public init(startSecs: Int32, endSecs: Int32, headwaySecs: Int32, exactTimes: Bool) {
        self.startSecs = startSecs
        self.endSecs = endSecs
        self.headwaySecs = headwaySecs
        self.exactTimes = exactTimes
    }
}

public struct TripSchedule: Sendable, Hashable {
    public var tripId: String
    public var routeId: String
    public var routeType: Int
    public var directionId: Int?
    public var patternId: UInt32
    /// First time of the trip (the template start for frequency-based trips).
    public var startSecs: Int32
    public var frequencies: [FrequencyWindow]
    /// Dates within the asked range on which the trip runs.
    public var serviceDates: [ServiceDate]
    public var timezone: String

    public init(
        tripId: String, routeId: String, routeType: Int, directionId: Int?, patternId: UInt32, startSecs: Int32,
        frequencies: [FrequencyWindow] = [], serviceDates: [ServiceDate], timezone: String
    ) {
        self.tripId = tripId
        self.routeId = routeId
        self.routeType = routeType
        self.directionId = directionId
        self.patternId = patternId
        self.startSecs = startSecs
        self.frequencies = frequencies
        self.serviceDates = serviceDates
        self.timezone = timezone
    }
}

public struct TripSchedules: Sendable, Hashable {
    public var databaseVersion: String
    public var patterns: [Pattern]
    public var trips: [TripSchedule]
    public var unknownTripIds: [String]
    /// For each `TripSchedulesQuery.descriptors` entry, in order: the ids of the static trips it matches
    /// (empty: none; more than one: ambiguous).
    public var descriptorMatches: [[String]]
    public init(databaseVersion: String, patterns: [Pattern], trips: [TripSchedule], unknownTripIds: [String],
                descriptorMatches: [[String]] = []) {
        self.databaseVersion = databaseVersion
        self.patterns = patterns
        self.trips = trips
        self.unknownTripIds = unknownTripIds
        self.descriptorMatches = descriptorMatches
    }
}

public struct FeedSummary: Sendable, Hashable {
    public var name: String
    public var prefix: String?
    public var publisher: String?
    public var version: String?
    public var startDate: ServiceDate?
    public var endDate: ServiceDate?
    public var timezone: String
    public var lang: String?
    public var importedAt: Int64
    public var stops: UInt64
    public var routes: UInt64
    public var trips: UInt64
    public var stopTimes: UInt64
    public var source: String?

    public init(
        name: String, prefix: String? = nil, publisher: String? = nil, version: String? = nil,
        startDate: ServiceDate? = nil, endDate: ServiceDate? = nil, timezone: String, lang: String? = nil,
        importedAt: Int64, stops: UInt64, routes: UInt64, trips: UInt64, stopTimes: UInt64, source: String? = nil
    ) {
        self.name = name
        self.prefix = prefix
        self.publisher = publisher
        self.version = version
        self.startDate = startDate
        self.endDate = endDate
        self.timezone = timezone
        self.lang = lang
        self.importedAt = importedAt
        self.stops = stops
        self.routes = routes
        self.trips = trips
        self.stopTimes = stopTimes
        self.source = source
    }
}

public struct FeedInfo: Sendable, Hashable {
    public var databaseVersion: String
    public var importedAt: Int64
    public var feeds: [FeedSummary]
    public var stops: UInt64
    public var routes: UInt64
    public var trips: UInt64
    public var stopTimes: UInt64
    public var patterns: UInt64

    public init(
        databaseVersion: String, importedAt: Int64, feeds: [FeedSummary], stops: UInt64, routes: UInt64,
        trips: UInt64, stopTimes: UInt64, patterns: UInt64
    ) {
        self.databaseVersion = databaseVersion
        self.importedAt = importedAt
        self.feeds = feeds
        self.stops = stops
        self.routes = routes
        self.trips = trips
        self.stopTimes = stopTimes
        self.patterns = patterns
    }
}

public enum StaticResult: Sendable, Hashable {
    case stop(StopResult)
    case stops([Stop])
    case routes([Route])
    case departures(DepartureBoard)
    case trip(TripDetail)
    case tripSchedules(TripSchedules)
    case feedInfo(FeedInfo)
}

/// Error statuses shared by the services (protocol/transit.proto `Status`).
public enum ServiceStatus: Int, Sendable, Hashable {
    case ok = 0
    case notFound = 1
    case invalidArgument = 2
    case unavailable = 3
    case `internal` = 4
    case badRequest = 5
}

public struct ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var status: ServiceStatus
    public var message: String
    public init(_ status: ServiceStatus, _ message: String) {
        self.status = status
        self.message = message
    }
    public var description: String { "\(status): \(message)" }
}

public struct StaticResponse: Sendable, Hashable {
    public var requestId: UInt64
    public var result: Result<StaticResult, ServiceError>
    public init(requestId: UInt64, result: Result<StaticResult, ServiceError>) {
        self.requestId = requestId
        self.result = result
    }
}
