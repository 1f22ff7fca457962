// The map queries of the static-data service (shape, route, stops_in_bbox) and their answers. Mirrors
// protocol/transit.proto like StaticQueries.swift and StaticResults.swift.

/// The `shape` query: the line a trip draws on a map (answered by `StaticResult.shape`). Exactly one of
/// `shapeId` and `tripId` is given.
public struct ShapeQuery: Sendable, Hashable {
    /// A shape of shapes.txt, as imported (with the feed's id prefix, if any).
    public var shapeId: String?
    /// A trip: its shape, or without one a straight line through its stops.
    public var tripId: String?
    /// The shape `shapeId`, or that of trip `tripId`.
    public init(shapeId: String? = nil, tripId: String? = nil) {
        self.shapeId = shapeId
        self.tripId = tripId
    }
}

/// Where a `Shape`'s points come from.
public enum ShapeSource: String, Sendable, Hashable {
    /// shapes.txt.
    case shapes
    /// The trip has no shape in shapes.txt: a straight line through its stops, in order.
    case stops
    /// A Shape entity of a realtime feed that a detour names (the gateway's answer; never the static service's).
    case detour
}

/// The answer to a `shape` query.
public struct Shape: Sendable, Hashable {
    /// The shape's id; nil for a line drawn through a trip's stops.
    public var shapeId: String?
    /// The trip asked for; nil when asked by shape id.
    public var tripId: String?
    /// Where the points come from.
    public var source: ShapeSource
    /// The points as a Google encoded polyline (precision 1e-5 degrees).
    public var polyline: String
    /// How many points `polyline` holds.
    public var pointCount: Int
    /// shape_dist_traveled of each point (the feed's unit, to 0.01), when shapes.txt gives it on every point
    /// without decreasing; else empty.
    public var distances: [Double]
    /// A shape answer.
    public init(
        shapeId: String?, tripId: String? = nil, source: ShapeSource, polyline: String, pointCount: Int,
        distances: [Double] = []
    ) {
        self.shapeId = shapeId
        self.tripId = tripId
        self.source = source
        self.polyline = polyline
        self.pointCount = pointCount
        self.distances = distances
    }
}

/// The `route` query: one route with its patterns (answered by `StaticResult.route`).
public struct RouteQuery: Sendable, Hashable {
    /// The route's id as imported (with the feed's id prefix, if any).
    public var routeId: String
    /// The service date the answer's date spans are for; nil: today in the route's feed timezone.
    public var date: ServiceDate?
    /// The route `routeId`, with its spans on `date`.
    public init(routeId: String, date: ServiceDate? = nil) {
        self.routeId = routeId
        self.date = date
    }
}

/// A stop of a route pattern: what a map or a line diagram needs.
public struct PatternStopSummary: Sendable, Hashable {
    /// The stop (platform) the trips call at.
    public var stopId: String
    /// Its stop_name.
    public var name: String
    /// Latitude in degrees; nil when the feed gives none.
    public var lat: Double?
    /// Longitude in degrees; nil when the feed gives none.
    public var lon: Double?
    /// Its station, when it is a platform of one.
    public var parentStation: String?
    /// A stop of a pattern.
    public init(stopId: String, name: String, lat: Double?, lon: Double?, parentStation: String? = nil) {
        self.stopId = stopId
        self.name = name
        self.lat = lat
        self.lon = lon
        self.parentStation = parentStation
    }
}

/// One distinct stop sequence of a route in one direction, with the trips that run it.
public struct RoutePattern: Sendable, Hashable {
    /// GTFS direction_id; nil when the feed gives none.
    public var directionId: Int?
    /// The trips' headsigns, most trips first.
    public var headsigns: [String]
    /// The trips' shape ids, most trips first (empty when none has one).
    public var shapeIds: [String]
    /// Trips running this stop sequence (a frequency-based trip counts once).
    public var tripCount: Int
    /// The earliest scheduled departure from the first stop (HH:MM:SS; frequency-based trips: their windows').
    public var firstDeparture: String
    /// The latest scheduled departure from the first stop (HH:MM:SS, may exceed 24:00:00).
    public var lastDeparture: String
    /// The stops in order.
    public var stops: [PatternStopSummary]
    /// The span on the answer's date (`RouteDetail.date`); nil when no trip of the pattern runs that day.
    public var dateSpan: ServiceSpan?
    /// The spans of the typical week.
    public var dayTypeSpans: DayTypeSpans
    /// A pattern.
    public init(
        directionId: Int?, headsigns: [String], shapeIds: [String], tripCount: Int, firstDeparture: String,
        lastDeparture: String, stops: [PatternStopSummary], dateSpan: ServiceSpan? = nil,
        dayTypeSpans: DayTypeSpans = DayTypeSpans()
    ) {
        self.directionId = directionId
        self.headsigns = headsigns
        self.shapeIds = shapeIds
        self.tripCount = tripCount
        self.firstDeparture = firstDeparture
        self.lastDeparture = lastDeparture
        self.stops = stops
        self.dateSpan = dateSpan
        self.dayTypeSpans = dayTypeSpans
    }
}

/// The first and last scheduled departure from a pattern's first stop on one service day.
public struct ServiceSpan: Sendable, Hashable {
    /// HH:MM:SS of the day's first departure.
    public var first: String
    /// HH:MM:SS of the day's last departure (may pass 24:00:00: a trip after midnight counts on its service date).
    public var last: String
    /// A span.
    public init(first: String, last: String) {
        self.first = first
        self.last = last
    }
}

/// The spans of a typical week (`RouteDetail.typicalWeek`) by day type; nil for a day type without trips.
public struct DayTypeSpans: Sendable, Hashable {
    /// Over the trips running on any of the week's Monday to Friday.
    public var weekday: ServiceSpan?
    /// Over the trips running on its Saturday.
    public var saturday: ServiceSpan?
    /// Over the trips running on its Sunday.
    public var sunday: ServiceSpan?
    /// Spans by day type.
    public init(weekday: ServiceSpan? = nil, saturday: ServiceSpan? = nil, sunday: ServiceSpan? = nil) {
        self.weekday = weekday
        self.saturday = saturday
        self.sunday = sunday
    }
}

/// The answer to a `route` query.
public struct RouteDetail: Sendable, Hashable {
    /// The route.
    public var route: Route
    /// Its patterns: by direction (none last), then most trips first.
    public var patterns: [RoutePattern]
    /// The service date of the date spans (the query's, or today in the route's feed timezone).
    public var date: ServiceDate
    /// The route's span on `date` over all its patterns; nil when none of its trips runs that day.
    public var dateSpan: ServiceSpan?
    /// The route's spans of the typical week.
    public var dayTypeSpans: DayTypeSpans
    /// The Monday of the typical week: the week, among the first 53 of the calendar, in which the most services
    /// run (counted per day); nil when the calendar has no service.
    public var typicalWeek: ServiceDate?
    /// The route with its patterns.
    public init(
        route: Route, patterns: [RoutePattern], date: ServiceDate, dateSpan: ServiceSpan? = nil,
        dayTypeSpans: DayTypeSpans = DayTypeSpans(), typicalWeek: ServiceDate? = nil
    ) {
        self.route = route
        self.patterns = patterns
        self.date = date
        self.dateSpan = dateSpan
        self.dayTypeSpans = dayTypeSpans
        self.typicalWeek = typicalWeek
    }
}

/// The `stops_in_bbox` query: the stops of a map view (answered by `StaticResult.stops`).
public struct StopsInBBoxQuery: Sendable, Hashable {
    /// Southern edge, degrees.
    public var minLat: Double
    /// Western edge, degrees.
    public var minLon: Double
    /// Northern edge, degrees (not below `minLat`).
    public var maxLat: Double
    /// Eastern edge, degrees (not below `minLon`: a box never crosses the antimeridian).
    public var maxLon: Double
    /// Only stops served by this mode; nil: any.
    public var mode: String?
    /// At most this many stops (1...100; default 100), the busiest first.
    public var limit: Int
    /// Stations and stops without a station inside the box.
    public init(
        minLat: Double, minLon: Double, maxLat: Double, maxLon: Double, mode: String? = nil,
        limit: Int = StaticRequestLimits.maxLimit
    ) {
        self.minLat = minLat
        self.minLon = minLon
        self.maxLat = maxLat
        self.maxLon = maxLon
        self.mode = mode
        self.limit = limit
    }

    /// Why the box cannot be asked (a coordinate out of range, an inverted box, a side over
    /// `StaticRequestLimits.maxBBoxDegrees`), naming the fields; nil when it can.
    public var problem: String? {
        for (name, value, bound) in [
            ("min_lat", minLat, 90.0), ("max_lat", maxLat, 90), ("min_lon", minLon, 180), ("max_lon", maxLon, 180),
        ] {
            guard value.isFinite, abs(value) <= bound else {
                return "field \"\(name)\": expected a number from -\(Int(bound)) to \(Int(bound)), got \(value)"
            }
        }
        guard minLat <= maxLat else { return "inverted box: min_lat \(minLat) is above max_lat \(maxLat)" }
        guard minLon <= maxLon else {
            return "inverted box: min_lon \(minLon) is east of max_lon \(maxLon) (a box may not cross the antimeridian)"
        }
        let most = StaticRequestLimits.maxBBoxDegrees
        guard maxLat - minLat <= most, maxLon - minLon <= most else {
            return
                "box too large: \(maxLat - minLat)° of latitude × \(maxLon - minLon)° of longitude, at most \(most)° a side"
        }
        return nil
    }
}
