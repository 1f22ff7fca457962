/// The gateway's ops, in the order GATEWAY.md lists them: the one place an op is declared. Its name and every
/// fact about it that does not depend on a request's arguments are here, each a switch over the cases (or the
/// raw value), so the compiler checks every op has an entry. The parser (name → op), the answers' `"op"`, the
/// `stats` keys, the metrics' `op` label and the log lines' `op` field all take the name from here.
///
/// A new op: a case here (its wire name as the raw value), then the places the compiler points to (its
/// arguments in `GatewayOp`, its parsing, its dispatch).
public enum GatewayOpKind: String, Sendable, Hashable, CaseIterable {
    // The raw value is the wire name (the compiler refuses two cases with one raw value): read it as `name`.
    case health
    case feedInfo = "feed_info"
    case stop
    case search
    case nearby
    case routes
    case route
    case shape
    case stopsInBBox = "stops_in_bbox"
    case departures
    case trip
    case alerts
    case vehicles
    case reliability
    case plan
    case subscribe
    case unsubscribe
    case stats
    case auth

    /// The op's name: `"op"` of request and answer lines, the key under `stats`' `ops`, the `op` label of the
    /// `transit_gateway_answer*` metrics and the `op` field of log lines.
    public var name: String { rawValue }

    /// The op called `name` on the wire; nil when no op is. As cheap as the enum's raw-value initialiser.
    public init?(name: String) {
        self.init(rawValue: name)
    }

    /// Every op's name, in declaration order, comma-separated (error messages list them).
    public static var nameList: String { allCases.map(\.name).joined(separator: ", ") }

    /// The ops answered by the static service alone (those the static debug client accepts).
    public var isStatic: Bool {
        switch self {
        case .feedInfo, .stop, .search, .nearby, .routes, .route, .shape, .stopsInBBox, .departures, .trip: return true
        case .health, .alerts, .vehicles, .reliability, .plan, .subscribe, .unsubscribe, .stats, .auth: return false
        }
    }

    /// The ops whose answers `subscribe` can stream: its `topic` is their name.
    public var isSubscriptionTopic: Bool {
        switch self {
        case .departures, .plan: return true
        case .health, .feedInfo, .stop, .search, .nearby, .routes, .route, .shape, .stopsInBBox, .trip, .alerts,
            .vehicles, .reliability, .subscribe, .unsubscribe, .stats, .auth:
            return false
        }
    }

    /// The names `subscribe` accepts as its `topic`.
    public static let subscriptionTopicNames = allCases.filter(\.isSubscriptionTopic).map(\.name)
}
