import GatewayProtocol

/// The request rate of one connection (`--request-rate`): a token bucket refilled at `rate` per second up to
/// `rate`, so bursts of as many pass. The line port's connections and the HTTP port's each hold one.
package struct RequestRateBucket: Sendable {
    /// Requests per second; 0: no limit.
    package let rate: Int
    private var tokens: Double
    private var refilled: ContinuousClock.Instant

    package init(rate: Int, now: ContinuousClock.Instant = .now) {
        self.rate = rate
        tokens = Double(rate)
        refilled = now
    }

    /// Takes one request from the bucket; false when it is empty (always true without a limit).
    package mutating func take(now: ContinuousClock.Instant) -> Bool {
        guard rate > 0 else { return true }
        let rate = Double(self.rate)
        let elapsed = now - refilled
        refilled = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        tokens = min(rate, tokens + seconds * rate)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// The RATE_LIMITED error of a connection over its rate.
    package var exceeded: GatewayError {
        GatewayError(.rateLimited, "more than \(rate) requests per second on this connection; slow down")
    }
}
