import GatewayProtocol
import NIOCore
import TransitModel

/// The `subscribe` state of one connection (GATEWAY.md "subscribe / unsubscribe").
struct ConnectionSubscriptions {
    struct Live {
        var query: SubscribeQuery
        /// The rows of the last board pushed: a new board is pushed only when they differ.
        var lastRows: [DepartureRow]
        /// The stop ids the board covers: live changes elsewhere do not refresh it.
        var boardStops: Set<String>
        var lastPush: NIODeadline
        /// The slot of an event not yet written: a newer board replaces it instead of queueing behind it.
        var queuedSlot: UInt64?
        /// The latest event while the client does not read (older ones are dropped).
        var heldEvent: [UInt8]?
        /// The live state changed since the last refresh started.
        var dirty = false
        var refreshing = false
        var refreshTimer: Scheduled<Void>?
        /// A `plan` subscription's journeys (nil for a board).
        var plan: PlanWatch?
    }

    /// What a `plan` subscription follows: the plan as asked (its `at` fixed at the subscribe) and the journeys of
    /// its last event, with the trip instances their rides are on (a trip update naming one re-plans).
    struct PlanWatch {
        var query: PlanRequest
        var last: PlanView
        var trips: Set<TripInstanceKey> = []
        /// Added trips ridden (their instances are named by id alone here).
        var addedTrips: Set<String> = []

        init(_ planned: PlannedJourneys) {
            query = planned.query
            last = planned.view
            follow(planned.view)
        }

        /// Follows the journeys of `view` (the last event's).
        mutating func follow(_ view: PlanView) {
            last = view
            trips = []
            addedTrips = []
            for journey in view.journeys {
                for case .ride(let r) in journey.legs {
                    if let d = r.ride.board {
                        trips.insert(
                            TripInstanceKey(
                                tripId: d.tripId, serviceDate: d.serviceDate, staticStartTime: d.instanceStartTime))
                    } else if let added = r.ride.addedTripId {
                        addedTrips.insert(added)
                        // The live trip's own id: `added` names the instance (`trip@date`) when its id was added twice.
                        if let live = r.row?.departure.tripId { addedTrips.insert(live) }
                    }
                }
            }
        }

        /// Whether `change` may concern one of the rides. With no journey to follow (none connected, or the live
        /// state broke them all), any change may make one possible again: a trip reinstated, added or back on time.
        func touched(by change: RealtimeChange) -> Bool {
            if last.journeys.isEmpty { return true }
            if change.touches(trips: trips) { return true }
            return !addedTrips.isEmpty && change.trips?.contains { addedTrips.contains($0.tripId) } == true
        }
    }

    /// An `unsubscribe` waiting for the `subscribe` it names to be answered.
    struct DeferredUnsubscribe {
        var request: GatewayRequest
        var slot: UInt64
        var received: ContinuousClock.Instant
    }

    var live: [Int: Live] = [:]
    /// `sub` ids count from 1 per connection, given in request order (a failed subscribe's id is not reused).
    var nextSub = 1
    /// `subscribe` requests being answered, by their `sub` (they count against the per-connection limit),
    /// with the `unsubscribe`s of them that came meanwhile.
    var starting: [Int: [DeferredUnsubscribe]] = [:]
    /// The realtime view's observer while there are subscriptions.
    var observerToken: UInt64?

    var isEmpty: Bool { live.isEmpty && starting.isEmpty }

    /// Event slots before `slot` were written: they can no longer be replaced.
    mutating func released(upTo slot: UInt64) {
        for sub in live.keys {
            if let queued = live[sub]?.queuedSlot, queued < slot { live[sub]?.queuedSlot = nil }
        }
    }
}

extension ConnectionHandler {
    /// The answer refusing a `subscribe` beyond the per-connection or the per-address limit; nil when it may go
    /// ahead (then it holds a place of its address's subscriptions, given back when it fails or ends).
    func subscribeRefusal(_ request: GatewayRequest, received: ContinuousClock.Instant) -> Answer? {
        var error: GatewayError?
        if subscriptions.live.count + subscriptions.starting.count >= config.maxSubscriptions {
            error = GatewayError(
                .invalidArgument,
                "at most \(config.maxSubscriptions) subscriptions per connection; unsubscribe one first")
        } else if !services.budgets.reserveSubscription(ticket) {
            error = GatewayError(
                .invalidArgument,
                "at most \(config.maxSubscriptionsPerAddress) subscriptions per client address; unsubscribe one first")
        }
        return error.map { .failure(id: request.id, op: .subscribe, $0, received: received) }
    }

    /// The first board of a new subscription is ready: answer with the ack and, right after it, the first event.
    /// Then the `unsubscribe`s that named it meanwhile are answered (after it, in request order).
    func subscribed(
        _ request: GatewayRequest, _ query: SubscribeQuery, _ board: Result<LiveBoard, GatewayError>,
        sub: Int, slot: UInt64
    ) {
        finishStarting(request, board, sub: sub, slot: slot) { board, received in
            let (answer, live) = (board.answer, board.meta)
            let ack = Answer.success(id: request.id, op: .subscribe, received: received) { w in
                w.beginObject()
                w.key("sub"); w.int(sub)
                w.key("topic"); w.string(query.topic.name)
                w.key("stop_id"); w.string(query.stopId)
                w.key("limit"); w.int(query.limit)
                w.endObject()
            }
            let meta = ResponseMeta(op: .departures, elapsedMicros: ack.micros, live: live, note: board.note)
            let event = GatewayResponse.departuresEvent(sub: sub, answer: answer, meta: meta)
            let entry = ConnectionSubscriptions.Live(
                query: query, lastRows: answer.rows, boardStops: board.stops, lastPush: .now())
            return (ack, event, entry)
        }
    }

    /// The first plan of a new `plan` subscription is ready: answer with the ack and, right after it, the first
    /// event (the journeys), as `subscribed` does for a board.
    func subscribedPlan(
        _ request: GatewayRequest, _ planned: Result<PlannedJourneys, GatewayError>, sub: Int, slot: UInt64
    ) {
        finishStarting(request, planned, sub: sub, slot: slot) { planned, received in
            let ack = Answer.success(id: request.id, op: .subscribe, received: received) { w in
                w.beginObject()
                w.key("sub"); w.int(sub)
                w.key("topic"); w.string(GatewayOpKind.plan.name)
                w.endObject()
            }
            let meta = ResponseMeta(op: .plan, elapsedMicros: ack.micros, live: planned.meta)
            let event = GatewayResponse.planEvent(
                sub: sub, changes: [], plan: planned.view, meta: meta, now: services.dispatcher.clock.unixSeconds)
            let entry = ConnectionSubscriptions.Live(
                query: SubscribeQuery(plan: planned.query), lastRows: [], boardStops: [], lastPush: .now(),
                plan: ConnectionSubscriptions.PlanWatch(planned))
            return (ack, event, entry)
        }
    }

    /// What both topics do when a subscription's first answer is ready: a failure gives back its place and is
    /// answered; a success (`started`: the ack, the first event and the live entry) is kept and answered with
    /// both lines; then the `unsubscribe`s that named it meanwhile are answered.
    private func finishStarting<Value>(
        _ request: GatewayRequest, _ result: Result<Value, GatewayError>, sub: Int, slot: UInt64,
        started: (Value, ContinuousClock.Instant) -> (ack: Answer, event: [UInt8], live: ConnectionSubscriptions.Live)
    ) {
        let deferred = subscriptions.starting.removeValue(forKey: sub) ?? []
        defer {
            for d in deferred { unsubscribe(d.request, sub: sub, slot: d.slot, received: d.received) }
        }
        guard answers.isOpen(slot), !closing, let context else {
            services.budgets.releaseSubscriptions(ticket, 1)
            return
        }
        let received = pending[slot]?.received ?? .now
        switch result {
        case .failure(let error):
            services.budgets.releaseSubscriptions(ticket, 1)
            if error.code == .internal {
                services.logger.error("internal error", metadata: ["request": "\(request)", "error": "\(error)"])
            }
            complete(slot, .failure(id: request.id, op: .subscribe, error, received: received))
        case .success(let value):
            let (ack, event, live) = started(value, received)
            subscriptions.live[sub] = live
            services.stats.subscriptionsChanged(by: 1)
            observeRealtime(context: context)
            complete(slot, Answer(bytes: ack.bytes + event, op: .subscribe, error: nil, micros: ack.micros))
        }
    }

    /// Answers `unsubscribe` in `slot`; one naming a `subscribe` still being answered waits for it.
    func unsubscribe(_ request: GatewayRequest, sub: Int, slot: UInt64, received: ContinuousClock.Instant) {
        if subscriptions.starting[sub] != nil {
            subscriptions.starting[sub]?.append(.init(request: request, slot: slot, received: received))
            return
        }
        complete(slot, unsubscribeAnswer(request, sub: sub, received: received))
    }

    private func unsubscribeAnswer(_ request: GatewayRequest, sub: Int, received: ContinuousClock.Instant) -> Answer {
        guard let removed = subscriptions.live.removeValue(forKey: sub) else {
            return .failure(
                id: request.id, op: .unsubscribe,
                GatewayError(.notFound, "no live subscription \(sub) on this connection"), received: received)
        }
        removed.refreshTimer?.cancel()
        services.stats.subscriptionsChanged(by: -1)
        services.budgets.releaseSubscriptions(ticket, 1)
        if subscriptions.live.isEmpty { stopObservingRealtime() }
        return .success(id: request.id, op: .unsubscribe, received: received) { w in
            w.beginObject()
            w.key("sub"); w.int(sub)
            w.key("unsubscribed"); w.bool(true)
            w.endObject()
        }
    }

    func endSubscriptions() {
        for (_, live) in subscriptions.live { live.refreshTimer?.cancel() }
        services.stats.subscriptionsChanged(by: -subscriptions.live.count)
        services.budgets.releaseSubscriptions(ticket, subscriptions.live.count)
        subscriptions.live.removeAll()
        stopObservingRealtime()
    }

    // MARK: realtime changes

    private func observeRealtime(context: ChannelHandlerContext) {
        guard subscriptions.observerToken == nil else { return }
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        subscriptions.observerToken = services.realtime.addObserver { change in
            loop.execute { handler.value.realtimeChanged(change) }
        }
    }

    private func stopObservingRealtime() {
        if let token = subscriptions.observerToken {
            services.realtime.removeObserver(token)
            subscriptions.observerToken = nil
        }
    }

    /// The live state changed: refresh the boards it concerns (at most one push per interval each).
    func realtimeChanged(_ change: RealtimeChange) {
        for (sub, live) in subscriptions.live
        where live.plan.map({ $0.touched(by: change) }) ?? change.touches(live.boardStops) {
            subscriptions.live[sub]?.dirty = true
            scheduleRefresh(sub)
        }
    }

    /// Refreshes the board now, or when its one-per-interval slot comes.
    private func scheduleRefresh(_ sub: Int) {
        guard let live = subscriptions.live[sub], !live.refreshing, live.refreshTimer == nil, let context else {
            return
        }
        let interval = TimeAmount.nanoseconds(Int64(config.subscriptionInterval.microseconds) * 1000)
        var due = live.lastPush + interval
        // A plan is asked again once the planner has taken the change in (it lays live trips over its timetable
        // at most once a second).
        if live.plan != nil { due = max(due, NIODeadline.now() + Self.planSettle) }
        if NIODeadline.now() >= due {
            startRefresh(sub)
        } else {
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            subscriptions.live[sub]?.refreshTimer = context.eventLoop.scheduleTask(deadline: due) {
                handler.value.subscriptions.live[sub]?.refreshTimer = nil
                handler.value.startRefresh(sub)
            }
        }
    }

    /// How long after a live change a plan subscription asks again.
    static let planSettle = TimeAmount.milliseconds(1200)

    private func startRefresh(_ sub: Int) {
        guard let live = subscriptions.live[sub], !live.refreshing, !closing, let context else { return }
        subscriptions.live[sub]?.dirty = false
        subscriptions.live[sub]?.refreshing = true
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let dispatcher = services.dispatcher
        if let watch = live.plan {
            let realtime = services.realtime
            let now = { dispatcher.clock.unixSeconds }
            Task {
                let started = ContinuousClock.now
                let planned = await dispatcher.planned(watch.query)
                // The changes are worked out here, off the event loop.
                let changes = planned.map { planned in
                    // One look at the live state for all the journeys the new plan lacks, taken at the first (a read
                    // copies the state when it is stale).
                    var state: RealtimeReading?
                    let at = now()
                    return PlanChange.between(watch.last.journeys, planned.view.journeys) { journey in
                        let reading = state ?? realtime.read()
                        state = reading
                        return PlanLiveCheck.brokenReason(journey, query: watch.query, state: reading, now: at)
                    }
                }
                loop.execute { handler.value.replanned(sub, planned, changes: changes, started: started) }
            }
            return
        }
        let query = DeparturesQuery(stopId: live.query.stopId, limit: live.query.limit)
        Task {
            let started = ContinuousClock.now
            let board = await dispatcher.board(query, wantStops: true)
            loop.execute { handler.value.refreshed(sub, board, started: started) }
        }
    }

    private func refreshed(_ sub: Int, _ board: Result<LiveBoard, GatewayError>, started: ContinuousClock.Instant) {
        guard subscriptions.live[sub] != nil else { return }
        subscriptions.live[sub]?.refreshing = false
        // A failed refresh (static service down) pushes nothing: the client keeps its last board.
        if case .success(let board) = board {
            subscriptions.live[sub]?.boardStops = board.stops
            if board.answer.rows != subscriptions.live[sub]?.lastRows {
                subscriptions.live[sub]?.lastRows = board.answer.rows
                subscriptions.live[sub]?.lastPush = .now()
                let meta = ResponseMeta(
                    op: .departures, elapsedMicros: started.microsecondsElapsed, live: board.meta, note: board.note)
                push(sub, GatewayResponse.departuresEvent(sub: sub, answer: board.answer, meta: meta))
            }
        }
        if subscriptions.live[sub]?.dirty == true { scheduleRefresh(sub) }
    }

    private func replanned(
        _ sub: Int, _ planned: Result<PlannedJourneys, GatewayError>, changes: Result<[PlanChange], GatewayError>,
        started: ContinuousClock.Instant
    ) {
        guard subscriptions.live[sub] != nil else { return }
        subscriptions.live[sub]?.refreshing = false
        // A plan that cannot be asked (static service down) pushes nothing: the client keeps its journeys.
        if case .success(let planned) = planned, case .success(let changes) = changes, !changes.isEmpty {
            subscriptions.live[sub]?.plan?.follow(planned.view)
            subscriptions.live[sub]?.lastPush = .now()
            let meta = ResponseMeta(op: .plan, elapsedMicros: started.microsecondsElapsed, live: planned.meta)
            push(
                sub,
                GatewayResponse.planEvent(
                    sub: sub, changes: changes, plan: planned.view, meta: meta,
                    now: services.dispatcher.clock.unixSeconds))
        }
        if subscriptions.live[sub]?.dirty == true { scheduleRefresh(sub) }
    }

    /// Queues an event line between the answers; a newer board replaces one not yet written.
    private func push(_ sub: Int, _ event: [UInt8]) {
        guard let context, !closing else { return }
        if let queued = subscriptions.live[sub]?.queuedSlot, answers.replace(queued, event) { return }
        guard context.channel.isWritable else {
            subscriptions.live[sub]?.heldEvent = event
            var unread = writingBytes + answers.heldBytes
            for live in subscriptions.live.values { unread += live.heldEvent?.count ?? 0 }
            if unread > config.maxUnreadEventBytes {
                services.stats.closed(for: .unreadEvents)
                endSubscriptions()
                closeWithLine(
                    GatewayError(
                        .overloaded, "more than \(config.maxUnreadEventBytes) bytes of events unread; closing"),
                    context: context)
            }
            return
        }
        let slot = answers.reserve()
        answers.fill(slot, event)
        subscriptions.live[sub]?.queuedSlot = slot
        takeLines(context: context)
    }

    /// The client reads again: send each subscription's latest held board.
    func flushHeldEvents() {
        for sub in subscriptions.live.keys {
            if let event = subscriptions.live[sub]?.heldEvent {
                subscriptions.live[sub]?.heldEvent = nil
                push(sub, event)
            }
        }
    }
}
