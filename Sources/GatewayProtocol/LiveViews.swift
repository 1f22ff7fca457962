import TransitCore
import TransitModel
import TransitPresentation

// The realtime parts the gateway merges into static answers before encoding. The static service's debug
// client passes none: its rows print realtime fields as null and status "scheduled".

/// What the live state says about one departure (a trip instance at a stop).
/// A realtime platform change: the stop the vehicle serves instead of the scheduled one (another platform
/// of the station, or StopTimeProperties.assigned_stop_id) and its platform_code.
public struct PlatformChange: Sendable, Hashable {
    public var stopId: String
    public var platform: String?

    public init(stopId: String, platform: String?) {
        self.stopId = stopId
        self.platform = platform
    }
}

public struct DepartureRealtime: Sendable, Hashable {
    /// Predicted departure, unix seconds; nil without a prediction (NO_DATA, cancelled, stale source …).
    public var predictedUnix: Int64?
    public var cancelled: Bool
    public var skipped: Bool
    /// The trip is not in the schedule (ADDED/NEW): its Departure's scheduled fields hold its own times and
    /// are printed as null.
    public var added: Bool
    /// GTFS-RT enum name, e.g. MANY_SEATS_AVAILABLE.
    public var occupancyStatus: String?
    /// Predicted occupancy of each carriage on departure (Transport for NSW); empty when not sent.
    public var carriages: [LiveCarriage]
    /// The platform the vehicle serves instead of the scheduled one; nil: no change.
    public var platformChange: PlatformChange?
    /// Where `predictedUnix` comes from (`schedule` without one) and how old it is (GATEWAY.md
    /// `prediction_source`, `prediction_age_s`).
    public var predictionSource: LivePredictionSource = .schedule
    public var predictionAgeSeconds: Int64?
    /// When the prediction was made (unix), for the age at the answer's time.
    public var predictionMadeUnix: Int64?

    public init(
        predictedUnix: Int64? = nil, cancelled: Bool = false, skipped: Bool = false, added: Bool = false,
        occupancyStatus: String? = nil, carriages: [LiveCarriage] = [], platformChange: PlatformChange? = nil
    ) {
        self.predictedUnix = predictedUnix
        self.cancelled = cancelled
        self.skipped = skipped
        self.added = added
        self.occupancyStatus = occupancyStatus
        self.carriages = carriages
        self.platformChange = platformChange
    }

    /// Live data applies: a prediction, or a cancelled/skipped/added state.
    public var appliesToRow: Bool { predictedUnix != nil || cancelled || skipped || added }
}

/// One row of a departure board: the static departure and what the live state says about it.
public struct DepartureRow: Sendable, Hashable {
    public var departure: Departure
    public var realtime: DepartureRealtime?
    /// Ids of the alerts that apply to this row (GATEWAY.md `alert_ids`), in `DeparturesAnswer.alerts` order.
    public var alertIds: [String] = []
    /// How late this route usually leaves this stop at this hour (GATEWAY.md "typical delay").
    public var typicalDelay: TypicalDelayView?
    /// The detour in effect for the row's trip instance (the row's stop is one the detour keeps); the row
    /// shows its id and alerts (GATEWAY.md "detour").
    public var detour: LiveDetour?

    public init(departure: Departure, realtime: DepartureRealtime? = nil) {
        self.departure = departure
        self.realtime = realtime
    }

    /// The time the board sorts and counts down by: predicted, else scheduled (unix).
    public var time: Int64 { realtime?.predictedUnix ?? departure.scheduledUnix }

    /// Predicted − scheduled departure; nil without a prediction and for added trips.
    public var delay: Int? {
        guard let realtime, !realtime.added, let predicted = realtime.predictedUnix else { return nil }
        return Int(predicted - departure.scheduledUnix)
    }

    public var status: DepartureStatus {
        DepartureStatus(
            delay: delay, cancelled: realtime?.cancelled ?? false, skipped: realtime?.skipped ?? false,
            added: realtime?.added ?? false)
    }
}

/// The page part of a board (GATEWAY.md "page"); earliest/latest are computed from the rows.
public struct BoardPage: Sendable, Hashable {
    public var direction: BoardDirection
    public var hasMorePast: Bool
    public var hasMoreFuture: Bool
    public var earlierCursor: String?
    public var laterCursor: String?

    public init(
        direction: BoardDirection, hasMorePast: Bool, hasMoreFuture: Bool, earlierCursor: String?, laterCursor: String?
    ) {
        self.direction = direction
        self.hasMorePast = hasMorePast
        self.hasMoreFuture = hasMoreFuture
        self.earlierCursor = earlierCursor
        self.laterCursor = laterCursor
    }
}

/// The `data` of a departures answer.
public struct DeparturesAnswer: Sendable, Hashable {
    public var stopId: String
    public var timezone: String?
    /// In the order to print: ascending by `time`.
    public var rows: [DepartureRow]
    public var page: BoardPage
    /// The alerts its rows name, once each (GATEWAY.md `data.alerts`).
    public var alerts: [AlertView] = []

    public init(stopId: String, timezone: String?, rows: [DepartureRow], page: BoardPage) {
        self.stopId = stopId
        self.timezone = timezone
        self.rows = rows
        self.page = page
    }

    /// A static board without realtime (the debug client; the gateway when realtime is unusable).
    public init(board: DepartureBoard) {
        var rows: [DepartureRow] = []
        rows.reserveCapacity(board.departures.count)
        for departure in board.departures { rows.append(DepartureRow(departure: departure)) }
        self.init(
            stopId: board.stopId, timezone: board.timezone, rows: rows,
            page: BoardPage(
                direction: board.direction, hasMorePast: board.hasMorePast, hasMoreFuture: board.hasMoreFuture,
                earlierCursor: board.earlierCursor, laterCursor: board.laterCursor))
    }
}

/// What a board row and a trip answer read of a stop's live prediction (`LiveStop`: the realtime service's
/// value as it published it, kept and encoded by the gateway as it is).
extension LiveStop {
    /// The vehicle passes without stopping.
    public var skipped: Bool { status == .skipped }
    /// When the vehicle is predicted to leave (arrive, where only that is predicted).
    public var predictedUnix: Int64? { predictedDeparture ?? predictedArrival }
    /// When it is scheduled to leave (arrive, where only that is known).
    public var scheduledUnix: Int64? { scheduledDeparture ?? scheduledArrival }
    /// Whether either time is predicted.
    public var isPredicted: Bool { predictedArrival != nil || predictedDeparture != nil }

    /// The platform the vehicle serves instead of the scheduled one, when it is another stop.
    public var platformChange: PlatformChange? {
        guard let assigned = assignedStopId, assigned != stopId else { return nil }
        return PlatformChange(stopId: assigned, platform: assignedPlatform)
    }
}

/// What the live state says about a trip instance.
public struct TripRealtime: Sendable, Hashable {
    public var cancelled: Bool
    /// Not in the schedule: the TripDetail's times are its own and print as realtime only.
    public var added: Bool
    /// Parallel to `TripDetail.stops` (by index): the live state's stop as published; missing or nil entries
    /// have no prediction.
    public var stops: [LiveStop?]
    /// Seconds from when the predictions were made (the trip update's timestamp, else its feed's) to the
    /// answer; shown on each stop whose prediction is the producer's or derived from it (not `schedule`).
    public var predictionAgeSeconds: Int64?
    public var vehicle: VehicleSnapshot?
    /// The detour in effect for the instance, and each stop's part in it (parallel to `TripDetail.stops`,
    /// which then holds the replacement stops too, in travel order; empty without a detour).
    public var detour: LiveDetour?
    public var detourRoles: [LiveDetourStop.Role] = []

    public init(
        cancelled: Bool = false, added: Bool = false, stops: [LiveStop?] = [], predictionAgeSeconds: Int64? = nil,
        vehicle: VehicleSnapshot? = nil
    ) {
        self.cancelled = cancelled
        self.added = added
        self.stops = stops
        self.predictionAgeSeconds = predictionAgeSeconds
        self.vehicle = vehicle
    }
}

/// A vehicle position as the gateway shows it (GATEWAY.md "vehicle"): made from a `LiveVehicle` once per
/// update (shortest float spelling, HH:MM:SS start, service date), so the `vehicles` op only writes it.
public struct VehicleSnapshot: Sendable, Hashable {
    public var vehicleId: String?
    public var label: String?
    public var tripId: String?
    public var routeId: String?
    public var serviceDate: ServiceDate?
    public var startTime: String?
    public var lat: Double?
    public var lon: Double?
    public var bearing: Double?
    public var speedMetresPerSecond: Double?
    public var currentStopSequence: UInt32?
    public var stopId: String?
    /// GTFS-RT enum names.
    public var currentStatus: String?
    public var occupancyStatus: String?
    public var occupancyPercentage: Int?
    public var congestionLevel: String?
    public var timestamp: Int64?
    /// The train's carriages (Transport for NSW, or the official multi_carriage_details).
    public var carriages: [LiveCarriage]
    /// From Transport for NSW's vehicle descriptor.
    public var airConditioned: Bool?
    /// Transport for NSW's flag, else the official descriptor's WHEELCHAIR_ACCESSIBLE / WHEELCHAIR_INACCESSIBLE.
    public var wheelchairAccessible: Bool?
    /// Transport for NSW's vehicle model, e.g. "Alstom Metropolis".
    public var model: String?
    /// VehicleDescriptor.license_plate.
    public var licensePlate: String?
    /// Position.odometer: metres the vehicle has travelled (the producer's count).
    public var odometerMetres: Double?
    /// From the static data of the vehicle's route (`routeId`, else its trip's): short name, "#RRGGBB", mode.
    public var routeShortName: String?
    public var routeColor: String?
    public var mode: String?
    /// The trip's headsign: the live trip's, else the static trip's.
    public var headsign: String?

    public init(
        vehicleId: String? = nil, label: String? = nil, tripId: String? = nil, routeId: String? = nil,
        serviceDate: ServiceDate? = nil, startTime: String? = nil, lat: Double? = nil, lon: Double? = nil,
        bearing: Double? = nil, speedMetresPerSecond: Double? = nil, currentStopSequence: UInt32? = nil,
        stopId: String? = nil, currentStatus: String? = nil, occupancyStatus: String? = nil,
        occupancyPercentage: Int? = nil, congestionLevel: String? = nil, timestamp: Int64? = nil,
        carriages: [LiveCarriage] = [], airConditioned: Bool? = nil, wheelchairAccessible: Bool? = nil,
        model: String? = nil, routeShortName: String? = nil, routeColor: String? = nil, mode: String? = nil,
        headsign: String? = nil
    ) {
        self.vehicleId = vehicleId
        self.label = label
        self.tripId = tripId
        self.routeId = routeId
        self.serviceDate = serviceDate
        self.startTime = startTime
        self.lat = lat
        self.lon = lon
        self.bearing = bearing
        self.speedMetresPerSecond = speedMetresPerSecond
        self.currentStopSequence = currentStopSequence
        self.stopId = stopId
        self.currentStatus = currentStatus
        self.occupancyStatus = occupancyStatus
        self.occupancyPercentage = occupancyPercentage
        self.congestionLevel = congestionLevel
        self.timestamp = timestamp
        self.carriages = carriages
        self.airConditioned = airConditioned
        self.wheelchairAccessible = wheelchairAccessible
        self.model = model
        self.routeShortName = routeShortName
        self.routeColor = routeColor
        self.mode = mode
        self.headsign = headsign
    }
}

/// A service alert as the gateway shows it (GATEWAY.md "alert"), texts already in the chosen language.
public struct AlertView: Sendable, Hashable {
    public struct Period: Sendable, Hashable {
        public var start: Int64?
        public var end: Int64?
        public init(start: Int64?, end: Int64?) {
            self.start = start
            self.end = end
        }
    }

    public struct InformedEntity: Sendable, Hashable {
        public var agencyId: String?
        public var routeId: String?
        public var routeType: Int?
        public var directionId: Int?
        public var tripId: String?
        public var stopId: String?
        public init(
            agencyId: String? = nil, routeId: String? = nil, routeType: Int? = nil, directionId: Int? = nil,
            tripId: String? = nil, stopId: String? = nil
        ) {
            self.agencyId = agencyId
            self.routeId = routeId
            self.routeType = routeType
            self.directionId = directionId
            self.tripId = tripId
            self.stopId = stopId
        }
    }

    /// An alert's picture in the answer's language (GATEWAY.md "alert" `image`).
    public struct Image: Sendable, Hashable {
        public var url: String
        /// IANA media type.
        public var mediaType: String
        /// GTFS-RT image_alternative_text in the answer's language.
        public var altText: String?
        public init(url: String, mediaType: String, altText: String?) {
            self.url = url
            self.mediaType = mediaType
            self.altText = altText
        }
    }

    public var id: String
    public var header: String?
    public var description: String?
    public var url: String?
    /// tts_header_text / tts_description_text (for text-to-speech).
    public var ttsHeader: String?
    public var ttsDescription: String?
    /// The agency's own words for the cause and the effect.
    public var causeDetail: String?
    public var effectDetail: String?
    public var image: Image?
    /// GTFS-RT enum names.
    public var cause: String
    public var effect: String
    public var severity: String
    public var activePeriods: [Period]
    public var informedEntities: [InformedEntity]
    /// A route query's alert that concerns the route only at some stops (its informed entities name the
    /// route together with a stop): those stops, sorted. Empty when it concerns the whole route, and on stop
    /// and trip queries.
    public var limitedToStopIds: [String]

    public init(
        id: String, header: String?, description: String?, url: String?, cause: String = "UNKNOWN_CAUSE",
        effect: String = "UNKNOWN_EFFECT", severity: String = "UNKNOWN_SEVERITY", activePeriods: [Period] = [],
        informedEntities: [InformedEntity] = [], limitedToStopIds: [String] = []
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
        self.limitedToStopIds = limitedToStopIds
    }
}
