// Latency samples and their percentiles. Samples are kept whole and sorted once: a bench run holds at
// most a few hundred thousand of them, so exact percentiles cost less than a histogram's setup.
import Foundation

struct LatencySamples {
    private(set) var nanos: [UInt64] = []

    mutating func reserve(_ n: Int) { nanos.reserveCapacity(n) }
    mutating func add(_ ns: UInt64) { nanos.append(ns) }
    mutating func merge(_ other: LatencySamples) { nanos += other.nanos }

    /// p in 0...100, nearest-rank on the sorted samples.
    func percentile(_ p: Double, sorted: [UInt64]) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return Double(sorted[min(max(rank, 0), sorted.count - 1)]) / 1000
    }

    func summary(wallSeconds: Double) -> LatencySummary {
        let sorted = nanos.sorted()
        return LatencySummary(
            count: sorted.count,
            p50: percentile(50, sorted: sorted), p95: percentile(95, sorted: sorted),
            p99: percentile(99, sorted: sorted),
            max: sorted.last.map { Double($0) / 1000 } ?? .nan,
            throughput: wallSeconds > 0 ? Double(sorted.count) / wallSeconds : 0
        )
    }
}

struct LatencySummary {
    var count: Int
    var p50: Double
    var p95: Double
    var p99: Double
    var max: Double
    var throughput: Double
}

@inline(__always) func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Prints rows as a Markdown table, so a run pastes straight into BENCHMARKS.md.
struct ResultTable {
    private var rows: [[String]] = []
    let header = ["what", "clients", "requests", "p50 µs", "p95 µs", "p99 µs", "max µs", "req/s"]

    mutating func add(_ what: String, clients: Int, _ s: LatencySummary) {
        rows.append([
            what, "\(clients)", "\(s.count)", fmt(s.p50), fmt(s.p95), fmt(s.p99), fmt(s.max),
            String(format: "%.0f", s.throughput),
        ])
    }

    func render() -> String {
        var out = "| " + header.joined(separator: " | ") + " |\n"
        out += "|" + String(repeating: "---|", count: header.count) + "\n"
        for r in rows { out += "| " + r.joined(separator: " | ") + " |\n" }
        return out
    }

    private func fmt(_ v: Double) -> String { v.isNaN ? "-" : String(format: v < 100 ? "%.1f" : "%.0f", v) }
}
