/// How long a cache entry is kept: drawn per entry between half of `lifetime` and `lifetime`.
///
/// Why not `lifetime` for all: entries stored together expire together. A gateway fills its caches in its
/// first minute (boards, stops, trip details), so ten minutes later they all ran out in the same seconds, and
/// every answer of those seconds asked the static service again: it used 0.2–0.3 of a core for 15 s, and the
/// open loop's p99 in those seconds rose from 3 to 6–10 ms. The refetched entries were stored together again,
/// so the wave came back every ten minutes. Drawn keeps spread it over the second half of the lifetime, and
/// each refetch spreads further. Why half, when TypicalDelayCache draws its slices' keeps from the last quarter:
/// those refreshes cost the gateway a third more CPU in that quarter; drawn from the last quarter as well, the
/// static refetches fell in the same minutes (measured), from the last half only half of them do.
struct ExpirySpread: Sendable {
    let lifetime: Duration

    init(_ lifetime: Duration) { self.lifetime = lifetime }

    /// The shortest keep drawn.
    var shortest: Duration { lifetime / 2 }

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
