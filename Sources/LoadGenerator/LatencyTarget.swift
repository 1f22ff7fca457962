// `--target p95=150ms`, `--target departures.p99=3ms`: bounds a run must meet, for users' CI (the command
// exits non-zero when one is missed).
import Foundation

/// One bound: a percentile (or max) of one op's latency, or of all ops together.
public struct LatencyTarget: Sendable, Equatable, CustomStringConvertible {
    /// nil: every op together.
    public var op: LoadOp?
    /// 0…100; 100 is `max`.
    public var percentile: Double
    public var limitMillis: Double

    public init(op: LoadOp?, percentile: Double, limitMillis: Double) {
        self.op = op
        self.percentile = percentile
        self.limitMillis = limitMillis
    }

    /// `[OP.]pNN=VALUE[UNIT]` or `[OP.]max=VALUE[UNIT]`; NN may have decimals (`p99.9`); UNIT `ms` (default),
    /// `us`/`µs` or `s`.
    public init(parsing text: String) throws(WorkloadError) {
        let parts = text.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { throw WorkloadError("--target \(text): expected [op.]pNN=VALUE, e.g. p95=150ms") }
        var key = parts[0]
        op = nil
        if let dot = key.firstIndex(of: "."), let candidate = LoadOp(name: String(key[..<dot])) {
            op = candidate
            key = String(key[key.index(after: dot)...])
        }
        if key == "max" {
            percentile = 100
        } else if key.hasPrefix("p"), let p = Double(key.dropFirst()), p > 0, p <= 100 {
            percentile = p
        } else {
            throw WorkloadError(
                "--target \(text): \"\(parts[0])\" is not [op.]pNN or [op.]max (ops: \(LoadOp.nameList))"
            )
        }
        var value = parts[1]
        var scale = 1.0
        for (unit, factor) in [("ms", 1.0), ("us", 0.001), ("µs", 0.001), ("s", 1000.0)] where value.hasSuffix(unit) {
            value = String(value.dropLast(unit.count))
            scale = factor
            break
        }
        guard let v = Double(value), v > 0, v.isFinite else {
            throw WorkloadError("--target \(text): \"\(parts[1])\" is not a duration above 0 (e.g. 150ms, 800us, 1s)")
        }
        limitMillis = v * scale
    }

    public var name: String {
        (op.map { "\($0.name)." } ?? "") + (percentile == 100 ? "max" : "p" + Self.format(percentile))
    }

    public var description: String { "\(name)=\(Self.format(limitMillis))ms" }

    static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%g", v)
    }

    /// The measured value (ms) this target bounds, from a run's results; nil when the op was not asked.
    public func measured(in recorder: LoadRecorder) -> Double? {
        let results: OpResults
        if let op {
            guard let r = recorder.ops[op] else { return nil }
            results = r
        } else {
            results = recorder.overall
        }
        guard results.latency.count > 0 else { return nil }
        return percentile == 100 ? results.latency.maxMillis : results.latency.millis(atPercentile: percentile)
    }
}
