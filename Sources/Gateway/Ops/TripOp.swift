import GatewayProtocol
import TransitModel

// trip: the static answer with its predictions; for a trip the static data does not know (an added trip), or
// while the static service is down, the live state's instance (GATEWAY.md "trip").

extension RequestDispatcher {
    func trip(_ request: GatewayRequest, _ query: TripQuery, received: ContinuousClock.Instant) async -> Answer {
        let now = clock.unixSeconds
        var query = query
        let at = query.at ?? now
        query.at = at
        // Asked without a date, a held instance the static service named for `at` is its answer, while the
        // board cache has the database version confirmed (within a second; a new version empties the cache)
        // and no request to the service failed since (while it is down, trips are answered rt_only).
        if query.serviceDate == nil {
            checkStaticVersionIfDue()
            if boardCache.generation() != nil, staticClient.believedUp,
                let held = cache.undatedTrip(query.tripId, at: at)
            {
                return await answer(request, held, at: at, now: now, received: received)
            }
        }
        let reply = await staticClient.reply(to: .trip(query))
        switch reply.result {
        case .success(.trip(let trip)):
            if reply.cacheable { cache.remember(trip, as: Self.instanceKey(trip)) }
            return await answer(request, trip, at: at, now: now, received: received)
        case .success(let other):
            return unexpected(request, other, received: received)
        case .failure(let error) where error.code == .notFound || error.code == .staticUnavailable:
            // The static data does not know the trip (on that date), or cannot be asked: the live state may.
            let reading = realtime.read()
            guard reading.usable,
                let live = LiveTripAssembly.instance(
                    tripId: query.tripId, serviceDate: query.serviceDate, startTime: query.startTime, at: at,
                    state: reading.state)
            else { return failure(request, await hinted(error, request), received: received) }
            return await liveTrip(
                request, live, reading: reading, staticUp: error.code == .notFound, at: at, now: now, received: received
            )
        case .failure(let error):
            return failure(request, error, received: received)
        }
    }

    private static func instanceKey(_ trip: TripDetail) -> TripInstanceKey {
        TripInstanceKey(
            tripId: trip.tripId, serviceDate: trip.serviceDate,
            staticStartTime: trip.frequencyBased ? trip.startTime : nil)
    }

    /// The answer from a trip's static detail: merged with its predictions, alerts and typical delays.
    private func answer(
        _ request: GatewayRequest, _ trip: TripDetail, at: Int64, now: Int64, received: ContinuousClock.Instant
    ) async -> Answer {
        let reading = self.realtime.read()
        let (unmodified, live) = LiveMerge.trip(trip, reading: reading, at: at, now: now)
        let (trip, realtime) = LiveMerge.detoured(trip, unmodified, reading: reading)
        let alerts =
            Self.holdsAlerts(reading, now: now)
            ? LiveMerge.alerts(trip, realtime, index: reading.state.alertIndex) : nil
        let typical = await stopTypicalDelays(trip, key: Self.instanceKey(trip), realtime: realtime)
        return .success(
            id: request.id, op: .trip, live: live, received: received, capacity: 1024 + 700 * trip.stops.count
        ) {
            $0.tripData(
                trip, realtime: realtime, at: at, alerts: alerts?.views ?? [], alertIds: alerts?.idsByRow ?? [],
                typicalDelays: typical)
        }
    }

    /// The answer from a live instance. `staticUp`: the static service answered (NOT_FOUND for the trip
    /// itself), so it is asked for the route, the stops and a copied trip's detail; otherwise only what the
    /// gateway cached is used and the answer is rt_only.
    private func liveTrip(
        _ request: GatewayRequest, _ trip: TripPrediction, reading: RealtimeReading, staticUp: Bool, at: Int64,
        now: Int64,
        received: ContinuousClock.Instant
    ) async -> Answer {
        let state = reading.state
        let vehicle = state.vehicle(for: trip.key, frequencyBased: trip.key.startSecs != nil)
        let source: DataSource = staticUp ? .staticAndRealtime : .realtimeOnly
        let meta = LiveMeta(
            at: at, source: source, stale: false,
            feedAgeSeconds: LiveMerge.feedAge(state, kind: .tripUpdates, now: now), epoch: reading.epoch)

        // Static down, a scheduled trip whose detail the gateway cached: the full answer from it.
        if !staticUp, !trip.added, let detail = cache.cachedTrip(trip.key) {
            let (unmodified, _) = LiveMerge.trip(detail, reading: reading, at: at, now: now)
            let (detail, realtime) = LiveMerge.detoured(detail, unmodified, reading: reading)
            let alerts = LiveMerge.alerts(
                detail, realtime, index: Self.holdsAlerts(reading, now: now) ? state.alertIndex : AlertIndex())
            return .success(
                id: request.id, op: .trip, live: meta, received: received, capacity: 1024 + 700 * detail.stops.count
            ) {
                $0.tripData(detail, realtime: realtime, at: at, alerts: alerts.views, alertIds: alerts.idsByRow)
            }
        }

        // The copied trip's detail, the route and the stops, asked together (one static timeout at most).
        let copied = LiveTripAssembly.copiedKey(trip)
        let stopIds = Set(trip.stops.map(\.stopId))
        var known = LiveTripAssembly.Known()
        if staticUp {
            async let detail = copiedDetail(copied)
            async let route = knownRoute(trip.routeId)
            async let stops = staticStops(stopIds)
            (known.detail, known.route, known.stops) = await (detail, route, stops)
        } else {
            known.detail = copied.flatMap { cache.cachedTrip($0) }
            known.route = trip.routeId.flatMap { cache.cachedRoute($0) }
            known.stops = cachedStops(stopIds)
        }
        known.timezone =
            trip.stops.lazy.compactMap { known.stops[$0.stopId]?.timezone }.first ?? cache.lastTimezone

        let view = LiveTripAssembly.view(
            trip, known: known, vehicle: vehicle, madeUnix: trip.madeUnix(state), now: now)
        let alerts = LiveTripAssembly.alerts(
            view, index: Self.holdsAlerts(reading, now: now) ? state.alertIndex : AlertIndex())
        return .success(
            id: request.id, op: .trip, live: meta, received: received, capacity: 1024 + 700 * view.stops.count
        ) {
            $0.liveTripData(view, at: at, alerts: alerts.views, alertIds: alerts.idsByRow)
        }
    }

    /// Each stop's typical delay (GATEWAY.md "typical delay"), by index; none for an added trip.
    private func stopTypicalDelays(
        _ trip: TripDetail, key: TripInstanceKey, realtime: TripRealtime?
    ) async -> [TypicalDelayView?] {
        guard !(realtime?.added ?? false) else { return [] }
        let visits = trip.stops.map {
            TypicalDelayCache.Visit(
                routeId: trip.route.routeId, stopId: $0.stopId, serviceDate: trip.serviceDate,
                scheduledSecs: Int($0.departureSecs))
        }
        let typical = await typicalDelays.typicalDelays(
            visits, ask: self.realtime.status() == .ok,
            trip: key)
        let cancelled = realtime?.cancelled ?? false
        return typical.enumerated().map { index, value in
            guard let value else { return nil }
            let rt = index < (realtime?.stops.count ?? 0) ? realtime?.stops[index] : nil
            let predicted = (rt?.isPredicted ?? false) || (rt?.skipped ?? false) || cancelled
            return TypicalDelayView(value, scheduledUnix: trip.stops[index].departureUnix, predicted: predicted)
        }
    }

    /// The static detail of a copied trip (cached); nil for none or when the static service cannot tell.
    private func copiedDetail(_ key: TripInstanceKey?) async -> TripDetail? {
        guard let key else { return nil }
        return try? await cache.trip(key).get()
    }

    /// The static route with this id (from the cached route list); nil when unknown or unanswered.
    private func knownRoute(_ id: String?) async -> Route? {
        guard let id else { return nil }
        return await cache.route(id)
    }

    /// The static stops with these ids, asked together (cached); unknown or unanswered ones are left out.
    private func staticStops(_ ids: Set<String>) async -> [String: Stop] {
        let cache = self.cache
        var found = cachedStops(ids)
        let missing = ids.filter { found[$0] == nil }
        guard !missing.isEmpty else { return found }
        await withTaskGroup(of: (String, Stop?).self) { group in
            for id in missing {
                group.addTask { (id, try? await cache.stop(id).get().result.stop) }
            }
            for await (id, stop) in group where stop != nil { found[id] = stop }
        }
        return found
    }

    private func cachedStops(_ ids: Set<String>) -> [String: Stop] {
        var found: [String: Stop] = [:]
        for id in ids { if let hit = cache.cachedStop(id) { found[id] = hit.result.stop } }
        return found
    }
}
