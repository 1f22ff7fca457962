// The line-protocol load: N TCP connections (SwiftNIO), closed loop (each connection keeps `depth` requests
// in flight) or open loop (a fixed arrival rate split over the connections; each request's latency counts
// from the time it was due to be sent, so a server that falls behind shows its queue: no coordinated
// omission). Requests started in the warm-up are answered but not recorded.
import NIOCore
import NIOPosix

/// How a run paces its requests.
public enum Pacing: Sendable, Equatable {
    /// Each connection keeps `depth` requests in flight (pipelining; 1: one at a time).
    case closed(depth: Int)
    /// `rate` requests per second over all connections, each due at its own instant.
    case open(rate: Double)
}

/// One run's shape.
public struct LoadPlan: Sendable {
    public var connections: Int
    public var pacing: Pacing
    public var warmup: Duration
    public var duration: Duration
    /// How long, after the measured window, answers still outstanding are waited for (then: NO_ANSWER).
    public var drain: Duration = .seconds(5)
    /// Every answer's envelope and row count are checked; every n-th answer is parsed whole as well (counted
    /// over all the connections of an event loop: see `FullCheckSchedule`).
    public var fullCheckEvery: Int = 64
    public var seed: UInt64 = 1

    public init(connections: Int, pacing: Pacing, warmup: Duration, duration: Duration) {
        self.connections = connections
        self.pacing = pacing
        self.warmup = warmup
        self.duration = duration
    }

    /// The instant (ns from the run's start) request `k` of connection `c` is due in an open loop at `rate`.
    public static func dueOffset(connection c: Int, request k: UInt64, connections: Int, rate: Double) -> UInt64 {
        UInt64((Double(k) * Double(connections) + Double(c)) * 1e9 / rate)
    }
}

/// Instants of the run on the monotonic clock (`NIODeadline.now().uptimeNanoseconds`).
public struct RunClock: Sendable {
    public var start: UInt64
    public var windowStart: UInt64
    public var windowEnd: UInt64
    public var drainEnd: UInt64
}

public enum LineLoad {
    /// Runs `plan` against the line server at host:port. `onWindow(true)` runs when the measured window starts,
    /// `onWindow(false)` when it ends (CPU snapshots), both on an event loop thread.
    /// `overHTTP`: the requests go to the gateway's HTTP port as keep-alive `POST /v1/<op>` (`HTTPLineCodec`).
    public static func run(
        host: String, port: Int, plan: LoadPlan, workload: LineWorkload, group: any EventLoopGroup,
        overHTTP: Bool = false, onWindow: @escaping @Sendable (Bool) -> Void = { _ in }
    ) async throws -> LoadRecorder {
        guard plan.connections >= 1 else { throw WorkloadError("--connections must be at least 1") }
        if case .closed(let depth) = plan.pacing, depth < 1 { throw WorkloadError("--depth must be at least 1") }
        if case .open(let rate) = plan.pacing, !(rate > 0) { throw WorkloadError("--rate must be above 0") }
        var states: [ObjectIdentifier: LoopState] = [:]
        var loops: [any EventLoop] = []
        for loop in group.makeIterator() {
            states[ObjectIdentifier(loop)] = LoopState(windowStart: 0, fullCheckEvery: plan.fullCheckEvery)
            loops.append(loop)
        }
        let lookup = states
        let bootstrap = ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if overHTTP { try channel.pipeline.syncOperations.addHandler(HTTPLineCodec(host: host)) }
                    try channel.pipeline.syncOperations.addHandler(
                        LoadConnection(workload: workload, state: lookup[ObjectIdentifier(channel.eventLoop)]!))
                }
            }
        var channels: [any Channel] = []
        do {
            for _ in 0..<plan.connections {
                channels.append(try await bootstrap.connect(host: host, port: port).get())
            }
        } catch {
            for c in channels { try? await c.close() }
            throw WorkloadError("cannot connect to \(host):\(port): \(error)")
        }
        let now = NIODeadline.now().uptimeNanoseconds
        let start = now + 20_000_000
        let windowStart = start + UInt64(plan.warmup.nanos)
        let windowEnd = windowStart + UInt64(plan.duration.nanos)
        let clock = RunClock(
            start: start, windowStart: windowStart, windowEnd: windowEnd,
            drainEnd: windowEnd + UInt64(plan.drain.nanos))
        for loop in loops {
            let state = lookup[ObjectIdentifier(loop)]!
            try await loop.submit { state.recorder = LoadRecorder(windowStart: windowStart) }.get()
        }
        let first = loops[0]
        first.scheduleTask(deadline: .uptimeNanoseconds(windowStart)) { onWindow(true) }
        let windowEnded = first.scheduleTask(deadline: .uptimeNanoseconds(windowEnd)) { onWindow(false) }
        for (i, channel) in channels.enumerated() {
            channel.pipeline.fireUserInboundEventTriggered(
                LoadConnection.Start(index: i, plan: plan, clock: clock, seed: plan.seed &+ UInt64(i) &* 7919))
        }
        // Each connection closes itself once its last answer is in; whatever is still open at the drain's end
        // is closed here (its unanswered requests count as NO_ANSWER).
        let drainDeadline = NIODeadline.uptimeNanoseconds(clock.drainEnd)
        let opened = channels
        let closer = first.scheduleTask(deadline: drainDeadline) {
            for c in opened { c.close(promise: nil) }
        }
        for c in channels { try? await c.closeFuture.get() }
        closer.cancel()
        // An open loop's connections close once their last answer is in, which at a low rate comes before the
        // window's end: the run still ends after it, so that the CPU snapshot of its end was taken.
        try? await windowEnded.futureResult.get()
        var merged = LoadRecorder(windowStart: windowStart)
        for loop in loops {
            let state = lookup[ObjectIdentifier(loop)]!
            merged.merge(try await loop.submit { state.recorder }.get())
        }
        return merged
    }
}

/// Which answers get the full parse: every n-th answer an event loop reads, whichever connection it came on.
///
/// Why not every n-th answer of each connection: an open loop's connections run in step (connection c's k-th
/// request is due at (k·N + c)/rate), so their n-th answers all arrive within N/rate of each other. At 64
/// connections and 5,000/s, 64 full parses of up to 76 KB trip answers fell in the same 13 ms every 0.82 s
/// and held the generator's loop for 15–23 ms: its own sends went late and every op's p99 rose with them.
public struct FullCheckSchedule: Sendable {
    public let every: Int
    private var count = 0

    public init(every: Int) { self.every = max(every, 1) }

    /// Whether the next answer read gets the full parse (the first one does, then every `every`-th).
    public mutating func next() -> Bool {
        count += 1
        return count % every == 1 || every == 1
    }
}

/// One event loop's recorder and full-check schedule, touched only on that loop (the channels of the loop write
/// them; the run reads the recorder through `submit` after they have closed).
final class LoopState: @unchecked Sendable {
    var recorder: LoadRecorder
    var fullChecks: FullCheckSchedule
    init(windowStart: UInt64, fullCheckEvery: Int) {
        recorder = LoadRecorder(windowStart: windowStart)
        fullChecks = FullCheckSchedule(every: fullCheckEvery)
    }
}

/// One connection of the load: sends on its schedule, matches answers to requests by id, records.
final class LoadConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct Start: Sendable {
        var index: Int
        var plan: LoadPlan
        var clock: RunClock
        var seed: UInt64
    }

    private struct Pending {
        var id: UInt64
        var op: LoadOp
        /// When it was sent (closed loop) or due (open loop).
        var start: UInt64
        var expectation: AnswerExpectation
    }

    private let workload: LineWorkload
    private let state: LoopState
    private var start: Start?
    private var rng = SeededRandom(seed: 0)
    private var nextId: UInt64 = 1
    private var pending = CircularBuffer<Pending>(initialCapacity: 16)
    private var input: ByteBuffer?
    private var context: ChannelHandlerContext?
    /// Open loop: the next request's number on this connection.
    private var dueIndex: UInt64 = 0
    private var sendingDone = false

    init(workload: LineWorkload, state: LoopState) {
        self.workload = workload
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let start = event as? Start else { return context.fireUserInboundEventTriggered(event) }
        self.start = start
        rng = SeededRandom(seed: start.seed)
        let deadline = NIODeadline.uptimeNanoseconds(start.clock.start)
        context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            switch start.plan.pacing {
            case .closed(let depth):
                for _ in 0..<depth { send(at: NIODeadline.now().uptimeNanoseconds, flush: false) }
                context.flush()
            case .open:
                sendDue()
            }
        }
    }

    private func send(at startTime: UInt64, flush: Bool) {
        guard let context else { return }
        let id = nextId
        nextId += 1
        let request = workload.request(id: id, rng: &rng)
        pending.append(Pending(id: id, op: request.op, start: startTime, expectation: request.expectation))
        let buffer = context.channel.allocator.buffer(bytes: request.line)
        if flush {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        } else {
            context.write(wrapOutboundOut(buffer), promise: nil)
        }
    }

    /// Open loop: sends every request due by now (late ones keep their due time), then sleeps until the next.
    private func sendDue() {
        guard let start, case .open(let rate) = start.plan.pacing, let context else { return }
        let now = NIODeadline.now().uptimeNanoseconds
        var sent = false
        while true {
            let due =
                start.clock.start
                + LoadPlan.dueOffset(
                    connection: start.index, request: dueIndex, connections: start.plan.connections, rate: rate)
            if due >= start.clock.windowEnd {
                sendingDone = true
                break
            }
            if due > now {
                context.eventLoop.assumeIsolated().scheduleTask(deadline: .uptimeNanoseconds(due)) { [self] in
                    sendDue()
                }
                break
            }
            send(at: due, flush: false)
            if due >= start.clock.windowStart { state.recorder.sendLag.record(nanos: now - due) }
            sent = true
            dueIndex += 1
        }
        if sent { context.flush() }
        finishIfDone()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if input == nil || input!.readableBytes == 0 {
            input = incoming
        } else {
            input!.writeBuffer(&incoming)
        }
        let now = NIODeadline.now().uptimeNanoseconds
        var sendMore = 0
        while let buffer = input, buffer.readableBytes > 0 {
            let lineLength: Int? = buffer.withUnsafeReadableBytes { bytes in
                guard let nl = AnswerCheck.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: 0) else { return nil }
                answer(UnsafeRawBufferPointer(rebasing: bytes[..<nl]), now: now, sendMore: &sendMore)
                return nl
            }
            guard let lineLength else { break }
            input!.moveReaderIndex(forwardBy: lineLength + 1)
        }
        if let start, case .closed = start.plan.pacing, sendMore > 0 {
            for _ in 0..<sendMore where now < start.clock.windowEnd { send(at: now, flush: false) }
            context.flush()
        }
        if input?.readableBytes == 0 { input = nil }
        finishIfDone()
    }

    private func answer(_ line: UnsafeRawBufferPointer, now: UInt64, sendMore: inout Int) {
        if AnswerCheck.isEvent(line) { return }
        guard let start, !pending.isEmpty else { return }
        var entry = pending.removeFirst()
        let id = AnswerCheck.id(of: line)
        var mismatch = false
        if id != entry.id {
            mismatch = true
            // Answers come in request order; one that names another pending request still closes that one.
            if let id, let k = pending.firstIndex(where: { $0.id == id }) {
                pending.insert(entry, at: pending.startIndex)
                entry = pending.remove(at: pending.index(k, offsetBy: 1))
            }
        }
        sendMore += 1
        let full = state.fullChecks.next()
        guard entry.start >= start.clock.windowStart else { return }
        if mismatch {
            state.recorder.error(entry.op, code: CheckCode.idMismatch, now: now)
            return
        }
        switch AnswerCheck.check(
            line, op: entry.op, limit: workload.limit(of: entry.op), full: full, expecting: entry.expectation)
        {
        case .ok:
            state.recorder.success(entry.op, nanos: now > entry.start ? now - entry.start : 0, now: now)
        case .error(let code):
            state.recorder.error(entry.op, code: code, now: now)
        }
    }

    private func finishIfDone() {
        guard let start, let context, pending.isEmpty else { return }
        let done: Bool
        switch start.plan.pacing {
        case .closed: done = NIODeadline.now().uptimeNanoseconds >= start.clock.windowEnd
        case .open: done = sendingDone
        }
        if done { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let start {
            let now = NIODeadline.now().uptimeNanoseconds
            let code = now >= start.clock.drainEnd ? CheckCode.noAnswer : CheckCode.connectionClosed
            for entry in pending where entry.start >= start.clock.windowStart {
                state.recorder.error(entry.op, code: code, now: now)
            }
        }
        pending.removeAll()
        sendingDone = true
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
