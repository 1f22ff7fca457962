import GatewayProtocol
import TransitModel

// departures: a board in predicted time (GATEWAY.md "departures"), from the static service's scheduled rows
// and the live state's per-stop index (BoardAssembly explains why the result is exact). trip: TripOp.swift.

/// A merged board and the stop ids it covers (a subscription's live changes are checked against them).
struct LiveBoard: Sendable {
    var answer: DeparturesAnswer
    var meta: LiveMeta
    var stops: Set<String>
    /// `meta.note` (an empty board for a date no feed covers).
    var note: String?
}

extension RequestDispatcher {
    /// Static pages fetched at most per board (more only when delays push many rows out of a page).
    static let maxStaticPages = 4
    /// Windows of `DepartureBoard.horizon` a board looks at when the first one holds no row at all (a
    /// weekday-only stop asked on Saturday still answers Monday's departures).
    static let maxLookAheadWindows = 7

    func departures(_ request: GatewayRequest, _ query: DeparturesQuery, received: ContinuousClock.Instant) async
        -> Answer
    {
        switch await board(query, allowRealtimeOnly: true) {
        case .failure(let error) where error.code == .notFound:
            return failure(request, await hinted(error, request), received: received)
        case .failure(let error):
            return failure(request, error, received: received)
        case .success(let board):
            return .success(
                id: request.id, op: .departures, live: board.meta, note: board.note, received: received,
                capacity: 1024 + 900 * board.answer.rows.count
            ) {
                $0.departuresData(board.answer, at: board.meta.at)
            }
        }
    }

    /// An unknown stop_id that a stop's name matches (a rider typed "Central Station"): the NOT_FOUND names
    /// the `search` op and its best match. Unchanged when the search finds nothing or cannot be asked.
    func withSearchHint(_ error: GatewayError, stopId: String) async -> GatewayError {
        guard
            case .success(.stops(let found)) = await staticClient.query(.search(SearchQuery(query: stopId, limit: 1))),
            let best = found.first
        else { return error }
        return GatewayError(
            .notFound,
            "\(error.message); stop_id takes an id, not a name: the \"search\" op finds stops by name "
                + "(best match for \(quote(stopId)): \(quote(best.name)), stop_id \(quote(best.stopId)))")
    }

    /// A departure board merged with the live state. `at` defaults to now, pinned here so the window, the
    /// countdowns and `meta.at` agree; with a cursor `at` still sets the countdowns' origin. With the static
    /// service down and `allowRealtimeOnly`, the live state alone answers where it can (rt_only).
    /// `wantStops`: the answer's `stops` must hold a station's platforms even without live visits now (a
    /// subscription checks later changes against them).
    func board(_ query: DeparturesQuery, allowRealtimeOnly: Bool = false, wantStops: Bool = false) async -> Result<
        LiveBoard, GatewayError
    > {
        let result = await mergedBoard(query, allowRealtimeOnly: allowRealtimeOnly, wantStops: wantStops)
        guard case .success(var board) = result else { return result }
        guard !board.answer.rows.isEmpty else { return .success(await withValidityNote(board)) }
        await addTypicalDelays(&board.answer.rows)
        return .success(board)
    }

    /// Each row's typical delay (GATEWAY.md "typical delay"): from the held histograms, the others asked
    /// in one request.
    func addTypicalDelays(_ rows: inout [DepartureRow]) async {
        var visits: [TypicalDelayCache.Visit] = []
        var indices: [Int] = []
        for (index, row) in rows.enumerated() where !(row.realtime?.added ?? false) {
            let d = row.departure
            visits.append(
                TypicalDelayCache.Visit(
                    routeId: d.route.routeId, stopId: d.stopId, serviceDate: d.serviceDate,
                    scheduledSecs: Int(d.scheduledSecs)))
            indices.append(index)
        }
        let typical = await typicalDelays.typicalDelays(visits, ask: realtime.status() == .ok)
        for (index, value) in zip(indices, typical) {
            guard let value else { continue }
            let rt = rows[index].realtime
            let withoutPrediction = rt?.predictedUnix == nil && !(rt?.cancelled ?? false) && !(rt?.skipped ?? false)
            rows[index].typicalDelay = TypicalDelayView(
                value, scheduledUnix: rows[index].departure.scheduledUnix, predicted: !withoutPrediction)
        }
    }

    private func mergedBoard(_ query: DeparturesQuery, allowRealtimeOnly: Bool, wantStops: Bool) async -> Result<
        LiveBoard, GatewayError
    > {
        let now = clock.unixSeconds
        let at = query.at ?? now
        var direction = query.direction
        var position = BoardPosition.before(.timeOnly(at))
        if let text = query.cursor, !text.isEmpty {
            guard let cursor = GatewayBoardCursor.decode(text) else {
                return .failure(
                    GatewayError(
                        .invalidArgument,
                        "field \"cursor\": not a cursor of this gateway (pass back a page's earlier_cursor or later_cursor)"
                    ))
            }
            direction = cursor.direction
            position = cursor.position
        }
        let first = await boardWindow(
            query, now: now, at: at, direction: direction, position: position, allowRealtimeOnly: allowRealtimeOnly,
            wantStops: wantStops)
        // Only an empty window with nothing known beyond it looks further, a horizon at a time; the rows found
        // keep the first window's `at` (their countdowns) and its view of what lies behind the anchor.
        guard case .success(let empty) = first, empty.answer.rows.isEmpty, empty.meta.source != .realtimeOnly,
            !(direction == .future ? empty.answer.page.hasMoreFuture : empty.answer.page.hasMorePast)
        else { return first }
        let step = direction == .future ? DepartureBoard.horizon : -DepartureBoard.horizon
        for window in 1..<Self.maxLookAheadWindows {
            let further = BoardPosition.before(.timeOnly(position.key.time + Int64(window) * step))
            let result = await boardWindow(
                query, now: now, at: at, direction: direction, position: further, allowRealtimeOnly: false,
                wantStops: wantStops)
            guard case .success(var found) = result else { return first }
            guard found.answer.rows.isEmpty else {
                // The window's rows start anywhere in it, so its end cuts them short (asked Saturday 07:14, the
                // window to Monday 07:14 holds Monday 07:13 alone, flagged as nothing more). Unless the page is
                // full with more beyond, the board is asked again as from its first departure (past: up to its
                // last), the same rows and flags as a board asked there.
                let page = found.answer.page
                if found.answer.rows.count < query.limit
                    || !(direction == .future ? page.hasMoreFuture : page.hasMorePast),
                    let edge = direction == .future
                        ? found.answer.rows.first?.time : found.answer.rows.last.map({ $0.time + 1 }),
                    case .success(let again) = await boardWindow(
                        query, now: now, at: at, direction: direction, position: .before(.timeOnly(edge)),
                        allowRealtimeOnly: false, wantStops: wantStops),
                    !again.answer.rows.isEmpty
                {
                    found = again
                }
                if direction == .future {
                    found.answer.page.hasMorePast = empty.answer.page.hasMorePast
                } else {
                    found.answer.page.hasMoreFuture = empty.answer.page.hasMoreFuture
                }
                return .success(found)
            }
            if direction == .future ? found.answer.page.hasMoreFuture : found.answer.page.hasMorePast {
                return .success(found)  // live visits beyond, but none in this window: its cursor goes on
            }
        }
        return first
    }

    /// The board of one window of `DepartureBoard.horizon` from `position` (`board` above picks the windows).
    private func boardWindow(
        _ query: DeparturesQuery, now: Int64, at: Int64, direction: BoardDirection, position: BoardPosition,
        allowRealtimeOnly: Bool, wantStops: Bool
    ) async -> Result<LiveBoard, GatewayError> {
        let reading = realtime.read()
        // Also a stale or silent state: its lasting facts are shown (BoardAssembly.merge).
        let state: RealtimeState? = reading.holdsState ? reading.state : nil
        let forward = direction == .future
        if forward { checkStaticVersionIfDue() }

        // The stop ids the board covers (a station: its platforms too) decide which live visits count; they
        // are only needed when there are live visits at all, and fetched alongside the first static page.
        // Alerts need the stop's station too (an alert on the station concerns its platforms' rows).
        let liveVisits = state.map { !$0.tripsByStop.isEmpty || !$0.alertIndex.isEmpty } ?? false
        let cachedInfo = liveVisits || wantStops ? cache.cachedStop(query.stopId) : nil
        let needInfo = cachedInfo == nil && (liveVisits || wantStops)

        var fetch = BoardPageFetch(
            stopId: query.stopId, limit: query.limit, direction: direction, position: position, state: state,
            stateVersion: reading.version, info: cachedInfo, filtered: query,
            filter: liveFilter(query, info: cachedInfo?.result), windowed: forward && boardCache.enabled)
        // Pages asked of the static service are bounded (`maxStaticPages`); pages sliced from a board window
        // cost no round trip and are bounded by the window's rows (each adds at least 5).
        var pageNumber = 0, askedPages = 0
        fetching: while askedPages < Self.maxStaticPages,
            pageNumber < Self.maxStaticPages + StaticRequestLimits.maxLimit / 5
        {
            pageNumber += 1
            if case .window = fetch.source {} else { askedPages += 1 }
            let board: DepartureBoard
            let result: Result<StaticResult, GatewayError>, following: StaticPageSource?
            var fetchedInfo: Result<BoardStop, GatewayError>?
            if pageNumber == 1 {
                ((result, following), fetchedInfo) = await firstPage(
                    fetch.staticQuery, forward: forward, stopNeeded: needInfo)
            } else {
                (result, following) = await staticPage(fetch.staticQuery, from: fetch.source, forward: forward)
            }
            switch result {
            case .success(.departures(let answer)):
                board = answer
            case .success(let other):
                return .failure(
                    GatewayError(.internal, "the static service answered departures with \(other.kindName)"))
            case .failure(let error):
                if pageNumber > 1 {
                    // Keep the pages fetched so far (also when no replica on a static cursor's database
                    // version answered during a rolling re-import: GATEWAY.md "page").
                    logger.debug(
                        "board cut at the static pages read",
                        metadata: ["stop_id": "\(query.stopId)", "page": "\(pageNumber)", "error": "\(error)"])
                    break fetching
                }
                if error.code == .staticUnavailable, allowRealtimeOnly, let state {
                    return realtimeOnlyBoard(
                        query, at: at, now: now, direction: direction, position: position, state: state,
                        alerts: Self.holdsAlerts(reading, now: now), error: error)
                }
                return .failure(error)
            }
            if pageNumber == 1 {
                cache.noteTimezone(board.timezone)
                fetch.takeFirstPage(board, from: following, stop: fetchedInfo)
            }
            fetch.add(board)
            guard !fetch.complete, let following else { break fetching }
            fetch.advance(to: following)
        }

        var all = fetch.merged.rows
        if let state, !fetch.candidates.visits.isEmpty {
            all += await resolve(
                fetch.candidates.visits, state: state, info: fetch.info?.result, timezone: fetch.timezone,
                staticUp: true,
                scheduledRows: fetch.window?.rowsByDeparture() ?? [:])
        }
        Self.fillChangedPlatforms(&all, fetch.info?.result)
        var page = BoardAssembly.page(
            all, known: fetch.known, direction: direction, position: position, limit: query.limit)
        BoardAssembly.stampAges(&page.rows, now: now)
        var answer = Self.answer(
            stopId: query.stopId, timezone: fetch.timezone, page: page, direction: direction, position: position,
            known: fetch.known, moreBeyond: fetch.moreBeyond, moreBehind: fetch.moreBehind)
        if let state, Self.holdsAlerts(reading, now: now) {
            Self.addAlerts(&answer, index: state.alertIndex, info: fetch.info?.result)
        }
        let meta = reading.meta(
            .tripUpdates, at: at, now: now, leftOut: fetch.merged.usedStale || fetch.candidates.usedStale)
        return .success(LiveBoard(answer: answer, meta: meta, stops: fetch.boardStops))
    }

    /// The first static page and, when `stopNeeded`, the stop's station and platforms asked alongside it (a
    /// child task only then: it costs a thread wake-up).
    private func firstPage(
        _ query: DeparturesQuery, forward: Bool, stopNeeded: Bool
    ) async -> ((Result<StaticResult, GatewayError>, StaticPageSource?), Result<BoardStop, GatewayError>?) {
        guard stopNeeded else { return (await staticPage(query, from: .first, forward: forward), nil) }
        async let stop = cache.stop(query.stopId)
        let page = await staticPage(query, from: .first, forward: forward)
        return (page, await stop)
    }

    /// The static service cannot answer: a board of what the live state knows at the stop (its live trips
    /// only), or the static error when it knows nothing there.
    private func realtimeOnlyBoard(
        _ query: DeparturesQuery, at: Int64, now: Int64, direction: BoardDirection, position: BoardPosition,
        state: RealtimeState, alerts: Bool, error: GatewayError
    ) -> Result<LiveBoard, GatewayError> {
        let held = cache.cachedStop(query.stopId)
        let info = held?.result
        let boardStops = held?.stopIds ?? [query.stopId]
        let t = position.key.time
        let forward = direction == .future
        let known = forward ? t..<t + DepartureBoard.horizon : t + 1 - DepartureBoard.horizon..<t + 1
        let candidates = BoardAssembly.candidates(
            state: state, boardStops: boardStops, known: known, present: [], staticRows: false,
            admits: liveFilter(query, info: info))
        guard !candidates.visits.isEmpty || candidates.before || candidates.beyond else { return .failure(error) }
        let timezone = info?.stop.timezone ?? cache.lastTimezone
        var rows: [DepartureRow] = []
        for visit in candidates.visits {
            rows.append(
                liveRow(visit, state: state, info: info, timezone: timezone, detail: cache.cachedTrip(visit.trip.key)))
        }
        Self.fillChangedPlatforms(&rows, info)
        var page = BoardAssembly.page(rows, known: known, direction: direction, position: position, limit: query.limit)
        BoardAssembly.stampAges(&page.rows, now: now)
        var answer = Self.answer(
            stopId: query.stopId, timezone: timezone, page: page, direction: direction, position: position,
            known: known,
            moreBeyond: forward ? candidates.beyond : candidates.before,
            moreBehind: forward ? candidates.before : candidates.beyond)
        if alerts { Self.addAlerts(&answer, index: state.alertIndex, info: info) }
        let meta = LiveMeta(
            at: at, source: .realtimeOnly, stale: candidates.usedStale,
            feedAgeSeconds: LiveMerge.feedAge(state, kind: .tripUpdates, now: now), epoch: realtime.epoch)
        return .success(LiveBoard(answer: answer, meta: meta, stops: boardStops))
    }

    /// Rows for live visits the static page lacks: from `scheduledRows` of the board (a trip delayed onto
    /// it from before or early from later, at its scheduled stop), else from the trips' static details
    /// (fetched together, cached), else from the live data.
    private func resolve(
        _ visits: [LiveCandidate], state: RealtimeState, info: StopResult?, timezone: String?, staticUp: Bool,
        scheduledRows: [DepartureIdentity: Departure] = [:]
    ) async -> [DepartureRow] {
        var rows: [DepartureRow] = []
        rows.reserveCapacity(visits.count)
        var visits = visits
        if !scheduledRows.isEmpty {
            visits.removeAll { visit in
                guard !visit.trip.added, let departure = scheduledRows[visit.identity],
                    visit.stop.assignedStopId == nil || visit.stop.assignedStopId == departure.stopId
                else { return false }
                rows.append(
                    DepartureRow(
                        departure: departure, realtime: BoardAssembly.realtime(visit.trip, visit.stop, state: state)))
                return true
            }
        }
        let wanted = Set(visits.map { Self.detailKey($0.trip) }).filter { cache.cachedTrip($0) == nil }
        var failures: [TripInstanceKey: GatewayError] = [:]
        if staticUp, !wanted.isEmpty {
            let cache = self.cache
            failures = await withTaskGroup(of: (TripInstanceKey, GatewayError?).self) { group in
                for key in wanted {
                    group.addTask {
                        if case .failure(let error) = await cache.trip(key) { return (key, error) }
                        return (key, nil)
                    }
                }
                var failed: [TripInstanceKey: GatewayError] = [:]
                for await (key, error) in group { failed[key] = error }
                return failed
            }
        }
        // A static service that stopped answering meanwhile is not asked again (the request has a deadline).
        let staticUp = staticUp && !failures.values.contains { $0.code == .staticUnavailable }
        for visit in visits {
            let key = Self.detailKey(visit.trip)
            if let detail = cache.cachedTrip(key) {
                guard
                    var row = CandidateDepartures.fromDetail(
                        detail, visit, platforms: Self.platforms(info), origin: nil)
                else { continue }
                row.realtime = BoardAssembly.realtime(visit.trip, visit.stop, state: state)
                rows.append(row)
            } else if failures[key]?.code == .notFound, !visit.trip.added {
                continue  // the schedule does not know the trip: nothing to show it with
            } else {
                var route = info?.routes.first { $0.routeId == visit.trip.routeId }
                if route == nil, let id = visit.trip.routeId { route = cache.cachedRoute(id) }
                if route == nil, staticUp, let id = visit.trip.routeId { route = await cache.route(id) }
                rows.append(liveRow(visit, state: state, info: info, timezone: timezone, detail: nil, route: route))
            }
        }
        return rows
    }

    /// A row from live data, with the route and headsign of a known detail or route.
    private func liveRow(
        _ visit: LiveCandidate, state: RealtimeState, info: StopResult?, timezone: String?, detail: TripDetail?,
        route: Route? = nil
    ) -> DepartureRow {
        let routeId = visit.trip.routeId
        let route =
            detail?.route ?? route ?? info?.routes.first { $0.routeId == routeId }
            ?? routeId.flatMap { cache.cachedRoute($0) } ?? CandidateDepartures.unknownRoute(routeId)
        let origin =
            detail.map(CandidateDepartures.originOf)
            ?? ServiceDayOrigin.unix(serviceDate: visit.trip.key.serviceDate, timezone: timezone ?? "UTC")
            ?? 0
        var row = CandidateDepartures.fromLive(
            visit, route: route, headsign: detail?.headsign, platforms: Self.platforms(info), origin: origin)
        row.realtime = BoardAssembly.realtime(visit.trip, visit.stop, state: state)
        return row
    }

    /// The static detail a live trip's row is described by: its own, or for a copy the copied trip's.
    private static func detailKey(_ trip: TripPrediction) -> TripInstanceKey {
        if trip.added, let copied = trip.staticTripId, copied != trip.key.tripId {
            return TripInstanceKey(tripId: copied, serviceDate: trip.key.serviceDate)
        }
        return trip.key
    }

    /// Each row's `alert_ids` and the board's `alerts` (GATEWAY.md "departures"): matched per row at its own
    /// time against the alert index (nothing to do without alerts).
    static func addAlerts(_ answer: inout DeparturesAnswer, index: AlertIndex, info: StopResult?) {
        guard !index.isEmpty, !answer.rows.isEmpty else { return }
        // A board's rows share a few stop ids (a station's platforms: up to ~80 to look through each); the
        // last one's parent is kept (rows of one platform come in runs; no hashing per row).
        var lastStop: String?
        var lastParent: String?
        let rows = answer.rows.map { row in
            if row.departure.stopId != lastStop {
                lastStop = row.departure.stopId
                lastParent = parentStation(of: row.departure.stopId, info)
            }
            return DepartureRowSubject(row, parentStation: lastParent)
        }
        let found = RowAlerts(rows, index: index)
        // Most boards carry no alert: their rows keep their empty ids untouched (writing them would copy the
        // rows when the answer shares them).
        guard !found.views.isEmpty else { return }
        answer.alerts = found.views
        for i in answer.rows.indices { answer.rows[i].alertIds = found.idsByRow[i] }
    }

    /// The parent station of a board's row stop, as the board's stop result tells it.
    private static func parentStation(of stopId: String, _ info: StopResult?) -> String? {
        guard let info else { return nil }
        if stopId == info.stop.stopId { return info.stop.parentStation ?? info.parent?.stopId }
        if info.platforms.contains(where: { $0.stopId == stopId }) { return info.stop.stopId }
        return info.stop.parentStation ?? info.parent?.stopId
    }

    /// The static rows come filtered by the static service; live visits (trips delayed onto the board, added
    /// trips) are filtered here, by what their trip update names (route, direction) and the route's mode as
    /// the gateway knows it. nil when the board is not filtered.
    func liveFilter(_ query: DeparturesQuery, info: StopResult?) -> LiveBoardFilter? {
        guard query.isFiltered else { return nil }
        let cache = self.cache
        let stopRoutes = info?.routes ?? []
        return LiveBoardFilter(routeId: query.routeId, directionId: query.directionId, mode: query.mode) { id in
            stopRoutes.first { $0.routeId == id }?.mode ?? cache.cachedRoute(id)?.mode
        }
    }

    /// A changed platform whose code the realtime service did not send takes it from the station's platforms.
    /// The station's platform codes are only gathered when a row needs one (most boards have no change).
    private static func fillChangedPlatforms(_ rows: inout [DepartureRow], _ info: StopResult?) {
        guard info != nil,
            rows.contains(where: { $0.realtime?.platformChange.map { $0.platform == nil } ?? false })
        else { return }
        let platforms = Self.platforms(info)
        for i in rows.indices {
            guard let change = rows[i].realtime?.platformChange, change.platform == nil,
                let code = platforms[change.stopId] ?? nil
            else { continue }
            rows[i].realtime?.platformChange?.platform = code
        }
    }

    private static func platforms(_ info: StopResult?) -> [String: String?] {
        guard let info else { return [:] }
        var codes: [String: String?] = [info.stop.stopId: info.stop.platformCode]
        for platform in info.platforms { codes[platform.stopId] = platform.platformCode }
        return codes
    }

    /// The answer's page part: cursors around the rows (or, for an empty page, around the searched window).
    private static func answer(
        stopId: String, timezone: String?, page: BoardAssembly.Page, direction: BoardDirection, position: BoardPosition,
        known: Range<Int64>, moreBeyond: Bool, moreBehind: Bool
    ) -> DeparturesAnswer {
        let forward = direction == .future
        let earlier: BoardPosition, later: BoardPosition
        if let first = page.rows.first, let last = page.rows.last {
            earlier = .before(BoardKey(first))
            later = .after(BoardKey(last))
        } else if forward {
            earlier = position
            later = .before(.timeOnly(known.upperBound))
        } else {
            earlier = .before(.timeOnly(known.lowerBound))
            later = position
        }
        let beyond = page.more || moreBeyond
        let behind = page.behind || moreBehind
        return DeparturesAnswer(
            stopId: stopId, timezone: timezone, rows: page.rows,
            page: BoardPage(
                direction: direction, hasMorePast: forward ? behind : beyond, hasMoreFuture: forward ? beyond : behind,
                earlierCursor: GatewayBoardCursor(direction: .past, position: earlier).encode(),
                laterCursor: GatewayBoardCursor(direction: .future, position: later).encode()))
    }
}
