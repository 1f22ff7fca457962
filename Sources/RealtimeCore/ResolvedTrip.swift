import GTFSRealtime
import TransitModel

/// A trip update resolved against the static schedule: every stop of the trip instance, in order, with
/// its scheduled and predicted times and the properties the update gives it. Produced once per feed update by `TripUpdateResolver`.
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
    /// Every stop of the instance in order, each with all it carries to riders (times, status, and the
    /// properties of the stop time update matched to it by `StopUpdateMatcher`): the value the realtime
    /// service publishes and the gateway encodes.
    public var stops: [LiveStop]
    /// Stop time updates that matched no stop of the trip (ignored; worth counting upstream).
    public var unmatchedStopUpdates: Int
    /// Stop time updates whose stop_sequence and stop_id named different stops of the trip (matched by
    /// `StopUpdateMatcher`'s rule; worth telling the producer), and the first of them described.
    public var stopMismatches: Int = 0
    public var firstStopMismatch: String?

    public init(
        key: TripInstanceKey, relationship: Relationship, staticTripId: String?, routeId: String?,
        directionId: Int?, vehicleId: String?, vehicleLabel: String?, timestamp: UInt64?, tripDelay: Int32?,
        stops: [LiveStop], unmatchedStopUpdates: Int = 0
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

extension LiveStop {
    /// Sets both predictions (the departure raised to the arrival if earlier), their delays against the
    /// schedule (predicted − scheduled, where the schedule is known), status `.predicted` and the source.
    @inlinable
    public mutating func setPrediction(
        arrival: Int64, departure: Int64, source: LivePredictionSource = .stopUpdate
    ) {
        let departure = max(arrival, departure)
        predictedArrival = arrival
        predictedDeparture = departure
        arrivalDelay = scheduledArrival.map { Int32(clamping: arrival - $0) }
        departureDelay = scheduledDeparture.map { Int32(clamping: departure - $0) }
        status = .predicted
        predictionSource = source
    }

    /// Takes what the stop time update matched to this stop says besides its times: the departure occupancy,
    /// the stop headsign, the pickup and drop-off types and the carriages (Transport for NSW). The matching is `StopUpdateMatcher`'s alone, so
    /// these land on the stop the times of the same update landed on. Most updates have none of them: the
    /// common case reads three fields and writes nothing.
    mutating func takeProperties(of update: StopTimeUpdate) {
        if let occupancy = update.departureOccupancyStatus { departureOccupancy = occupancy.name }
        if let properties = update.stopTimeProperties {
            if let headsign = properties.stopHeadsign, !headsign.isEmpty { stopHeadsign = headsign }
            if let pickup = properties.pickupType { pickupType = pickup.rawValue }
            if let dropOff = properties.dropOffType { dropOffType = dropOff.rawValue }
        }
        if !update.tfnswCarriages.isEmpty { carriages = update.tfnswCarriages.map(LiveCarriage.init) }
    }
}

extension LiveCarriage {
    /// Transport for NSW's carriage, enum values as their names.
    public init(_ c: TfnswCarriage) {
        self.init(
            position: c.positionInConsist, name: c.name, occupancy: c.occupancyStatus?.name,
            departureOccupancy: c.departureOccupancyStatus?.name, quiet: c.quietCarriage, toilet: c.toilet?.name,
            luggageRack: c.luggageRack)
    }

    /// The official schema's carriage (multi_carriage_details), for feeds that send it instead of TfNSW's.
    public init(_ c: CarriageDetails) {
        self.init(
            position: c.carriageSequence.map { Int32(clamping: $0) }, name: c.label, occupancy: c.occupancyStatus?.name)
    }
}
