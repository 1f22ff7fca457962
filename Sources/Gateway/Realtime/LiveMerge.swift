import TransitJSON
import TransitModel

/// A trip merged with the live state: its per-stop predictions and its vehicle. The `meta` says where the
/// data came from (GATEWAY.md §2): `static+rt` when the live state is usable, else `static_only` (stale when
/// realtime is configured but silent or all stale). Boards are merged in `BoardAssembly`.
enum LiveMerge {
    static func trip(_ trip: TripDetail, reading: RealtimeReading, at: Int64, now: Int64) -> (TripRealtime?, LiveMeta) {
        guard reading.usable else {
            return (nil, LiveMeta(at: at, source: .staticOnly, stale: reading.staleWhenUnusable))
        }
        let state = reading.state
        let key = TripInstanceKey(
            tripId: trip.tripId, serviceDate: trip.serviceDate,
            staticStartTime: trip.frequencyBased ? trip.startTime : nil)
        let vehicle = state.vehicle(for: key, frequencyBased: trip.frequencyBased)
        var realtime: TripRealtime?
        var stale = false
        if let prediction = state.trips[key], !prediction.deleted {
            if state.isStale(source: prediction.source) {
                stale = true
            } else {
                var stops: [TripStopRealtime?] = []
                stops.reserveCapacity(trip.stops.count)
                for stop in trip.stops {
                    stops.append(
                        prediction.stop(sequence: stop.stopSequence).map {
                            TripStopRealtime(
                                arrivalUnix: $0.arrivalUnix, departureUnix: $0.departureUnix, skipped: $0.skipped,
                                occupancyStatus: $0.occupancyStatus, carriages: $0.carriages,
                                platformChange: prediction.cancelled ? nil : $0.platformChange)
                        })
                }
                realtime = TripRealtime(cancelled: prediction.cancelled, added: prediction.added, stops: stops)
            }
        }
        if let vehicle {
            if realtime == nil { realtime = TripRealtime() }
            realtime?.vehicle = vehicle
        }
        let meta = LiveMeta(
            at: at, source: .staticAndRealtime, stale: stale,
            feedAgeSeconds: feedAge(state, kind: .tripUpdates, now: now))
        return (realtime, meta)
    }

    /// `meta.feed_age_s` (GATEWAY.md §2): seconds from the header timestamp of the newest feed among the
    /// sources that can carry `kind` and are not stale, to `now`. The timestamp and clock of `health`'s
    /// `age_s`, so the two agree in the same second: it is the smallest `age_s` of those sources. Not the
    /// entities' own timestamps: a producer restamps a trip update only when its prediction changes.
    static func feedAge(_ state: RealtimeState, kind: RealtimeSourceStatus.Kind, now: Int64) -> Int64? {
        newestFeed(state, kind: kind).map { max(0, now - $0) }
    }

    /// Newest feed timestamp of the non-stale sources that can carry `kind`.
    static func newestFeed(_ state: RealtimeState, kind: RealtimeSourceStatus.Kind) -> Int64? {
        state.sources.filter { !$0.stale && ($0.kind == kind || $0.kind == .auto) }.compactMap(\.feedTimestamp).max()
    }
}
