import TransitModel

/// Keeps a stop's prediction when the next update of its trip no longer covers it.
///
/// Producers drop the stop time updates of stops a vehicle has passed, and some drop a stop a little
/// early (as the vehicle approaches it). The resolver then leaves the stops before the first update
/// without a prediction (the spec: do not assume on time), so a late vehicle's stop fell back to its
/// schedule; that time was already past, and the vehicle vanished from the stop's board before it came.
/// A prediction may only go once the vehicle is past the stop or its predicted time has passed: a stop
/// left with no prediction (`noPrediction`) keeps the one it had in the previous update of the same
/// instance while that predicted time (departure, else arrival) is not before `now` and no later stop
/// shows the vehicle there already (a predicted arrival or departure at or before `now`).
public enum PredictionCarry {
    /// Carries predictions from the instance as last published into the same instance resolved from a new
    /// update: only between two updates of the same kind (a canceled trip gets none).
    public static func carry(into trip: inout LiveTrip, from previous: LiveTrip, now: Int64) {
        carry(
            into: &trip, previousInstance: previous.instance, previousRelationship: previous.relationship,
            previousStops: previous.stops, now: now)
    }

    /// The same from the parts of the previous instance a carry reads, so that a caller holding it in a
    /// dictionary can pass them in place instead of copying the whole trip out (the realtime service does
    /// this for thousands of trips per update).
    public static func carry(
        into trip: inout LiveTrip, previousInstance: TripInstanceKey, previousRelationship: LiveTripRelationship,
        previousStops: [LiveStop], now: Int64
    ) {
        guard takesCarry(trip), trip.instance == previousInstance, trip.relationship == previousRelationship
        else { return }
        carry(into: &trip.stops, from: previousStops, now: now)
    }

    /// Whether `trip` may take predictions from a previous update at all: it is of a kind that has them and
    /// some stop of it has none. False for most updates (those that cover the trip from its first stop), so
    /// that a caller can skip looking the previous instance up.
    public static func takesCarry(_ trip: LiveTrip) -> Bool {
        switch trip.relationship {
        case .scheduled, .unscheduled, .duplicated, .added, .replacement:
            return trip.stops.contains { $0.status == .noPrediction }
        case .canceled, .new, .deleted:
            return false
        }
    }

    /// Carries predictions from `previous` (the instance's stops as last published) into `stops` (the same
    /// instance resolved from the new update). Stops are paired by position when both lists name the same
    /// stops (the same static pattern), else nothing is carried.
    public static func carry(into stops: inout [LiveStop], from previous: [LiveStop], now: Int64) {
        guard previous.count == stops.count, !stops.isEmpty else { return }
        // Both lists are read in place, a previous stop only where the new one has no prediction, and `stops`
        // is written only where a prediction is carried: this runs for thousands of trips per update of the
        // realtime service, and usually no stop takes one (a LiveStop copied per stop, or `stops` made unique
        // while it is still shared, cost that hot path thousands of copies for nothing).
        let carried: (first: Int, reached: Int)? = stops.withUnsafeBufferPointer { new in
            previous.withUnsafeBufferPointer { old in
                guard let first = new.indices.first(where: { carries(old, into: new, at: $0, now: now) }) else {
                    return nil
                }
                // The first stop the vehicle has reached by now (an arrival or departure at or before `now`
                // further on means every stop before it is passed).
                var reached = 0
                for i in new.indices.reversed() where new[i].status == .predicted {
                    if let time = new[i].predictedArrival ?? new[i].predictedDeparture, time <= now {
                        reached = i
                        break
                    }
                }
                return (first, reached)
            }
        }
        guard let carried else { return }
        let from = max(carried.first, carried.reached)
        guard from < stops.count else { return }
        previous.withUnsafeBufferPointer { old in
            for i in from..<stops.count {
                guard stops.withUnsafeBufferPointer({ carries(old, into: $0, at: i, now: now) }) else { continue }
                stops[i].predictedArrival = old[i].predictedArrival
                stops[i].predictedDeparture = old[i].predictedDeparture
                stops[i].arrivalDelay = old[i].arrivalDelay
                stops[i].departureDelay = old[i].departureDelay
                stops[i].status = .predicted
                stops[i].predictionSource = .propagated  // no longer the current update's own
            }
        }
    }

    /// Whether stop `i`, left without a prediction, keeps the one it had, whose time has not passed (the
    /// vehicle's progress is checked by the caller). Reads the fields in place.
    @inline(__always)
    private static func carries(
        _ old: UnsafeBufferPointer<LiveStop>, into new: UnsafeBufferPointer<LiveStop>, at i: Int, now: Int64
    ) -> Bool {
        guard new[i].status == .noPrediction, old[i].status == .predicted, old[i].stopSequence == new[i].stopSequence,
            let until = old[i].predictedDeparture ?? old[i].predictedArrival, until >= now
        else { return false }
        return old[i].stopId == new[i].stopId
    }
}
