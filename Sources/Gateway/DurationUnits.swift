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
