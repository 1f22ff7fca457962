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
    /// How much of its last update the timetable knows, and the realtime service's verdict (nil: not yet).
    public var match: LiveTimetableMatch?
    /// FeedHeader.feed_version of its last applied feed.
    public var feedVersion: String?
    /// Its static id prefix ("" none): the static feed imported with this prefix is the one it matches.
    public var idPrefix = ""

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

/// An alert as the gateway holds it: the realtime service's `LiveAlert` as published (every text, detail and
/// image in every language: a field added there reaches the answers through `view` and the encoder alone),
/// with its periods and informed entities typed as answer rows are (Int64 unix seconds, Int route types and
/// directions), so that matching a row (`AlertIndex`, `AlertMatcher`) converts nothing.
public struct AlertRecord: Sendable, Hashable {
    public var alert: LiveAlert
    public var activePeriods: [AlertView.Period]
    public var informedEntities: [AlertView.InformedEntity]

    /// The feed entity id.
    public var id: String { alert.entityId }
    public var cause: String { alert.cause }
    public var effect: String { alert.effect }
    public var severity: String { alert.severity }
    public var header: TranslatedText? { alert.headerText }

    public init(_ live: LiveAlert) {
        alert = live
        activePeriods = live.activePeriods.map {
            AlertView.Period(start: $0.start.map { Int64(clamping: $0) }, end: $0.end.map { Int64(clamping: $0) })
        }
        informedEntities = live.informedEntities.map {
            AlertView.InformedEntity(
                agencyId: $0.agencyId, routeId: $0.routeId, routeType: $0.routeType.map(Int.init),
                directionId: $0.directionId.map(Int.init), tripId: $0.tripId, stopId: $0.stopId)
        }
    }

    /// An alert of the feed entity `id` with these texts (tests and fixtures).
    public init(
        id: String, header: TranslatedText? = nil, description: TranslatedText? = nil, url: TranslatedText? = nil,
        cause: String = "UNKNOWN_CAUSE", effect: String = "UNKNOWN_EFFECT", severity: String = "UNKNOWN_SEVERITY",
        activePeriods: [AlertView.Period] = [], informedEntities: [AlertView.InformedEntity] = []
    ) {
        alert = LiveAlert(
            key: id, source: "", entityId: id, cause: cause, effect: effect, severity: severity, headerText: header,
            descriptionText: description, url: url)
        self.activePeriods = activePeriods
        self.informedEntities = informedEntities
    }

    /// Some period [start, end) contains `at` (an open end is unbounded); no period: active while in the feed.
    public func isActive(at: Int64) -> Bool {
        activePeriods.isEmpty || activePeriods.contains { ($0.start ?? .min) <= at && at < ($0.end ?? .max) }
    }

    /// The alert in one language (each text, the image and its alternative text by `TranslatedText`'s rule).
    public func view(language: String?) -> AlertView {
        var view = AlertView(
            id: id, header: alert.headerText?.text(in: language),
            description: alert.descriptionText?.text(in: language),
            url: alert.url?.text(in: language), cause: cause, effect: effect, severity: severity,
            activePeriods: activePeriods, informedEntities: informedEntities)
        view.ttsHeader = alert.ttsHeaderText?.text(in: language)
        view.ttsDescription = alert.ttsDescriptionText?.text(in: language)
        view.causeDetail = alert.causeDetail?.text(in: language)
        view.effectDetail = alert.effectDetail?.text(in: language)
        if let image = alert.image?.image(in: language) {
            view.image = AlertView.Image(
                url: image.url, mediaType: image.mediaType, altText: alert.imageAlternativeText?.text(in: language))
        }
        return view
    }
}
