// Values of the realtime service's live state as they cross a process boundary (protocol/realtime.proto).
// Names start with `Live` so they never clash with a consumer's own types (the gateway has its own view);
// `TripInstanceKey` is the one key of a trip instance on every layer.
// Times are unix seconds, delays seconds (positive = late); GTFS-Realtime enum values are their names.

/// One running of a trip: the one key of a trip instance, from resolving a trip update (RealtimeCore) through
/// the realtime service's live state and the wire to the gateway's live view.
///
/// - `tripId`: the static trip id (with the feed's id prefix), or for a DUPLICATED trip the new id from
///   `trip_properties`, or the realtime id of a NEW/ADDED trip.
/// - `serviceDate`: the GTFS service date (YYYYMMDD) the instance belongs to, which is the date its
///   times are measured from (a 24:30:00 trip runs after midnight on the next calendar day).
/// - `startSecs`: the instance's start (GTFS seconds of its first departure) when the trip id and date
///   alone do not name one instance: frequency-based trips, DUPLICATED copies, and added trips given a
///   start_time (so an ADDED copy of a static trip never collides with the scheduled instance). `nil`
///   for ordinary scheduled trips. (The static service writes such a start as "HH:MM:SS".)
public struct TripInstanceKey: Sendable, Hashable, CustomStringConvertible {
    public var tripId: String
    public var serviceDate: ServiceDate
    public var startSecs: Int32?

    public init(tripId: String, serviceDate: ServiceDate, startSecs: Int32? = nil) {
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startSecs = startSecs
    }

    /// `trip@20250314` or `trip@20250314+08:15:00`.
    public var description: String {
        guard let startSecs else { return "\(tripId)@\(serviceDate)" }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let sign = startSecs < 0 ? "-" : "", secs = abs(Int(startSecs))
        return "\(tripId)@\(serviceDate)+\(sign)\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))"
    }
}

public enum LiveTripRelationship: String, Sendable, Hashable, CaseIterable {
    case scheduled, unscheduled, canceled, added, new, replacement, duplicated, deleted
}

public enum LiveStopStatus: String, Sendable, Hashable, CaseIterable {
    /// A prediction is set.
    case predicted
    /// The vehicle passes without stopping.
    case skipped
    /// The feed has no data here: show the schedule, not "on time".
    case noData = "no_data"
    /// Nothing in the update covers the stop.
    case noPrediction = "no_prediction"
}

/// One stop of a resolved trip instance.
public struct LiveStop: Sendable, Hashable {
    public var stopId: String
    public var stopSequence: UInt32
    public var assignedStopId: String?
    public var scheduledArrival: Int64?
    public var scheduledDeparture: Int64?
    public var predictedArrival: Int64?
    public var predictedDeparture: Int64?
    public var arrivalDelay: Int32?
    public var departureDelay: Int32?
    public var status: LiveStopStatus
    /// GTFS-RT OccupancyStatus name from the stop time update, when given.
    public var departureOccupancy: String?
    /// StopTimeProperties.stop_headsign from the stop time update, when given.
    public var stopHeadsign: String?
    /// Predicted occupancy per carriage on departure (Transport for NSW), in feed order; empty for most feeds
    /// (an empty array costs no allocation).
    public var carriages: [LiveCarriage]

    // @inlinable: the realtime service builds ~100,000 of these per feed update, from another module.
    @inlinable
    public init(
        stopId: String, stopSequence: UInt32, assignedStopId: String? = nil, scheduledArrival: Int64? = nil,
        scheduledDeparture: Int64? = nil, predictedArrival: Int64? = nil, predictedDeparture: Int64? = nil,
        arrivalDelay: Int32? = nil, departureDelay: Int32? = nil, status: LiveStopStatus,
        departureOccupancy: String? = nil, stopHeadsign: String? = nil, carriages: [LiveCarriage] = []
    ) {
        self.stopId = stopId
        self.stopSequence = stopSequence
        self.assignedStopId = assignedStopId
        self.scheduledArrival = scheduledArrival
        self.scheduledDeparture = scheduledDeparture
        self.predictedArrival = predictedArrival
        self.predictedDeparture = predictedDeparture
        self.arrivalDelay = arrivalDelay
        self.departureDelay = departureDelay
        self.status = status
        self.departureOccupancy = departureOccupancy
        self.stopHeadsign = stopHeadsign
        self.carriages = carriages
    }

    /// Predicted departure, else predicted arrival, else the scheduled ones: when the vehicle is there.
    public var time: Int64? { predictedDeparture ?? predictedArrival ?? scheduledDeparture ?? scheduledArrival }
}

/// One carriage of a train, as Transport for NSW sends it (every property nil when not sent). On a stop only
/// `position` and `departureOccupancy` are sent; on a vehicle the others.
public struct LiveCarriage: Sendable, Hashable {
    /// Place in the train, 1 for the first.
    public var position: Int32?
    /// e.g. "DTC1".
    public var name: String?
    /// How full it is now: a GTFS-RT OccupancyStatus name.
    public var occupancy: String?
    /// How full it is predicted to be on departure: a GTFS-RT OccupancyStatus name.
    public var departureOccupancy: String?
    public var quiet: Bool?
    /// NONE, NORMAL, ACCESSIBLE (or the number sent).
    public var toilet: String?
    public var luggageRack: Bool?

    public init(
        position: Int32? = nil, name: String? = nil, occupancy: String? = nil, departureOccupancy: String? = nil,
        quiet: Bool? = nil, toilet: String? = nil, luggageRack: Bool? = nil
    ) {
        self.position = position
        self.name = name
        self.occupancy = occupancy
        self.departureOccupancy = departureOccupancy
        self.quiet = quiet
        self.toilet = toilet
        self.luggageRack = luggageRack
    }
}

/// Transport for NSW's vehicle descriptor (every property nil when not sent).
public struct LiveVehicleFeatures: Sendable, Hashable {
    public var airConditioned: Bool?
    /// TfNSW's wheelchair_accessible number, non-zero: true.
    public var wheelchairAccessible: Bool?
    /// e.g. "Alstom Metropolis".
    public var model: String?
    /// Still running its previous trip.
    public var performingPriorTrip: Bool?
    /// TfNSW's code for special vehicles (0: none).
    public var specialAttributes: Int32?

    public init(
        airConditioned: Bool? = nil, wheelchairAccessible: Bool? = nil, model: String? = nil,
        performingPriorTrip: Bool? = nil, specialAttributes: Int32? = nil
    ) {
        self.airConditioned = airConditioned
        self.wheelchairAccessible = wheelchairAccessible
        self.model = model
        self.performingPriorTrip = performingPriorTrip
        self.specialAttributes = specialAttributes
    }
}

/// A trip update resolved against the schedule: every stop of the instance, in order.
public struct LiveTrip: Sendable, Hashable {
    public var instance: TripInstanceKey
    public var relationship: LiveTripRelationship
    public var staticTripId: String?
    public var routeId: String?
    public var directionId: Int?
    public var vehicleId: String?
    public var vehicleLabel: String?
    /// TripUpdate.timestamp.
    public var timestamp: UInt64?
    public var tripDelay: Int32?
    /// Empty for deleted instances.
    public var stops: [LiveStop]
    /// Name of the source it came from (its feed's age and staleness are in its status).
    public var source: String
    public var entityId: String?
    /// TripProperties.trip_headsign from the update, when given (an added trip's only headsign).
    public var tripHeadsign: String?

    @inlinable
    public init(
        instance: TripInstanceKey, relationship: LiveTripRelationship, staticTripId: String? = nil,
        routeId: String? = nil, directionId: Int? = nil, vehicleId: String? = nil, vehicleLabel: String? = nil,
        timestamp: UInt64? = nil, tripDelay: Int32? = nil, stops: [LiveStop] = [], source: String,
        entityId: String? = nil, tripHeadsign: String? = nil
    ) {
        self.instance = instance
        self.relationship = relationship
        self.staticTripId = staticTripId
        self.routeId = routeId
        self.directionId = directionId
        self.vehicleId = vehicleId
        self.vehicleLabel = vehicleLabel
        self.timestamp = timestamp
        self.tripDelay = tripDelay
        self.stops = stops
        self.source = source
        self.entityId = entityId
        self.tripHeadsign = tripHeadsign
    }
}

public struct LivePosition: Sendable, Hashable {
    public var lat: Double
    public var lon: Double
    public var bearing: Float?
    /// Metres per second.
    public var speed: Float?
    public var odometer: Double?

    public init(lat: Double, lon: Double, bearing: Float? = nil, speed: Float? = nil, odometer: Double? = nil) {
        self.lat = lat
        self.lon = lon
        self.bearing = bearing
        self.speed = speed
        self.odometer = odometer
    }
}

/// A vehicle position as the realtime service publishes it: the feed's fields and the trip instance resolved
/// (the wire value; the gateway prepares a TransitJSON `VehicleSnapshot` from it once per update). `key` is
/// "<source>/<entity id>".
public struct LiveVehicle: Sendable, Hashable {
    public var key: String
    public var source: String
    public var entityId: String
    /// The resolved trip instance, when the descriptor names one.
    public var trip: TripInstanceKey?
    public var tripId: String?
    public var routeId: String?
    public var directionId: Int?
    public var startTime: String?
    public var startDate: String?
    public var tripRelationship: String?
    public var vehicleId: String?
    public var label: String?
    public var licensePlate: String?
    public var position: LivePosition?
    public var currentStopSequence: UInt32?
    public var stopId: String?
    public var currentStatus: String?
    public var timestamp: UInt64?
    public var congestionLevel: String?
    public var occupancyStatus: String?
    public var occupancyPercentage: UInt32?
    public var wheelchairAccessible: String?
    /// The train's carriages (Transport for NSW), in feed order.
    public var carriages: [LiveCarriage]
    /// Transport for NSW's vehicle descriptor, when sent.
    public var features: LiveVehicleFeatures?

    public init(
        key: String, source: String, entityId: String, trip: TripInstanceKey? = nil, tripId: String? = nil,
        routeId: String? = nil, directionId: Int? = nil, startTime: String? = nil, startDate: String? = nil,
        tripRelationship: String? = nil, vehicleId: String? = nil, label: String? = nil,
        licensePlate: String? = nil, position: LivePosition? = nil, currentStopSequence: UInt32? = nil,
        stopId: String? = nil, currentStatus: String? = nil, timestamp: UInt64? = nil,
        congestionLevel: String? = nil, occupancyStatus: String? = nil, occupancyPercentage: UInt32? = nil,
        wheelchairAccessible: String? = nil, carriages: [LiveCarriage] = [], features: LiveVehicleFeatures? = nil
    ) {
        self.key = key
        self.source = source
        self.entityId = entityId
        self.trip = trip
        self.tripId = tripId
        self.routeId = routeId
        self.directionId = directionId
        self.startTime = startTime
        self.startDate = startDate
        self.tripRelationship = tripRelationship
        self.vehicleId = vehicleId
        self.label = label
        self.licensePlate = licensePlate
        self.position = position
        self.currentStopSequence = currentStopSequence
        self.stopId = stopId
        self.currentStatus = currentStatus
        self.timestamp = timestamp
        self.congestionLevel = congestionLevel
        self.occupancyStatus = occupancyStatus
        self.occupancyPercentage = occupancyPercentage
        self.wheelchairAccessible = wheelchairAccessible
        self.carriages = carriages
        self.features = features
    }
}

/// A text in one or more languages (language nil: the untranslated text).
public struct LiveText: Sendable, Hashable {
    public struct Translation: Sendable, Hashable {
        public var text: String
        public var language: String?
        public init(text: String, language: String? = nil) {
            self.text = text
            self.language = language
        }
    }

    public var translations: [Translation]
    public init(_ translations: [Translation]) { self.translations = translations }
}

/// Unix seconds; nil = open on that side.
public struct LivePeriod: Sendable, Hashable {
    public var start: UInt64?
    public var end: UInt64?
    public init(start: UInt64? = nil, end: UInt64? = nil) {
        self.start = start
        self.end = end
    }

    public func contains(_ unix: Int64) -> Bool {
        (start.map { unix >= Int64(clamping: $0) } ?? true) && (end.map { unix < Int64(clamping: $0) } ?? true)
    }
}

/// What an alert applies to (the fields set together narrow it down).
public struct LiveInformedEntity: Sendable, Hashable {
    public var agencyId: String?
    public var routeId: String?
    public var routeType: Int32?
    public var directionId: UInt32?
    public var tripId: String?
    public var tripStartDate: String?
    public var tripStartTime: String?
    public var stopId: String?

    public init(
        agencyId: String? = nil, routeId: String? = nil, routeType: Int32? = nil, directionId: UInt32? = nil,
        tripId: String? = nil, tripStartDate: String? = nil, tripStartTime: String? = nil, stopId: String? = nil
    ) {
        self.agencyId = agencyId
        self.routeId = routeId
        self.routeType = routeType
        self.directionId = directionId
        self.tripId = tripId
        self.tripStartDate = tripStartDate
        self.tripStartTime = tripStartTime
        self.stopId = stopId
    }
}

/// A service alert. `key` is "<source>/<entity id>".
public struct LiveAlert: Sendable, Hashable {
    public var key: String
    public var source: String
    public var entityId: String
    public var activePeriods: [LivePeriod]
    public var communicationPeriods: [LivePeriod]
    public var impactPeriods: [LivePeriod]
    public var informedEntities: [LiveInformedEntity]
    public var cause: String
    public var effect: String
    public var severity: String
    public var headerText: LiveText?
    public var descriptionText: LiveText?
    public var url: LiveText?
    public var ttsHeaderText: LiveText?
    public var ttsDescriptionText: LiveText?
    public var causeDetail: LiveText?
    public var effectDetail: LiveText?

    public init(
        key: String, source: String, entityId: String, activePeriods: [LivePeriod] = [],
        communicationPeriods: [LivePeriod] = [], impactPeriods: [LivePeriod] = [],
        informedEntities: [LiveInformedEntity] = [], cause: String = "UNKNOWN_CAUSE",
        effect: String = "UNKNOWN_EFFECT", severity: String = "UNKNOWN_SEVERITY", headerText: LiveText? = nil,
        descriptionText: LiveText? = nil, url: LiveText? = nil, ttsHeaderText: LiveText? = nil,
        ttsDescriptionText: LiveText? = nil, causeDetail: LiveText? = nil, effectDetail: LiveText? = nil
    ) {
        self.key = key
        self.source = source
        self.entityId = entityId
        self.activePeriods = activePeriods
        self.communicationPeriods = communicationPeriods
        self.impactPeriods = impactPeriods
        self.informedEntities = informedEntities
        self.cause = cause
        self.effect = effect
        self.severity = severity
        self.headerText = headerText
        self.descriptionText = descriptionText
        self.url = url
        self.ttsHeaderText = ttsHeaderText
        self.ttsDescriptionText = ttsDescriptionText
        self.causeDetail = causeDetail
        self.effectDetail = effectDetail
    }

    /// Active at `unix`: no period, or a period [start, end) containing it.
    public func isActive(at unix: Int64) -> Bool {
        activePeriods.isEmpty || activePeriods.contains { $0.contains(unix) }
    }
}

public enum LiveSourceKind: String, Sendable, Hashable, CaseIterable {
    case auto
    case tripUpdates = "trip_updates"
    case vehiclePositions = "vehicle_positions"
    case alerts
}

/// A known field a source's feeds sent with a wire type other than the schema's (skipped as an unknown field).
public struct LiveSkippedField: Sendable, Hashable {
    /// e.g. "entity.trip_update.stop_time_update.6".
    public var path: String
    /// Occurrences since the service started.
    public var count: UInt64
    /// The first feed's account of it (count, byte offset, wire types).
    public var first: String

    public init(path: String, count: UInt64, first: String) {
        self.path = path
        self.count = count
        self.first = first
    }
}

/// Health of one realtime source; counters count since the service started.
public struct LiveSourceStatus: Sendable, Hashable {
    public var name: String
    public var kind: LiveSourceKind
    /// Kinds the last applied feed held.
    public var detectedKinds: [LiveSourceKind]
    public var feedTimestamp: UInt64?
    public var lastFetchUnix: Int64?
    public var lastSuccessUnix: Int64?
    public var stale: Bool
    public var staleAfterSecs: UInt32
    public var updatesApplied: UInt64
    public var notModified: UInt64
    public var olderIgnored: UInt64
    public var errors: UInt64
    public var lastError: String?
    public var lastErrorUnix: Int64?
    public var entities: UInt64
    /// Entities left out, by reason (e.g. "unknown_trip"), sorted by reason.
    public var drops: [String: UInt64]
    public var lastDrop: String?
    public var statusUnix: Int64?
    /// Known fields skipped for their wire type, by path.
    public var skippedFields: [LiveSkippedField]

    public init(
        name: String, kind: LiveSourceKind, detectedKinds: [LiveSourceKind] = [], feedTimestamp: UInt64? = nil,
        lastFetchUnix: Int64? = nil, lastSuccessUnix: Int64? = nil, stale: Bool = true, staleAfterSecs: UInt32 = 90,
        updatesApplied: UInt64 = 0, notModified: UInt64 = 0, olderIgnored: UInt64 = 0, errors: UInt64 = 0,
        lastError: String? = nil, lastErrorUnix: Int64? = nil, entities: UInt64 = 0, drops: [String: UInt64] = [:],
        lastDrop: String? = nil, statusUnix: Int64? = nil, skippedFields: [LiveSkippedField] = []
    ) {
        self.name = name
        self.kind = kind
        self.detectedKinds = detectedKinds
        self.feedTimestamp = feedTimestamp
        self.lastFetchUnix = lastFetchUnix
        self.lastSuccessUnix = lastSuccessUnix
        self.stale = stale
        self.staleAfterSecs = staleAfterSecs
        self.updatesApplied = updatesApplied
        self.notModified = notModified
        self.olderIgnored = olderIgnored
        self.errors = errors
        self.lastError = lastError
        self.lastErrorUnix = lastErrorUnix
        self.entities = entities
        self.drops = drops
        self.lastDrop = lastDrop
        self.statusUnix = statusUnix
        self.skippedFields = skippedFields
    }
}
