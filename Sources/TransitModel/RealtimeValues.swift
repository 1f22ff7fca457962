// Values of the realtime service's live state as they cross a process boundary (protocol/realtime.proto).
// Names start with `Live` so they never clash with a consumer's own types (the gateway has its own view);
// `TranslatedText` is shared as is by the feed decoder, the realtime service and the gateway;
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
    /// A static trip id (with import prefix) or an added trip's id.
    public var tripId: String
    /// The service date the instance runs on.
    public var serviceDate: ServiceDate
    /// GTFS seconds of the instance's start, only where trip id and date do not name one instance.
    public var startSecs: Int32?

    /// The instance of `tripId` on `serviceDate` (starting at `startSecs`, where that is needed).
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

/// How a live trip instance relates to the schedule (GTFS-Realtime's TripDescriptor
/// schedule_relationship, with `unscheduled` for frequency-based instances without exact times).
public enum LiveTripRelationship: String, Sendable, Hashable, CaseIterable {
    case scheduled, unscheduled, canceled, added, new, replacement, duplicated, deleted
}

/// What a `LiveStop` says about its prediction.
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

/// Where a stop's predicted time comes from, strongest first: when several apply, the first of these wins
/// (GATEWAY.md `prediction_source`).
public enum LivePredictionSource: String, Sendable, Hashable, CaseIterable {
    /// The producer's own time (or delay) for that stop: a stop time update naming it.
    case stopUpdate = "stop_update"
    /// Carried from an earlier stop's update (GTFS-Realtime propagation), or kept from the instance's
    /// previous update for a stop the new one no longer covers.
    case propagated
    /// TripUpdate.delay, for the stops before the first stop time update.
    case tripDelay = "trip_delay"
    /// Estimated from the vehicle's position (a trip with positions but no trip update for the stop).
    case vehicle
    /// No live prediction: the schedule.
    case schedule

    /// 0 for the strongest (`stopUpdate`) to 4 (`schedule`).
    @inlinable
    public var rank: Int {
        switch self {
        case .stopUpdate: 0
        case .propagated: 1
        case .tripDelay: 2
        case .vehicle: 3
        case .schedule: 4
        }
    }

    /// The stronger of two sources (the precedence rule).
    @inlinable
    public static func strongest(_ a: LivePredictionSource, _ b: LivePredictionSource) -> LivePredictionSource {
        a.rank <= b.rank ? a : b
    }

    /// Seconds from the time the prediction was made (`tripTimestamp`: TripUpdate.timestamp, or a vehicle
    /// estimate's position timestamp; else `feedTimestamp`: the feed header's) to `now`, never negative; nil for
    /// `schedule` and when neither timestamp is known.
    @inlinable
    public func age(tripTimestamp: Int64?, feedTimestamp: Int64?, now: Int64) -> Int64? {
        guard self != .schedule, let made = tripTimestamp ?? feedTimestamp else { return nil }
        return max(0, now - made)
    }
}

/// One stop of a resolved trip instance.
///
/// The realtime service builds, copies, compares and frees ~100,000 of these per feed update, so the fields
/// few stops have (a platform change, the occupancy, a stop headsign, carriages) are kept together in one
/// shared box that is nil for the common stop: copying one then retains its stop id only. They read and
/// write like stored properties; an update that clears them all frees the box.
public struct LiveStop: Sendable, Hashable {
    /// The scheduled stop's id.
    public var stopId: String
    /// GTFS stop_sequence.
    public var stopSequence: UInt32
    /// Scheduled arrival in unix seconds; nil when unknown (e.g. an added trip's stop).
    public var scheduledArrival: Int64?
    /// Scheduled departure in unix seconds; nil when unknown.
    public var scheduledDeparture: Int64?
    /// Predicted arrival in unix seconds; nil: no prediction.
    public var predictedArrival: Int64?
    /// Predicted departure in unix seconds; nil: no prediction.
    public var predictedDeparture: Int64?
    /// Predicted minus scheduled arrival in seconds (positive: late), when both are known.
    public var arrivalDelay: Int32?
    /// Predicted minus scheduled departure in seconds (positive: late), when both are known.
    public var departureDelay: Int32?
    /// Whether the stop has a prediction, is skipped, or has none.
    public var status: LiveStopStatus
    /// Where the prediction comes from; `schedule` exactly when `status` is not `predicted`.
    public var predictionSource: LivePredictionSource
    /// The rarely set fields below; nil when none of them is set (never a box of nothing, so that the
    /// synthesized equality and hash see equal stops as equal).
    @usableFromInline var rare: LiveStopRareBox?

    /// A realtime platform change (StopTimeProperties.assigned_stop_id, or an update's stop_id naming another
    /// stop of the scheduled stop's station); nil: the scheduled stop.
    public var assignedStopId: String? {
        @inlinable get { rare?.fields.assignedStopId }
        set { if newValue != nil || rare != nil { updateRare { $0.assignedStopId = newValue } } }
    }
    /// The platform_code of `assignedStopId`, when the static data has one.
    public var assignedPlatform: String? {
        @inlinable get { rare?.fields.assignedPlatform }
        set { if newValue != nil || rare != nil { updateRare { $0.assignedPlatform = newValue } } }
    }
    /// GTFS-RT OccupancyStatus name from the stop time update, when given.
    public var departureOccupancy: String? {
        @inlinable get { rare?.fields.departureOccupancy }
        set { if newValue != nil || rare != nil { updateRare { $0.departureOccupancy = newValue } } }
    }
    /// StopTimeProperties.stop_headsign from the stop time update, when given.
    public var stopHeadsign: String? {
        @inlinable get { rare?.fields.stopHeadsign }
        set { if newValue != nil || rare != nil { updateRare { $0.stopHeadsign = newValue } } }
    }
    /// Predicted occupancy per carriage on departure (Transport for NSW), in feed order; empty for most feeds.
    public var carriages: [LiveCarriage] {
        @inlinable get { rare?.fields.carriages ?? [] }
        set { if !newValue.isEmpty || rare != nil { updateRare { $0.carriages = newValue } } }
    }
    /// StopTimeProperties.pickup_type as a GTFS code (0 regular, 1 none, 2 phone the agency, 3 coordinate with
    /// the driver), when the update gives one: it replaces the schedule's for this instance.
    public var pickupType: Int32? {
        @inlinable get { rare?.fields.pickupType }
        set { if newValue != nil || rare != nil { updateRare { $0.pickupType = newValue } } }
    }
    /// StopTimeProperties.drop_off_type as a GTFS code (as `pickupType`), when the update gives one.
    public var dropOffType: Int32? {
        @inlinable get { rare?.fields.dropOffType }
        set { if newValue != nil || rare != nil { updateRare { $0.dropOffType = newValue } } }
    }

    // @inlinable: the realtime service builds ~100,000 of these per feed update, from another module.
    /// A stop of a live trip; everything but its identity and status unknown unless told.
    @inlinable
    public init(
        stopId: String, stopSequence: UInt32, assignedStopId: String? = nil, scheduledArrival: Int64? = nil,
        scheduledDeparture: Int64? = nil, predictedArrival: Int64? = nil, predictedDeparture: Int64? = nil,
        arrivalDelay: Int32? = nil, departureDelay: Int32? = nil, status: LiveStopStatus,
        predictionSource: LivePredictionSource? = nil, departureOccupancy: String? = nil, stopHeadsign: String? = nil,
        carriages: [LiveCarriage] = []
    ) {
        self.stopId = stopId
        self.stopSequence = stopSequence
        self.scheduledArrival = scheduledArrival
        self.scheduledDeparture = scheduledDeparture
        self.predictedArrival = predictedArrival
        self.predictedDeparture = predictedDeparture
        self.arrivalDelay = arrivalDelay
        self.departureDelay = departureDelay
        self.status = status
        // Unsaid: a prediction is the producer's own (the common case in tests and fixtures).
        self.predictionSource = predictionSource ?? (status == .predicted ? .stopUpdate : .schedule)
        if assignedStopId == nil, departureOccupancy == nil, stopHeadsign == nil, carriages.isEmpty {
            self.rare = nil
        } else {
            self.rare = LiveStopRareBox(
                LiveStopRareFields(
                    assignedStopId: assignedStopId, departureOccupancy: departureOccupancy,
                    stopHeadsign: stopHeadsign, carriages: carriages))
        }
    }

    /// Predicted departure, else predicted arrival, else the scheduled ones: when the vehicle is there.
    public var time: Int64? { predictedDeparture ?? predictedArrival ?? scheduledDeparture ?? scheduledArrival }

    /// Changes the rare fields: in place when this stop alone holds the box, else in a new one; none left
    /// set: no box. (The setters skip it when they would set nothing on a stop without a box: the common
    /// case of every decoded stop, where making and checking an empty set of fields cost ~100 ns a field.)
    private mutating func updateRare(_ change: (inout LiveStopRareFields) -> Void) {
        if isKnownUniquelyReferenced(&rare) {  // false when nil
            change(&rare!.fields)
            if rare!.fields.isEmpty { rare = nil }
            return
        }
        var fields = rare?.fields ?? LiveStopRareFields()
        change(&fields)
        rare = fields.isEmpty ? nil : LiveStopRareBox(fields)
    }
}

/// The fields of a `LiveStop` that few stops have.
@usableFromInline
struct LiveStopRareFields: Sendable, Hashable {
    @usableFromInline var assignedStopId: String?
    @usableFromInline var assignedPlatform: String?
    @usableFromInline var departureOccupancy: String?
    @usableFromInline var stopHeadsign: String?
    @usableFromInline var carriages: [LiveCarriage] = []
    @usableFromInline var pickupType: Int32?
    @usableFromInline var dropOffType: Int32?

    @usableFromInline
    init(
        assignedStopId: String? = nil, assignedPlatform: String? = nil, departureOccupancy: String? = nil,
        stopHeadsign: String? = nil, carriages: [LiveCarriage] = []
    ) {
        self.assignedStopId = assignedStopId
        self.assignedPlatform = assignedPlatform
        self.departureOccupancy = departureOccupancy
        self.stopHeadsign = stopHeadsign
        self.carriages = carriages
    }

    var isEmpty: Bool {
        assignedStopId == nil && assignedPlatform == nil && departureOccupancy == nil && stopHeadsign == nil
            && carriages.isEmpty && pickupType == nil && dropOffType == nil
    }
}

/// The shared box of a `LiveStop`'s rare fields. Copy on write: `LiveStop` changes `fields` only while it
/// holds the sole reference (so a box other stops see never changes, which is what makes it Sendable).
/// Equal and hashed by its fields.
@usableFromInline
final class LiveStopRareBox: @unchecked Sendable, Hashable {
    @usableFromInline var fields: LiveStopRareFields

    @usableFromInline
    init(_ fields: LiveStopRareFields) { self.fields = fields }

    @usableFromInline
    static func == (a: LiveStopRareBox, b: LiveStopRareBox) -> Bool { a === b || a.fields == b.fields }

    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(fields) }
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
    /// A quiet carriage.
    public var quiet: Bool?
    /// NONE, NORMAL, ACCESSIBLE (or the number sent).
    public var toilet: String?
    /// It has a luggage rack.
    public var luggageRack: Bool?

    /// A carriage with the fields the feed sent.
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
    /// The vehicle is air conditioned.
    public var airConditioned: Bool?
    /// TfNSW's wheelchair_accessible number, non-zero: true.
    public var wheelchairAccessible: Bool?
    /// e.g. "Alstom Metropolis".
    public var model: String?
    /// Still running its previous trip.
    public var performingPriorTrip: Bool?
    /// TfNSW's code for special vehicles (0: none).
    public var specialAttributes: Int32?

    /// The features the feed sent.
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
    /// Which running of the trip it is.
    public var instance: TripInstanceKey
    /// How it relates to the schedule.
    public var relationship: LiveTripRelationship
    /// The static trip its stops come from (a duplicated trip: the copied one); nil when it is not in
    /// the schedule (a new trip).
    public var staticTripId: String?
    /// Its route (with import prefix), when known.
    public var routeId: String?
    /// GTFS direction_id, when known.
    public var directionId: Int?
    /// VehicleDescriptor.id from the update, when given.
    public var vehicleId: String?
    /// VehicleDescriptor.label from the update, when given.
    public var vehicleLabel: String?
    /// TripUpdate.timestamp.
    public var timestamp: UInt64?
    /// TripUpdate.delay in seconds (positive: late), when given.
    public var tripDelay: Int32?
    /// Empty for deleted instances.
    public var stops: [LiveStop]
    /// Name of the source it came from (its feed's age and staleness are in its status).
    public var source: String
    /// The id of the feed entity it came from.
    public var entityId: String?
    /// TripProperties.trip_headsign from the update, when given (an added trip's only headsign).
    public var tripHeadsign: String?
    /// Set when the update named a modified trip (a detour): the TripModifications entity's id. The stops
    /// are then the modified trip's served stops, numbered 1...n as `LiveDetourStop.stopSequence`.
    public var modificationsId: String?

    /// A live trip instance; unknown fields and no stops unless told.
    @inlinable
    public init(
        instance: TripInstanceKey, relationship: LiveTripRelationship, staticTripId: String? = nil,
        routeId: String? = nil, directionId: Int? = nil, vehicleId: String? = nil, vehicleLabel: String? = nil,
        timestamp: UInt64? = nil, tripDelay: Int32? = nil, stops: [LiveStop] = [], source: String,
        entityId: String? = nil, tripHeadsign: String? = nil, modificationsId: String? = nil
    ) {
        self.modificationsId = modificationsId
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

/// Where a vehicle is (GTFS-Realtime Position).
public struct LivePosition: Sendable, Hashable {
    /// Latitude in degrees (WGS 84).
    public var lat: Double
    /// Longitude in degrees (WGS 84).
    public var lon: Double
    /// Degrees clockwise from true north, when given.
    public var bearing: Float?
    /// Metres per second.
    public var speed: Float?
    /// Odometer in metres, when given.
    public var odometer: Double?

    /// A position; bearing, speed and odometer unknown unless told.
    public init(lat: Double, lon: Double, bearing: Float? = nil, speed: Float? = nil, odometer: Double? = nil) {
        self.lat = lat
        self.lon = lon
        self.bearing = bearing
        self.speed = speed
        self.odometer = odometer
    }
}

/// A vehicle position as the realtime service publishes it: the feed's fields and the trip instance resolved
/// (the wire value; the gateway prepares a GatewayProtocol `VehicleSnapshot` from it once per update). `key` is
/// "<source>/<entity id>".
public struct LiveVehicle: Sendable, Hashable {
    /// "<source>/<entity id>": unique across sources.
    public var key: String
    /// Name of the source it came from.
    public var source: String
    /// The id of the feed entity it came from.
    public var entityId: String
    /// The resolved trip instance, when the descriptor names one.
    public var trip: TripInstanceKey?
    /// The trip id as the feed names it (with the source's id prefix).
    public var tripId: String?
    /// The route id as the feed names it (with the source's id prefix).
    public var routeId: String?
    /// GTFS direction_id from the trip descriptor, when given.
    public var directionId: Int?
    /// "HH:MM:SS" from the trip descriptor, as in the feed.
    public var startTime: String?
    /// "YYYYMMDD" from the trip descriptor, as in the feed.
    public var startDate: String?
    /// The trip descriptor's schedule_relationship (GTFS-Realtime name), when given.
    public var tripRelationship: String?
    /// VehicleDescriptor.id, when given.
    public var vehicleId: String?
    /// VehicleDescriptor.label: what riders see, when given.
    public var label: String?
    /// VehicleDescriptor.license_plate, when given.
    public var licensePlate: String?
    /// Where it is, when the feed says.
    public var position: LivePosition?
    /// stop_sequence of the stop it is at or heading to, when given.
    public var currentStopSequence: UInt32?
    /// The stop it is at or heading to, when given.
    public var stopId: String?
    /// VehicleStopStatus name ("STOPPED_AT", "IN_TRANSIT_TO", …), when given.
    public var currentStatus: String?
    /// When the position was measured, in unix seconds, when given.
    public var timestamp: UInt64?
    /// CongestionLevel name, when given.
    public var congestionLevel: String?
    /// OccupancyStatus name ("MANY_SEATS_AVAILABLE", …), when given.
    public var occupancyStatus: String?
    /// How full it is in percent of its capacity, when given.
    public var occupancyPercentage: UInt32?
    /// WheelchairAccessible name from the vehicle descriptor, when given.
    public var wheelchairAccessible: String?
    /// The train's carriages (Transport for NSW), in feed order.
    public var carriages: [LiveCarriage]
    /// Transport for NSW's vehicle descriptor, when sent.
    public var features: LiveVehicleFeatures?

    /// A vehicle; everything but its identity unknown unless told.
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

/// A text in one or more languages (language nil: the untranslated text): an alert's header, description,
/// URL. The one type for it from the GTFS-Realtime feed (its TranslatedText) through the realtime service's
/// messages (protocol/realtime.proto's TranslatedText) to the gateway's live state.
public struct TranslatedText: Sendable, Hashable {
    /// The text in one language.
    public struct Translation: Sendable, Hashable {
        /// The text.
        public var text: String
        /// BCP-47 language code; nil for the untranslated text (the feed's default language).
        public var language: String?
        /// `text` in `language` (nil: untranslated).
        public init(text: String, language: String? = nil) {
            self.text = text
            self.language = language
        }
    }

    /// Every language given, in the feed's order.
    public var translations: [Translation]
    /// A text of `translations`.
    public init(_ translations: [Translation]) { self.translations = translations }
    /// A single untranslated text.
    public init(_ text: String) { self.translations = [Translation(text: text)] }

    /// The text in `language` (compared case-insensitively); else the untranslated one, then the English one,
    /// then the first; nil when there is no translation.
    public func text(in language: String?) -> String? {
        if let language, let hit = translations.first(where: { $0.language?.lowercased() == language.lowercased() }) {
            return hit.text
        }
        if let plain = translations.first(where: { $0.language == nil }) { return plain.text }
        if let english = translations.first(where: { $0.language?.lowercased() == "en" }) { return english.text }
        return translations.first?.text
    }
}

/// An image in one or more languages (GTFS-Realtime TranslatedImage): an alert's picture. The one type for it
/// from the feed through the realtime service's messages to the gateway's live state.
public struct TranslatedImage: Sendable, Hashable {
    /// The image for one language.
    public struct LocalizedImage: Sendable, Hashable {
        /// Where the image is.
        public var url: String
        /// IANA media type, e.g. "image/png".
        public var mediaType: String
        /// BCP-47 language code; nil: for any language.
        public var language: String?

        /// An image at `url` of `mediaType`, for `language` (nil: any).
        public init(url: String, mediaType: String, language: String? = nil) {
            self.url = url
            self.mediaType = mediaType
            self.language = language
        }
    }

    /// Every image given, in the feed's order.
    public var localizedImages: [LocalizedImage]

    /// An image of `localizedImages`.
    public init(localizedImages: [LocalizedImage]) {
        self.localizedImages = localizedImages
    }

    /// The image for `language` by the rule of `TranslatedText.text(in:)`: that language (case-insensitive),
    /// else the one for any language, then the English one, then the first; nil when there is none.
    public func image(in language: String?) -> LocalizedImage? {
        if let language, let hit = localizedImages.first(where: { $0.language?.lowercased() == language.lowercased() })
        {
            return hit
        }
        if let plain = localizedImages.first(where: { $0.language == nil }) { return plain }
        if let english = localizedImages.first(where: { $0.language?.lowercased() == "en" }) { return english }
        return localizedImages.first
    }
}

/// Unix seconds; nil = open on that side.
public struct LivePeriod: Sendable, Hashable {
    /// First second of the period; nil: open.
    public var start: UInt64?
    /// End of the period (exclusive); nil: open.
    public var end: UInt64?
    /// A period; open on the sides not given.
    public init(start: UInt64? = nil, end: UInt64? = nil) {
        self.start = start
        self.end = end
    }

    /// Whether `unix` lies in [start, end), open sides included.
    public func contains(_ unix: Int64) -> Bool {
        (start.map { unix >= Int64(clamping: $0) } ?? true) && (end.map { unix < Int64(clamping: $0) } ?? true)
    }
}

/// What an alert applies to (the fields set together narrow it down).
public struct LiveInformedEntity: Sendable, Hashable {
    /// The agency (with import prefix), when named.
    public var agencyId: String?
    /// The route (with import prefix), when named.
    public var routeId: String?
    /// GTFS route_type, when named.
    public var routeType: Int32?
    /// GTFS direction_id, when named.
    public var directionId: UInt32?
    /// The trip (with import prefix), when named.
    public var tripId: String?
    /// "YYYYMMDD" of the trip descriptor, when given.
    public var tripStartDate: String?
    /// "HH:MM:SS" of the trip descriptor, when given.
    public var tripStartTime: String?
    /// The stop, when named.
    public var stopId: String?

    /// An informed entity naming the fields given.
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
    /// "<source>/<entity id>": unique across sources.
    public var key: String
    /// Name of the source it came from.
    public var source: String
    /// The id of the feed entity it came from.
    public var entityId: String
    /// When it applies; empty: as long as it is in the feed.
    public var activePeriods: [LivePeriod]
    /// When it should be shown to riders (GTFS-Realtime communication_period).
    public var communicationPeriods: [LivePeriod]
    /// When the service is affected (GTFS-Realtime impact_period).
    public var impactPeriods: [LivePeriod]
    /// What it applies to.
    public var informedEntities: [LiveInformedEntity]
    /// Cause name ("MAINTENANCE", …); "UNKNOWN_CAUSE" when the feed leaves it out.
    public var cause: String
    /// Effect name ("DETOUR", …); "UNKNOWN_EFFECT" when the feed leaves it out.
    public var effect: String
    /// SeverityLevel name ("WARNING", …); "UNKNOWN_SEVERITY" when the feed leaves it out.
    public var severity: String
    /// The headline, when given.
    public var headerText: TranslatedText?
    /// The full text, when given.
    public var descriptionText: TranslatedText?
    /// A link to more information, when given.
    public var url: TranslatedText?
    /// The headline for text-to-speech, when given.
    public var ttsHeaderText: TranslatedText?
    /// The full text for text-to-speech, when given.
    public var ttsDescriptionText: TranslatedText?
    /// The agency's own words for the cause, when given.
    public var causeDetail: TranslatedText?
    /// The agency's own words for the effect, when given.
    public var effectDetail: TranslatedText?
    /// A picture of the alert (e.g. a detour map), when given.
    public var image: TranslatedImage?
    /// The text that describes `image` for riders who cannot see it, when given.
    public var imageAlternativeText: TranslatedText?

    /// An alert; causes, effects and severity unknown and no texts unless told.
    public init(
        key: String, source: String, entityId: String, activePeriods: [LivePeriod] = [],
        communicationPeriods: [LivePeriod] = [], impactPeriods: [LivePeriod] = [],
        informedEntities: [LiveInformedEntity] = [], cause: String = "UNKNOWN_CAUSE",
        effect: String = "UNKNOWN_EFFECT", severity: String = "UNKNOWN_SEVERITY", headerText: TranslatedText? = nil,
        descriptionText: TranslatedText? = nil, url: TranslatedText? = nil, ttsHeaderText: TranslatedText? = nil,
        ttsDescriptionText: TranslatedText? = nil, causeDetail: TranslatedText? = nil,
        effectDetail: TranslatedText? = nil, image: TranslatedImage? = nil, imageAlternativeText: TranslatedText? = nil
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
        self.image = image
        self.imageAlternativeText = imageAlternativeText
    }

    /// Active at `unix`: no period, or a period [start, end) containing it.
    public func isActive(at unix: Int64) -> Bool {
        activePeriods.isEmpty || activePeriods.contains { $0.contains(unix) }
    }
}

/// What a realtime source's feed holds; `auto` takes whatever kinds it finds.
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

    /// The count of one path.
    public init(path: String, count: UInt64, first: String) {
        self.path = path
        self.count = count
        self.first = first
    }
}

/// Health of one realtime source; counters count since the service started.
public struct LiveSourceStatus: Sendable, Hashable {
    /// The source's name in the realtime config.
    public var name: String
    /// The kind configured for it.
    public var kind: LiveSourceKind
    /// Kinds the last applied feed held.
    public var detectedKinds: [LiveSourceKind]
    /// Header timestamp (unix seconds) of the last applied feed; nil before the first.
    public var feedTimestamp: UInt64?
    /// Last fetch attempt, successful or not (unix seconds).
    public var lastFetchUnix: Int64?
    /// Last body that decoded, whether applied, unchanged or ignored (unix seconds).
    public var lastSuccessUnix: Int64?
    /// Its data is older than `staleAfterSecs`: not to be shown as realtime.
    public var stale: Bool
    /// Age in seconds after which its data counts as stale.
    public var staleAfterSecs: UInt32
    /// Feeds applied to the live state.
    public var updatesApplied: UInt64
    /// 304 answers and bodies identical to the last one.
    public var notModified: UInt64
    /// Feeds ignored because their header timestamp was older than the last applied one.
    public var olderIgnored: UInt64
    /// Fetch and decode failures.
    public var errors: UInt64
    /// The last failure's message; nil: none yet.
    public var lastError: String?
    /// When the last failure happened (unix seconds).
    public var lastErrorUnix: Int64?
    /// Failures since the last success (0: the last attempt succeeded, or none yet).
    public var consecutiveErrors: UInt64 = 0
    /// The first success after the last failure (unix seconds); nil while failing or before any failure.
    public var recoveredUnix: Int64?
    /// Entities of this source in the live state now.
    public var entities: UInt64
    /// Entities left out, by reason (e.g. "unknown_trip"), sorted by reason.
    public var drops: [String: UInt64]
    /// Message of the last entity left out.
    public var lastDrop: String?
    /// When this status was computed (unix seconds).
    public var statusUnix: Int64?
    /// Stop time updates whose stop_sequence and stop_id named different stops of their trip.
    public var stopMismatches: UInt64 = 0
    /// The first of them since the service started, described (entity, trip, both stops, which one won).
    public var firstStopMismatch: String?
    /// Known fields skipped for their wire type, by path.
    public var skippedFields: [LiveSkippedField]
    /// How much of the last applied update the timetable knows, and the service's verdict; nil before the first
    /// update that names a scheduled trip.
    public var match: LiveTimetableMatch?
    /// FeedHeader.feed_version of the last applied feed, when it gave one.
    public var feedVersion: String?
    /// The source's static id prefix ("" for none): the static feed imported with it is the one it matches.
    public var idPrefix = ""

    /// A status; a source that has fetched nothing yet (stale, counters 0) unless told.
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

/// A static trip as a GTFS-Realtime TripModifications entity changes it (a detour), with the service dates
/// and runs where that entity selects it (protocol/realtime.proto `TripDetour`). Keyed
/// "<source>/<modifications id>/<trip id>".
public struct LiveDetour: Sendable, Hashable {
    /// "<source>/<modifications id>/<trip id>".
    public var key: String
    /// The realtime source whose feed carried the TripModifications.
    public var source: String
    /// The TripModifications entity's id.
    public var modificationsId: String
    /// The static trip (with the source's id prefix).
    public var tripId: String
    /// Where the entity selects the trip, ascending.
    public var serviceDates: [ServiceDate]
    /// Empty: every run; else only the runs starting then (GTFS seconds; frequency-based trips).
    public var startSecs: [Int32]
    /// The static trip's first departure (GTFS seconds): the one run of a fixed-time trip.
    public var tripStartSecs: Int32?
    /// The path while detoured (SelectedTrips.shape_id).
    public var shapeId: String?
    /// The encoded polyline of `shapeId` when a Shape entity of the feed gave it.
    public var shapePolyline: String?
    /// The alerts describing it (Modification.service_alert_id), once each.
    public var alertIds: [String]
    /// Every stop in travel order: kept, detoured and replacement.
    public var stops: [LiveDetourStop]

    /// A detour; no run limits, shape or alerts unless told.
    public init(
        key: String, source: String, modificationsId: String, tripId: String, serviceDates: [ServiceDate],
        startSecs: [Int32] = [], tripStartSecs: Int32? = nil, shapeId: String? = nil, shapePolyline: String? = nil,
        alertIds: [String] = [], stops: [LiveDetourStop]
    ) {
        self.key = key
        self.source = source
        self.modificationsId = modificationsId
        self.tripId = tripId
        self.serviceDates = serviceDates
        self.startSecs = startSecs
        self.tripStartSecs = tripStartSecs
        self.shapeId = shapeId
        self.shapePolyline = shapePolyline
        self.alertIds = alertIds
        self.stops = stops
    }

    /// Whether it is in effect for the run of the trip on `serviceDate` starting at `runStartSecs` (a
    /// frequency-based instance's start; nil: the trip's own).
    public func applies(serviceDate: ServiceDate, runStartSecs: Int32?) -> Bool {
        guard serviceDates.contains(serviceDate) else { return false }
        guard !startSecs.isEmpty else { return true }
        guard let start = runStartSecs ?? tripStartSecs else { return false }
        return startSecs.contains(start)
    }

    /// The role of the static stop at `originalSequence`; nil when the detour does not list it.
    public func role(ofOriginal originalSequence: UInt32) -> LiveDetourStop.Role? {
        stops.first { $0.originalSequence == originalSequence }?.role
    }

    /// The modified trip's stop_sequence of the static stop at `originalSequence` (kept stops only).
    public func modifiedSequence(ofOriginal originalSequence: UInt32) -> UInt32? {
        stops.first { $0.originalSequence == originalSequence && $0.role == .kept }?.stopSequence
    }
}

/// One stop of a `LiveDetour`.
public struct LiveDetourStop: Sendable, Hashable {
    /// What the detour makes of the stop.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        /// An original stop still served.
        case kept
        /// An original stop the detour leaves out.
        case detoured
        /// A stop served instead.
        case replacement
    }

    /// The stop (a static stop, or a Stop entity of the feed for a replacement stop).
    public var stopId: String
    /// What the detour makes of it.
    public var role: Role
    /// Kept and detoured stops: the static stop_sequence.
    public var originalSequence: UInt32?
    /// Kept and replacement stops: 1...n along the stops the modified trip serves.
    public var stopSequence: UInt32?
    /// Seconds after the trip's start, as the modified schedule has them (detoured: the original's).
    public var arrivalOffset: Int32
    /// As `arrivalOffset`; a replacement stop's equals its arrival (the spec's rule).
    public var departureOffset: Int32
    /// Kept stops: what the modifications before it add to its original times.
    public var propagatedDelay: Int32
    /// Replacement stops: where they are (nil when the feed's Stop entity gives no coordinates).
    public var lat: Double?
    /// As `lat`.
    public var lon: Double?

    /// A stop of a detour; no sequences, delay or position unless told.
    public init(
        stopId: String, role: Role, originalSequence: UInt32? = nil, stopSequence: UInt32? = nil,
        arrivalOffset: Int32, departureOffset: Int32, propagatedDelay: Int32 = 0, lat: Double? = nil,
        lon: Double? = nil
    ) {
        self.stopId = stopId
        self.role = role
        self.originalSequence = originalSequence
        self.stopSequence = stopSequence
        self.arrivalOffset = arrivalOffset
        self.departureOffset = departureOffset
        self.propagatedDelay = propagatedDelay
        self.lat = lat
        self.lon = lon
    }
}

/// Entities of one update that name a scheduled trip, and how many of them resolved to a trip of the static data.
public struct LiveMatchCount: Sendable, Hashable {
    /// Entities that name a scheduled trip.
    public var considered: UInt64
    /// Of those, the ones resolved to a trip of the static data.
    public var matched: UInt64

    /// A count; none by default.
    public init(considered: UInt64 = 0, matched: UInt64 = 0) {
        self.considered = considered
        self.matched = matched
    }

    /// matched / considered in per-mille (rounded); nil when nothing was considered.
    public var permille: UInt32? {
        guard considered > 0 else { return nil }
        return UInt32((matched * 1000 + considered / 2) / considered)
    }
}

/// A source's timetable match (protocol/realtime.proto `TimetableMatch`): the counts of its last applied update,
/// the rate judged (trip updates', else vehicles'), its median over the last hour and the realtime service's
/// verdict. Rates are per-mille.
public struct LiveTimetableMatch: Sendable, Hashable {
    /// The trip updates of the last applied update.
    public var tripUpdates: LiveMatchCount
    /// The vehicle positions with a trip id of the last applied update.
    public var vehicles: LiveMatchCount
    /// The judged rate; nil when the update named no scheduled trip.
    public var ratePermille: UInt32?
    /// Median of the judged rates of the updates applied in the last hour; nil without any.
    public var medianPermille: UInt32?
    /// Updates behind the median.
    public var samples: UInt32
    /// The least rate that is not a mismatch (`--min-match-rate`).
    public var minPermille: UInt32
    /// Below the minimum, or more than 30 points below the median: the static data no longer fits the feed.
    public var mismatch: Bool
    /// When the current mismatch began; nil without one.
    public var mismatchSinceUnix: Int64?

    /// A match; nothing counted and no mismatch by default.
    public init(
        tripUpdates: LiveMatchCount = .init(), vehicles: LiveMatchCount = .init(), ratePermille: UInt32? = nil,
        medianPermille: UInt32? = nil, samples: UInt32 = 0, minPermille: UInt32 = 500, mismatch: Bool = false,
        mismatchSinceUnix: Int64? = nil
    ) {
        self.tripUpdates = tripUpdates
        self.vehicles = vehicles
        self.ratePermille = ratePermille
        self.medianPermille = medianPermille
        self.samples = samples
        self.minPermille = minPermille
        self.mismatch = mismatch
        self.mismatchSinceUnix = mismatchSinceUnix
    }
}
