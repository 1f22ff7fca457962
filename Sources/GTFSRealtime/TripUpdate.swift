// TripUpdate and what it holds: predictions for one trip instance.

/// Which trip instance a trip update, vehicle position or alert talks about.
public struct TripDescriptor: Sendable, Hashable {
    public var tripId: String?
    public var routeId: String?
    public var directionId: UInt32?
    /// "HH:MM:SS" as in GTFS (may exceed 24:00:00); identifies the instance of a frequency-based trip.
    public var startTime: String?
    /// "YYYYMMDD", the service date.
    public var startDate: String?
    /// nil means SCHEDULED.
    public var scheduleRelationship: TripScheduleRelationship?
    /// For trips changed by a TripModifications entity.
    public var modifiedTrip: ModifiedTripSelector?

    public init(
        tripId: String? = nil, routeId: String? = nil, directionId: UInt32? = nil, startTime: String? = nil,
        startDate: String? = nil, scheduleRelationship: TripScheduleRelationship? = nil,
        modifiedTrip: ModifiedTripSelector? = nil
    ) {
        self.tripId = tripId
        self.routeId = routeId
        self.directionId = directionId
        self.startTime = startTime
        self.startDate = startDate
        self.scheduleRelationship = scheduleRelationship
        self.modifiedTrip = modifiedTrip
    }
}

/// TripDescriptor.ModifiedTripSelector: the trip a TripModifications entity changed.
public struct ModifiedTripSelector: Sendable, Hashable {
    public var modificationsId: String?
    public var affectedTripId: String?
    public var startTime: String?
    public var startDate: String?

    public init(
        modificationsId: String? = nil, affectedTripId: String? = nil, startTime: String? = nil,
        startDate: String? = nil
    ) {
        self.modificationsId = modificationsId
        self.affectedTripId = affectedTripId
        self.startTime = startTime
        self.startDate = startDate
    }
}

/// Realtime progress of one trip instance.
public struct TripUpdate: Sendable, Hashable {
    /// Required by the spec; a trip update without it is reported as an entity problem.
    public var trip: TripDescriptor
    public var vehicle: VehicleDescriptor?
    /// In stop order (by stop_sequence where given).
    public var stopTimeUpdates: [StopTimeUpdate]
    /// When the prediction was made, POSIX seconds.
    public var timestamp: UInt64?
    /// Trip-level delay in seconds (positive = late); applies where no stop_time_update says otherwise.
    public var delay: Int32?
    /// New properties of the trip (DUPLICATED, NEW and REPLACEMENT trips and the like).
    public var tripProperties: TripProperties?

    public init(
        trip: TripDescriptor, vehicle: VehicleDescriptor? = nil, stopTimeUpdates: [StopTimeUpdate] = [],
        timestamp: UInt64? = nil, delay: Int32? = nil, tripProperties: TripProperties? = nil
    ) {
        self.trip = trip
        self.vehicle = vehicle
        self.stopTimeUpdates = stopTimeUpdates
        self.timestamp = timestamp
        self.delay = delay
        self.tripProperties = tripProperties
    }
}

/// TripUpdate.StopTimeEvent: predicted timing of an arrival or a departure.
public struct StopTimeEvent: Sendable, Hashable {
    /// Seconds relative to the schedule (positive = late).
    public var delay: Int32?
    /// Absolute time, POSIX seconds.
    public var time: Int64?
    /// Expected error of the prediction in seconds; 0 means certain.
    public var uncertainty: Int32?
    /// The scheduled time (for trips not in the static GTFS), POSIX seconds.
    public var scheduledTime: Int64?

    public init(delay: Int32? = nil, time: Int64? = nil, uncertainty: Int32? = nil, scheduledTime: Int64? = nil) {
        self.delay = delay
        self.time = time
        self.uncertainty = uncertainty
        self.scheduledTime = scheduledTime
    }
}

/// TripUpdate.StopTimeUpdate: the update for one stop of the trip.
public struct StopTimeUpdate: Sendable, Hashable {
    public var stopSequence: UInt32?
    public var stopId: String?
    public var arrival: StopTimeEvent?
    public var departure: StopTimeEvent?
    /// Predicted occupancy right after departing this stop: field 7, or else Transport for NSW's field 6
    /// varint (TfnswExtensions.swift).
    public var departureOccupancyStatus: OccupancyStatus?
    /// nil means SCHEDULED.
    public var scheduleRelationship: StopTimeScheduleRelationship?
    public var stopTimeProperties: StopTimeProperties?
    /// Transport for NSW's extension 1007: the predicted occupancy of each carriage on departure (position
    /// in the train and departure occupancy). Decoded only, never encoded.
    public var tfnswCarriages: [TfnswCarriage]

    public init(
        stopSequence: UInt32? = nil, stopId: String? = nil, arrival: StopTimeEvent? = nil,
        departure: StopTimeEvent? = nil, departureOccupancyStatus: OccupancyStatus? = nil,
        scheduleRelationship: StopTimeScheduleRelationship? = nil, stopTimeProperties: StopTimeProperties? = nil,
        tfnswCarriages: [TfnswCarriage] = []
    ) {
        self.stopSequence = stopSequence
        self.stopId = stopId
        self.arrival = arrival
        self.departure = departure
        self.departureOccupancyStatus = departureOccupancyStatus
        self.scheduleRelationship = scheduleRelationship
        self.stopTimeProperties = stopTimeProperties
        self.tfnswCarriages = tfnswCarriages
    }
}

/// TripUpdate.StopTimeUpdate.StopTimeProperties: realtime changes to a stop time.
public struct StopTimeProperties: Sendable, Hashable {
    /// The stop actually served instead of the scheduled one (e.g. another platform).
    public var assignedStopId: String?
    public var stopHeadsign: String?
    /// nil means REGULAR.
    public var pickupType: DropOffPickupType?
    /// nil means REGULAR.
    public var dropOffType: DropOffPickupType?

    public init(
        assignedStopId: String? = nil, stopHeadsign: String? = nil, pickupType: DropOffPickupType? = nil,
        dropOffType: DropOffPickupType? = nil
    ) {
        self.assignedStopId = assignedStopId
        self.stopHeadsign = stopHeadsign
        self.pickupType = pickupType
        self.dropOffType = dropOffType
    }
}

/// TripUpdate.TripProperties: properties of the trip that differ from (or are missing in) the schedule.
public struct TripProperties: Sendable, Hashable {
    /// The new trip's id (DUPLICATED/NEW/REPLACEMENT).
    public var tripId: String?
    /// "YYYYMMDD"
    public var startDate: String?
    /// "HH:MM:SS"
    public var startTime: String?
    public var shapeId: String?
    public var tripHeadsign: String?
    public var tripShortName: String?

    public init(
        tripId: String? = nil, startDate: String? = nil, startTime: String? = nil, shapeId: String? = nil,
        tripHeadsign: String? = nil, tripShortName: String? = nil
    ) {
        self.tripId = tripId
        self.startDate = startDate
        self.startTime = startTime
        self.shapeId = shapeId
        self.tripHeadsign = tripHeadsign
        self.tripShortName = tripShortName
    }
}
