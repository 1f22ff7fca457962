import NIOCore
import TransitJSON
import TransitModel

/// One TCP connection of the line protocol (GATEWAY.md §1). Everything here runs on the channel's event
/// loop: lines are split (`LineSplitter`), parsed, and each request gets a slot in `OrderedAnswers`; the work
/// runs as a task off the loop and hops back to fill its slot; filled slots at the head are written in order.
///
/// Limits: at most `maxPipelined` unanswered requests (then reads stop: TCP back-pressure), the shared
/// in-flight bound (OVERLOADED), a deadline per request (TIMEOUT), the idle timeout, and the connection limit
/// (one OVERLOADED line, then close). After the client half-closes, the remaining lines are answered and the
/// connection closes after the last answer is written.
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// A request being worked on, by slot.
    struct Pending {
        var id: RawJSON
        var op: GatewayOpName
        var received: ContinuousClock.Instant
        var task: Task<Void, Never>?
        var deadline: Scheduled<Void>?
    }

    let services: GatewayServices
    var config: GatewayConfig { services.config }
    var splitter: LineSplitter
    var answers = OrderedAnswers()
    var pending: [UInt64: Pending] = [:]
    var context: ChannelHandlerContext?

    /// The client half-closed; `inputFinished`: its last unterminated line was taken too.
    var inputClosed = false
    var inputFinished = false
    /// Closing (limit reached, input done, error): take no more lines.
    var closing = false
    /// Counted in the connection statistics (balanced in `channelInactive`).
    var admitted = false
    /// A `read` was held back because too many answers are pending.
    var readHeld = false
    /// Inside `takeLines`: answers filled meanwhile are written when it ends (no recursion per line).
    var takingLines = false
    var lastWrite: EventLoopFuture<Void>?

    var lastActivity = NIODeadline.now()
    var idleCheck: Scheduled<Void>?

    var subscriptions = ConnectionSubscriptions()

    init(services: GatewayServices) {
        self.services = services
        splitter = LineSplitter(limit: services.config.maxLineBytes)
    }

    // MARK: lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        admitted = true
        let open = services.stats.connectionOpened()
        if open > config.maxConnections {
            closing = true
            let error = GatewayError(.overloaded, "too many connections (limit \(config.maxConnections)); retry later")
            services.stats.record(op: nil, error: .overloaded, micros: 0)
            write([GatewayResponse.error(id: .null, error)], context: context)
            closeAfterWrites(context: context)
        } else {
            scheduleIdleCheck(context: context)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        idleCheck?.cancel()
        for (_, request) in pending {
            request.task?.cancel()
            request.deadline?.cancel()
            services.stats.finishRequest()
        }
        pending.removeAll()
        endSubscriptions()
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
        guard !closing else { return }
        buffer.withUnsafeReadableBytes { splitter.append($0) }
        takeLines(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            inputClosed = true
            takeLines(context: context)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
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
        answers.pendingCount >= config.maxPipelined || !context.channel.isWritable
    }

    /// Takes the lines received so far, as long as the pipelining bound allows; then writes what is ready
    /// and resumes reading or closes, as the state says.
    func takeLines(context: ChannelHandlerContext) {
        guard !takingLines else { return }
        takingLines = true
        defer { takingLines = false }
        var released: UInt64
        repeat {
            while !closing, !mustPauseInput(context) {
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
            switch GatewayRequest.parse(line) {
            case .failure(let failure):
                complete(slot, .failure(id: failure.id, op: failure.op, failure.error, received: received))
            case .success(let request):
                start(request, slot: slot, received: received, context: context)
            }
        }
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
        guard services.stats.tryStartRequest(limit: config.maxInFlight) else {
            let error = GatewayError(.overloaded, "more than \(config.maxInFlight) requests in flight; retry later")
            complete(slot, .failure(id: request.id, op: request.op.name, error, received: received))
            return
        }
        var entry = Pending(id: request.id, op: request.op.name, received: received)
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        entry.deadline = loop.scheduleTask(in: .nanoseconds(Int64(config.requestTimeout.microseconds) * 1000)) {
            handler.value.timedOut(slot)
        }
        let dispatcher = services.dispatcher
        if case .subscribe(let query) = request.op {
            // The id is given in request order, so a pipelined `unsubscribe` can name it before the ack.
            let sub = subscriptions.nextSub
            subscriptions.nextSub += 1
            subscriptions.starting[sub] = []
            entry.task = Task {
                let board = await dispatcher.board(
                    DeparturesQuery(stopId: query.stopId, limit: query.limit), wantStops: true)
                loop.execute { handler.value.subscribed(request, query, board, sub: sub, slot: slot) }
            }
        } else {
            entry.task = Task {
                let answer = await dispatcher.answer(request, received: received)
                loop.execute { handler.value.complete(slot, answer) }
            }
        }
        pending[slot] = entry
    }

    /// Fills `slot` unless it was answered already (a timeout raced the work), records it, writes what is
    /// ready.
    func complete(_ slot: UInt64, _ answer: Answer) {
        guard answers.fill(slot, answer.bytes) else { return }
        if let entry = pending.removeValue(forKey: slot) {
            entry.deadline?.cancel()
            services.stats.finishRequest()
        }
        services.stats.record(op: answer.op, error: answer.error, micros: answer.micros)
        if let context { takeLines(context: context) }
    }

    private func timedOut(_ slot: UInt64) {
        guard let entry = pending[slot] else { return }
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
        for line in lines {
            lastWrite = context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: line)))
        }
        context.flush()
    }

    /// After the client's EOF: once every line was taken and every answer written, close.
    private func closeIfInputDone(context: ChannelHandlerContext) {
        guard inputFinished, !closing, answers.isEmpty, pending.isEmpty else { return }
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
            closing = true
            context.close(promise: nil)
        } else {
            scheduleIdleCheck(context: context)
        }
    }
}
