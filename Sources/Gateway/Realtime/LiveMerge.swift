import GatewayProtocol
import TransitModel

/// A trip merged with the live state: its per-stop predictions and its vehicle. The `meta` says where the
/// data came from (GATEWAY.md §2, `RealtimeReading.meta`). Of a stale source (or a silent publisher) only
/// the lasting facts are shown, until the trip's scheduled end: cancelled, skipped stops. Boards are merged
/// in `BoardAssembly`.
enum LiveMerge {
    static func trip(_ trip: TripDetail, reading: RealtimeReading, at: Int64, now: Int64) -> (TripRealtime?, LiveMeta) {
        guard reading.holdsState else { return (nil, reading.meta(.tripUpdates, at: at, now: now, leftOut: false)) }
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
                let end = max(trip.stops.map(\.arrivalUnix).max() ?? .min, scheduledEnd(prediction) ?? .min)
                if (prediction.cancelled || prediction.stops.contains(where: \.skipped)) && at <= end {
                    realtime = TripRealtime(
                        cancelled: prediction.cancelled, added: prediction.added,
                        stops: trip.stops.map { stop in
                            // Only the lasting fact of a stale prediction: the stop is skipped.
                            prediction.stop(sequence: stop.stopSequence).flatMap {
                                $0.skipped
                                    ? LiveStop(stopId: $0.stopId, stopSequence: $0.stopSequence, status: .skipped) : nil
                            }
                        })
                }
            } else {
                // The live state's stops as they are, by the static stop they belong to.
                var stops: [LiveStop?] = []
                stops.reserveCapacity(trip.stops.count)
                for stop in trip.stops { stops.append(prediction.stop(sequence: stop.stopSequence)) }
                realtime = TripRealtime(
                    cancelled: prediction.cancelled, added: prediction.added, stops: stops,
                    predictionAgeSeconds: prediction.madeUnix(state).map { max(0, now - $0) })
            }
        }
        if let vehicle, reading.usable {
            if realtime == nil { realtime = TripRealtime() }
            realtime?.vehicle = vehicle.described(
                route: trip.route, headsign: state.trips[key]?.headsign ?? trip.headsign)
        }
        return (realtime, reading.meta(.tripUpdates, at: at, now: now, leftOut: stale))
    }

    /// Each stop's `alert_ids` and the trip's `alerts`: matched per stop at its own departure (predicted, else
    /// scheduled).
    static func alerts(_ trip: TripDetail, _ realtime: TripRealtime?, index: AlertIndex) -> RowAlerts {
        var rows: [AlertIndex.Row] = []
        rows.reserveCapacity(trip.stops.count)
        for (i, stop) in trip.stops.enumerated() {
            let rt = realtime.flatMap { i < $0.stops.count ? $0.stops[i] : nil }
            rows.append(
                AlertIndex.Row(
                    stopId: stop.stopId, parentStation: stop.parentStation, routeId: trip.route.routeId,
                    routeType: trip.route.routeType, agencyId: trip.route.agencyId, directionId: trip.directionId,
                    tripId: trip.tripId, time: rt?.predictedUnix ?? stop.departureUnix))
        }
        return RowAlerts(rows, index: index)
    }

    /// `meta.feed_age_s` (GATEWAY.md §2): seconds from the header timestamp of the newest feed among the
    /// sources that can carry `kind` and are not stale, to `now`. The timestamp and clock of `health`'s
    /// `age_s`, so the two agree in the same second: it is the smallest `age_s` of those sources. Not the
    /// entities' own timestamps: a producer restamps a trip update only when its prediction changes.
    /// `includingStale`: of every source of the kind (no fresh one: how old the held data is).
    static func feedAge(
        _ state: RealtimeState, kind: RealtimeSourceStatus.Kind, now: Int64, includingStale: Bool = false
    ) -> Int64? {
        newestFeed(state, kind: kind, includingStale: includingStale).map { max(0, now - $0) }
    }

    /// Newest feed timestamp of the sources that can carry `kind` (the non-stale ones unless `includingStale`).
    static func newestFeed(
        _ state: RealtimeState, kind: RealtimeSourceStatus.Kind, includingStale: Bool = false
    ) -> Int64? {
        state.sources.filter { (includingStale || !$0.stale) && ($0.kind == kind || $0.kind == .auto) }
            .compactMap(\.feedTimestamp).max()
    }

    /// The scheduled end of a trip instance as its prediction knows it (last scheduled arrival).
    static func scheduledEnd(_ trip: TripPrediction) -> Int64? {
        trip.stops.compactMap { $0.scheduledArrival ?? $0.scheduledDeparture }.max()
    }
}

extension VehicleSnapshot {
    /// The vehicle with what its trip's answer knows filled in where it has none (as the `vehicles` op
    /// describes its vehicles): the route's short name, colour and mode, and the trip's headsign.
    func described(route: Route?, headsign: String?) -> VehicleSnapshot {
        var out = self
        out.routeShortName = out.routeShortName ?? route?.shortName
        out.routeColor = out.routeColor ?? route?.color
        out.mode = out.mode ?? route?.mode
        out.headsign = out.headsign ?? headsign
        return out
    }
}
