// What a run measured: per op a latency histogram of the successes and the errors by code, and a per-second
// timeline. One recorder per event loop (or nng worker), written only from there, merged after the run.
import Histogram

/// One op's results.
public struct OpResults: Sendable {
    public var latency = LatencyHistogram()
    public var errors: [String: Int] = [:]
    public var errorCount: Int { errors.values.reduce(0, +) }

    public init() {}

    public mutating func merge(_ other: OpResults) {
        latency.merge(other.latency)
        errors.merge(other.errors, uniquingKeysWith: +)
    }
}

/// One second of the run (by completion time from the measured window's start).
public struct TimelineSecond: Sendable {
    public var latency = LatencyHistogram(digits: .two)
    public var errors = 0

    public init() {}

    public mutating func merge(_ other: TimelineSecond) {
        latency.merge(other.latency)
        errors += other.errors
    }
}

/// Results of a run (or of one loop's share of it).
public struct LoadRecorder: Sendable {
    public var ops: [LoadOp: OpResults] = [:]
    public var timeline: [TimelineSecond] = []
    /// Open loop: how late each request of the window left the generator after its due time. Part of every
    /// latency (they count from the due time); when it is large, the generator (or the machine) is the limit.
    public var sendLag = LatencyHistogram()
    /// The measured window's start on the monotonic clock (nanoseconds).
    public var windowStart: UInt64

    public init(windowStart: UInt64) { self.windowStart = windowStart }

    /// A success of `op` that took `nanos`, completed at `now`.
    public mutating func success(_ op: LoadOp, nanos: UInt64, now: UInt64) {
        ops[op, default: OpResults()].latency.record(nanos: nanos)
        let i = second(now)
        grow(to: i)
        timeline[i].latency.record(nanos: nanos)
    }

    /// An error answer (or failed check) of `op`, completed at `now`.
    public mutating func error(_ op: LoadOp, code: String, now: UInt64) {
        ops[op, default: OpResults()].errors[code, default: 0] += 1
        let i = second(now)
        grow(to: i)
        timeline[i].errors += 1
    }

    private mutating func grow(to i: Int) {
        while timeline.count <= i { timeline.append(TimelineSecond()) }
    }

    private func second(_ now: UInt64) -> Int { now > windowStart ? Int((now - windowStart) / 1_000_000_000) : 0 }

    public mutating func merge(_ other: LoadRecorder) {
        for (op, r) in other.ops { ops[op, default: OpResults()].merge(r) }
        sendLag.merge(other.sendLag)
        for (i, s) in other.timeline.enumerated() {
            grow(to: i)
            timeline[i].merge(s)
        }
    }

    /// Every op together.
    public var overall: OpResults {
        var all = OpResults()
        for r in ops.values { all.merge(r) }
        return all
    }

    public var answers: Int { ops.values.reduce(0) { $0 + Int($1.latency.count) + $1.errorCount } }
}
