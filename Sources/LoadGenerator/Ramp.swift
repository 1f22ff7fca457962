// Ramp mode: open-loop steps at rising offered rates; the knee is the highest rate the server still answers
// within the p99 bound, fully (achieved ≥ 95 % of offered) and without errors (≤ 0.1 %).

/// One step of a ramp.
public struct RampStep: Sendable, Equatable, Codable {
    public var offered: Double
    public var achieved: Double
    public var p99Millis: Double
    public var errorRate: Double

    public init(offered: Double, achieved: Double, p99Millis: Double, errorRate: Double) {
        self.offered = offered
        self.achieved = achieved
        self.p99Millis = p99Millis
        self.errorRate = errorRate
    }

    /// Whether this step stays within `bound` (ms).
    public func holds(p99Bound bound: Double) -> Bool {
        p99Millis <= bound && achieved >= 0.95 * offered && errorRate <= 0.001
    }
}

/// `start:step:max` offered rates.
public struct RampPlan: Sendable, Equatable {
    public var start: Double
    public var step: Double
    public var max: Double

    public init(parsing text: String) throws(WorkloadError) {
        let p = text.split(separator: ":").map { Double($0) }
        guard p.count == 3, let a = p[0], let b = p[1], let c = p[2], a > 0, b > 0, c >= a else {
            throw WorkloadError(
                "--ramp \(text): expected START:STEP:MAX requests per second (0 < START ≤ MAX, STEP > 0)")
        }
        start = a
        step = b
        max = c
    }

    public var rates: [Double] { Array(stride(from: start, through: max, by: step)) }
}

public enum RampAnalysis {
    /// The knee: the offered rate of the last step before the first one that misses the bound (nil when the
    /// first step already misses it). Steps after the first miss do not count: a server past its knee that
    /// recovers at a higher rate is noise.
    public static func knee(_ steps: [RampStep], p99Bound: Double) -> Double? {
        var knee: Double?
        for step in steps {
            guard step.holds(p99Bound: p99Bound) else { break }
            knee = step.offered
        }
        return knee
    }
}
