import GatewayProtocol
import TransitModel

// plan: journeys from the static service's planner (protocol/README.md flow 8), each ride decorated as a
// departures row at its boarding stop with the live view of the boards, then checked against that live view:
// a journey with a cancelled ride, a skipped boarding or alighting stop, or a change a delay made impossible is
// left out, and the rest carry their live times (GATEWAY.md "plan").

/// A plan as the gateway answers it: the query as sent to the planner (its `at` filled in), the planner's answer,
/// and the answer's view after the live check, with its meta.
struct PlannedJourneys: Sendable {
    var query: PlanRequest
    var answer: PlanAnswer
    var view: PlanView
    var meta: LiveMeta
}

extension RequestDispatcher {
    func plan(_ request: GatewayRequest, _ query: PlanRequest, received: ContinuousClock.Instant) async -> Answer {
        switch await planned(query) {
        case .success(let planned):
            let view = planned.view
            let capacity = 2048 + view.journeys.reduce(0) { $0 + 1500 * $1.legs.count }
            let now = clock.unixSeconds
            return .success(id: request.id, op: .plan, live: planned.meta, received: received, capacity: capacity) {
                $0.planData(view, at: now)
            }
        case .failure(let error):
            return failure(request, error, received: received)
        }
    }

    /// Asks the static service's planner and checks its journeys against the live view (the `plan` op and its
    /// subscriptions). Without `at` and `arrive_by` the plan departs now.
    func planned(_ query: PlanRequest) async -> Result<PlannedJourneys, GatewayError> {
        let now = clock.unixSeconds
        var query = query
        if query.at == nil && query.arriveBy == nil { query.at = now }
        query.budgetMilliseconds =
            Int(clamping: planBudget.components.seconds * 1000)
            + Int(planBudget.components.attoseconds / 1_000_000_000_000_000)
        let reply = await staticClient.reply(to: .plan(query))
        switch reply.result {
        case .success(.plan(let answer)):
            let reading = realtime.read()
            let live = query.realtime && reading.holdsState
            // A ride on an added trip is named by its trip update's route, from the route list (fetched once).
            let ridesAdded = answer.journeys.contains { j in
                j.legs.contains { if case .ride(let r) = $0 { r.addedTripId != nil } else { false } }
            }
            let routes = live && ridesAdded ? await cache.routes() : [:]
            var view = PlanLiveCheck.view(
                answer, query: query, state: live ? reading.state : nil,
                alerts: Self.holdsAlerts(reading, now: now) ? reading.state.alertIndex : AlertIndex(), now: now,
                routes: { routes[$0] })
            // The planner searched the schedule though live times were asked for (its realtime stream silent).
            view.realtimeStale = query.realtime && !answer.realtimeUsed
            if let later = answer.laterAt, let at = query.at {
                view.laterCursor = PlanCursor(at: later, windowEnd: at + Int64(query.windowSeconds)).text
            }
            let meta = LiveMeta(
                at: query.at ?? query.arriveBy ?? now,
                source: live && reading.usable ? .staticAndRealtime : .staticOnly,
                stale: live && !reading.usable,
                feedAgeSeconds: live ? LiveMerge.feedAge(reading.state, kind: .tripUpdates, now: now) : nil,
                epoch: realtime.epoch)
            return .success(PlannedJourneys(query: query, answer: answer, view: view, meta: meta))
        case .success(let other):
            return .failure(
                GatewayError(
                    .internal, "the static service answered plan with another kind of result (\(other.kindName))"))
        case .failure(let error):
            return .failure(error)
        }
    }
}

/// The live check of planned journeys (pure: the static answer and a realtime state in, the answer's view out).
enum PlanLiveCheck {
    /// `routes` names the route of a ride on an added trip (its row is made from the live trip, which gives only
    /// the route's id).
    static func view(
        _ answer: PlanAnswer, query: PlanRequest, state: RealtimeState?, alerts: AlertIndex, now: Int64,
        routes: (String) -> Route? = { _ in nil }
    ) -> PlanView {
        var journeys: [PlanJourneyView] = []
        var dropped: [String] = []
        for journey in answer.journeys {
            switch check(journey, query: query, state: state, now: now, timezone: answer.timezone, routes: routes) {
            case .success(let view): journeys.append(view)
            case .failure(let why): dropped.append(why.message)
            }
        }
        // Live times may reorder the journeys (fewest transfers first; a range by departure).
        if query.windowSeconds > 0 {
            journeys.sort { ($0.departureUnix, $0.transfers) < ($1.departureUnix, $1.transfers) }
        }
        var view = PlanView(
            journeys: journeys, cut: answer.cut, timezone: answer.timezone, liveDropped: dropped)
        if journeys.isEmpty {
            view.reason =
                answer.journeys.isEmpty
                ? (answer.reason ?? "nothing connects within 24 h")
                : "the live state made every journey found impossible: \(dropped.joined(separator: "; "))"
        }
        addAlerts(&view, index: alerts)
        return view
    }

    struct Broken: Error {
        var message: String
    }

    /// Why the live state makes a journey of an earlier answer impossible now (a plan subscription's `broken`
    /// change); nil when it is still possible (or there is no live state to say).
    static func brokenReason(_ journey: PlanJourneyView, query: PlanRequest, state reading: RealtimeReading, now: Int64)
        -> String?
    {
        guard query.realtime, reading.holdsState else { return nil }
        let planned = PlanJourney(
            departureUnix: journey.departureUnix, arrivalUnix: journey.arrivalUnix, transfers: journey.transfers,
            walkSeconds: journey.walkSeconds,
            legs: journey.legs.map { leg in
                switch leg {
                case .ride(let r): .ride(r.ride)
                case .walk(let w): .walk(w)
                }
            })
        if case .failure(let why) = check(planned, query: query, state: reading.state, now: now) { return why.message }
        return nil
    }

    /// A journey with its rides' live rows and times, or why the live state breaks it.
    static func check(
        _ journey: PlanJourney, query: PlanRequest, state: RealtimeState?, now: Int64, timezone: String? = nil,
        routes: (String) -> Route? = { _ in nil }
    ) -> Result<PlanJourneyView, Broken> {
        var legs: [PlanLegView] = []
        var rideNumber = 0
        // The live arrival of the last ride and the walking since it, to check the next change.
        var lastArrival: Int64?
        var walkedSince = 0
        for leg in journey.legs {
            switch leg {
            case .walk(let w):
                legs.append(.walk(w))
                walkedSince += w.durationSeconds
            case .ride(let ride):
                rideNumber += 1
                let view: PlanRideView
                switch rideView(ride, state: state, now: now, timezone: timezone, routes: routes) {
                case .success(let v): view = v
                case .failure(let why):
                    return .failure(Broken(message: "ride \(rideNumber): \(why.message)"))
                }
                if let lastArrival {
                    let needed = walkedSince > 0 ? walkedSince : query.transferSlackSeconds
                    // The walk between the rides, or at one stop the query's slack alone: the planner already
                    // searched the live timetable with transfers.txt's change times, so this only catches a delay
                    // that reached the gateway before the planner's overlay (about a second).
                    let margin = view.departureUnix - lastArrival
                    if margin < Int64(needed) {
                        let trip = view.row?.departure.tripId ?? ride.addedTripId ?? "?"
                        return .failure(
                            Broken(
                                message:
                                    "ride \(rideNumber): the change to trip \(trip) broke (\(margin) s between the rides live, \(needed) s needed)"
                            ))
                    }
                }
                legs.append(.ride(view))
                lastArrival = view.arrivalUnix
                walkedSince = 0
            }
        }
        // The journey's live ends: its first ride's live departure less the walk before, its last ride's
        // live arrival plus the walk after.
        var departure = journey.departureUnix, arrival = journey.arrivalUnix
        if let first = legs.firstIndex(where: { if case .ride = $0 { true } else { false } }),
            case .ride(let r) = legs[first]
        {
            departure = r.departureUnix - Int64(legs[..<first].reduce(0) { $0 + walkSeconds($1) })
        }
        if let last = legs.lastIndex(where: { if case .ride = $0 { true } else { false } }),
            case .ride(let r) = legs[last]
        {
            arrival = r.arrivalUnix + Int64(legs[(last + 1)...].reduce(0) { $0 + walkSeconds($1) })
        }
        return .success(
            PlanJourneyView(
                departureUnix: departure, arrivalUnix: arrival, transfers: journey.transfers,
                walkSeconds: journey.walkSeconds, legs: legs))
    }

    private static func walkSeconds(_ leg: PlanLegView) -> Int {
        if case .walk(let w) = leg { w.durationSeconds } else { 0 }
    }

    /// A ride's boarding row merged with the live state as a board merges it, and its alighting prediction.
    static func rideView(
        _ ride: PlanRide, state: RealtimeState?, now: Int64, timezone: String? = nil,
        routes: (String) -> Route? = { _ in nil }
    ) -> Result<PlanRideView, Broken> {
        guard let board = ride.board else {
            if let id = ride.addedTripId, let state {
                return addedRideView(ride, id, state: state, now: now, timezone: timezone, routes: routes)
            }
            return .success(
                PlanRideView(
                    ride: ride, row: nil, alightPredictedUnix: nil, departureUnix: ride.plannedDepartureUnix,
                    arrivalUnix: ride.plannedArrivalUnix, live: ride.live))
        }
        let scheduledArrival = ride.stops.last?.arrivalUnix ?? ride.plannedArrivalUnix
        guard let state else {
            return .success(
                PlanRideView(
                    ride: ride, row: DepartureRow(departure: board), alightPredictedUnix: nil,
                    departureUnix: board.scheduledUnix, arrivalUnix: scheduledArrival, live: false))
        }
        var rows = BoardAssembly.merge([board], state: state).rows
        guard var row = rows.first else {
            return .failure(
                Broken(message: "trip \(board.tripId) no longer runs or no longer calls at \(board.stopId)"))
        }
        if let rt = row.realtime {
            if rt.cancelled { return .failure(Broken(message: "trip \(board.tripId) is cancelled")) }
            if rt.skipped { return .failure(Broken(message: "trip \(board.tripId) skips \(board.stopId)")) }
        }
        BoardAssembly.stampAges(&rows, now: now)
        row = rows[0]
        var alightPredicted: Int64?
        if let last = ride.stops.last {
            let instance = TripInstanceKey(
                tripId: board.tripId, serviceDate: board.serviceDate, staticStartTime: board.instanceStartTime)
            if let trip = state.trips[instance], !state.isStale(source: trip.source) {
                let stop = trip.stop(original: last.stopSequence, detour: state.detour(for: instance))
                if stop?.skipped == true || stop?.status == .skipped {
                    return .failure(Broken(message: "trip \(board.tripId) skips \(last.stopId)"))
                }
                alightPredicted = stop?.predictedArrival ?? stop?.predictedDeparture
            }
        }
        let departure = row.realtime?.predictedUnix ?? board.scheduledUnix
        return .success(
            PlanRideView(
                ride: ride, row: row, alightPredictedUnix: alightPredicted, departureUnix: departure,
                arrivalUnix: alightPredicted ?? scheduledArrival,
                live: row.realtime?.predictedUnix != nil || alightPredicted != nil))
    }

    /// A ride on an added trip (or a detoured one, which the planner rides as an added trip over its served stops):
    /// its boarding row made from the live trip as a board makes an added trip's row, its ends numbered by the live
    /// trip's stop_sequence, its times the live ones. Broken when the live state no longer has the trip or it no
    /// longer calls at either end.
    static func addedRideView(
        _ ride: PlanRide, _ id: String, state: RealtimeState, now: Int64, timezone: String?,
        routes: (String) -> Route?
    ) -> Result<PlanRideView, Broken> {
        guard let first = ride.stops.first, let last = ride.stops.last, ride.stops.count >= 2 else {
            return .failure(Broken(message: "added trip \(id): its stops are unknown"))
        }
        guard
            let (trip, b, a) = addedCall(
                id, from: first.stopId, to: last.stopId, near: ride.plannedDepartureUnix, in: state)
        else {
            return .failure(
                Broken(
                    message: "added trip \(id) no longer runs or no longer calls at \(first.stopId) and \(last.stopId)")
            )
        }
        if trip.cancelled { return .failure(Broken(message: "added trip \(id) is cancelled")) }
        let boardStop = trip.stops[b]
        let departure = boardStop.predictedDeparture ?? boardStop.predictedArrival ?? ride.plannedDepartureUnix
        let route = trip.routeId.flatMap(routes) ?? CandidateDepartures.unknownRoute(trip.routeId)
        let origin = ServiceDayOrigin.unix(serviceDate: trip.key.serviceDate, timezone: timezone ?? "UTC") ?? 0
        var platforms: [String: String?] = [:]
        for stop in ride.stops { platforms[stop.stopId] = stop.platformCode }
        var rows = [
            CandidateDepartures.fromLive(
                LiveCandidate(trip: trip, index: b, time: departure), route: route, headsign: nil,
                platforms: platforms, origin: origin)
        ]
        rows[0].realtime = BoardAssembly.realtime(trip, boardStop, state: state)
        // A detoured trip's row says so, as on a board (the planner rides it over the stops it serves).
        rows[0].detour = state.detour(for: trip.key)
        BoardAssembly.stampAges(&rows, now: now)
        var numbered = ride
        numbered.stops[0].stopSequence = boardStop.stopSequence
        numbered.stops[numbered.stops.count - 1].stopSequence = trip.stops[a].stopSequence
        let alightStop = trip.stops[a]
        let alightPredicted = alightStop.predictedArrival ?? alightStop.predictedDeparture
        return .success(
            PlanRideView(
                ride: numbered, row: rows[0], alightPredictedUnix: alightPredicted,
                departureUnix: rows[0].realtime?.predictedUnix ?? departure,
                arrivalUnix: alightPredicted ?? ride.plannedArrivalUnix, live: true))
    }

    /// The live trip of `PlannerLiveFeed`'s added trip id (the realtime trip id, or the instance's description when
    /// that id was added twice) with the positions where it calls at `from` and, later, at `to`, found through the
    /// boards' index of visits by stop. The instance the id names exactly comes first, then the call at `from`
    /// nearest to `near` (another instance of the id, or a loop's other call there).
    static func addedCall(_ id: String, from: String, to: String, near: Int64, in state: RealtimeState)
        -> (trip: TripPrediction, board: Int, alight: Int)?
    {
        // The planner's stops of an added trip are its served stops, by assigned stop where the update names one.
        func calls(_ stop: LiveStop, at stopId: String) -> Bool {
            stop.status != .skipped && (stop.assignedStopId ?? stop.stopId) == stopId
        }
        var best: (trip: TripPrediction, board: Int, alight: Int, rank: (Int, Int64))?
        for visit in state.tripsByStop[from] ?? [] where visit.key.tripId == id || visit.key.description == id {
            guard let trip = state.trips[visit.key], !state.isStale(source: trip.source),
                trip.stops.indices.contains(visit.index), calls(trip.stops[visit.index], at: from),
                let a = trip.stops[(visit.index + 1)...].firstIndex(where: { calls($0, at: to) })
            else { continue }
            let stop = trip.stops[visit.index]
            let time = stop.predictedDeparture ?? stop.predictedArrival ?? stop.scheduledDeparture ?? near
            let rank = (visit.key.description == id ? 0 : 1, abs(time - near))
            if best == nil || rank < best!.rank { best = (trip, visit.index, a, rank) }
        }
        return best.map { ($0.trip, $0.board, $0.alight) }
    }

    /// Each ride row's `alert_ids` and the answer's `alerts` once, matched as a board's rows are.
    static func addAlerts(_ view: inout PlanView, index: AlertIndex) {
        guard !index.isEmpty else { return }
        var places: [(journey: Int, leg: Int)] = []
        var rows: [DepartureRowSubject] = []
        for (j, journey) in view.journeys.enumerated() {
            for (l, leg) in journey.legs.enumerated() {
                guard case .ride(let r) = leg, let row = r.row else { continue }
                places.append((j, l))
                rows.append(DepartureRowSubject(row, parentStation: r.ride.stops.first?.parentStation))
            }
        }
        let found = RowAlerts(rows, index: index)
        guard !found.views.isEmpty else { return }
        view.alerts = found.views
        for (i, place) in places.enumerated() {
            guard case .ride(var r) = view.journeys[place.journey].legs[place.leg] else { continue }
            r.row?.alertIds = found.idsByRow[i]
            view.journeys[place.journey].legs[place.leg] = .ride(r)
        }
    }
}
