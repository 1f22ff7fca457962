import Synchronization

// Results of the static-data service. Mirrors protocol/transit.proto. Optionals are values GTFS allows
// to be absent; the JSON writer prints them as null.

/// A GTFS stop, platform, station or entrance as the static service reports it.
public struct Stop: Sendable, Hashable {
    /// The stop's id as imported (stop ids never carry an import prefix).
    public var stopId: String
    /// GTFS stop_code: the short number shown to riders; nil when the feed gives none.
    public var code: String?
    /// GTFS stop_name.
    public var name: String
    /// Latitude in degrees (WGS 84).
    public var lat: Double
    /// Longitude in degrees (WGS 84).
    public var lon: Double
    /// GTFS location_type: 0 stop/platform, 1 station, 2 entrance, 3 node, 4 boarding area.
    public var locationType: Int
    /// The stop_id of the station it belongs to; nil for a stop without one.
    public var parentStation: String?
    /// GTFS platform_code ("1", "M1", "A"); nil when the feed gives none.
    public var platformCode: String?
    /// GTFS wheelchair_boarding 0/1/2.
    public var wheelchairBoarding: Int
    /// The route type with the most scheduled trips at the stop (and its children); nil if none.
    public var primaryRouteType: Int?
    /// `mode` of primaryRouteType.
    public var mode: String?
    /// Set by nearby only.
    public var distanceMetres: Double?
    /// IANA time zone: stop_timezone, else its station's, else the feed's agency timezone.
    public var timezone: String?

    /// A stop; the defaults are GTFS's (location_type 0, wheelchair_boarding 0) and "not given".
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

/// A GTFS route as the static service reports it.
public struct Route: Sendable, Hashable {
    /// The route's id as imported (with the feed's id prefix, if any).
    public var routeId: String
    /// GTFS agency_id; nil when the feed has a single agency and leaves it out.
    public var agencyId: String?
    /// GTFS route_short_name ("T1", "333").
    public var shortName: String?
    /// GTFS route_long_name.
    public var longName: String?
    /// GTFS route_type, extended types (e.g. 700 bus) included.
    public var routeType: Int
    /// The mode of `routeType`: train, metro, bus, coach, ferry, tram, cable or other.
    public var mode: String
    /// "#RRGGBB" or nil when the feed gives none.
    public var color: String?
    /// "#RRGGBB" for text drawn on `color`, or nil when the feed gives none.
    public var textColor: String?
    /// A–Z index key of the route list: an uppercase letter, or "#" for digits and other characters.
    public var section: String
    /// Name of the feed the route was imported from.
    public var feed: String?

    /// A route; optional GTFS fields default to not given.
    public init(
        routeId: String, agencyId: String? = nil, shortName: String? = nil, longName: String? = nil,
        routeType: Int, mode: String, color: String? = nil, textColor: String? = nil, section: String,
        feed: String? = nil
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

/// The answer to a `stop` query.
public struct StopResult: Sendable, Hashable {
    /// The stop asked for.
    public var stop: Stop
    /// Its station, when the stop is a platform or entrance of one.
    public var parent: Stop?
    /// The station's platforms and boarding areas (location_type 0 and 4); empty for a plain stop.
    public var platforms: [Stop]
    /// Routes serving the stop (for a station: serving any of its platforms).
    public var routes: [Route]
    /// The answer for `stop`.
    public init(stop: Stop, parent: Stop? = nil, platforms: [Stop] = [], routes: [Route] = []) {
        self.stop = stop
        self.parent = parent
        self.platforms = platforms
        self.routes = routes
    }
}

/// One scheduled departure of a trip instance from a stop: a row of a `DepartureBoard`.
///
/// A value with its fields in one shared, copy-on-write box: the gateway copies a board's rows several times
/// per answer (cached window → page → merge → answer), and a copy of the fourteen fields inline cost a
/// 200-byte move and a retain per string (about 5 % of the gateway's CPU at 64 connections). A copy is now one
/// retain; a change makes a new box.
public struct Departure: Sendable, Hashable, CustomStringConvertible {
    /// The fields, as the memberwise struct they were.
    private struct Fields: Hashable, Sendable {
        var tripId: String
        var startTime: String?
        var frequencyBased: Bool
        var route: Route
        var headsign: String?
        var stopId: String
        var stopSequence: UInt32
        var stopIndex: UInt32
        var serviceDate: ServiceDate
        var scheduledSecs: Int32
        var scheduledUnix: Int64
        var platform: String?
        var wheelchairAccessible: Int
        var directionId: Int?
    }

    /// Immutable (a change makes a new box): reads need no exclusivity check, and sharing is safe. `encoding`
    /// is filled once, by `withCachedEncoding`.
    private final class Box: Sendable {
        let fields: Fields
        /// The encoding, once made, held +1 here (released in `deinit`). Read by an atomic load and a
        /// borrowed reference, not a lock and a retain: a cached board window's rows are read by both event
        /// loops for every answer, and a lock or a retain is an atomic write to a cache line both cores then
        /// pull back and forth (the retains of this slot were 1.8 % of the gateway's CPU on departures).
        private let encoding = Atomic<Unmanaged<Encoding>?>(nil)

        init(_ fields: Fields) { self.fields = fields }

        deinit { encoding.load(ordering: .acquiring)?.release() }

        func withEncoding<R>(
            _ make: () -> [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> R
        ) rethrows -> R {
            var held = encoding.load(ordering: .acquiring)
            if held == nil {
                // Two threads may both make it; the first stored wins and the other's copy is released.
                let made = Unmanaged.passRetained(Encoding(bytes: make()))
                let (stored, current) = encoding.compareExchange(
                    expected: nil, desired: made, ordering: .acquiringAndReleasing)
                if !stored { made.release() }
                held = stored ? made : current
            }
            return try held!._withUnsafeGuaranteedRef { try $0.bytes.withUnsafeBufferPointer(body) }
        }
    }

    private final class Encoding: Sendable {
        let bytes: [UInt8]
        init(bytes: [UInt8]) { self.bytes = bytes }
    }

    private var box: Box

    /// The trip's id as imported (with the feed's id prefix, if any).
    public var tripId: String {
        _read { yield box.fields.tripId }
        set { change { $0.tripId = newValue } }
    }
    /// HH:MM:SS the trip instance starts: its first departure, for a frequency-based trip the instance's
    /// start. Nil only for a row made from live data that names no start.
    public var startTime: String? {
        _read { yield box.fields.startTime }
        set { change { $0.startTime = newValue } }
    }
    /// `startTime` names a frequencies.txt instance; only then is it part of the instance's key.
    public var frequencyBased: Bool {
        _read { yield box.fields.frequencyBased }
        set { change { $0.frequencyBased = newValue } }
    }
    /// The trip's route.
    public var route: Route {
        _read { yield box.fields.route }
        set { change { $0.route = newValue } }
    }
    /// stop_headsign, else trip_headsign; nil when the feed gives neither.
    public var headsign: String? {
        _read { yield box.fields.headsign }
        set { change { $0.headsign = newValue } }
    }
    /// The platform or stop the trip departs from.
    public var stopId: String {
        _read { yield box.fields.stopId }
        set { change { $0.stopId = newValue } }
    }
    /// GTFS stop_sequence of this stop in the trip.
    public var stopSequence: UInt32 {
        _read { yield box.fields.stopSequence }
        set { change { $0.stopSequence = newValue } }
    }
    /// 0-based position in the trip's stop list.
    public var stopIndex: UInt32 {
        _read { yield box.fields.stopIndex }
        set { change { $0.stopIndex = newValue } }
    }
    /// The service date of the trip instance (may be the day before the departure's calendar day).
    public var serviceDate: ServiceDate {
        _read { yield box.fields.serviceDate }
        set { change { $0.serviceDate = newValue } }
    }
    /// Seconds since the service day's noon minus 12 h (may exceed 86400).
    public var scheduledSecs: Int32 {
        _read { yield box.fields.scheduledSecs }
        set { change { $0.scheduledSecs = newValue } }
    }
    /// The scheduled departure in unix seconds.
    public var scheduledUnix: Int64 {
        _read { yield box.fields.scheduledUnix }
        set { change { $0.scheduledUnix = newValue } }
    }
    /// platform_code of `stopId`, when it has one.
    public var platform: String? {
        _read { yield box.fields.platform }
        set { change { $0.platform = newValue } }
    }
    /// GTFS wheelchair_accessible of the trip: 0 unknown, 1 yes, 2 no.
    public var wheelchairAccessible: Int {
        _read { yield box.fields.wheelchairAccessible }
        set { change { $0.wheelchairAccessible = newValue } }
    }
    /// GTFS direction_id of the trip; nil when the feed leaves it out.
    public var directionId: Int? {
        _read { yield box.fields.directionId }
        set { change { $0.directionId = newValue } }
    }

    /// A departure row; optional GTFS fields default to not given.
    public init(
        tripId: String, startTime: String? = nil, route: Route, headsign: String?, stopId: String,
        stopSequence: UInt32, stopIndex: UInt32, serviceDate: ServiceDate, scheduledSecs: Int32,
        scheduledUnix: Int64, platform: String? = nil, wheelchairAccessible: Int = 0, directionId: Int? = nil,
        frequencyBased: Bool = false
    ) {
        box = Box(
            Fields(
                tripId: tripId, startTime: startTime, frequencyBased: frequencyBased, route: route,
                headsign: headsign, stopId: stopId, stopSequence: stopSequence, stopIndex: stopIndex,
                serviceDate: serviceDate, scheduledSecs: scheduledSecs, scheduledUnix: scheduledUnix,
                platform: platform, wheelchairAccessible: wheelchairAccessible, directionId: directionId))
    }

    /// The start that tells this trip's instances apart (`TripInstanceKey`): frequency-based trips only.
    public var instanceStartTime: String? { frequencyBased ? startTime : nil }

    /// Equal fields (the same box is equal at once).
    public static func == (a: Departure, b: Departure) -> Bool {
        a.box === b.box || a.box.fields == b.box.fields
    }

    /// Hashes the fields, as the memberwise struct did.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.fields)
    }

    /// Reads like the plain struct it was: "Departure(tripId: …, …)".
    public var description: String { "Departure" + String(describing: box.fields).drop { $0 != "(" } }

    /// The bytes `encode` makes of this departure, made the first time and kept with its fields, handed to
    /// `body`: a cached board window's rows are encoded again for every answer it serves, and their fixed
    /// part (trip, route, headsign, stop) is most of a row's JSON. One slot, for one encoding (GatewayProtocol's
    /// departure row); `encode` must read the fields only. A change to the departure makes a new box, so it
    /// starts empty.
    public func withCachedEncoding<R>(
        _ encode: (Departure) -> [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        try box.withEncoding({ encode(self) }, body)
    }

    /// Changes the fields, in a new box (rows are seldom changed once made).
    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = box.fields
        body(&fields)
        box = Box(fields)
    }
}

/// The answer to a `departures` query: one page of a stop's board, with cursors to page on.
public struct DepartureBoard: Sendable, Hashable {
    /// The stop the board was asked for.
    public var stopId: String
    /// The board's instant, in unix seconds (the query's `at`, or now).
    public var at: Int64
    /// The direction the page was fetched in.
    public var direction: BoardDirection
    /// Ascending by scheduled time, also for a past board.
    public var departures: [Departure]
    /// Continues before the first departure (a `DeparturesQuery.cursor`); nil when there is none.
    public var earlierCursor: String?
    /// Continues after the last departure; nil when there is none.
    public var laterCursor: String?
    /// Whether departures exist before this page.
    public var hasMorePast: Bool
    /// Whether departures exist after this page.
    public var hasMoreFuture: Bool
    /// IANA time zone of the stop (as `Stop.timezone`).
    public var timezone: String?

    /// A board page; without cursors and with no more departures on either side unless told.
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

/// One stop of a `TripDetail`, with its scheduled times on the instance's service date.
public struct TripStop: Sendable, Hashable {
    /// The stop's id.
    public var stopId: String
    /// The stop's name.
    public var stopName: String
    /// GTFS stop_sequence.
    public var stopSequence: UInt32
    /// Scheduled arrival in GTFS seconds (since the service day's noon minus 12 h; may exceed 86400).
    public var arrivalSecs: Int32
    /// Scheduled departure in GTFS seconds.
    public var departureSecs: Int32
    /// Scheduled arrival in unix seconds.
    public var arrivalUnix: Int64
    /// Scheduled departure in unix seconds.
    public var departureUnix: Int64
    /// Latitude of the stop in degrees.
    public var lat: Double
    /// Longitude of the stop in degrees.
    public var lon: Double
    /// GTFS platform_code of the stop, when it has one.
    public var platformCode: String?
    /// GTFS wheelchair_boarding of the stop: 0 unknown, 1 possible, 2 not possible.
    public var wheelchairBoarding: Int
    /// GTFS pickup_type: 0 regular, 1 none, 2 phone the agency, 3 ask the driver.
    public var pickupType: Int
    /// GTFS drop_off_type, with pickup_type's values.
    public var dropOffType: Int
    /// GTFS stop_headsign, when the stop time has one.
    public var stopHeadsign: String?
    /// The stop_id of the stop's station, when it has one.
    public var parentStation: String?

    /// A stop of a trip; optional GTFS fields default to not given or 0.
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

/// The answer to a `trip` query: one trip instance with every stop.
public struct TripDetail: Sendable, Hashable {
    /// The trip's id as imported (with the feed's id prefix, if any).
    public var tripId: String
    /// The trip's route.
    public var route: Route
    /// GTFS trip_headsign; nil when the feed gives none.
    public var headsign: String?
    /// GTFS direction_id; nil when the feed leaves it out.
    public var directionId: Int?
    /// The service date of the instance.
    public var serviceDate: ServiceDate
    /// HH:MM:SS: the first departure, or the frequency instance's start.
    public var startTime: String
    /// Whether the trip runs from frequencies.txt (then `startTime` names the instance).
    public var frequencyBased: Bool
    /// GTFS wheelchair_accessible: 0 unknown, 1 yes, 2 no.
    public var wheelchairAccessible: Int
    /// GTFS bikes_allowed: 0 unknown, 1 yes, 2 no.
    public var bikesAllowed: Int
    /// GTFS block_id, when given.
    public var blockId: String?
    /// GTFS shape_id, when given.
    public var shapeId: String?
    /// GTFS trip_short_name, when given.
    public var shortName: String?
    /// IANA time zone of the trip's agency: the zone of its GTFS seconds.
    public var timezone: String
    /// Every stop of the instance in stop_sequence order.
    public var stops: [TripStop]
    /// The values of `at` (unix seconds) for which the trip asked without a service date is this instance
    /// (the static service's choice, `StaticStore.trip(id:at:)`); nil when not known (frequency-based trips).
    public var undatedRange: Range<Int64>?

    /// A trip instance; optional GTFS fields default to not given or 0.
    public init(
        tripId: String, route: Route, headsign: String?, directionId: Int?, serviceDate: ServiceDate,
        startTime: String, frequencyBased: Bool, wheelchairAccessible: Int = 0, bikesAllowed: Int = 0,
        blockId: String? = nil, shapeId: String? = nil, shortName: String? = nil, timezone: String, stops: [TripStop],
        undatedRange: Range<Int64>? = nil
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
        self.undatedRange = undatedRange
    }
}

/// One stop of a pattern: the stop sequence shared by trips with the same stops and time offsets.
public struct PatternStop: Sendable, Hashable {
    /// The stop's id.
    public var stopId: String
    /// GTFS stop_sequence.
    public var stopSequence: UInt32
    /// Seconds after the trip's start time.
    public var arrivalOffset: Int32
    /// Seconds after the trip's start time.
    public var departureOffset: Int32
    /// GTFS pickup_type: 0 regular, 1 none, 2 phone the agency, 3 ask the driver.
    public var pickupType: Int
    /// GTFS drop_off_type, with pickup_type's values.
    public var dropOffType: Int
    /// GTFS timepoint: its times are exact (a vehicle early there waits); false for approximate times.
    public var timepoint: Bool
    /// A pattern stop; regular pickup and drop-off, a timepoint, unless told.
    public init(
        stopId: String, stopSequence: UInt32, arrivalOffset: Int32, departureOffset: Int32, pickupType: Int = 0,
        dropOffType: Int = 0, timepoint: Bool = true
    ) {
        self.stopId = stopId
        self.stopSequence = stopSequence
        self.arrivalOffset = arrivalOffset
        self.departureOffset = departureOffset
        self.pickupType = pickupType
        self.dropOffType = dropOffType
        self.timepoint = timepoint
    }
}

/// A stop pattern of `TripSchedules`: sent once, named by every trip that has it.
public struct Pattern: Sendable, Hashable {
    /// Unique within one `databaseVersion` (caches key patterns by both).
    public var patternId: UInt32
    /// The stops in stop_sequence order.
    public var stops: [PatternStop]
    /// Pattern `patternId` with `stops`.
    public init(patternId: UInt32, stops: [PatternStop]) {
        self.patternId = patternId
        self.stops = stops
    }
}

/// One frequencies.txt row of a trip: instances start every `headwaySecs` in [`startSecs`, `endSecs`).
public struct FrequencyWindow: Sendable, Hashable {
    /// First start, in GTFS seconds.
    public var startSecs: Int32
    /// End of the window (exclusive), in GTFS seconds.
    public var endSecs: Int32
    /// Seconds between starts.
    public var headwaySecs: Int32
    /// GTFS exact_times=1: the instances start exactly on schedule (0: only the headway is promised).
    public var exactTimes: Bool
    /// A window from `startSecs` to `endSecs` every `headwaySecs`.
    public init(startSecs: Int32, endSecs: Int32, headwaySecs: Int32, exactTimes: Bool) {
        self.startSecs = startSecs
        self.endSecs = endSecs
        self.headwaySecs = headwaySecs
        self.exactTimes = exactTimes
    }
}

/// One trip of `TripSchedules`: its pattern, start, frequencies and the dates it runs on.
public struct TripSchedule: Sendable, Hashable {
    /// The trip's id as imported (with the feed's id prefix, if any).
    public var tripId: String
    /// The trip's route id (with prefix).
    public var routeId: String
    /// GTFS route_type of the trip's route.
    public var routeType: Int
    /// GTFS direction_id; nil when the feed leaves it out.
    public var directionId: Int?
    /// The `Pattern` holding its stops and time offsets.
    public var patternId: UInt32
    /// First time of the trip (the template start for frequency-based trips).
    public var startSecs: Int32
    /// Its frequency windows; empty for a trip with fixed times.
    public var frequencies: [FrequencyWindow]
    /// Dates within the asked range on which the trip runs.
    public var serviceDates: [ServiceDate]
    /// IANA time zone of its feed's agency: the zone of its GTFS seconds.
    public var timezone: String

    /// A trip's schedule; no frequency windows unless told.
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

/// The answer to a `trip_schedules` query.
public struct TripSchedules: Sendable, Hashable {
    /// The version of the database that answered; patterns are cached per version.
    public var databaseVersion: String
    /// The patterns of `trips`, except those the query said it knows.
    public var patterns: [Pattern]
    /// The schedules of the asked trips that exist (and of the trips the descriptors matched).
    public var trips: [TripSchedule]
    /// Asked trip ids the database does not hold.
    public var unknownTripIds: [String]
    /// For each `TripSchedulesQuery.descriptors` entry, in order: the ids of the static trips it matches
    /// (empty: none; more than one: ambiguous).
    public var descriptorMatches: [[String]]
    /// The stations some stop of `patterns` belongs to, each with all its child stops.
    public var stations: [StationPlatforms]
    /// An answer; no descriptor matches or stations unless told.
    public init(
        databaseVersion: String, patterns: [Pattern], trips: [TripSchedule], unknownTripIds: [String],
        descriptorMatches: [[String]] = [], stations: [StationPlatforms] = []
    ) {
        self.databaseVersion = databaseVersion
        self.patterns = patterns
        self.trips = trips
        self.unknownTripIds = unknownTripIds
        self.descriptorMatches = descriptorMatches
        self.stations = stations
    }
}

/// A station (a stop that is some stops' parent_station) and its child stops.
public struct StationPlatforms: Sendable, Hashable {
    /// The station's stop_id.
    public var stationId: String
    /// Its child stops (platforms, boarding areas), by stop_id.
    public var platforms: [StationPlatform]
    /// A station with these child stops.
    public init(stationId: String, platforms: [StationPlatform]) {
        self.stationId = stationId
        self.platforms = platforms
    }
}

/// One child stop of a station.
public struct StationPlatform: Sendable, Hashable {
    /// The stop's id.
    public var stopId: String
    /// stops.txt platform_code, when given.
    public var platformCode: String?
    /// A child stop.
    public init(stopId: String, platformCode: String? = nil) {
        self.stopId = stopId
        self.platformCode = platformCode
    }
}

/// One imported feed, as `FeedInfo` lists it.
public struct FeedSummary: Sendable, Hashable {
    /// The name the feed was imported under.
    public var name: String
    /// The id prefix its trip, route and agency ids got at import; nil: none.
    public var prefix: String?
    /// feed_info.txt feed_publisher_name, when given.
    public var publisher: String?
    /// feed_info.txt feed_version, when given.
    public var version: String?
    /// feed_info.txt feed_start_date, when given.
    public var startDate: ServiceDate?
    /// feed_info.txt feed_end_date, when given.
    public var endDate: ServiceDate?
    /// IANA time zone of the feed's agencies.
    public var timezone: String
    /// feed_info.txt feed_lang, when given.
    public var lang: String?
    /// When it was imported, in unix seconds.
    public var importedAt: Int64
    /// Number of stops imported from it.
    public var stops: UInt64
    /// Number of routes imported from it.
    public var routes: UInt64
    /// Number of trips imported from it.
    public var trips: UInt64
    /// Number of stop times imported from it.
    public var stopTimes: UInt64
    /// The path it was imported from.
    public var source: String?
    /// What `transit-static refresh` last did with it; nil: not refreshed from a URL.
    public var refresh: FeedRefreshStatus?

    /// A feed summary; feed_info.txt fields default to not given.
    public init(
        name: String, prefix: String? = nil, publisher: String? = nil, version: String? = nil,
        startDate: ServiceDate? = nil, endDate: ServiceDate? = nil, timezone: String, lang: String? = nil,
        importedAt: Int64, stops: UInt64, routes: UInt64, trips: UInt64, stopTimes: UInt64, source: String? = nil,
        refresh: FeedRefreshStatus? = nil
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
        self.refresh = refresh
    }
}

/// What the refresher last did with one URL feed (protocol/README.md flow 9); times in unix seconds. Codable:
/// the refresher's state file holds it, the static service reads it into `feed_info`.
public struct FeedRefreshStatus: Sendable, Hashable, Codable {
    /// The feed's URL without user info and query.
    public var source: String
    /// When it was last checked.
    public var lastCheck: Int64?
    /// When new bytes of the feed were last put in place.
    public var lastChange: Int64?
    /// When it is checked next (sooner on a wake).
    public var nextCheck: Int64?
    /// The last check's failure (network, HTTP status, not a zip, import error, refusal); nil after a good check.
    public var lastError: String?
    /// When `lastError` happened.
    public var lastErrorAt: Int64?
    /// Checks failed in a row.
    public var consecutiveFailures: Int
    /// Why the bytes the server offers now were refused (not fetched again until they change); nil once a
    /// version is taken.
    public var refused: String?

    /// A status; a feed never checked has only its source.
    public init(
        source: String, lastCheck: Int64? = nil, lastChange: Int64? = nil, nextCheck: Int64? = nil,
        lastError: String? = nil, lastErrorAt: Int64? = nil, consecutiveFailures: Int = 0, refused: String? = nil
    ) {
        self.source = source
        self.lastCheck = lastCheck
        self.lastChange = lastChange
        self.nextCheck = nextCheck
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
        self.consecutiveFailures = consecutiveFailures
        self.refused = refused
    }
}

/// The answer to a `feed_info` query: the served database and its feeds.
public struct FeedInfo: Sendable, Hashable {
    /// Identifies one import: a new import gets a new version (caches keyed by it go stale).
    public var databaseVersion: String
    /// When the database was imported, in unix seconds.
    public var importedAt: Int64
    /// The feeds it was imported from.
    public var feeds: [FeedSummary]
    /// Number of stops, all feeds together.
    public var stops: UInt64
    /// Number of routes, all feeds together.
    public var routes: UInt64
    /// Number of trips, all feeds together.
    public var trips: UInt64
    /// Number of stop times, all feeds together.
    public var stopTimes: UInt64
    /// Number of distinct stop patterns.
    public var patterns: UInt64
    /// The dates that run a Saturday or Sunday timetable on another weekday (`timetable_days`).
    public var dayTypes: DayTypeCalendar

    /// A feed info answer.
    public init(
        databaseVersion: String, importedAt: Int64, feeds: [FeedSummary], stops: UInt64, routes: UInt64,
        trips: UInt64, stopTimes: UInt64, patterns: UInt64, dayTypes: DayTypeCalendar = DayTypeCalendar()
    ) {
        self.dayTypes = dayTypes
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

/// A successful answer of the static-data service; one case per kind of `StaticQuery` (search and
/// nearby both answer `stops`).
public enum StaticResult: Sendable, Hashable {
    case stop(StopResult)
    case stops([Stop])
    case routes([Route])
    case departures(DepartureBoard)
    case trip(TripDetail)
    case tripSchedules(TripSchedules)
    case feedInfo(FeedInfo)
    case shape(Shape)
    case route(RouteDetail)
    case plan(PlanAnswer)
}

/// Error statuses shared by the services (protocol/transit.proto `Status`). The raw values run from 0 without a
/// gap, so each is also the status's position in `allCases`.
public enum ServiceStatus: Int, Sendable, Hashable, CaseIterable {
    case ok = 0
    case notFound = 1
    case invalidArgument = 2
    case unavailable = 3
    case `internal` = 4
    case badRequest = 5
}

/// A failed request to a service: a status and a message for the client (`INTERNAL` ones are also logged).
public struct ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public var status: ServiceStatus
    /// Says what was wrong, e.g. which field and what was expected.
    public var message: String
    /// A failure `status` with `message`.
    public init(_ status: ServiceStatus, _ message: String) {
        self.status = status
        self.message = message
    }
    /// "status: message".
    public var description: String { "\(status): \(message)" }
}

/// The static-data service's answer to a `StaticRequest`.
public struct StaticResponse: Sendable, Hashable {
    /// The request's id.
    public var requestId: UInt64
    /// The answer, or why there is none.
    public var result: Result<StaticResult, ServiceError>
    /// The name of the replica that answered, when it says (several replicas can serve one REQ socket).
    public var servedBy: String?
    /// The database version the answer was read from, when the service says (replicas may differ mid-rollout).
    public var databaseVersion: String?
    /// The answer to request `requestId`, from the replica named `servedBy`, read from `databaseVersion`.
    public init(
        requestId: UInt64, result: Result<StaticResult, ServiceError>, servedBy: String? = nil,
        databaseVersion: String? = nil
    ) {
        self.requestId = requestId
        self.result = result
        self.servedBy = servedBy
        self.databaseVersion = databaseVersion
    }
}
