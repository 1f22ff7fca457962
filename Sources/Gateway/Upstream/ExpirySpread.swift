/// How long a cache entry is kept: drawn per entry between `shortest` (half of `lifetime` unless given) and
/// `lifetime`.
///
/// Why not `lifetime` for all: entries stored together expire together. A gateway fills its caches in its
/// first minute (boards, stops, trip details), so ten minutes later they all ran out in the same seconds, and
/// the answers of those seconds asked the static service again: it used up to 0.24 of a core in its busiest
/// seconds, and their p99 rose. The refetched entries were stored together again, so the wave came back every
/// ten minutes. Drawn keeps spread it, and each refetch spreads it further.
///
/// The static caches draw from the second half of the lifetime; `TypicalDelayCache` draws its slices from the
/// last quarter. Drawn from the last quarter as well, the static refetches fell in the same minutes as the
/// typical-delay refreshes, which then raised the gateway's CPU by about a fifth (BENCHMARKS.md, sessions 14
/// and 15; they are paced now); from the second half, only half of them do.
struct ExpirySpread: Sendable {
    let lifetime: Duration
    /// The shortest keep drawn.
    let shortest: Duration

    init(_ lifetime: Duration, shortest: Duration? = nil) {
        self.lifetime = lifetime
        self.shortest = min(shortest ?? lifetime / 2, lifetime)
    }

    /// When an entry stored at `stored` expires.
    func expiry(from stored: ContinuousClock.Instant) -> ContinuousClock.Instant {
        var random = SystemRandomNumberGenerator()
        return expiry(from: stored, using: &random)
    }

    func expiry<R: RandomNumberGenerator>(from stored: ContinuousClock.Instant, using random: inout R)
        -> ContinuousClock.Instant
    {
        let spread = (lifetime - shortest).microseconds
        guard spread > 0 else { return stored + lifetime }
        return stored + shortest + .microseconds(Int64.random(in: 0...spread, using: &random))
    }
}
