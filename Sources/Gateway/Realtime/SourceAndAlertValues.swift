import GatewayProtocol
import TransitModel

// Source health and alerts as the gateway holds them (converted from the realtime service's messages).

/// Health of one realtime source, as the realtime service reports it (`st`/`hb` topics).
public struct RealtimeSourceStatus: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case tripUpdates = "trip_updates"
        case vehiclePositions = "vehicle_positions"
        case alerts
        case auto
    }

    public var name: String
    public var kind: Kind
    /// Unix seconds of its newest feed header.
    public var feedTimestamp: Int64?
    public var stale: Bool
    public var lastSuccessUnix: Int64?
    public var errors: Int
    public var lastError: String?
    /// When the last failure happened; failures since the last success; the first success after the last
    /// failure (nil while failing).
    public var lastErrorUnix: Int64?
    public var consecutiveErrors: Int = 0
    public var recoveredUnix: Int64?
    public var entities: Int
    /// Stop time updates whose stop_sequence and stop_id named different stops, and the first described.
    public var stopMismatches: Int = 0
    public var firstStopMismatch: String?
    /// Entities left out, by reason (e.g. "unknown_trip").
    public var drops: [String: UInt64]
    /// Known fields its feeds sent with another wire type than the schema's (skipped), by path.
    public var skippedFields: [LiveSkippedField]

    /// Failing repeatedly: this many failures in a row make `health` degraded before the data goes stale.
    public static let failingAfter = 2

    /// The last attempts failed `failingAfter` times or more in a row.
    public var failing: Bool { consecutiveErrors >= Self.failingAfter }

    public init(
        name: String, kind: Kind, feedTimestamp: Int64? = nil, stale: Bool = false, lastSuccessUnix: Int64? = nil,
        errors: Int = 0, lastError: String? = nil, entities: Int = 0, drops: [String: UInt64] = [:],
        skippedFields: [LiveSkippedField] = []
    ) {
        self.name = name
        self.kind = kind
        self.feedTimestamp = feedTimestamp
        self.stale = stale
        self.lastSuccessUnix = lastSuccessUnix
        self.errors = errors
        self.lastError = lastError
        self.entities = entities
        self.drops = drops
        self.skippedFields = skippedFields
    }
}

/// An alert as held in the live state (texts in every language; `AlertView` is one language's).
public struct AlertRecord: Sendable, Hashable {
    public var id: String
    public var header: TranslatedText?
    public var description: TranslatedText?
    public var url: TranslatedText?
    public var cause: String
    public var effect: String
    public var severity: String
    public var activePeriods: [AlertView.Period]
    public var informedEntities: [AlertView.InformedEntity]

    public init(
        id: String, header: TranslatedText? = nil, description: TranslatedText? = nil, url: TranslatedText? = nil,
        cause: String = "UNKNOWN_CAUSE", effect: String = "UNKNOWN_EFFECT", severity: String = "UNKNOWN_SEVERITY",
        activePeriods: [AlertView.Period] = [], informedEntities: [AlertView.InformedEntity] = []
    ) {
        self.id = id
        self.header = header
        self.description = description
        self.url = url
        self.cause = cause
        self.effect = effect
        self.severity = severity
        self.activePeriods = activePeriods
        self.informedEntities = informedEntities
    }

    /// Some period [start, end) contains `at` (an open end is unbounded); no period: active while in the feed.
    public func isActive(at: Int64) -> Bool {
        activePeriods.isEmpty || activePeriods.contains { ($0.start ?? .min) <= at && at < ($0.end ?? .max) }
    }

    public func view(language: String?) -> AlertView {
        AlertView(
            id: id, header: header?.text(in: language), description: description?.text(in: language),
            url: url?.text(in: language), cause: cause, effect: effect, severity: severity,
            activePeriods: activePeriods, informedEntities: informedEntities)
    }
}
