import CoreMetrics
import Synchronization

/// Values a service already keeps (its `stats`, `health`, `sources`) published as metrics when scraped,
/// instead of being recorded a second time on the hot path: gauges are set, and totals become counters
/// that grow by the difference since the last scrape (Prometheus counters must only grow).
public final class ScrapedValues: Sendable {
    private struct Key: Hashable {
        var label: String
        var dimensions: [String]
    }

    private let lastTotals = Mutex<[Key: Int64]>([:])

    public init() {}

    /// Sets the gauge `label{dimensions}` to `value`.
    public func gauge(_ label: String, _ dimensions: [(String, String)] = [], _ value: Double) {
        Gauge(label: label, dimensions: dimensions).record(value)
    }

    /// Brings the counter `label{dimensions}` up to `total` (a smaller total than before, e.g. after a
    /// restart of what it counts, starts it over from there).
    public func total(_ label: String, _ dimensions: [(String, String)] = [], _ total: Int64) {
        let key = Key(label: label, dimensions: dimensions.flatMap { [$0.0, $0.1] })
        let delta = lastTotals.withLock { last -> Int64 in
            let previous = last[key] ?? 0
            last[key] = total
            return total >= previous ? total - previous : total
        }
        if delta > 0 || lastTotals.withLock({ $0[key] == 0 }) {
            Counter(label: label, dimensions: dimensions).increment(by: delta)
        }
    }
}
