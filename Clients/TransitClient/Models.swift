// Codable models of the gateway's answers (protocol/GATEWAY.md §5–6). Decoded with snake_case keys converted
// (`stop_id` → `stopId`). They tolerate older and newer servers: every field the protocol allows to be null,
// and every field added after the first release, is optional or defaults when missing (lists to `[]`), and
// unknown fields are ignored.
import Foundation

/// A list that decodes as `[]` when its field is missing (an older server) or null.
@propertyWrapper
public struct DefaultEmpty<Element: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: [Element]

    public init(wrappedValue: [Element]) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? [] : try container.decode([Element].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// A missing list field is an empty list.
    public func decode<Element>(_ type: DefaultEmpty<Element>.Type, forKey key: Key) throws -> DefaultEmpty<Element> {
        try decodeIfPresent(type, forKey: key) ?? DefaultEmpty(wrappedValue: [])
    }
}

/// `meta` of an answer or an event (GATEWAY.md §2). The live fields are nil on ops that do not read live state.
public struct AnswerMeta: Codable, Sendable, Hashable {
    /// The op answered.
    public var op: String?
    /// Microseconds from reading the line to the answer being ready.
    public var elapsedUs: Int?
    /// The unix time the answer was computed for: countdowns count from it.
    public var at: Int64?
    /// `static+rt`, `static_only` or `rt_only`.
    public var source: String?
    /// Realtime data the answer would have used was left out because it is old.
    public var stale: Bool?
    /// Seconds since the newest realtime feed of the answer's kind was produced.
    public var feedAgeS: Int?

    public init(
        op: String? = nil, elapsedUs: Int? = nil, at: Int64? = nil, source: String? = nil, stale: Bool? = nil,
        feedAgeS: Int? = nil
    ) {
        self.op = op
        self.elapsedUs = elapsedUs
        self.at = at
        self.source = source
        self.stale = stale
        self.feedAgeS = feedAgeS
    }
}

/// A successful answer: its `data` and `meta`.
public struct Answer<Payload: Decodable & Sendable>: Decodable, Sendable {
    /// The op's answer.
    public var data: Payload
    /// Timing and, for live ops, where the answer came from.
    public var meta: AnswerMeta
    /// The gateway's answer line as it came (what `transit --json` prints: every field, in the gateway's
    /// order, nulls included, whatever this library's models know of it). Empty for an answer made in code.
    public var line: Data = Data()

    private enum CodingKeys: String, CodingKey { case data, meta }
}

/// `delay_badge` and the `banner` of an alert share these three.
public struct Badge: Codable, Sendable, Hashable {
    /// "+2 min"; an alert banner has an `icon` instead (and no text).
    public var text: String?
    /// An SF Symbol name (banners).
    public var icon: String?
    /// A semantic colour name: green, gray, orange, red, yellow.
    public var color: String
    /// "2 minutes late".
    public var accessibilityLabel: String?
}

/// A stop, station or platform (GATEWAY.md §5 stop).
public struct Stop: Codable, Sendable, Hashable {
    public var stopId: String
    public var code: String?
    public var name: String
    public var lat: Double?
    public var lon: Double?
    public var locationType: Int?
    public var parentStation: String?
    public var platformCode: String?
    public var wheelchairBoarding: Int?
    public var primaryRouteType: Int?
    public var mode: String?
    public var icon: String?
    public var accessibilityLabel: String?
    public var timezone: String?
    public var distanceM: Int?
}

/// A route (GATEWAY.md §5 route).
public struct Route: Codable, Sendable, Hashable {
    public var routeId: String
    public var agencyId: String?
    public var shortName: String?
    public var longName: String?
    public var routeType: Int?
    public var mode: String?
    public var icon: String?
    public var color: String?
    public var textColor: String?
    /// A–Z index key; computed by `RouteSections.key(for:)` from the name when an older server sends none.
    public var section: String?
    public var feed: String?

    /// The name a list shows: the short name, else the long name, else the id.
    public var displayName: String { shortName ?? longName ?? routeId }
}

/// One carriage of a train: its place and how full it is (GATEWAY.md §5 carriage).
public struct Carriage: Codable, Sendable, Hashable {
    public var position: Int?
    public var name: String?
    public var occupancyStatus: String?
    public var quiet: Bool?
    public var toilet: String?
    public var luggageRack: Bool?
}

/// One row of a departure board.
public struct Departure: Codable, Sendable, Hashable {
    public var tripId: String
    public var startTime: String?
    public var routeId: String
    public var routeShortName: String?
    public var routeLongName: String?
    public var routeType: Int?
    public var mode: String?
    public var routeColor: String?
    public var routeTextColor: String?
    public var headsign: String?
    public var directionId: Int?
    public var stopId: String
    public var stopSequence: Int?
    public var serviceDate: String?
    public var scheduledSecs: Int?
    public var scheduledUnix: Int64?
    public var realtimeSecs: Int?
    public var realtimeUnix: Int64?
    public var delayS: Int?
    public var realtime: Bool?
    /// `scheduled`, `early`, `on_time`, `late`, `very_late`, `cancelled`, `skipped`, `added` (trip stops also
    /// `detoured`).
    public var status: String?
    public var delayBadge: Badge?
    public var minutesUntil: Int?
    public var countdownText: String?
    public var platform: String?
    public var platformChanged: Bool?
    public var scheduledPlatform: String?
    public var wheelchairAccessible: Int?
    public var occupancyStatus: String?
    @DefaultEmpty public var carriages: [Carriage]
    /// `stop_update`, `propagated`, `trip_delay`, `vehicle` or `schedule` (GATEWAY.md "Prediction sources").
    public var predictionSource: String?
    /// Seconds since the prediction was made; nil for the schedule.
    public var predictionAgeS: Int?
    /// The ids of the board's `alerts` that apply to this row.
    @DefaultEmpty public var alertIds: [String]
    /// How late this route usually leaves this stop at this hour; nil when too few departures were recorded.
    public var typicalDelay: TypicalDelay?
    /// The detour in effect for the row's trip (GATEWAY.md "Detours"); nil without one.
    public var detour: Detour?

    /// The row's time: predicted, else scheduled (nil only for a row with neither, which the gateway never sends).
    public var time: Int64? { realtimeUnix ?? scheduledUnix }
}

/// A detour (GTFS-Realtime trip modifications) in effect for a row's or a trip's instance.
public struct Detour: Codable, Sendable, Hashable {
    public var modificationsId: String
    /// The alerts describing it (also in the row's or stop's `alertIds`).
    @DefaultEmpty public var alertIds: [String]
    /// Trips only: the path while detoured, and its encoded polyline when the feed gave one.
    public var shapeId: String?
    public var polyline: String?
}

/// `page` of a departure board.
public struct Page: Codable, Sendable, Hashable {
    public var direction: String?
    public var earliestUnix: Int64?
    public var latestUnix: Int64?
    public var hasMorePast: Bool?
    public var hasMoreFuture: Bool?
    public var earlierCursor: String?
    public var laterCursor: String?
}

/// The `departures` answer and every subscription event's `data`.
public struct Board: Codable, Sendable, Hashable {
    public var stopId: String
    public var timezone: String?
    @DefaultEmpty public var departures: [Departure]
    public var page: Page?
    /// The alerts the rows' `alert_ids` name, once each.
    @DefaultEmpty public var alerts: [Alert]
}

/// `typical_delay` of a departure row or a trip stop (GATEWAY.md "typical delay").
public struct TypicalDelay: Codable, Sendable, Hashable {
    public var p50S: Int?
    public var p90S: Int?
    public var samples: Int?
    /// `stop` or `route` (the route's own slice stood in).
    public var level: String?
    public var expectedBand: ExpectedBand?

    /// When a row without a live prediction will likely leave.
    public struct ExpectedBand: Codable, Sendable, Hashable {
        public var earliestUnix: Int64?
        public var latestUnix: Int64?
    }
}

/// The `stop` answer: a stop, its station, its platforms and the routes serving it.
public struct StopDetails: Codable, Sendable, Hashable {
    public var stop: Stop
    public var parent: Stop?
    @DefaultEmpty public var platforms: [Stop]
    @DefaultEmpty public var routes: [Route]
}

/// The `search` and `nearby` answers.
public struct StopList: Codable, Sendable, Hashable {
    @DefaultEmpty public var stops: [Stop]
}

/// One A–Z section of the `routes` answer.
public struct RouteSectionIndex: Codable, Sendable, Hashable {
    public var key: String
    public var firstIndex: Int
    public var count: Int
}

/// The `routes` answer.
public struct RouteList: Codable, Sendable, Hashable {
    @DefaultEmpty public var routes: [Route]
    @DefaultEmpty public var sections: [RouteSectionIndex]
}

/// A vehicle's position and state (GATEWAY.md §5 vehicle).
public struct Vehicle: Codable, Sendable, Hashable {
    public var vehicleId: String?
    public var label: String?
    public var tripId: String?
    public var routeId: String?
    public var serviceDate: String?
    public var startTime: String?
    public var lat: Double?
    public var lon: Double?
    public var bearing: Double?
    public var speedMps: Double?
    public var currentStopSequence: Int?
    public var stopId: String?
    public var currentStatus: String?
    public var occupancyStatus: String?
    public var occupancyPercentage: Int?
    public var congestionLevel: String?
    public var timestamp: Int64?
    public var airConditioned: Bool?
    public var wheelchairAccessible: Bool?
    public var model: String?
    @DefaultEmpty public var carriages: [Carriage]
    public var routeShortName: String?
    public var routeColor: String?
    public var mode: String?
    public var headsign: String?
}

/// The `vehicles` answer.
public struct VehicleList: Codable, Sendable, Hashable {
    @DefaultEmpty public var vehicles: [Vehicle]
}

/// One stop of a trip.
public struct TripStop: Codable, Sendable, Hashable {
    public var stopId: String
    public var stopName: String?
    public var stopSequence: Int?
    public var scheduledArrivalUnix: Int64?
    public var scheduledDepartureUnix: Int64?
    public var realtimeArrivalUnix: Int64?
    public var realtimeDepartureUnix: Int64?
    public var delayS: Int?
    public var status: String?
    public var delayBadge: Badge?
    public var platform: String?
    public var platformChanged: Bool?
    public var scheduledPlatform: String?
    public var wheelchairAccessible: Int?
    public var lat: Double?
    public var lon: Double?
    public var parentStation: String?
    public var occupancyStatus: String?
    @DefaultEmpty public var carriages: [Carriage]
    public var predictionSource: String?
    public var predictionAgeS: Int?
    @DefaultEmpty public var alertIds: [String]
    public var typicalDelay: TypicalDelay?
    /// With a detour: `kept`, `detoured` (not served) or `replacement` (served instead; no stop_sequence).
    public var detourRole: String?

    /// Departure (else arrival) time: predicted, else scheduled.
    public var time: Int64? {
        realtimeDepartureUnix ?? realtimeArrivalUnix ?? scheduledDepartureUnix ?? scheduledArrivalUnix
    }
}

/// The `trip` answer: a trip instance with its stops and vehicle.
public struct Trip: Codable, Sendable, Hashable {
    public var tripId: String
    public var serviceDate: String?
    public var startTime: String?
    public var frequencyBased: Bool?
    public var route: Route?
    public var headsign: String?
    public var shortName: String?
    public var directionId: Int?
    public var wheelchairAccessible: Int?
    public var timezone: String?
    public var realtime: Bool?
    public var status: String?
    public var vehicle: Vehicle?
    @DefaultEmpty public var stops: [TripStop]
    public var shapeId: String?
    /// The detour in effect for this instance; nil without one.
    public var detour: Detour?
    /// The alerts the stops' `alert_ids` name, once each.
    @DefaultEmpty public var alerts: [Alert]
}

/// An active period of an alert: [start, end), nil = open.
public struct ActivePeriod: Codable, Sendable, Hashable {
    public var start: Int64?
    public var end: Int64?
}

/// What an alert is about (a GTFS-Realtime EntitySelector).
public struct InformedEntity: Codable, Sendable, Hashable {
    public var agencyId: String?
    public var routeId: String?
    public var routeType: Int?
    public var directionId: Int?
    public var tripId: String?
    public var stopId: String?
}

/// A service alert (GATEWAY.md §5 alert).
public struct Alert: Codable, Sendable, Hashable {
    public var id: String
    public var header: String?
    public var description: String?
    public var url: String?
    public var cause: String?
    public var effect: String?
    public var severity: String?
    @DefaultEmpty public var activePeriods: [ActivePeriod]
    @DefaultEmpty public var informedEntities: [InformedEntity]
    @DefaultEmpty public var limitedToStopIds: [String]
    public var banner: Badge?
}

/// The `alerts` answer.
public struct AlertList: Codable, Sendable, Hashable {
    @DefaultEmpty public var alerts: [Alert]
}

/// One realtime source in `health`.
public struct SourceHealth: Codable, Sendable, Hashable {
    public var name: String
    public var kind: String?
    public var ageS: Int?
    public var stale: Bool?
    public var lastSuccessUnix: Int64?
    public var errors: Int?
    public var lastError: String?
    public var consecutiveErrors: Int?
    public var entities: Int?
}

/// A static feed's version and dates in `health`.
public struct FeedVersion: Codable, Sendable, Hashable {
    public var name: String
    public var version: String?
    public var startDate: String?
    public var endDate: String?
}

/// The `health` answer.
public struct Health: Codable, Sendable, Hashable {
    /// The static service as the gateway sees it.
    public struct Static: Codable, Sendable, Hashable {
        public var status: String
        public var downSinceUnix: Int64?
        public var error: String?
        public var databaseVersion: String?
        public var latencyUs: Int?
        @DefaultEmpty public var feeds: [FeedVersion]
    }
    /// The realtime service and its sources.
    public struct Realtime: Codable, Sendable, Hashable {
        public var status: String
        public var lastHeartbeatAgeS: Int?
        @DefaultEmpty public var sources: [SourceHealth]
    }
    /// The gateway itself.
    public struct Gateway: Codable, Sendable, Hashable {
        public var version: String?
        public var uptimeS: Int?
        public var connections: Int?
        public var subscriptions: Int?
    }
    /// `ok`, `degraded` or `down`.
    public var status: String
    public var `static`: Static?
    public var realtime: Realtime?
    public var gateway: Gateway?
}

/// One static feed in `feed_info`.
public struct FeedSummary: Codable, Sendable, Hashable {
    public var name: String
    public var publisher: String?
    public var version: String?
    public var startDate: String?
    public var endDate: String?
    public var timezone: String?
    public var stops: Int?
    public var routes: Int?
    public var trips: Int?
}

/// The `feed_info` answer.
public struct FeedInfo: Codable, Sendable, Hashable {
    public var databaseVersion: String?
    public var importedAt: Int64?
    public var stops: Int?
    public var routes: Int?
    public var trips: Int?
    public var stopTimes: Int?
    @DefaultEmpty public var feeds: [FeedSummary]
}

/// The `subscribe` answer.
public struct SubscriptionAck: Codable, Sendable, Hashable {
    public var sub: Int
    public var topic: String?
    public var stopId: String?
    public var limit: Int?
}

/// The `unsubscribe` answer.
public struct UnsubscribeAck: Codable, Sendable, Hashable {
    public var sub: Int
    public var unsubscribed: Bool?
}

/// The `auth` answer.
public struct AuthAck: Codable, Sendable, Hashable {
    public var authenticated: Bool
    public var required: Bool?
}

/// The parts of `stats` a client shows (the rest is ignored).
public struct Stats: Codable, Sendable, Hashable {
    public var uptimeS: Int?
    public var requests: Int?
    public var inFlight: Int?
}

/// The `shape` answer: a route's geometry as a Google encoded polyline (and GeoJSON on request).
public struct Shape: Codable, Sendable, Hashable {
    public var shapeId: String?
    public var tripId: String?
    /// `shapes` (shapes.txt) or `stops` (a straight line through the trip's stops).
    public var source: String?
    public var pointCount: Int?
    public var polyline: String
    public var distances: [Double]?
    public var geojson: LineString?

    /// A GeoJSON LineString: `[lon, lat]` pairs.
    public struct LineString: Codable, Sendable, Hashable {
        public var type: String
        public var coordinates: [[Double]]
    }
}

/// The `route` answer: a route and its stop patterns.
public struct RouteDetails: Codable, Sendable, Hashable {
    public var route: Route
    /// The route's first and last departure on the date asked for (default: today).
    public var serviceSpan: ServiceSpan?
    public var spansByDayType: DayTypeSpans?
    /// "YYYYMMDD": the Monday of the week `spansByDayType` describes.
    public var typicalWeek: String?
    @DefaultEmpty public var patterns: [Pattern]

    /// First and last departure of one day ("HH:MM:SS", may pass 24:00:00); `first` and `last` are nil when
    /// nothing runs that day. `date` is set on `serviceSpan` only.
    public struct ServiceSpan: Codable, Sendable, Hashable {
        public var date: String?
        public var first: String?
        public var last: String?
    }

    /// The spans of a typical week; nil for a day type without trips.
    public struct DayTypeSpans: Codable, Sendable, Hashable {
        public var weekday: ServiceSpan?
        public var saturday: ServiceSpan?
        public var sunday: ServiceSpan?
    }

    /// One distinct stop sequence of the route.
    public struct Pattern: Codable, Sendable, Hashable {
        public var directionId: Int?
        @DefaultEmpty public var headsigns: [String]
        @DefaultEmpty public var shapeIds: [String]
        public var tripCount: Int?
        /// Over every service day.
        public var firstDeparture: String?
        public var lastDeparture: String?
        public var serviceSpan: ServiceSpan?
        public var spansByDayType: DayTypeSpans?
        @DefaultEmpty public var stops: [PatternStop]
    }

    /// A stop of a pattern, in order.
    public struct PatternStop: Codable, Sendable, Hashable {
        public var stopId: String
        public var name: String?
        public var lat: Double?
        public var lon: Double?
        public var parentStation: String?
    }
}

/// The `reliability` answer: how late a route or a stop usually is.
public struct Reliability: Codable, Sendable, Hashable {
    public var routeId: String?
    public var stopId: String?
    public var hour: Int?
    public var dayType: String?
    public var samples: Int?
    public var onTimeShare: Double?
    public var earlyShare: Double?
    public var lateShare: Double?
    public var onTimeWindow: OnTimeWindow?
    public var p10S: Int?
    public var p50S: Int?
    public var p90S: Int?
    @DefaultEmpty public var buckets: [Bucket]
    public var firstDate: String?
    public var lastDate: String?
    public var days: Int?

    public struct OnTimeWindow: Codable, Sendable, Hashable {
        public var earlyS: Int?
        public var lateS: Int?
    }

    /// One non-empty one-minute bucket; nil edges are open.
    public struct Bucket: Codable, Sendable, Hashable {
        public var fromS: Int?
        public var toS: Int?
        public var count: Int
    }
}

// MARK: plan

/// Where a journey of `plan` starts or ends.
public enum PlanPlace: Sendable, Hashable {
    /// A stop, platform or station (any of its platforms).
    case stop(String)
    /// A point, walked to and from stops within the access radius.
    case coordinate(lat: Double, lon: Double)

    var requestValue: RequestValue {
        switch self {
        case .stop(let id): .object(["stop_id": .string(id)])
        case .coordinate(let lat, let lon): .object(["lat": .double(lat), "lon": .double(lon)])
        }
    }
}

/// `plan`'s data (GATEWAY.md "plan").
public struct Plan: Codable, Sendable, Hashable {
    public var timezone: String?
    @DefaultEmpty public var journeys: [PlanJourney]
    /// Continues a range query (send as `cursor`).
    public var laterCursor: String?
    /// The search ran out of its time budget; the journeys are what it had found.
    public var cut: Bool?
    /// Why there is no journey.
    public var reason: String?
    /// Journeys found on the schedule that the live state makes impossible, each saying why.
    @DefaultEmpty public var liveDropped: [String]
    /// Live times were asked for but the planner searched the schedule (its realtime stream silent).
    public var realtimeStale: Bool?
    /// The alerts the rides' `alert_ids` name, once each.
    @DefaultEmpty public var alerts: [Alert]
}

/// What a plan subscription's event says changed since its last event (GATEWAY.md `subscribe`, topic `plan`), as
/// this library reads the wire: like its other models it mirrors the gateway's JSON rather than importing the
/// gateway's own type (GatewayProtocol's `PlanChange`, which would bring the services' modules into an app), and it
/// keeps a change type it does not know (`other`) instead of failing the event.
public enum PlanChange: Decodable, Sendable, Hashable {
    /// A ride of a journey still offered has other times: `journey` and `leg` index this event's journeys and
    /// that journey's legs.
    case times(
        journey: Int, leg: Int, tripId: String, departureUnix: Int64, arrivalUnix: Int64,
        previousDepartureUnix: Int64, previousArrivalUnix: Int64)
    /// A journey of the last event (its index there) is no longer possible, and why.
    case broken(previousJourney: Int, reason: String)
    /// A journey of the last event is still possible but no longer among the best.
    case replaced(previousJourney: Int)
    /// A journey the last event did not have (its index in this event's journeys).
    case new(journey: Int)
    /// A change this library does not know (a newer gateway's), with its `type`.
    case other(String)

    private enum CodingKeys: String, CodingKey {
        case type, journey, leg, tripId, departureUnix, arrivalUnix, previousDepartureUnix, previousArrivalUnix
        case previousJourney, reason
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "times":
            self = .times(
                journey: try c.decode(Int.self, forKey: .journey), leg: try c.decode(Int.self, forKey: .leg),
                tripId: try c.decode(String.self, forKey: .tripId),
                departureUnix: try c.decode(Int64.self, forKey: .departureUnix),
                arrivalUnix: try c.decode(Int64.self, forKey: .arrivalUnix),
                previousDepartureUnix: try c.decode(Int64.self, forKey: .previousDepartureUnix),
                previousArrivalUnix: try c.decode(Int64.self, forKey: .previousArrivalUnix))
        case "broken":
            self = .broken(
                previousJourney: try c.decode(Int.self, forKey: .previousJourney),
                reason: try c.decode(String.self, forKey: .reason))
        case "replaced": self = .replaced(previousJourney: try c.decode(Int.self, forKey: .previousJourney))
        case "new": self = .new(journey: try c.decode(Int.self, forKey: .journey))
        default: self = .other(type)
        }
    }
}

/// One journey: its legs in travel order.
public struct PlanJourney: Codable, Sendable, Hashable {
    public var departureUnix: Int64
    public var arrivalUnix: Int64
    public var durationS: Int?
    public var transfers: Int
    public var walkS: Int?
    @DefaultEmpty public var legs: [PlanLeg]
}

/// A leg: a ride (`type` "transit": `board`, `alight`, …) or a walk (`type` "walk": `fromStopId`, …).
public struct PlanLeg: Codable, Sendable, Hashable {
    public var type: String
    public var departureUnix: Int64?
    public var arrivalUnix: Int64?
    /// Whether the ride's times are live predictions.
    public var live: Bool?
    public var addedTripId: String?
    /// The boarding stop as a departures row.
    public var board: Departure?
    /// The boarding stop's name.
    public var boardStopName: String?
    public var alight: PlanAlight?
    @DefaultEmpty public var intermediateStops: [PlanStop]
    public var polyline: String?
    public var fromStopId: String?
    public var toStopId: String?
    /// A walk's stops by name (nil for the request's coordinate).
    public var fromStopName: String?
    public var toStopName: String?
    public var distanceM: Double?
    public var durationS: Int?

    public var isWalk: Bool { type == "walk" }
}

/// Where a ride is left.
public struct PlanAlight: Codable, Sendable, Hashable {
    public var stopId: String
    public var stopName: String?
    public var platform: String?
    public var stopSequence: Int?
    public var scheduledUnix: Int64?
    public var realtimeUnix: Int64?
    public var delayS: Int?
}

/// A stop a ride passes.
public struct PlanStop: Codable, Sendable, Hashable {
    public var stopId: String
    public var stopName: String?
    public var scheduledArrivalUnix: Int64?
    public var scheduledDepartureUnix: Int64?
}
