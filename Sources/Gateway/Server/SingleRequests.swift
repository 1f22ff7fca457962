import GatewayProtocol
import NIOCore
import Synchronization

/// What another transport of the gateway (GatewayHTTP) asks of it: requests answered one at a time, under the
/// limits the line port shares between its connections (the in-flight bound, the per-request deadline) and
/// counted in the statistics and metrics as its lines are; and WebSocket connections, which are line
/// connections (`ConnectionHandler`) with another framing below.
extension GatewayServer {
    /// The token of `--token-file` (nil: none required).
    package var authToken: [UInt8]? { config.authToken }

    /// A token another transport was given (`Authorization: Bearer`) by a client at `address`, through the same
    /// per-address throttle as the `auth` op (`AuthThrottle`: logged, counted, blocked after repeated failures):
    /// nil when accepted (or when no token is configured), else the error to answer (UNAUTHENTICATED, or
    /// RATE_LIMITED while the address is blocked, with the seconds left).
    package func refusal(ofToken token: AuthToken, from address: String)
        -> (error: GatewayError, retryAfter: Int?)?
    {
        guard let expected = config.authToken else { return nil }
        let outcome = services.authThrottle.authenticate(
            token, expected: expected, from: address, logger: config.logger)
        guard let error = outcome.error else { return nil }
        if case .refused(let seconds) = outcome { return (error, Int(seconds.rounded(.up))) }
        return (error, nil)
    }

    /// Answers a request line parsed elsewhere (its bytes built from an HTTP request), as the line port would:
    /// OVERLOADED beyond the in-flight bound, TIMEOUT after the request deadline. The answer is recorded.
    /// `subscribe`, `unsubscribe` and `auth` belong to a connection: the caller refuses them first.
    /// `channel`: the connection it came on, whose client address's budgets it counts against; the request runs
    /// on its event loop and its deadline is a timer of that loop.
    package func answerAlone(
        _ request: GatewayRequest, received: ContinuousClock.Instant, channel: any Channel
    ) async -> Answer {
        let config = self.config
        let ticket = Self.ticket(of: channel)
        let eventLoop = channel.eventLoop
        if let error = services.budgets.startRequest(ticket) {
            return recorded(.failure(id: request.id, op: request.op.kind, error, received: received))
        }
        defer { services.budgets.finishRequest(ticket) }
        let dispatcher = services.dispatcher
        let remaining = received + config.requestTimeout - .now
        // The answer races one timer of the event loop, as a line connection's requests do. (A task group with
        // a sleeping second child cost one more task and a Dispatch timer per request, armed and cancelled on
        // Dispatch's timer thread: about a seventh of the gateway's CPU per HTTP answer.) Past the deadline the
        // answer is TIMEOUT and the dispatcher's late answer is dropped, as on the line port.
        let first = FirstOf<Answer?>()
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Answer?, Never>) in
            first.arm(continuation)
            // Rounded up to the next microsecond: never before the deadline.
            let delay = TimeAmount.microseconds(max(0, remaining.microseconds + 1))
            let timer = eventLoop.scheduleTask(in: delay) { first.resume(nil) }
            Task(executorPreference: EventLoopTaskExecutor(eventLoop)) {
                let answer = await dispatcher.answer(request, received: received)
                timer.cancel()
                first.resume(answer)
            }
        }
        return recorded(
            answer
                ?? .failure(
                    id: request.id, op: request.op.kind,
                    GatewayError(.timeout, "no answer within \(config.requestTimeout.milliseconds) ms"),
                    received: received))
    }

    /// Counts an answer made without the dispatcher (a request refused before it: bad JSON, auth, rate) as
    /// `stats` and the metrics count lines; returns it.
    @discardableResult
    package func recorded(_ answer: Answer) -> Answer {
        services.stats.record(op: answer.op, error: answer.error, micros: answer.micros)
        return answer
    }

    /// A handler of the line protocol for a channel whose inbound bytes are request lines and whose outbound
    /// bytes are answer lines (a WebSocket, once its framing is translated): the line port's connection with
    /// every limit of it. Added to an active channel, it starts at once.
    /// `authenticated`: the client proved the token already (on the WebSocket's upgrade request).
    package func lineConnectionHandler(authenticated: Bool) -> any ChannelHandler {
        ConnectionHandler(services: services, authenticated: authenticated)
    }

    /// The handlers another transport puts first on each of its connections (before its own): the PROXY v2
    /// header's reader under `--proxy-protocol`, and the admission in the per-address budgets (one over its
    /// address's bound gets an HTTP 429 answer and is closed; one closed to make room gets no answer).
    package func httpAdmissionHandlers() -> [any ChannelHandler] {
        services.admissionHandlers(port: .http)
    }

    /// The client address a connection counts under (the PROXY header's, or its peer's).
    package func clientName(of channel: any Channel) -> String {
        Self.ticket(of: channel)?.name ?? channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// The ticket of the `ClientAdmission` in front of `channel` (looked up on its event loop only: elsewhere
    /// nil, and the request counts against the gateway-wide bounds only).
    static func ticket(of channel: any Channel) -> ConnectionTicket? {
        guard channel.eventLoop.inEventLoop else { return nil }
        return try? channel.pipeline.syncOperations.handler(type: ClientAdmission.self).ticket
    }

    /// The event loops of the line port, which the other transports share.
    package var eventLoopGroup: any EventLoopGroup { group }

    /// The user event that starts a connection's drain (graceful shutdown), as the line port's get it.
    package static var drainEvent: any Sendable { OpenConnections.Drain() }
}

/// A continuation resumed by whichever of several racers comes first; the others' values are dropped.
private final class FirstOf<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)

    func arm(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(_ value: Value) {
        continuation.withLock { held in
            let taken = held
            held = nil
            return taken
        }?.resume(returning: value)
    }
}
