import GatewayProtocol
import TransitModel

// Resolved trip updates as the gateway holds them: one `TripPrediction` per trip instance, every stop with
// its scheduled and predicted times (converted from the realtime service's `LiveTrip`, see LiveConversion).

/// The prediction for one stop of a trip instance.
public struct StopPrediction: Sendable, Hashable {
    public var stopSequence: UInt32
    public var stopId: String?
    /// A realtime platform change: the stop the vehicle really serves.
    public var assignedStopId: String?
    /// The platform_code of `assignedStopId`, when the realtime service knows it.
    public var assignedPlatform: String?
    /// Predicted times (unix); nil without a prediction (no data, skipped, cancelled trip).
    public var arrivalUnix: Int64?
    public var departureUnix: Int64?
    /// The schedule the realtime service resolved the stop against; nil for an added trip's own stops.
    public var scheduledArrivalUnix: Int64?
    public var scheduledDepartureUnix: Int64?
    public var skipped: Bool
    /// GTFS-RT OccupancyStatus name of the departure from this stop.
    public var occupancyStatus: String?
    /// The update's stop_headsign, when it gives one.
    public var stopHeadsign: String?
    /// Predicted occupancy of each carriage on departure (Transport for NSW); empty when not sent.
    public var carriages: [LiveCarriage]
    /// Where the realtime service's prediction comes from (`schedule` without one).
    public var source: LivePredictionSource = .schedule

    public init(
        stopSequence: UInt32, stopId: String? = nil, assignedStopId: String? = nil, arrivalUnix: Int64? = nil,
        departureUnix: Int64? = nil, scheduledArrivalUnix: Int64? = nil, scheduledDepartureUnix: Int64? = nil,
        skipped: Bool = false, occupancyStatus: String? = nil, stopHeadsign: String? = nil,
        carriages: [LiveCarriage] = []
    ) {
        self.stopSequence = stopSequence
        self.stopId = stopId
        self.assignedStopId = assignedStopId
        self.arrivalUnix = arrivalUnix
        self.departureUnix = departureUnix
        self.scheduledArrivalUnix = scheduledArrivalUnix
        self.scheduledDepartureUnix = scheduledDepartureUnix
        self.skipped = skipped
        self.occupancyStatus = occupancyStatus
        self.stopHeadsign = stopHeadsign
        self.carriages = carriages
    }

    /// When the vehicle is predicted to leave (arrive, where only that is predicted).
    public var predictedUnix: Int64? { departureUnix ?? arrivalUnix }
    /// When it is scheduled to leave (arrive, where only that is known).
    public var scheduledUnix: Int64? { scheduledDepartureUnix ?? scheduledArrivalUnix }

    /// The scheduled time of a visit predicted later than scheduled (nil: not late, or not both known): what
    /// a board counts to ask the static service for more rows (`BoardAssembly.delayedCount`).
    var lateScheduledUnix: Int64? {
        guard let scheduled = scheduledUnix, let predicted = predictedUnix, predicted > scheduled else { return nil }
        return scheduled
    }

    /// The platform the vehicle serves instead of the scheduled one, when it is another stop.
    var platformChange: PlatformChange? {
        guard let assigned = assignedStopId, assigned != stopId else { return nil }
        return PlatformChange(stopId: assigned, platform: assignedPlatform)
    }

    /// The stop ids a board finds this visit under: the planned stop and a realtime platform change.
    var indexedStopIds: [String] {
        switch (stopId, assignedStopId) {
        case (let planned?, let assigned?) where assigned != planned: [planned, assigned]
        case (let planned?, _): [planned]
        case (nil, let assigned?): [assigned]
        case (nil, nil): []
        }
    }
}

/// What the realtime service resolved for one trip instance (full, not a delta).
public struct TripPrediction: Sendable, Hashable {
    public var key: TripInstanceKey
    public var routeId: String?
    public var directionId: Int?
    public var cancelled: Bool
    /// Not in the schedule as this instance (GTFS-RT ADDED, NEW, DUPLICATED): rows show no scheduled time.
    public var added: Bool
    /// The instance must disappear, its scheduled rows included (GTFS-RT DELETED).
    public var deleted: Bool
    /// The schedule the stops come from when it is another trip's (a DUPLICATED copy).
    public var staticTripId: String?
    /// Ascending by stop_sequence.
    public var stops: [StopPrediction]
    public var occupancyStatus: String?
    /// The realtime source it came from (its staleness decides whether it is used).
    public var source: String
    /// Unix seconds of the feed (header or entity timestamp) it came from.
    public var timestamp: Int64?
    /// The update's trip_headsign (TripProperties), when it gives one.
    public var headsign: String?

    public init(
        key: TripInstanceKey, routeId: String? = nil, directionId: Int? = nil, cancelled: Bool = false,
        added: Bool = false, deleted: Bool = false, staticTripId: String? = nil, stops: [StopPrediction] = [],
        occupancyStatus: String? = nil, source: String, timestamp: Int64? = nil, headsign: String? = nil
    ) {
        self.key = key
        self.routeId = routeId
        self.directionId = directionId
        self.cancelled = cancelled
        self.added = added
        self.deleted = deleted
        self.staticTripId = staticTripId
        self.stops = stops.sorted { $0.stopSequence < $1.stopSequence }
        self.occupancyStatus = occupancyStatus
        self.source = source
        self.timestamp = timestamp
        self.headsign = headsign
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

    /// When the predictions were made: TripUpdate.timestamp (a vehicle estimate: the position's), else the
    /// header timestamp of its source's last feed.
    func madeUnix(_ state: RealtimeState) -> Int64? {
        timestamp ?? state.sources.first { $0.name == source }?.feedTimestamp
    }

    /// The time a board sorts this visit by: the predicted departure, else the scheduled one (a cancelled
    /// trip and a skipped stop keep their scheduled time); nil when neither is known.
    func boardTime(at index: Int) -> Int64? {
        // Read in place: a copy of the stop would retain each of its references.
        if cancelled || stops[index].skipped { return stops[index].scheduledUnix ?? stops[index].predictedUnix }
        return stops[index].predictedUnix ?? stops[index].scheduledUnix
    }
}
