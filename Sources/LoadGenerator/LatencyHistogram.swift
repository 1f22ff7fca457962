// Latencies in microseconds in an HdrHistogram: 3 significant digits from 1 µs to 60 s, so p99.9 and max are
// exact to 0.1 % however many answers a run has, in a fixed ~140 KiB per histogram.
import Histogram

/// One latency distribution (microseconds), mergeable across event loops.
public struct LatencyHistogram: Sendable {
    /// Values above this are recorded as this (a latency of a minute is a failed run anyway).
    public static let highestMicros: UInt64 = 60_000_000

    private(set) var histogram: Histogram<UInt64>

    /// `digits` 3 for the run's figures; the per-second timeline uses 2 (a tenth of the memory).
    public init(digits: SignificantDigits = .three) {
        histogram = Histogram(
            lowestDiscernibleValue: 1, highestTrackableValue: Self.highestMicros, numberOfSignificantValueDigits: digits
        )
    }

    public mutating func record(nanos: UInt64) {
        let micros = min(max((nanos + 500) / 1000, 1), Self.highestMicros)
        _ = histogram.record(micros)
    }

    public mutating func record(micros: UInt64) {
        _ = histogram.record(min(max(micros, 1), Self.highestMicros))
    }

    public mutating func merge(_ other: LatencyHistogram) { histogram.add(other.histogram) }

    public var count: UInt64 { histogram.totalCount }

    /// The value at percentile `p` (0...100) in milliseconds; 0 when empty.
    public func millis(atPercentile p: Double) -> Double {
        guard count > 0 else { return 0 }
        return Double(histogram.valueAtPercentile(p)) / 1000
    }

    /// The largest value recorded, in milliseconds (exact to the histogram's precision).
    public var maxMillis: Double { count > 0 ? Double(histogram.max) / 1000 : 0 }
}
