import CoreMetrics
import GatewayProtocol
import Synchronization

/// Counters of the whole gateway: connections, requests in flight, answers and latency per op and per error
/// code (the `stats` op, GATEWAY.md). Shared by every connection; cheap to update (one short lock per answer).
final class GatewayStats: Sendable {
    struct OpSummary: Sendable, Equatable {
        var count: UInt64
        var errors: UInt64
        var p50: Int64
        var p95: Int64
        var p99: Int64
        var max: Int64
    }

    struct Summary: Sendable {
        var uptimeSeconds: Int64
        var openConnections: Int
        var totalConnections: UInt64
        var refusedPerAddress: UInt64
        var idleClosed: UInt64
        var closedToMakeRoom: UInt64
        var closedAuthTimeout: UInt64
        var closedLineTimeout: UInt64
        var closedUnreadEvents: UInt64
        var clientAddresses: Int
        var unwrittenBytes: Int
        var requests: UInt64
        var inFlight: Int
        var subscriptions: Int
        /// In a stable order (the codes' declaration order).
        var errors: [(GatewayErrorCode, UInt64)]
        /// In the ops' declaration order.
        var ops: [(GatewayOpKind, OpSummary)]
    }

    private struct OpCounters: Sendable {
        var errors: UInt64 = 0
        var latency = LatencyHistogram()
    }

    private struct Answers: Sendable {
        var requests: UInt64 = 0
        var errors: [GatewayErrorCode: UInt64] = [:]
        var ops: [GatewayOpKind: OpCounters] = [:]
        /// swift-metrics handles (`serve --metrics`), made on first use: answers by op and code, latency by op.
        var answerCounters: [AnswerKey: Counter] = [:]
        var latencyTimers: [GatewayOpKind: Timer] = [:]
    }

    private struct AnswerKey: Hashable {
        var op: GatewayOpKind?
        var error: GatewayErrorCode?
    }

    private let started = ContinuousClock.now
    private let drainingFlag = Atomic<Bool>(false)

    /// Graceful shutdown began: `health` answers `draining` (GatewayConfiguration.drainAnnounce).
    var draining: Bool {
        get { drainingFlag.load(ordering: .relaxed) }
        set { drainingFlag.store(newValue, ordering: .relaxed) }
    }
    private let answers = Mutex(Answers())
    private let inFlight = Atomic<Int>(0)
    private let openConnections = Atomic<Int>(0)
    private let totalConnections = Atomic<UInt64>(0)
    private let subscriptions = Atomic<Int>(0)
    private let refusedPerAddress = Atomic<UInt64>(0)
    private let idleClosed = Atomic<UInt64>(0)
    private let closedToMakeRoom = Atomic<UInt64>(0)
    private let closedAuthTimeout = Atomic<UInt64>(0)
    private let closedLineTimeout = Atomic<UInt64>(0)
    private let closedUnreadEvents = Atomic<UInt64>(0)
    private let clientAddresses = Atomic<Int>(0)
    private let unwritten = Atomic<Int>(0)
    /// The configured bounds, in the order `stats` lists them (name, value).
    let limits: [(String, Int64)]
    let switches: [(String, Bool)]

    init(limits: [(String, Int64)] = [], switches: [(String, Bool)] = []) {
        self.limits = limits
        self.switches = switches
    }

    /// The `op` label of the answer metrics: the op's name, `none` for a line with no known op.
    static func metricsLabel(_ op: GatewayOpKind?) -> String { op?.name ?? "none" }

    // MARK: connections

    /// Counts a new connection; returns how many are open now (including it).
    func connectionOpened() -> Int {
        totalConnections.add(1, ordering: .relaxed)
        return openConnections.add(1, ordering: .relaxed).newValue
    }

    func connectionClosed() {
        openConnections.subtract(1, ordering: .relaxed)
    }

    var connections: Int { openConnections.load(ordering: .relaxed) }

    /// Why the gateway closed a connection (besides its client, a drain or an error), as `stats` counts them.
    enum CloseReason {
        case idle, makeRoom, authTimeout, lineTimeout, unreadEvents
    }

    func closed(for reason: CloseReason) {
        switch reason {
        case .idle: idleClosed.add(1, ordering: .relaxed)
        case .makeRoom: closedToMakeRoom.add(1, ordering: .relaxed)
        case .authTimeout: closedAuthTimeout.add(1, ordering: .relaxed)
        case .lineTimeout: closedLineTimeout.add(1, ordering: .relaxed)
        case .unreadEvents: closedUnreadEvents.add(1, ordering: .relaxed)
        }
    }

    /// Client addresses with a counted connection (`ClientBudgets` tells).
    func clientAddressesChanged(to count: Int) {
        clientAddresses.store(count, ordering: .relaxed)
    }

    /// A connection refused for a per-address cap.
    func addressRefused() {
        refusedPerAddress.add(1, ordering: .relaxed)
    }

    /// Answer bytes over all connections that their clients have not taken yet changed by `delta`.
    func unwrittenChanged(by delta: Int) {
        unwritten.add(delta, ordering: .relaxed)
    }

    // MARK: in flight

    /// Takes one of `limit` in-flight places; false when all are taken (OVERLOADED).
    func tryStartRequest(limit: Int) -> Bool {
        var current = inFlight.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = inFlight.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func finishRequest() {
        inFlight.subtract(1, ordering: .relaxed)
    }

    var inFlightCount: Int { inFlight.load(ordering: .relaxed) }

    // MARK: subscriptions

    func subscriptionsChanged(by delta: Int) {
        subscriptions.add(delta, ordering: .relaxed)
    }

    var subscriptionCount: Int { subscriptions.load(ordering: .relaxed) }

    // MARK: answers

    /// One answered request: its op when known (a line that is not JSON has none), the error code if it
    /// failed, and its latency.
    func record(op: GatewayOpKind?, error: GatewayErrorCode?, micros: Int64) {
        answers.withLock { a in
            a.requests += 1
            if let error { a.errors[error, default: 0] += 1 }
            let key = AnswerKey(op: op, error: error)
            if let counter = a.answerCounters[key] {
                counter.increment()
            } else {
                let counter = Counter(
                    label: "transit_gateway_answers_total",
                    dimensions: [("op", Self.metricsLabel(op)), ("code", error?.rawValue ?? "OK")])
                a.answerCounters[key] = counter
                counter.increment()
            }
            guard let op else { return }
            a.ops[op, default: OpCounters()].latency.record(micros)
            if error != nil { a.ops[op, default: OpCounters()].errors += 1 }
            if let timer = a.latencyTimers[op] {
                timer.recordMicroseconds(micros)
            } else {
                let timer = Timer(
                    label: "transit_gateway_answer_duration_seconds", dimensions: [("op", Self.metricsLabel(op))],
                    preferredDisplayUnit: .seconds)
                a.latencyTimers[op] = timer
                timer.recordMicroseconds(micros)
            }
        }
    }

    var uptimeSeconds: Int64 { (ContinuousClock.now - started).components.seconds }

    func summary() -> Summary {
        let (requests, errors, ops) = answers.withLock { a in
            let errors = GatewayErrorCode.allCases.compactMap { code in a.errors[code].map { (code, $0) } }
            let ops = GatewayOpKind.allCases.compactMap { op -> (GatewayOpKind, OpSummary)? in
                guard let c = a.ops[op] else { return nil }
                let summary = OpSummary(
                    count: c.latency.count, errors: c.errors, p50: c.latency.percentile(0.50),
                    p95: c.latency.percentile(0.95), p99: c.latency.percentile(0.99), max: c.latency.max)
                return (op, summary)
            }
            return (a.requests, errors, ops)
        }
        return Summary(
            uptimeSeconds: uptimeSeconds, openConnections: openConnections.load(ordering: .relaxed),
            totalConnections: totalConnections.load(ordering: .relaxed),
            refusedPerAddress: refusedPerAddress.load(ordering: .relaxed),
            idleClosed: idleClosed.load(ordering: .relaxed),
            closedToMakeRoom: closedToMakeRoom.load(ordering: .relaxed),
            closedAuthTimeout: closedAuthTimeout.load(ordering: .relaxed),
            closedLineTimeout: closedLineTimeout.load(ordering: .relaxed),
            closedUnreadEvents: closedUnreadEvents.load(ordering: .relaxed),
            clientAddresses: clientAddresses.load(ordering: .relaxed),
            unwrittenBytes: unwritten.load(ordering: .relaxed),
            requests: requests,
            inFlight: inFlight.load(ordering: .relaxed), subscriptions: subscriptions.load(ordering: .relaxed),
            errors: errors, ops: ops)
    }
}
