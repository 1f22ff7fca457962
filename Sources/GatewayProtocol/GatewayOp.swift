import TransitModel

/// One parsed request line: the `id` to echo and the op with typed arguments.
public struct GatewayRequest: Sendable, Hashable {
    /// The `id` exactly as sent (`null` when absent).
    public var id: RawJSON
    public var op: GatewayOp

    public init(id: RawJSON, op: GatewayOp) {
        self.id = id
        self.op = op
    }
}

/// An op with its typed arguments, as parsed; its name and facts are its `kind`'s (`GatewayOpKind`).
public enum GatewayOp: Sendable, Hashable {
    case health
    case feedInfo
    case stop(StopQuery)
    case search(SearchQuery)
    case nearby(NearbyQuery)
    case routes(RoutesQuery)
    case route(RouteQuery)
    case shape(ShapeQuery, format: ShapeFormat)
    case stopsInBBox(StopsInBBoxQuery)
    case departures(DeparturesQuery)
    case trip(TripQuery)
    case alerts(AlertsQuery)
    case vehicles(VehiclesQuery)
    case reliability(DelaySlice)  // the recorded departure delays of a route, a stop or a route at a stop
    case plan(PlanRequest)
    case subscribe(SubscribeQuery)
    case unsubscribe(sub: Int)
    case stats
    case auth(AuthToken)

    /// The op's entry in the table of ops (its name, its facts).
    public var kind: GatewayOpKind {
        switch self {
        case .health: return .health
        case .feedInfo: return .feedInfo
        case .stop: return .stop
        case .search: return .search
        case .nearby: return .nearby
        case .routes: return .routes
        case .route: return .route
        case .shape: return .shape
        case .stopsInBBox: return .stopsInBBox
        case .departures: return .departures
        case .trip: return .trip
        case .alerts: return .alerts
        case .vehicles: return .vehicles
        case .reliability: return .reliability
        case .plan: return .plan
        case .subscribe: return .subscribe
        case .unsubscribe: return .unsubscribe
        case .stats: return .stats
        case .auth: return .auth
        }
    }

    /// The static service's query for the ops it answers; nil for the others.
    public var staticQuery: StaticQuery? {
        switch self {
        case .feedInfo: return .feedInfo
        case .stop(let q): return .stop(q)
        case .search(let q): return .search(q)
        case .nearby(let q): return .nearby(q)
        case .routes(let q): return .routes(q)
        case .route(let q): return .route(q)
        case .shape(let q, _): return .shape(q)
        case .stopsInBBox(let q): return .stopsInBBox(q)
        case .departures(let q): return .departures(q)
        case .trip(let q): return .trip(q)
        case .plan(let q): return .plan(q)
        case .health, .alerts, .vehicles, .reliability, .subscribe, .unsubscribe, .stats, .auth: return nil
        }
    }
}

/// How a `shape` answer writes its line.
public enum ShapeFormat: String, Sendable, Hashable {
    /// `polyline`: Google's encoded polyline (the default).
    case polyline
    /// `polyline` and a GeoJSON LineString of the same points (`geojson`).
    case geojson
}

/// The shared token a client of `auth` sent. Its description never shows the token (requests are logged).
public struct AuthToken: Sendable, Hashable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var description: String { "<token of \(bytes.count) bytes>" }

    /// True when both hold the same bytes; the time taken depends on the lengths only, never on where they
    /// differ (a client cannot find the token byte by byte from answer times).
    public func matches(_ expected: [UInt8]) -> Bool {
        var difference: UInt8 = bytes.count == expected.count ? 0 : 1
        for index in 0..<expected.count {
            difference |= expected[index] ^ (index < bytes.count ? bytes[index] : 0)
        }
        return difference == 0
    }
}

public struct AlertsQuery: Sendable, Hashable {
    public enum Selector: Sendable, Hashable {
        case stop(String)
        case route(String)
        case trip(String)
    }

    public var selector: Selector
    /// Unix seconds; nil means now.
    public var at: Int64?
    /// BCP-47 language tag; nil: untranslated, then English.
    public var lang: String?

    public init(selector: Selector, at: Int64? = nil, lang: String? = nil) {
        self.selector = selector
        self.at = at
        self.lang = lang
    }
}

public struct VehiclesQuery: Sendable, Hashable {
    public enum Selector: Sendable, Hashable {
        case route(String)
        case trip(String)
    }

    public var selector: Selector
    public init(selector: Selector) { self.selector = selector }
}

public struct SubscribeQuery: Sendable, Hashable {
    /// The op whose answers are streamed (`isSubscriptionTopic`: `departures` or `plan`).
    public var topic: GatewayOpKind
    /// `departures`: the board's stop and row count (empty and 0 for a plan).
    public var stopId: String
    public var limit: Int
    /// `plan`: the plan whose journeys are followed.
    public var plan: PlanRequest?

    public init(topic: GatewayOpKind = .departures, stopId: String, limit: Int = 10) {
        self.topic = topic
        self.stopId = stopId
        self.limit = limit
    }

    /// A subscription to `plan`'s journeys.
    public init(plan: PlanRequest) {
        topic = .plan
        stopId = ""
        limit = 0
        self.plan = plan
    }
}
