import TransitModel

/// The one place a stop's live prediction is chosen: every board, trip and subscription answer shows what
/// the realtime service publishes, and the realtime service publishes what these functions decide.
///
/// Sources, strongest first (`LivePredictionSource`): `stopUpdate` (the producer's own time for the stop),
/// `propagated` (carried from an earlier stop's update), `tripDelay` (TripUpdate.delay), `vehicle`
/// (estimated from the vehicle's position), `schedule` (nothing live). The first three come from resolving a
/// trip update (`TripUpdateResolver.propagate`); `vehicleEstimate` makes the fourth; `combine` applies the
/// precedence stop by stop.
public enum StopPredictions {
    /// Where a vehicle is, as a VehiclePosition says it.
    public struct VehicleReport: Sendable, Hashable {
        /// GTFS-RT VehicleStopStatus.
        public enum Status: Sendable, Hashable {
            case incomingAt, stoppedAt, inTransitTo

            /// From the GTFS-RT name; absent or unknown is IN_TRANSIT_TO (the spec's default).
            public init(name: String?) {
                switch name {
                case "STOPPED_AT": self = .stoppedAt
                case "INCOMING_AT": self = .incomingAt
                default: self = .inTransitTo
                }
            }
        }

        public var stopSequence: UInt32?
        public var stopId: String?
        public var status: Status
        /// When the position was measured (unix seconds).
        public var timestamp: Int64

        public init(stopSequence: UInt32?, stopId: String?, status: Status, timestamp: Int64) {
            self.stopSequence = stopSequence
            self.stopId = stopId
            self.status = status
            self.timestamp = timestamp
        }
    }

    /// Predictions from a vehicle's position for the stops of its trip instance (scheduled times set), written
    /// into the stops without one (status `noPrediction`); returns whether any stop got one.
    ///
    /// - STOPPED_AT stop i: delay = timestamp − i's scheduled departure (a timepoint's never negative: the
    ///   vehicle waits for its time there);
    /// - IN_TRANSIT_TO / INCOMING_AT stop i: stop i − 1's scheduled departure is taken as passed at the
    ///   timestamp, delay = timestamp − that departure (no estimate towards the first stop: not started);
    /// - the delay is carried forward from stop i to the end like a propagated one; at a later timepoint an
    ///   early vehicle waits (the stop's departure is its schedule, and nothing early is carried on).
    /// Stops before i (passed) get nothing. `timepoints[k]`: stop k is a timepoint (nil: every stop is, the
    /// GTFS default for stops with times).
    @discardableResult
    public static func vehicleEstimate(
        into stops: inout [LiveStop], vehicle: VehicleReport, timepoints: [Bool]? = nil
    ) -> Bool {
        guard let at = vehicleStopIndex(stops, vehicle) else { return false }
        func isTimepoint(_ k: Int) -> Bool { timepoints.map { k < $0.count ? $0[k] : true } ?? true }
        var delay: Int64
        switch vehicle.status {
        case .stoppedAt:
            guard let scheduled = stops[at].scheduledDeparture ?? stops[at].scheduledArrival else { return false }
            delay = vehicle.timestamp - scheduled
        case .inTransitTo, .incomingAt:
            guard at > 0, let passed = stops[at - 1].scheduledDeparture ?? stops[at - 1].scheduledArrival else {
                return false
            }
            delay = vehicle.timestamp - passed
        }
        var any = false
        for k in at..<stops.count {
            guard let arrival = stops[k].scheduledArrival ?? stops[k].scheduledDeparture,
                let departure = stops[k].scheduledDeparture ?? stops[k].scheduledArrival
            else { continue }
            var arrivalDelay = delay
            if delay < 0, isTimepoint(k) {
                delay = 0  // it waits for its time here: leaves on schedule, carries nothing early
            }
            if k == at, vehicle.status == .stoppedAt { arrivalDelay = min(arrivalDelay, vehicle.timestamp - arrival) }
            guard stops[k].status == .noPrediction else { continue }
            let predictedArrival = arrival + arrivalDelay
            let predictedDeparture = max(departure + delay, predictedArrival)
            stops[k].predictedArrival = predictedArrival
            stops[k].predictedDeparture = predictedDeparture
            stops[k].arrivalDelay = Int32(clamping: predictedArrival - arrival)
            stops[k].departureDelay = Int32(clamping: predictedDeparture - departure)
            stops[k].status = .predicted
            stops[k].predictionSource = .vehicle
            any = true
        }
        return any
    }

    /// The vehicle's stop among `stops`: by stop_sequence, else the first with its stop_id.
    static func vehicleStopIndex(_ stops: [LiveStop], _ vehicle: VehicleReport) -> Int? {
        if let sequence = vehicle.stopSequence, let i = stops.firstIndex(where: { $0.stopSequence == sequence }) {
            return i
        }
        if let id = vehicle.stopId, !id.isEmpty { return stops.firstIndex { $0.stopId == id } }
        return nil
    }

    /// The precedence rule stop by stop: each stop of `trip` keeps its prediction unless `other` (the same
    /// instance from another kind of source: a vehicle estimate) has a stronger one for it. Stops are paired
    /// by position when both list the same stops; a skipped stop or NO_DATA stays as the trip says. Returns
    /// whether a stop changed.
    @discardableResult
    public static func combine(_ trip: inout [LiveStop], with other: [LiveStop]) -> Bool {
        guard trip.count == other.count else { return false }
        var changed = false
        for i in trip.indices where trip[i].status == .noPrediction && other[i].status == .predicted {
            guard trip[i].stopSequence == other[i].stopSequence, trip[i].stopId == other[i].stopId,
                LivePredictionSource.strongest(other[i].predictionSource, trip[i].predictionSource)
                    != trip[i].predictionSource
            else { continue }
            trip[i].predictedArrival = other[i].predictedArrival
            trip[i].predictedDeparture = other[i].predictedDeparture
            trip[i].arrivalDelay = other[i].arrivalDelay
            trip[i].departureDelay = other[i].departureDelay
            trip[i].status = .predicted
            trip[i].predictionSource = other[i].predictionSource
            changed = true
        }
        return changed
    }
}
