import TransitJSON
import TransitModel

/// Static answers merged with the live state: departure rows get their predictions (by trip instance and
/// stop_sequence) and are re-sorted by predicted time; a trip gets its per-stop predictions and its vehicle.
/// The `meta` says where the data came from (GATEWAY.md §2): `static+rt` when the live state is usable,
/// else `static_only` (stale when realtime is configured but silent or all stale).
///
/// Not yet here (needs the realtime feed, issue 3): widening a board's window to trips scheduled before it
/// but delayed into it, and added trips at the stop (`RealtimeState.tripsByStop` is the index for both).
enum LiveMerge {
    static func departures(_ board: DepartureBoard, reading: RealtimeReading, at: Int64, now: Int64) -> (DeparturesAnswer, LiveMeta) {
        var answer = DeparturesAnswer(board: board)
        guard reading.usable else {
            return (answer, LiveMeta(at: at, source: .staticOnly, stale: reading.staleWhenUnusable))
        }
        let state = reading.state
        var newest: Int64?
        var usedStale = false
        for index in answer.rows.indices {
            let d = answer.rows[index].departure
            let key = TripInstanceKey(tripId: d.tripId, serviceDate: d.serviceDate, startTime: d.startTime)
            guard let trip = state.trips[key] else { continue }
            if state.isStale(source: trip.source) {
                usedStale = true
                continue
            }
            let stop = trip.stop(sequence: d.stopSequence)
            answer.rows[index].realtime = DepartureRealtime(
                predictedUnix: trip.cancelled ? nil : (stop?.departureUnix ?? stop?.arrivalUnix),
                cancelled: trip.cancelled, skipped: stop?.skipped ?? false, added: trip.added,
                occupancyStatus: trip.occupancyStatus)
            if let t = trip.timestamp { newest = max(newest ?? t, t) }
        }
        // Stable: rows with equal times keep the static order.
        answer.rows = answer.rows.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        let meta = LiveMeta(
            at: at, source: .staticAndRealtime, stale: usedStale,
            feedAgeSeconds: (newest ?? newestFeed(state, kind: .tripUpdates)).map { max(0, now - $0) })
        return (answer, meta)
    }

    static func trip(_ trip: TripDetail, reading: RealtimeReading, at: Int64, now: Int64) -> (TripRealtime?, LiveMeta) {
        guard reading.usable else {
            return (nil, LiveMeta(at: at, source: .staticOnly, stale: reading.staleWhenUnusable))
        }
        let state = reading.state
        let key = TripInstanceKey(
            tripId: trip.tripId, serviceDate: trip.serviceDate, startTime: trip.frequencyBased ? trip.startTime : nil)
        let vehicle = state.vehicles.first {
            $0.tripId == trip.tripId && ($0.serviceDate == nil || $0.serviceDate == trip.serviceDate)
                && (!trip.frequencyBased || $0.startTime == nil || $0.startTime == trip.startTime)
        }
        var realtime: TripRealtime?
        var stale = false
        var newest = vehicle?.timestamp
        if let prediction = state.trips[key] {
            if state.isStale(source: prediction.source) {
                stale = true
            } else {
                var stops: [TripStopRealtime?] = []
                stops.reserveCapacity(trip.stops.count)
                for stop in trip.stops {
                    stops.append(prediction.stop(sequence: stop.stopSequence).map {
                        TripStopRealtime(arrivalUnix: $0.arrivalUnix, departureUnix: $0.departureUnix, skipped: $0.skipped)
                    })
                }
                realtime = TripRealtime(cancelled: prediction.cancelled, added: prediction.added, stops: stops)
                if let t = prediction.timestamp { newest = max(newest ?? t, t) }
            }
        }
        if let vehicle {
            if realtime == nil { realtime = TripRealtime() }
            realtime?.vehicle = vehicle
        }
        let meta = LiveMeta(
            at: at, source: .staticAndRealtime, stale: stale,
            feedAgeSeconds: (newest ?? newestFeed(state, kind: .tripUpdates)).map { max(0, now - $0) })
        return (realtime, meta)
    }

    /// Newest feed timestamp of the non-stale sources that can carry `kind`.
    static func newestFeed(_ state: RealtimeState, kind: RealtimeSourceStatus.Kind) -> Int64? {
        state.sources.filter { !$0.stale && ($0.kind == kind || $0.kind == .auto) }.compactMap(\.feedTimestamp).max()
    }
}
