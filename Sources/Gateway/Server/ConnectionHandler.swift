import GatewayProtocol
import NIOCore
import TransitModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection of the line protocol (GATEWAY.md §1). Everything here runs on the channel's event
/// loop: lines are split (`LineSplitter`), parsed, and each request gets a slot in `OrderedAnswers`; the work
/// runs as a task off the loop and hops back to fill its slot; filled slots at the head are written in order.
///
/// Limits: at most `maxPipelined` unanswered requests and about `maxUnwrittenBytes` of answers the client has
/// not taken yet (then no more requests start and reads stop: TCP back-pressure), the shared in-flight bound
/// (OVERLOADED), a deadline per request (TIMEOUT), the idle timeout, the optional request rate (RATE_LIMITED),
/// the optional `auth` (UNAUTHENTICATED) within `authTimeout`, a request line complete within `lineTimeout` of its
/// first byte, and the budgets of its client address (`ClientBudgets`, through the `ClientAdmission` in front of
/// it: connections, connections waiting to authenticate, subscriptions, requests in flight). After the client half-closes, the remaining lines are answered and the
/// connection closes after the last answer is written.
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// A request being worked on, by slot.
    struct Pending {
        var id: RawJSON
        var op: GatewayOpKind
        var received: ContinuousClock.Instant
        var task: Task<Void, Never>?
    }

    let services: GatewayServices
    var config: GatewayConfiguration { services.config }
    var splitter: LineSplitter
    var answers = OrderedAnswers()
    var pending: [UInt64: Pending] = [:]
    /// The slots of `pending` in request order. Every request has the same timeout and slots grow in request
    /// order, so the first one has the earliest deadline (`received + requestTimeout`). Slots answered out of
    /// order stay until they reach the front (at most the `maxPipelined` slots after the oldest pending one);
    /// the front is always pending.
    var pendingOrder = CircularBuffer<UInt64>()
    /// The connection's one deadline timer (instead of one per request): armed while a request is pending,
    /// for the oldest one's deadline. It is not moved when that one is answered: it fires early then, times out
    /// nothing, and is armed again for the new oldest.
    var deadlineTimer: Scheduled<Void>?
    /// Inside `expireRequests`: requests started meanwhile leave arming the timer to it.
    var expiring = false
    var context: ChannelHandlerContext?
    /// Where this connection's request tasks run (its event loop).
    var taskExecutor: EventLoopTaskExecutor?

    /// The client half-closed; `inputFinished`: its last unterminated line was taken too.
    var inputClosed = false
    var inputFinished = false
    /// Closing (limit reached, input done, error): take no more lines.
    var closing = false
    /// Take no more lines; close once the answers so far are written (a wrong `auth` token).
    var closeWhenAnswered = false
    /// Graceful shutdown: no further lines are read; the connection closes once the ones read are answered.
    var draining = false
    /// `activate` ran (from `channelActive`, or `handlerAdded` on an open channel).
    var activated = false
    /// Counted in the connection statistics (balanced in `channelInactive`).
    var admitted = false
    /// A `read` was held back because too many answers are pending.
    var readHeld = false
    /// Inside `takeLines`: answers filled meanwhile are written when it ends (no recursion per line).
    var takingLines = false
    var lastWrite: EventLoopFuture<Void>?
    /// Bytes handed to the channel whose write has not completed (the client has not taken them).
    var writingBytes = 0
    /// The largest answer of late on this connection (decaying): what a request under way is expected to add.
    /// It starts high, so that a first burst of pipelined requests cannot start more answers than fit.
    var expectedAnswerBytes = 64 * 1024
    /// `writingBytes + answers.heldBytes` as last added to the gateway-wide figure of `stats`.
    var reportedUnwritten = 0
    /// Input paused for the bytes bound: a completed write resumes it.
    var pausedForBytes = false
    /// The connection's place in the per-address budgets (nil: none, when no `ClientAdmission` is in front).
    var ticket: ConnectionTicket?
    /// `auth` succeeded (or no token is configured).
    var authenticated: Bool
    /// Counted among its address's connections waiting to authenticate.
    var waitingToAuthenticate = false
    var authTimer: Scheduled<Void>?
    /// When the first byte of the request line not yet complete arrived (nil: none is partly received).
    var partialLineSince: NIODeadline?
    var lineTimer: Scheduled<Void>?
    /// The request rate limit (`requestRate`).
    var rate: RequestRateBucket

    var lastActivity = NIODeadline.now()
    var idleCheck: Scheduled<Void>?

    var subscriptions = ConnectionSubscriptions()

    /// `authenticated`: the connection proved the token already (a WebSocket upgrade with a good
    /// `Authorization: Bearer`).
    init(services: GatewayServices, authenticated: Bool = false) {
        self.services = services
        splitter = LineSplitter(limit: services.config.maxLineBytes)
        self.authenticated = authenticated || services.config.authToken == nil
        rate = RequestRateBucket(rate: services.config.requestRate)
    }

    // MARK: lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        taskExecutor = EventLoopTaskExecutor(context.eventLoop)
        // Added to a channel that is already open (a WebSocket after its upgrade): start now.
        if context.channel.isActive { activate(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        activate(context: context)
        context.fireChannelActive()
    }

    /// Starts the connection (admitted by the `ClientAdmission` in front): counted, the idle check, and without
    /// a token yet its place among its address's connections waiting to authenticate and its `authTimeout`.
    private func activate(context: ChannelHandlerContext) {
        guard !activated else { return }
        activated = true
        admitted = true
        _ = services.stats.connectionOpened()
        ticket = try? context.pipeline.syncOperations.handler(type: ClientAdmission.self).ticket
        services.connections.opened(context.channel)
        scheduleIdleCheck(context: context)
        guard !authenticated else { return }
        guard services.budgets.startUnauthenticated(ticket) else {
            let limit = services.budgets.limits.unauthenticatedPerAddress
            closeWithLine(
                GatewayError(
                    .overloaded,
                    "too many connections waiting to authenticate from your address (limit \(limit)); retry later"),
                context: context)
            return
        }
        waitingToAuthenticate = true
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        authTimer = context.eventLoop.scheduleTask(in: config.authTimeout.timeAmount) {
            handler.value.authTimedOut()
        }
    }

    private func authTimedOut() {
        guard !authenticated, !closing, let context else { return }
        services.stats.closed(for: .authTimeout)
        closeWithLine(
            GatewayError(.unauthenticated, "not authenticated within \(config.authTimeout.secondsText) s"),
            context: context)
    }

    private func endWaitingToAuthenticate() {
        authTimer?.cancel()
        authTimer = nil
        if waitingToAuthenticate {
            waitingToAuthenticate = false
            services.budgets.endUnauthenticated(ticket)
        }
    }

    /// Takes no further lines, writes `error` as a last line (answers not written yet are dropped), and closes
    /// once it is written, or after a second when the client does not read it.
    func closeWithLine(_ error: GatewayError, context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        services.stats.record(op: nil, error: error.code, micros: 0)
        write([GatewayResponse.error(id: .null, error)], context: context)
        closeAfterWrites(context: context)
        let channel = context.channel
        context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        idleCheck?.cancel()
        deadlineTimer?.cancel()
        deadlineTimer = nil
        lineTimer?.cancel()
        endWaitingToAuthenticate()
        for (_, request) in pending {
            request.task?.cancel()
            services.budgets.finishRequest(ticket)
        }
        pending.removeAll()
        pendingOrder.removeAll()
        services.stats.unwrittenChanged(by: -reportedUnwritten)
        reportedUnwritten = 0
        endSubscriptions()
        services.connections.closed(context.channel)
        if admitted {
            admitted = false
            services.stats.connectionClosed()
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        services.logger.debug("connection error", metadata: ["error": "\(error)"])
        closing = true
        context.close(promise: nil)
    }

    // MARK: reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard !closing, !draining else { return }
        buffer.withUnsafeReadableBytes { bytes in
            splitter.append(bytes)
            notePartialLine(bytes, context: context)
        }
        takeLines(context: context)
    }

    /// Keeps `partialLineSince` for the line timeout: a read ending with `\n` leaves no partial line; otherwise
    /// a partial line began in this read when none was pending or when this read holds a line end (the pending
    /// one was completed, the new one began). Only reads that end inside a line are searched.
    private func notePartialLine(_ bytes: UnsafeRawBufferPointer, context: ChannelHandlerContext) {
        guard let last = bytes.last else { return }
        if last == UInt8(ascii: "\n") {
            partialLineSince = nil
            return
        }
        if partialLineSince != nil, let base = bytes.baseAddress,
            memchr(base, Int32(UInt8(ascii: "\n")), bytes.count) == nil
        {
            return
        }
        partialLineSince = .now()
        armLineTimer(context: context)
    }

    private func armLineTimer(context: ChannelHandlerContext) {
        guard lineTimer == nil, let since = partialLineSince else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        lineTimer = context.eventLoop.scheduleTask(deadline: since + config.lineTimeout.timeAmount) {
            handler.value.lineDeadlinePassed()
        }
    }

    /// The line timer fired: the partial line (if one is still pending since then) took too long, unless the
    /// gateway itself holds the input back (then its time starts again).
    private func lineDeadlinePassed() {
        lineTimer = nil
        guard let since = partialLineSince, let context, !closing, !draining, !inputClosed else { return }
        if readHeld || pausedForBytes {
            partialLineSince = .now()
        } else if NIODeadline.now() >= since + config.lineTimeout.timeAmount {
            services.stats.closed(for: .lineTimeout)
            closeWithLine(
                GatewayError(
                    .timeout, "no complete request line within \(config.lineTimeout.secondsText) s of its first byte"),
                context: context)
            return
        }
        armLineTimer(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            inputClosed = true
            takeLines(context: context)
        } else if event is OpenConnections.Drain {
            drain(context: context)
        } else if event is ClientAdmission.MakeRoom {
            closeWithLine(
                GatewayError(
                    .overloaded,
                    "closed to make room for another client (the gateway holds \(config.maxConnections) connections)"),
                context: context)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Graceful shutdown: subscribers get `{"event":"closing"}` and their subscriptions end; the lines read
    /// so far are answered as after the client's EOF, later bytes are ignored, and the connection closes
    /// once every answer is written.
    private func drain(context: ChannelHandlerContext) {
        guard !closing, !draining else { return }
        draining = true
        if !subscriptions.isEmpty {
            endSubscriptions()
            let slot = answers.reserve()
            answers.fill(slot, GatewayResponse.closingEvent)
        }
        inputClosed = true
        takeLines(context: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            flushHeldEvents()
            takeLines(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Holds reads back while the client has too many answers outstanding or does not read its answers.
    func read(context: ChannelHandlerContext) {
        if mustPauseInput(context) {
            readHeld = true
        } else {
            context.read()
        }
    }

    func mustPauseInput(_ context: ChannelHandlerContext) -> Bool {
        if answers.pendingCount >= config.maxPipelined || !context.channel.isWritable { return true }
        let unwritten = writingBytes + answers.heldBytes
        let expected = unwritten + pending.count * expectedAnswerBytes
        if unwritten >= config.maxUnwrittenBytes || (!pending.isEmpty && expected >= config.maxUnwrittenBytes) {
            pausedForBytes = true
            return true
        }
        return false
    }

    /// Takes the lines received so far, as long as the pipelining bound allows; then writes what is ready
    /// and resumes reading or closes, as the state says.
    func takeLines(context: ChannelHandlerContext) {
        guard !takingLines else { return }
        takingLines = true
        defer { takingLines = false }
        var released: UInt64
        repeat {
            while !closing, !closeWhenAnswered, !mustPauseInput(context) {
                if let event = splitter.next() {
                    take(event, context: context)
                } else if inputClosed, !inputFinished {
                    inputFinished = true
                    if let last = splitter.finish() { take(last, context: context) }
                } else {
                    break
                }
            }
            // Writing frees slots: when the answers came back in reverse order, the last one to arrive
            // releases them all, and no later event would take the lines still waiting.
            released = answers.nextToRelease
            writeReady(context: context)
        } while answers.nextToRelease != released && !closing
        if readHeld, !closing, !inputClosed, !mustPauseInput(context) {
            readHeld = false
            context.read()
        }
        takingLines = false
        reportUnwritten()
        closeIfInputDone(context: context)
    }

    private func take(_ event: LineSplitter.Event, context: ChannelHandlerContext) {
        switch event {
        case .tooLong:
            lastActivity = .now()
            let slot = answers.reserve()
            let error = GatewayError.lineTooLong(limit: config.maxLineBytes)
            complete(
                slot, Answer(bytes: GatewayResponse.error(id: .null, error), op: nil, error: .lineTooLong, micros: 0))
        case .line(let line):
            if line.withUnsafeBytes({ GatewayRequest.isBlank($0) }) { return }
            lastActivity = .now()
            let received = ContinuousClock.now
            let slot = answers.reserve()
            let parsed = GatewayRequest.parse(line)
            if !rate.take(now: received) {
                let error = rate.exceeded
                let (id, op) =
                    switch parsed {
                    case .failure(let failure): (failure.id, failure.op)
                    case .success(let request): (request.id, Optional(request.op.kind))
                    }
                complete(slot, .failure(id: id, op: op, error, received: received))
                return
            }
            switch parsed {
            case .failure(let failure):
                complete(slot, .failure(id: failure.id, op: failure.op, failure.error, received: received))
            case .success(let request):
                if case .auth(let token) = request.op {
                    authenticate(request, token, slot: slot, received: received)
                } else if !authenticated {
                    let error = GatewayError(.unauthenticated, "send {\"op\":\"auth\",\"token\":…} first")
                    complete(slot, .failure(id: request.id, op: request.op.kind, error, received: received))
                } else {
                    start(request, slot: slot, received: received, context: context)
                }
            }
        }
    }

    /// `auth`: a wrong token is answered UNAUTHENTICATED and the connection closed after it (one guess per
    /// connection), logged and counted per address (`AuthThrottle`): an address that failed too often lately is
    /// answered RATE_LIMITED without the token being compared. Without a configured token any token is accepted.
    private func authenticate(
        _ request: GatewayRequest, _ token: AuthToken, slot: UInt64, received: ContinuousClock.Instant
    ) {
        if let expected = config.authToken {
            let address = ticket?.name ?? context?.remoteAddress?.ipAddress ?? "unknown"
            let outcome = services.authThrottle.authenticate(
                token, expected: expected, from: address, logger: services.logger)
            if let error = outcome.error {
                closeWhenAnswered = true
                complete(slot, .failure(id: request.id, op: .auth, error, received: received))
                return
            }
        }
        authenticated = true
        endWaitingToAuthenticate()
        let required = config.authToken != nil
        complete(
            slot,
            .success(id: request.id, op: .auth, received: received) { w in
                w.beginObject()
                w.key("authenticated"); w.bool(true)
                w.key("required"); w.bool(required)
                w.endObject()
            })
    }

    // MARK: answering

    private func start(
        _ request: GatewayRequest, slot: UInt64, received: ContinuousClock.Instant, context: ChannelHandlerContext
    ) {
        if case .unsubscribe(let sub) = request.op {
            unsubscribe(request, sub: sub, slot: slot, received: received)
            return
        }
        if case .subscribe = request.op, let refusal = subscribeRefusal(request, received: received) {
            complete(slot, refusal)
            return
        }
        if let error = services.budgets.startRequest(ticket) {
            if case .subscribe = request.op { services.budgets.releaseSubscriptions(ticket, 1) }
            complete(slot, .failure(id: request.id, op: request.op.kind, error, received: received))
            return
        }
        var entry = Pending(id: request.id, op: request.op.kind, received: received)
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let dispatcher = services.dispatcher
        if case .subscribe(let query) = request.op {
            // The id is given in request order, so a pipelined `unsubscribe` can name it before the ack.
            let sub = subscriptions.nextSub
            subscriptions.nextSub += 1
            subscriptions.starting[sub] = []
            if let plan = query.plan {
                entry.task = Task {
                    let planned = await dispatcher.planned(plan)
                    loop.execute { handler.value.subscribedPlan(request, planned, sub: sub, slot: slot) }
                }
            } else {
                entry.task = Task {
                    var board = await dispatcher.board(
                        DeparturesQuery(stopId: query.stopId, limit: query.limit), wantStops: true)
                    if case .failure(let error) = board, error.code == .notFound {
                        board = .failure(await dispatcher.hinted(error, request))
                    }
                    loop.execute { [board] in handler.value.subscribed(request, query, board, sub: sub, slot: slot) }
                }
            }
        } else {
            entry.task = Task(executorPreference: taskExecutor) {
                let answer = await dispatcher.answer(request, received: received)
                if loop.inEventLoop {
                    handler.value.complete(slot, answer)
                } else {
                    loop.execute { handler.value.complete(slot, answer) }
                }
            }
        }
        pending[slot] = entry
        pendingOrder.append(slot)
        armDeadlineTimer()
    }

    /// Fills `slot` unless it was answered already (a timeout raced the work), records it, writes what is
    /// ready.
    func complete(_ slot: UInt64, _ answer: Answer) {
        guard answers.fill(slot, answer.bytes) else { return }
        expectedAnswerBytes = max(answer.bytes.count, expectedAnswerBytes - expectedAnswerBytes / 8)
        if pending.removeValue(forKey: slot) != nil {
            services.budgets.finishRequest(ticket)
            if pendingOrder.first == slot {
                pendingOrder.removeFirst()
                dropAnsweredFromOrder()
            }
        }
        services.stats.record(op: answer.op, error: answer.error, micros: answer.micros)
        if let context { takeLines(context: context) }
    }

    // MARK: deadlines

    /// Removes answered slots from the front of `pendingOrder`, so that its first slot is the oldest pending.
    private func dropAnsweredFromOrder() {
        while let first = pendingOrder.first, pending[first] == nil {
            pendingOrder.removeFirst()
        }
    }

    /// Arms the deadline timer for the oldest pending request, unless it is armed already (for an earlier or
    /// the same deadline: requests are started in order) or nothing is pending.
    private func armDeadlineTimer() {
        guard deadlineTimer == nil, !expiring, let context else { return }
        dropAnsweredFromOrder()
        guard let first = pendingOrder.first, let oldest = pending[first] else { return }
        let remaining = oldest.received + config.requestTimeout - ContinuousClock.now
        // Rounded up to the next microsecond: never before the deadline.
        let delay = TimeAmount.microseconds(max(0, remaining.microseconds + 1))
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadlineTimer = context.eventLoop.scheduleTask(in: delay) { handler.value.expireRequests() }
    }

    /// The deadline timer fired: every pending request past its deadline is answered TIMEOUT (oldest first),
    /// then the timer is armed for the oldest one left.
    private func expireRequests() {
        deadlineTimer = nil
        let now = ContinuousClock.now
        expiring = true
        while let first = pendingOrder.first {
            guard let entry = pending[first] else {
                pendingOrder.removeFirst()
                continue
            }
            guard entry.received + config.requestTimeout <= now else { break }
            pendingOrder.removeFirst()
            timedOut(first, entry)
        }
        expiring = false
        armDeadlineTimer()
    }

    private func timedOut(_ slot: UInt64, _ entry: Pending) {
        entry.task?.cancel()
        let error = GatewayError(.timeout, "no answer within \(config.requestTimeout.milliseconds) ms")
        complete(slot, .failure(id: entry.id, op: entry.op, error, received: entry.received))
    }

    // MARK: writing

    func writeReady(context: ChannelHandlerContext) {
        let ready = answers.takeReady()
        if !ready.isEmpty { write(ready, context: context) }
        subscriptions.released(upTo: answers.nextToRelease)
    }

    func write(_ lines: [[UInt8]], context: ChannelHandlerContext) {
        guard let last = lines.last else { return }
        var bytes = last.count
        // Writes complete in order: only the last one needs a promise, its completion accounts for the batch.
        for line in lines.dropLast() {
            bytes += line.count
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: line)), promise: nil)
        }
        let lastLine = context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: last)))
        lastWrite = lastLine
        writingBytes += bytes
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        lastLine.whenComplete { _ in handler.value.written(bytes) }
        context.flush()
    }

    private func written(_ bytes: Int) {
        writingBytes -= bytes
        reportUnwritten()
        guard pausedForBytes, let context, !closing else { return }
        pausedForBytes = false
        takeLines(context: context)
    }

    private func reportUnwritten() {
        guard admitted else { return }
        let now = writingBytes + answers.heldBytes
        if now != reportedUnwritten {
            services.stats.unwrittenChanged(by: now - reportedUnwritten)
            reportedUnwritten = now
        }
    }

    /// After the client's EOF (or a wrong token): once every line was taken and every answer written, close.
    private func closeIfInputDone(context: ChannelHandlerContext) {
        guard inputFinished || closeWhenAnswered, !closing, answers.isEmpty, pending.isEmpty else { return }
        closing = true
        closeAfterWrites(context: context)
    }

    func closeAfterWrites(context: ChannelHandlerContext) {
        let channel = context.channel
        if let lastWrite {
            lastWrite.whenComplete { _ in channel.close(promise: nil) }
        } else {
            channel.close(promise: nil)
        }
    }

    // MARK: idle

    func scheduleIdleCheck(context: ChannelHandlerContext) {
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let timeout = TimeAmount.nanoseconds(Int64(config.idleTimeout.microseconds) * 1000)
        idleCheck = context.eventLoop.scheduleTask(deadline: lastActivity + timeout) {
            handler.value.checkIdle()
        }
    }

    private func checkIdle() {
        guard let context, !closing else { return }
        let timeout = TimeAmount.nanoseconds(Int64(config.idleTimeout.microseconds) * 1000)
        let busy = !answers.isEmpty || !subscriptions.isEmpty
        if busy { lastActivity = .now() }
        if !busy, NIODeadline.now() >= lastActivity + timeout {
            services.logger.debug("closing an idle connection")
            services.stats.closed(for: .idle)
            closing = true
            context.close(promise: nil)
        } else {
            scheduleIdleCheck(context: context)
        }
    }
}
