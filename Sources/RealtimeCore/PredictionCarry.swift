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
        guard trip.instance == previous.instance, trip.relationship == previous.relationship else { return }
        switch trip.relationship {
        case .scheduled, .unscheduled, .duplicated, .added, .replacement:
            carry(into: &trip.stops, from: previous.stops, now: now)
        case .canceled, .new, .deleted: return
        }
    }

    /// Carries predictions from `previous` (the instance's stops as last published) into `stops` (the same
    /// instance resolved from the new update). Stops are paired by position when both lists name the same
    /// stops (the same static pattern), else nothing is carried.
    public static func carry(into stops: inout [LiveStop], from previous: [LiveStop], now: Int64) {
        guard previous.count == stops.count, !stops.isEmpty,
            stops.contains(where: { $0.status == .noPrediction })
        else { return }
        // The first stop the vehicle has reached by now (an arrival or departure at or before `now` further on
        // means every stop before it is passed).
        var reached = 0
        for i in stops.indices.reversed() where stops[i].status == .predicted {
            if let time = stops[i].predictedArrival ?? stops[i].predictedDeparture, time <= now {
                reached = i
                break
            }
        }
        // `previous` is read in place (a LiveStop holds several strings: copying one per stop costs retains on
        // the realtime service's hot path, which applies thousands of trips per update).
        previous.withUnsafeBufferPointer { old in
            for i in reached..<stops.count where stops[i].status == .noPrediction {
                guard old[i].status == .predicted, old[i].stopSequence == stops[i].stopSequence,
                    let until = old[i].predictedDeparture ?? old[i].predictedArrival, until >= now,
                    old[i].stopId == stops[i].stopId
                else { continue }
                stops[i].predictedArrival = old[i].predictedArrival
                stops[i].predictedDeparture = old[i].predictedDeparture
                stops[i].arrivalDelay = old[i].arrivalDelay
                stops[i].departureDelay = old[i].departureDelay
                stops[i].status = .predicted
                stops[i].predictionSource = .propagated  // no longer the current update's own
            }
        }
    }
}
