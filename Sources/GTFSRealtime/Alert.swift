// Alert and what it holds: a service alert, when it applies, to what, and its texts. The texts are
// TransitModel's TranslatedText, the one type every process uses for them (GTFSRealtime already reaches
// TransitModel through TransitProto, so the direct dependency adds no edge to the graph's order).

import TransitModel

/// A service alert.
public struct Alert: Sendable, Hashable {
    /// When the alert is shown (deprecated by the spec in favour of communication/impact periods, still
    /// what most feeds send). Empty means always.
    public var activePeriods: [TimeRange]
    public var communicationPeriods: [TimeRange]
    public var impactPeriods: [TimeRange]
    /// What the alert is about; the spec requires at least one.
    public var informedEntities: [EntitySelector]
    /// nil means UNKNOWN_CAUSE.
    public var cause: AlertCause?
    /// nil means UNKNOWN_EFFECT.
    public var effect: AlertEffect?
    public var url: TranslatedText?
    public var headerText: TranslatedText?
    public var descriptionText: TranslatedText?
    public var ttsHeaderText: TranslatedText?
    public var ttsDescriptionText: TranslatedText?
    /// nil means UNKNOWN_SEVERITY.
    public var severityLevel: AlertSeverityLevel?
    public var image: TranslatedImage?
    public var imageAlternativeText: TranslatedText?
    public var causeDetail: TranslatedText?
    public var effectDetail: TranslatedText?

    public init(
        activePeriods: [TimeRange] = [], communicationPeriods: [TimeRange] = [], impactPeriods: [TimeRange] = [],
        informedEntities: [EntitySelector] = [], cause: AlertCause? = nil, effect: AlertEffect? = nil,
        url: TranslatedText? = nil, headerText: TranslatedText? = nil, descriptionText: TranslatedText? = nil,
        ttsHeaderText: TranslatedText? = nil, ttsDescriptionText: TranslatedText? = nil,
        severityLevel: AlertSeverityLevel? = nil, image: TranslatedImage? = nil,
        imageAlternativeText: TranslatedText? = nil, causeDetail: TranslatedText? = nil,
        effectDetail: TranslatedText? = nil
    ) {
        self.activePeriods = activePeriods
        self.communicationPeriods = communicationPeriods
        self.impactPeriods = impactPeriods
        self.informedEntities = informedEntities
        self.cause = cause
        self.effect = effect
        self.url = url
        self.headerText = headerText
        self.descriptionText = descriptionText
        self.ttsHeaderText = ttsHeaderText
        self.ttsDescriptionText = ttsDescriptionText
        self.severityLevel = severityLevel
        self.image = image
        self.imageAlternativeText = imageAlternativeText
        self.causeDetail = causeDetail
        self.effectDetail = effectDetail
    }
}

/// A time interval in POSIX seconds; a missing start or end leaves that side open.
public struct TimeRange: Sendable, Hashable {
    public var start: UInt64?
    public var end: UInt64?

    public init(start: UInt64? = nil, end: UInt64? = nil) {
        self.start = start
        self.end = end
    }

    /// Whether `time` falls in the range (both ends inclusive, open ends unbounded).
    public func contains(_ time: UInt64) -> Bool {
        (start.map { time >= $0 } ?? true) && (end.map { time <= $0 } ?? true)
    }
}

/// What an alert applies to: the fields set together narrow it down (route_id + stop_id = that route at
/// that stop).
public struct EntitySelector: Sendable, Hashable {
    public var agencyId: String?
    public var routeId: String?
    /// GTFS route_type.
    public var routeType: Int32?
    public var trip: TripDescriptor?
    public var stopId: String?
    public var directionId: UInt32?

    public init(
        agencyId: String? = nil, routeId: String? = nil, routeType: Int32? = nil, trip: TripDescriptor? = nil,
        stopId: String? = nil, directionId: UInt32? = nil
    ) {
        self.agencyId = agencyId
        self.routeId = routeId
        self.routeType = routeType
        self.trip = trip
        self.stopId = stopId
        self.directionId = directionId
    }
}
