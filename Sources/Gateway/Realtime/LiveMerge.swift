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
        let detour = state.detour(for: key)
        if let prediction = state.trips[key], !prediction.deleted {
            if state.isStale(source: prediction.source) {
                stale = true
                let end = max(trip.stops.map(\.arrivalUnix).max() ?? .min, scheduledEnd(prediction) ?? .min)
                if (prediction.cancelled || prediction.stops.contains(where: \.skipped)) && at <= end {
                    realtime = TripRealtime(
                        cancelled: prediction.cancelled, added: prediction.added,
                        stops: trip.stops.map { stop in
                            // Only the lasting fact of a stale prediction: the stop is skipped.
                            prediction.stop(original: stop.stopSequence, detour: detour).flatMap {
                                $0.skipped
                                    ? LiveStop(stopId: $0.stopId, stopSequence: $0.stopSequence, status: .skipped) : nil
                            }
                        })
                }
            } else {
                // The live state's stops as they are, by the static stop they belong to.
                var stops: [LiveStop?] = []
                stops.reserveCapacity(trip.stops.count)
                for stop in trip.stops { stops.append(prediction.stop(original: stop.stopSequence, detour: detour)) }
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

    /// The trip as its detour runs it, when one is in effect for the instance:
    /// the static stops in the detour's travel order (detoured ones kept, so a rider sees what is not
    /// served), the replacement stops between them with their modified schedule (times from the detour's
    /// offsets, placed by a kept stop; coordinates from the feed, names unknown) and their predictions when
    /// the update named the modified trip; kept stops after a modification shifted by its propagated delay.
    /// Otherwise the trip and its realtime part unchanged.
    static func detoured(
        _ trip: TripDetail, _ realtime: TripRealtime?, reading: RealtimeReading
    ) -> (TripDetail, TripRealtime?) {
        guard reading.holdsState else { return (trip, realtime) }
        let state = reading.state
        let key = TripInstanceKey(
            tripId: trip.tripId, serviceDate: trip.serviceDate,
            staticStartTime: trip.frequencyBased ? trip.startTime : nil)
        // A detour is a lasting fact (it names its dates): kept while its source is stale, like a skipped stop.
        guard let detour = state.detour(for: key) else { return (trip, realtime) }
        var byOriginal: [UInt32: Int] = [:]
        for (i, stop) in trip.stops.enumerated() { byOriginal[stop.stopSequence] = i }
        // Offset 0 in unix time, from a kept stop (its static time is its modified offset less the delay).
        var base: Int64?
        for stop in detour.stops where stop.role == .kept {
            guard let sequence = stop.originalSequence, let i = byOriginal[sequence] else { continue }
            base = trip.stops[i].arrivalUnix - Int64(stop.arrivalOffset - stop.propagatedDelay)
            break
        }
        let origin = trip.stops.first.map { $0.arrivalUnix - Int64($0.arrivalSecs) }
        var prediction = state.trips[key]
        if let p = prediction,
            p.deleted || p.modificationsId != detour.modificationsId || state.isStale(source: p.source)
        {
            prediction = nil
        }
        let liveStops = realtime?.stops ?? []
        var out = trip
        out.stops = []
        var stops: [LiveStop?] = []
        var roles: [LiveDetourStop.Role] = []
        for stop in detour.stops {
            switch stop.role {
            case .kept, .detoured:
                guard let sequence = stop.originalSequence, let i = byOriginal[sequence] else { continue }
                var shown = trip.stops[i]
                if stop.role == .kept, stop.propagatedDelay != 0 {
                    shown.arrivalSecs += stop.propagatedDelay
                    shown.departureSecs += stop.propagatedDelay
                    shown.arrivalUnix += Int64(stop.propagatedDelay)
                    shown.departureUnix += Int64(stop.propagatedDelay)
                }
                out.stops.append(shown)
                stops.append(stop.role == .detoured || i >= liveStops.count ? nil : liveStops[i])
            case .replacement:
                guard let base, let origin else { continue }
                let arrival = base + Int64(stop.arrivalOffset), departure = base + Int64(stop.departureOffset)
                out.stops.append(
                    TripStop(
                        stopId: stop.stopId, stopName: "", stopSequence: stop.stopSequence ?? 0,
                        arrivalSecs: Int32(clamping: arrival - origin),
                        departureSecs: Int32(clamping: departure - origin), arrivalUnix: arrival,
                        departureUnix: departure, lat: stop.lat ?? .nan, lon: stop.lon ?? .nan))
                stops.append(stop.stopSequence.flatMap { prediction?.stop(sequence: $0) })
            }
            roles.append(stop.role)
        }
        var merged = realtime ?? TripRealtime()
        merged.stops = stops
        merged.detour = detour
        merged.detourRoles = roles
        return (out, merged)
    }

    /// Each stop's `alert_ids` and the trip's `alerts`: matched per stop at its own departure (predicted, else
    /// scheduled); with a detour, its alerts on every stop.
    static func alerts(_ trip: TripDetail, _ realtime: TripRealtime?, index: AlertIndex) -> RowAlerts {
        var rows: [AlertIndex.Row] = []
        rows.reserveCapacity(trip.stops.count)
        let linked = realtime?.detour?.alertIds ?? []
        for (i, stop) in trip.stops.enumerated() {
            let rt = realtime.flatMap { i < $0.stops.count ? $0.stops[i] : nil }
            rows.append(
                AlertIndex.Row(
                    stopId: stop.stopId, parentStation: stop.parentStation, routeId: trip.route.routeId,
                    routeType: trip.route.routeType, agencyId: trip.route.agencyId, directionId: trip.directionId,
                    tripId: trip.tripId, time: rt?.predictedUnix ?? stop.departureUnix, linkedAlertIds: linked))
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
