import GatewayProtocol
import TransitModel

// Resolved trip updates as the gateway holds them: one `TripPrediction` per trip instance, its stops the
// realtime service's `LiveStop` values unchanged (see LiveConversion for the trip's own fields).

/// What a board reads of a stop's live prediction beyond what a trip answer reads (LiveViews.swift).
extension LiveStop {
    /// The scheduled time of a visit predicted later than scheduled (nil: not late, or not both known): what
    /// a board counts to ask the static service for more rows (`BoardAssembly.delayedCount`).
    var lateScheduledUnix: Int64? {
        guard let scheduled = scheduledUnix, let predicted = predictedUnix, predicted > scheduled else { return nil }
        return scheduled
    }

    /// The stop ids a board finds this visit under: the planned stop and a realtime platform change.
    var indexedStopIds: [String] {
        if let assigned = assignedStopId, assigned != stopId { return [stopId, assigned] }
        return [stopId]
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
    public var stops: [LiveStop]
    public var occupancyStatus: String?
    /// The realtime source it came from (its staleness decides whether it is used).
    public var source: String
    /// Unix seconds of the feed (header or entity timestamp) it came from.
    public var timestamp: Int64?
    /// The update's trip_headsign (TripProperties), when it gives one.
    public var headsign: String?
    /// Set when the update named a modified trip: `stops` are numbered as the modified trip's (see
    /// `stop(original:detour:)`).
    public var modificationsId: String?

    public init(
        key: TripInstanceKey, routeId: String? = nil, directionId: Int? = nil, cancelled: Bool = false,
        added: Bool = false, deleted: Bool = false, staticTripId: String? = nil, stops: [LiveStop] = [],
        occupancyStatus: String? = nil, source: String, timestamp: Int64? = nil, headsign: String? = nil
    ) {
        self.key = key
        self.routeId = routeId
        self.directionId = directionId
        self.cancelled = cancelled
        self.added = added
        self.deleted = deleted
        self.staticTripId = staticTripId
        // The realtime service sends a trip's stops in stop_sequence order; only a test's or an odd producer's
        // own stops need sorting (checked first, so the usual array is kept, not copied).
        var ascending = true
        for i in stops.indices.dropFirst() where stops[i - 1].stopSequence > stops[i].stopSequence {
            ascending = false
            break
        }
        self.stops = ascending ? stops : stops.sorted { $0.stopSequence < $1.stopSequence }
        self.occupancyStatus = occupancyStatus
        self.source = source
        self.timestamp = timestamp
        self.headsign = headsign
    }

    /// The prediction at `stopSequence` (binary search).
    public func stop(sequence: UInt32) -> LiveStop? {
        var low = 0, high = stops.count
        while low < high {
            let mid = (low + high) / 2
            if stops[mid].stopSequence < sequence { low = mid + 1 } else { high = mid }
        }
        return low < stops.count && stops[low].stopSequence == sequence ? stops[low] : nil
    }

    /// The prediction at the static stop `sequence`: through the detour's numbering when the update named the
    /// modified trip (nil for a stop the detour leaves out).
    public func stop(original sequence: UInt32, detour: LiveDetour?) -> LiveStop? {
        guard modificationsId != nil else { return stop(sequence: sequence) }
        guard let detour, detour.modificationsId == modificationsId,
            let modified = detour.modifiedSequence(ofOriginal: sequence)
        else { return nil }
        return stop(sequence: modified)
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
