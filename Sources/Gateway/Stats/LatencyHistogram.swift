/// Latencies in microseconds, kept in log-linear buckets (HdrHistogram-like): exact below 64 µs, then 32
/// buckets per power of two, so a percentile is within about 3 % of the true value, in constant memory
/// whatever the number of samples.
struct LatencyHistogram: Sendable {
    private static let subBucketBits = 5
    private static let subBuckets = 1 << subBucketBits  // per power of two
    private static let linearLimit = 2 * subBuckets  // values below this have their own bucket
    private static let bucketCount = linearLimit + (64 - subBucketBits - 1) * subBuckets

    private var counts: [UInt64]
    private(set) var count: UInt64 = 0
    private(set) var max: Int64 = 0

    init() {
        counts = [UInt64](repeating: 0, count: Self.bucketCount)
    }

    mutating func record(_ micros: Int64) {
        let value = Swift.max(0, micros)
        counts[Self.index(of: value)] += 1
        count += 1
        if value > max { max = value }
    }

    /// The value at or below which `fraction` (0…1) of the samples lie; 0 when empty. Reported as the
    /// bucket's upper bound, never above the largest sample.
    func percentile(_ fraction: Double) -> Int64 {
        guard count > 0 else { return 0 }
        let rank = Swift.max(1, UInt64((Double(count) * fraction).rounded(.up)))
        var seen: UInt64 = 0
        for (index, n) in counts.enumerated() where n > 0 {
            seen += n
            if seen >= rank { return Swift.min(Self.upperBound(of: index), max) }
        }
        return max
    }

    static func index(of value: Int64) -> Int {
        if value < Int64(linearLimit) { return Int(value) }
        let magnitude = 63 - value.leadingZeroBitCount  // position of the top bit, ≥ subBucketBits + 1
        let shift = magnitude - subBucketBits
        let sub = Int(value >> Int64(shift)) - subBuckets  // 0 ..< subBuckets
        return linearLimit + (magnitude - subBucketBits - 1) * subBuckets + sub
    }

    /// The largest value that falls in bucket `index`.
    static func upperBound(of index: Int) -> Int64 {
        if index < linearLimit { return Int64(index) }
        let offset = index - linearLimit
        let magnitude = offset / subBuckets + subBucketBits + 1
        let sub = offset % subBuckets + subBuckets
        let shift = magnitude - subBucketBits
        let lower = Int64(sub) << Int64(shift)
        return lower + ((Int64(1) << Int64(shift)) - 1)  // this order cannot overflow at the top bucket
    }
}
