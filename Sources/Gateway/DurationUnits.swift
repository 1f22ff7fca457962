import NIOCore

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

extension Duration {
    /// The same span for NIO's timers (whole microseconds).
    var timeAmount: TimeAmount { .microseconds(microseconds) }
}

extension Duration {
    /// Seconds as a message says them: "5", "0.7", "1.25" (to the millisecond).
    var secondsText: String {
        let ms = milliseconds
        guard ms % 1000 != 0 else { return "\(ms / 1000)" }
        var fraction = String(ms % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(ms / 1000).\(fraction)"
    }
}
