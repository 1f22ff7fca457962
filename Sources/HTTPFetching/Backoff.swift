// How long a failing source waits before its next poll.

/// Exponential backoff with "equal jitter": after n consecutive failures the step is min(cap, base * 2^n) and
/// the wait a random point in the upper half of that step, never below `base`. With base = the poll interval
/// a failing source never polls more often than planned (so the daily budget holds), spreads its retries
/// (sources that failed together do not retry together), and settles between cap/2 and cap.
public struct Backoff: Sendable, Hashable {
    public var base: Duration
    public var cap: Duration

    /// `cap` below `base` is raised to `base`.
    public init(base: Duration, cap: Duration) {
        self.base = base
        self.cap = max(cap, base)
    }

    /// The range the wait after `failures` consecutive failures (>= 1) falls in.
    public func bounds(afterFailures failures: Int) -> ClosedRange<Duration> {
        let step = min(cap.seconds, base.seconds * Double(1 << min(max(failures, 1), 40)))
        let low = max(base.seconds, step / 2)
        return Duration.fromSeconds(low)...Duration.fromSeconds(max(low, step))
    }

    /// A random wait within `bounds(afterFailures:)`.
    public func delay(afterFailures failures: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let range = bounds(afterFailures: failures)
        let low = range.lowerBound.seconds
        let high = range.upperBound.seconds
        guard high > low else { return range.lowerBound }
        return .fromSeconds(Double.random(in: low...high, using: &generator))
    }
}

// Conversions between Duration and seconds as Double (config files, backoff draws and messages speak seconds);
// `package`: the realtime sources and the refresher use them too.
extension Duration {
    /// The duration in seconds, with its fraction.
    package var seconds: Double {
        let (whole, atto) = components
        return Double(whole) + Double(atto) * 1e-18
    }

    /// A duration from seconds; negative and non-finite values become zero.
    package static func fromSeconds(_ seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        return .nanoseconds(Int64(min(seconds, 9e9) * 1e9))
    }
}
