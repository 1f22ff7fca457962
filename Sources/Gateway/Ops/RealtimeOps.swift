import GatewayProtocol
import RealtimeFollowing
import TransitModel

// alerts and vehicles: read from the live state; the static service only resolves what the asked id stands
// for (a stop's station and platforms and the routes serving it, a trip's stops) and tells unknown ids.

extension RequestDispatcher {
    /// How long after the last feed that carried them alerts are still shown while realtime is silent or stale.
    static let alertsHeldFor: Int64 = 3600

    /// Whether the held alerts are shown (by the `alerts` op, and on board rows and trip stops): while their
    /// sources are fresh; silent or stale, an alert stays, marked stale, until its active period ends
    /// (`isActive`) or an hour after the last feed that carried it, whichever comes first.
    static func holdsAlerts(_ reading: RealtimeReading, now: Int64) -> Bool {
        guard reading.holdsState else { return false }
        if reading.fresh(.alerts) { return true }
        guard let lastFeed = LiveMerge.newestFeed(reading.state, kind: .alerts, includingStale: true) else {
            return false
        }
        return now < lastFeed + alertsHeldFor
    }

    func alerts(_ request: GatewayRequest, _ query: AlertsQuery, received: ContinuousClock.Instant) async -> Answer {
        let now = clock.unixSeconds
        let at = query.at ?? now
        let reading = realtime.read()

        let matcher: AlertMatcher
        var staticAnswered = true
        switch await resolve(query.selector, at: at, reading: reading) {
        case .success(let resolved):
            matcher = resolved
        case .failure(let error) where error.code == .staticUnavailable:
            // Only the live state can answer: match the id itself (GATEWAY.md "alerts").
            guard reading.usable else { return failure(request, error, received: received) }
            matcher = .idOnly(query.selector)
            staticAnswered = false
        case .failure(let error):
            return failure(request, await hinted(error, request), received: received)
        }

        guard reading.holdsState else {
            // No live state: no alerts can be known. Say so in meta rather than failing.
            let live = reading.meta(.alerts, at: at, now: now, leftOut: false)
            return .success(id: request.id, op: .alerts, live: live, received: received) { $0.alertListData([]) }
        }
        let sources = reading.state.sources.filter { $0.kind == .alerts || $0.kind == .auto }
        let held = Self.holdsAlerts(reading, now: now) ? reading.state.alerts : []
        let alerts = matcher.alerts(in: held, at: at, language: query.lang)
        var live = reading.meta(.alerts, at: at, now: now, leftOut: sources.contains(where: \.stale))
        if !staticAnswered { live.source = .realtimeOnly }
        return .success(
            id: request.id, op: .alerts, live: live, received: received, capacity: 1024 + 800 * alerts.count
        ) {
            $0.alertListData(alerts)
        }
    }

    /// What the static service knows about the asked stop, route or trip, as an alert matcher.
    private func resolve(_ selector: AlertsQuery.Selector, at: Int64, reading: RealtimeReading) async -> Result<
        AlertMatcher, GatewayError
    > {
        switch selector {
        case .stop(let id):
            return await keptStaticResult(.stop(StopQuery(stopId: id))).flatMap { result in
                guard case .stop(let stop) = result else { return .failure(unexpectedKind("stop", result)) }
                var stopIds = [stop.stop.stopId] + stop.platforms.map(\.stopId)
                if let parent = stop.parent { stopIds.append(parent.stopId) }
                var trips = Set<String>()
                for stopId in stopIds {
                    for visit in reading.state.tripsByStop[stopId] ?? [] { trips.insert(visit.key.tripId) }
                }
                return .success(.stop(stop, liveTrips: trips))
            }
        case .route(let id):
            return await route(id).flatMap { route in
                guard let route else { return .failure(GatewayError(.notFound, "unknown route_id \"\(id)\"")) }
                return .success(.route(route))
            }
        case .trip(let id):
            return await staticClient.query(.trip(TripQuery(tripId: id, at: at))).flatMap { result in
                guard case .trip(let trip) = result else { return .failure(unexpectedKind("trip", result)) }
                return .success(.trip(trip))
            }
        }
    }

    /// The route with this id, nil when the static database has none.
    func route(_ id: String) async -> Result<Route?, GatewayError> {
        await keptStaticResult(.routes(RoutesQuery())).flatMap { result in
            guard case .routes(let routes) = result else { return .failure(unexpectedKind("routes", result)) }
            return .success(routes.first { $0.routeId == id })
        }
    }

    func vehicles(_ request: GatewayRequest, _ query: VehiclesQuery, received: ContinuousClock.Instant) async -> Answer
    {
        let now = clock.unixSeconds
        let reading = realtime.read()
        guard reading.usable else {
            return await vehiclesFromService(request, query, reading: reading, now: now, received: received)
        }
        let state = reading.state
        var vehicles: [VehicleSnapshot]
        switch query.selector {
        case .route(let id): vehicles = state.vehicles.filter { $0.routeId == id }
        case .trip(let id): vehicles = state.vehicles.filter { $0.tripId == id }
        }
        vehicles = await described(vehicles, state: state)
        if vehicles.isEmpty, !knownToRealtime(query.selector, state),
            let unknown = await unknownId(request, query, received: received)
        {
            return unknown
        }
        let sources = state.sources.filter { $0.kind == .vehiclePositions || $0.kind == .auto }
        let live = LiveMeta(
            at: now, source: .staticAndRealtime, stale: sources.contains(where: \.stale),
            feedAgeSeconds: LiveMerge.feedAge(state, kind: .vehiclePositions, now: now), epoch: reading.epoch)
        return .success(
            id: request.id, op: .vehicles, live: live, received: received, capacity: 512 + 500 * vehicles.count
        ) {
            $0.vehicleListData(vehicles)
        }
    }

    /// No live view: ask the realtime service's REP directly; REALTIME_UNAVAILABLE when it cannot answer
    /// either (or there is none).
    private func vehiclesFromService(
        _ request: GatewayRequest, _ query: VehiclesQuery, reading: RealtimeReading, now: Int64,
        received: ContinuousClock.Instant
    ) async -> Answer {
        let why: String
        switch reading.status {
        case .notConfigured: why = "the gateway runs without realtime (no --subscribe URL)"
        case .silent where reading.heartbeatAge == nil:
            why = "no live realtime view: nothing received from the realtime publisher yet"
        case .silent:
            why =
                "no live realtime view: the realtime publisher has been silent for \(reading.heartbeatAge?.components.seconds ?? 0) s"
        case .ok: why = "every realtime source is stale"
        }
        guard let realtimeClient, reading.status != .ok else {
            return failure(request, GatewayError(.realtimeUnavailable, why), received: received)
        }
        let asked: LiveVehicleQuery
        switch query.selector {
        case .route(let id): asked = .route(id)
        case .trip(let id): asked = .trip(id)
        }
        let list: [LiveVehicle]
        switch await realtimeClient.query(.vehicles(asked), requestId: RequestTrace.id) {
        case .success(.vehicles(let answer)):
            list = answer
        case .success:
            return failure(
                request, GatewayError(.internal, "the realtime service answered vehicles with another kind of result"),
                received: received)
        case .failure(.cancelled):
            return failure(
                request, GatewayError(.timeout, "cancelled while waiting for the realtime service"), received: received)
        case .failure(let error):
            return failure(request, GatewayError(.realtimeUnavailable, "\(why), and \(error)"), received: received)
        }
        let vehicles = await described(
            list.map { VehicleEntry($0).vehicle }
                .sorted { ($0.vehicleId ?? "\u{10FFFF}") < ($1.vehicleId ?? "\u{10FFFF}") }, state: nil)
        if vehicles.isEmpty, let unknown = await unknownId(request, query, received: received) { return unknown }
        // The sources as last reported (also while the publisher is silent), as `health` shows them.
        let live = LiveMeta(
            at: now, source: .staticAndRealtime, stale: false,
            feedAgeSeconds: LiveMerge.feedAge(reading.state, kind: .vehiclePositions, now: now), epoch: reading.epoch)
        return .success(
            id: request.id, op: .vehicles, live: live, received: received, capacity: 512 + 500 * vehicles.count
        ) {
            $0.vehicleListData(vehicles)
        }
    }

    /// The vehicles with their route's short name, colour and mode and their trip's headsign: the route from
    /// the cached route list, the headsign from the live trip, else the static trip (cached per instance; a
    /// static service that cannot answer leaves them null, the positions are still worth showing).
    private func described(_ vehicles: [VehicleSnapshot], state: RealtimeState?) async -> [VehicleSnapshot] {
        var out = vehicles
        for index in out.indices {
            var route = await out[index].routeId.asyncFlatMap { await cache.route($0) }
            if let tripId = out[index].tripId, let date = out[index].serviceDate {
                let key = TripInstanceKey(tripId: tripId, serviceDate: date)
                out[index].headsign = state?.trips[key]?.headsign
                if out[index].headsign == nil || route == nil, case .success(let detail) = await cache.trip(key) {
                    out[index].headsign = out[index].headsign ?? detail.headsign
                    route = route ?? detail.route
                }
            }
            out[index].routeShortName = route?.shortName
            out[index].routeColor = route?.color
            out[index].mode = route?.mode
        }
        return out
    }

    /// NOT_FOUND (or another static error) when the static database does not know the asked id; nil when it
    /// does or cannot tell (then an empty list is the honest answer).
    private func unknownId(_ request: GatewayRequest, _ query: VehiclesQuery, received: ContinuousClock.Instant) async
        -> Answer?
    {
        switch await knownToStatic(query.selector) {
        case .success(false):
            let (field, id) = query.selector.fieldAndId
            return failure(
                request, await hinted(GatewayError(.notFound, "unknown \(field) \"\(id)\""), request),
                received: received)
        case .failure(let error) where error.code != .staticUnavailable:
            return failure(request, error, received: received)
        default:
            return nil
        }
    }

    private func knownToRealtime(_ selector: VehiclesQuery.Selector, _ state: RealtimeState) -> Bool {
        switch selector {
        case .route(let id): return state.trips.values.contains { $0.routeId == id }
        case .trip(let id): return state.trips.keys.contains { $0.tripId == id }
        }
    }

    private func knownToStatic(_ selector: VehiclesQuery.Selector) async -> Result<Bool, GatewayError> {
        switch selector {
        case .route(let id):
            return await route(id).map { $0 != nil }
        case .trip(let id):
            switch await staticClient.query(.trip(TripQuery(tripId: id))) {
            case .success: return .success(true)
            case .failure(let error) where error.code == .notFound: return .success(false)
            case .failure(let error): return .failure(error)
            }
        }
    }
}

private func unexpectedKind(_ asked: String, _ result: StaticResult) -> GatewayError {
    GatewayError(.internal, "the static service answered \(asked) with \(result.kindName)")
}

extension VehiclesQuery.Selector {
    var fieldAndId: (String, String) {
        switch self {
        case .route(let id): ("route_id", id)
        case .trip(let id): ("trip_id", id)
        }
    }
}

extension Optional {
    fileprivate func asyncFlatMap<U>(_ transform: (Wrapped) async -> U?) async -> U? {
        guard let value = self else { return nil }
        return await transform(value)
    }
}
