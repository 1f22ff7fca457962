import TransitModel

/// A trip update resolved against the static schedule: every stop of the trip instance, in order, with
/// its scheduled and predicted times. Produced once per feed update by `TripUpdateResolver`.
public struct ResolvedTrip: Sendable, Hashable {
    /// How the instance relates to the static schedule (the TripDescriptor's schedule_relationship).
    public enum Relationship: String, Sendable, Hashable {
        /// A static trip instance, with predictions.
        case scheduled
        /// A frequency-based (exact_times=0) instance identified by its start_time.
        case unscheduled
        /// A static trip instance that will not run; stops keep their schedule and get no predictions.
        case canceled
        /// An extra trip (deprecated ADDED): a shifted copy of a static trip or its own stops.
        case added
        /// An extra trip unrelated to the schedule, with its own stops and times.
        case new
        /// A static trip instance whose stops and times are all given by the update.
        case replacement
        /// A copy of a static trip at another date/time (trip_properties), under a new trip id.
        case duplicated
    }

    public var key: TripInstanceKey
    public var relationship: Relationship
    /// The static trip the stops come from: the key's trip for scheduled/canceled/replacement instances,
    /// the copied trip for DUPLICATED (and ADDED copies), nil for trips without a static counterpart.
    public var staticTripId: String?
    public var routeId: String?
    public var directionId: Int?
    public var vehicleId: String?
    public var vehicleLabel: String?
    /// TripUpdate.timestamp (POSIX seconds) when given.
    public var timestamp: UInt64?
    /// TripUpdate.delay when given (it applies to the stops before the first stop_time_update).
    public var tripDelay: Int32?
    public var stops: [ResolvedStop]
    /// Stop time updates that matched no stop of the trip (ignored; worth counting upstream).
    public var unmatchedStopUpdates: Int
    /// Stop time updates whose stop_sequence and stop_id named different stops of the trip (matched by
    /// `StopUpdateMatcher`'s rule; worth telling the producer), and the first of them described.
    public var stopMismatches: Int = 0
    public var firstStopMismatch: String?

    public init(
        key: TripInstanceKey, relationship: Relationship, staticTripId: String?, routeId: String?,
        directionId: Int?, vehicleId: String?, vehicleLabel: String?, timestamp: UInt64?, tripDelay: Int32?,
        stops: [ResolvedStop], unmatchedStopUpdates: Int = 0
    ) {
        self.key = key
        self.relationship = relationship
        self.staticTripId = staticTripId
        self.routeId = routeId
        self.directionId = directionId
        self.vehicleId = vehicleId
        self.vehicleLabel = vehicleLabel
        self.timestamp = timestamp
        self.tripDelay = tripDelay
        self.stops = stops
        self.unmatchedStopUpdates = unmatchedStopUpdates
    }
}

/// What is known about one stop of a resolved trip.
public enum StopPredictionStatus: String, Sendable, Hashable {
    /// The vehicle serves the stop and there is a prediction (`predicted*` set).
    case scheduled
    /// The vehicle passes without stopping (StopTimeUpdate SKIPPED). No prediction.
    case skipped
    /// The feed says it has no data here (NO_DATA, or an update without times, or a later stop with no
    /// update since). No prediction: show the schedule, not "on time".
    case noData
    /// Nothing in the update covers this stop (before the first update without a trip-level delay, or a
    /// canceled trip). No prediction.
    case noPrediction
}

/// One stop of a resolved trip. Times are POSIX seconds, delays seconds (positive = late).
/// Invariants: `predictedDeparture >= predictedArrival` when both are set (a departure predicted before
/// the arrival is raised to it); a delay is set exactly when the prediction and the schedule both are
/// (delay = predicted − scheduled, computed).
///
/// Stored compactly (times as Int64 with `Int64.min` for "none": 72 bytes a stop instead of 128) because
/// a feed update resolves ~100,000 of them.
public struct ResolvedStop: Sendable, Hashable {
    /// The stop of the schedule (for added trips: the update's stop).
    public var stopId: String
    /// A realtime platform/stop assignment (StopTimeProperties.assigned_stop_id), nil when none.
    public var assignedStopId: String?
    @usableFromInline var scheduledArrivalStorage: Int64
    @usableFromInline var scheduledDepartureStorage: Int64
    @usableFromInline var predictedArrivalStorage: Int64
    @usableFromInline var predictedDepartureStorage: Int64
    public var stopSequence: UInt32
    public var status: StopPredictionStatus
    /// Where the prediction comes from; `schedule` without one.
    public var source: LivePredictionSource

    public init(
        stopId: String, assignedStopId: String? = nil, stopSequence: UInt32, scheduledArrival: Int64?,
        scheduledDeparture: Int64?, predictedArrival: Int64? = nil, predictedDeparture: Int64? = nil,
        status: StopPredictionStatus, source: LivePredictionSource? = nil
    ) {
        self.stopId = stopId
        self.assignedStopId = assignedStopId
        self.stopSequence = stopSequence
        scheduledArrivalStorage = scheduledArrival ?? .min
        scheduledDepartureStorage = scheduledDeparture ?? .min
        predictedArrivalStorage = predictedArrival ?? .min
        predictedDepartureStorage = predictedDeparture ?? .min
        self.status = status
        self.source = source ?? (status == .scheduled ? .stopUpdate : .schedule)
    }

    // The accessors are @inlinable: the service reads them for every stop of every update (another module).

    /// nil only for added trips whose update gives no scheduled time.
    @inlinable public var scheduledArrival: Int64? {
        get { scheduledArrivalStorage == .min ? nil : scheduledArrivalStorage }
        set { scheduledArrivalStorage = newValue ?? .min }
    }

    @inlinable public var scheduledDeparture: Int64? {
        get { scheduledDepartureStorage == .min ? nil : scheduledDepartureStorage }
        set { scheduledDepartureStorage = newValue ?? .min }
    }

    @inlinable public var predictedArrival: Int64? {
        get { predictedArrivalStorage == .min ? nil : predictedArrivalStorage }
        set { predictedArrivalStorage = newValue ?? .min }
    }

    @inlinable public var predictedDeparture: Int64? {
        get { predictedDepartureStorage == .min ? nil : predictedDepartureStorage }
        set { predictedDepartureStorage = newValue ?? .min }
    }

    /// predictedArrival − scheduledArrival, when both are known.
    @inlinable public var arrivalDelay: Int32? {
        guard predictedArrivalStorage != .min, scheduledArrivalStorage != .min else { return nil }
        return Int32(clamping: predictedArrivalStorage - scheduledArrivalStorage)
    }

    /// predictedDeparture − scheduledDeparture, when both are known.
    @inlinable public var departureDelay: Int32? {
        guard predictedDepartureStorage != .min, scheduledDepartureStorage != .min else { return nil }
        return Int32(clamping: predictedDepartureStorage - scheduledDepartureStorage)
    }

    /// Sets both predictions (the departure raised to the arrival if earlier) and status `.scheduled`.
    public mutating func setPrediction(
        arrival: Int64, departure: Int64, source: LivePredictionSource = .stopUpdate
    ) {
        predictedArrivalStorage = arrival
        predictedDepartureStorage = max(arrival, departure)
        status = .scheduled
        self.source = source
    }
}
