#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock unix seconds ("now" of requests without `at`).
public enum UnixClock {
    @Sendable public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }
}

extension Duration {
    /// Whole microseconds (for `elapsed_us` and latency statistics).
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    var milliseconds: Int64 { microseconds / 1000 }
}

extension ContinuousClock.Instant {
    /// Microseconds from this instant to now.
    var microsecondsElapsed: Int64 { (ContinuousClock.now - self).microseconds }
}
