import TransitJSON
import TransitModel

// The live state as the gateway holds it: resolved trip updates (indexed by trip instance and by stop),
// vehicle positions, alerts and the status of every realtime source. Values only; `RealtimeView` swaps whole
// states, so a request reads one consistent state without locks.

/// One run of a trip: GTFS-RT's trip descriptor resolved against the schedule.
public struct TripInstanceKey: Hashable, Sendable {
    public var tripId: String
    public var serviceDate: ServiceDate
    /// `HH:MM:SS` of the instance for frequency-based trips; nil for scheduled ones.
    public var startTime: String?

    public init(tripId: String, serviceDate: ServiceDate, startTime: String? = nil) {
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startTime = startTime
    }
}

/// The prediction for one stop of a trip instance.
public struct StopPrediction: Sendable, Hashable {
    public var stopSequence: UInt32
    public var stopId: String?
    public var arrivalUnix: Int64?
    public var departureUnix: Int64?
    public var skipped: Bool

    public init(stopSequence: UInt32, stopId: String? = nil, arrivalUnix: Int64? = nil, departureUnix: Int64? = nil, skipped: Bool = false) {
        self.stopSequence = stopSequence
        self.stopId = stopId
        self.arrivalUnix = arrivalUnix
        self.departureUnix = departureUnix
        self.skipped = skipped
    }
}

/// What the realtime service resolved for one trip instance (full, not a delta).
public struct TripPrediction: Sendable, Hashable {
    public var key: TripInstanceKey
    public var routeId: String?
    public var cancelled: Bool
    /// Not in the schedule (ADDED/NEW).
    public var added: Bool
    /// Ascending by stop_sequence.
    public var stops: [StopPrediction]
    public var occupancyStatus: String?
    /// The realtime source it came from (its staleness decides whether it is used).
    public var source: String
    /// Unix seconds of the feed (header or entity timestamp) it came from.
    public var timestamp: Int64?

    public init(
        key: TripInstanceKey, routeId: String? = nil, cancelled: Bool = false, added: Bool = false,
        stops: [StopPrediction] = [], occupancyStatus: String? = nil, source: String, timestamp: Int64? = nil
    ) {
        self.key = key
        self.routeId = routeId
        self.cancelled = cancelled
        self.added = added
        self.stops = stops.sorted { $0.stopSequence < $1.stopSequence }
        self.occupancyStatus = occupancyStatus
        self.source = source
        self.timestamp = timestamp
    }

    /// The prediction at `stopSequence` (binary search).
    public func stop(sequence: UInt32) -> StopPrediction? {
        var low = 0, high = stops.count
        while low < high {
            let mid = (low + high) / 2
            if stops[mid].stopSequence < sequence { low = mid + 1 } else { high = mid }
        }
        return low < stops.count && stops[low].stopSequence == sequence ? stops[low] : nil
    }
}

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
    public var entities: Int

    public init(
        name: String, kind: Kind, feedTimestamp: Int64? = nil, stale: Bool = false, lastSuccessUnix: Int64? = nil,
        errors: Int = 0, lastError: String? = nil, entities: Int = 0
    ) {
        self.name = name
        self.kind = kind
        self.feedTimestamp = feedTimestamp
        self.stale = stale
        self.lastSuccessUnix = lastSuccessUnix
        self.errors = errors
        self.lastError = lastError
        self.entities = entities
    }
}

/// A text of an alert in every language the feed gives.
public struct TranslatedText: Sendable, Hashable {
    public struct Translation: Sendable, Hashable {
        /// BCP-47 tag; nil for the untranslated text.
        public var language: String?
        public var text: String
        public init(language: String?, text: String) {
            self.language = language
            self.text = text
        }
    }

    public var translations: [Translation]
    public init(_ translations: [Translation]) { self.translations = translations }

    /// The text in `language` (case-insensitive); fallback: untranslated, then English, then the first.
    public func text(in language: String?) -> String? {
        if let language, let hit = translations.first(where: { $0.language?.lowercased() == language.lowercased() }) {
            return hit.text
        }
        if let plain = translations.first(where: { $0.language == nil }) { return plain.text }
        if let english = translations.first(where: { $0.language?.lowercased() == "en" }) { return english.text }
        return translations.first?.text
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

/// The whole live state at one moment.
public struct RealtimeState: Sendable {
    public private(set) var trips: [TripInstanceKey: TripPrediction]
    /// Trip instances with a prediction at a stop (by stop_id), for boards: which trips at a stop are
    /// delayed, cancelled or added.
    public private(set) var tripsByStop: [String: [TripInstanceKey]]
    public var vehicles: [VehicleSnapshot]
    public var alerts: [AlertRecord]
    public var sources: [RealtimeSourceStatus]

    public init(trips: [TripPrediction] = [], vehicles: [VehicleSnapshot] = [], alerts: [AlertRecord] = [], sources: [RealtimeSourceStatus] = []) {
        var byKey: [TripInstanceKey: TripPrediction] = [:]
        var byStop: [String: [TripInstanceKey]] = [:]
        for trip in trips {
            byKey[trip.key] = trip
            for stop in trip.stops {
                if let stopId = stop.stopId { byStop[stopId, default: []].append(trip.key) }
            }
        }
        self.trips = byKey
        self.tripsByStop = byStop
        self.vehicles = vehicles
        self.alerts = alerts
        self.sources = sources
    }

    public static let empty = RealtimeState()

    /// Sources whose data must not be used (stale).
    func isStale(source: String) -> Bool {
        sources.first { $0.name == source }?.stale ?? false
    }

    /// True when there are sources and every one is stale.
    var allSourcesStale: Bool { !sources.isEmpty && sources.allSatisfy(\.stale) }
}
