/// The timing of one instance's leadership under an etcd lease, as a plain state machine (no clock, no I/O):
/// the driver (`ElectionRole`) tells it what happened and when, and asks it what to do next.
///
/// - A candidate campaigns (grant a lease, create the election key under it unless it exists) every
///   `campaignEvery`; it wins when its transaction created the key, and its epoch is the key's create revision.
/// - A leader renews its lease every `renewEvery` (TTL/3). A renewal counts from when its request was *sent*:
///   etcd restarts the TTL when it handles the request, which is later, so the lease lives at least TTL past
///   that instant.
/// - A leader that has not renewed within `stepDownAfter` (2·TTL/3) of the last renewal, or whose renewal
///   says the lease is gone, steps down: it stops polling and publishing. No other instance can create the key
///   before the lease ends (TTL after the last renewal etcd saw), so the two never lead at once; the margin,
///   TTL/3, absorbs the time the step-down takes.
/// - Without etcd nobody becomes leader: only a created key makes one.
/// - An instance whose service could not start once elected (its port taken, say) steps down and campaigns
///   again only a TTL later: campaigning at once, it would win again as soon as its own revocation freed the
///   key and keep a healthy standby out (scripts/faults-ha saw one hold the key through 80 s of failed starts).
public struct LeaderElection: Sendable {
    public typealias Instant = ContinuousClock.Instant

    public struct Timing: Sendable, Equatable {
        /// The lease's TTL (`--election-ttl`).
        public var ttl: Duration
        public var renewEvery: Duration { ttl / 3 }
        public var stepDownAfter: Duration { ttl * 2 / 3 }
        /// How often a candidate tries (the key's holder may have gone).
        public var campaignEvery: Duration { ttl / 3 }
        /// How soon a leader tries again after a renewal failed (several tries before the step-down).
        public var retryEvery: Duration { ttl / 12 }

        public init(ttl: Duration) { self.ttl = ttl }
    }

    public enum Role: Sendable, Equatable {
        case candidate
        case leader(lease: Int64, epoch: Int64)
    }

    public enum Action: Sendable, Equatable {
        /// Grant a lease and try to create the key.
        case campaign
        /// Renew the leader's lease.
        case renew(lease: Int64)
        /// Stop leading now (then revoke the lease, best effort).
        case stepDown(lease: Int64)
        /// Nothing to do before this instant.
        case wait(until: Instant)
    }

    public let timing: Timing
    public private(set) var role: Role = .candidate
    /// The send time of the last renewal etcd accepted (or of the lease grant that won).
    private var renewedAt: Instant?
    /// When the last campaign or renewal was started.
    private var attemptedAt: Instant?
    /// The last renewal failed (etcd unreachable): the next comes sooner.
    private var lastRenewalFailed = false
    /// After a failed start: no campaign before this instant.
    private var campaignNotBefore: Instant?

    public init(timing: Timing) { self.timing = timing }

    /// What to do at `now`.
    public func next(now: Instant) -> Action {
        switch role {
        case .candidate:
            if let campaignNotBefore, now < campaignNotBefore { return .wait(until: campaignNotBefore) }
            guard let attemptedAt else { return .campaign }
            let due = attemptedAt + timing.campaignEvery
            return now >= due ? .campaign : .wait(until: due)
        case .leader(let lease, _):
            let renewedAt = self.renewedAt ?? now
            let stepDownDue = renewedAt + timing.stepDownAfter
            if now >= stepDownDue { return .stepDown(lease: lease) }
            let renewDue = (attemptedAt ?? renewedAt) + (lastRenewalFailed ? timing.retryEvery : timing.renewEvery)
            return now >= renewDue ? .renew(lease: lease) : .wait(until: min(renewDue, stepDownDue))
        }
    }

    /// A campaign or a renewal was sent at `at`.
    public mutating func attempted(at: Instant) { attemptedAt = at }

    /// The campaign whose lease was granted by a request sent at `grantSentAt` created the key at `epoch`.
    public mutating func won(lease: Int64, epoch: Int64, grantSentAt: Instant) {
        role = .leader(lease: lease, epoch: epoch)
        campaignNotBefore = nil
        renewedAt = grantSentAt
        attemptedAt = grantSentAt
        lastRenewalFailed = false
    }

    /// A renewal sent at `sentAt` was answered with the lease's TTL left (0: the lease is gone).
    /// Returns false when the lease is gone (the caller steps down at once).
    public mutating func renewed(sentAt: Instant, ttlLeft: Int64) -> Bool {
        guard case .leader = role else { return false }
        guard ttlLeft > 0 else { return false }
        lastRenewalFailed = false
        // An answer to an older request than the last accepted one says nothing new.
        if renewedAt.map({ sentAt > $0 }) ?? true { renewedAt = sentAt }
        return true
    }

    /// A renewal could not reach etcd: try again after `retryEvery` (until the step-down instant).
    public mutating func renewalFailed(at: Instant) {
        attemptedAt = at
        lastRenewalFailed = true
    }

    /// Stopped leading (stepped down, or the lease is gone): a candidate again, campaigning at once.
    public mutating func steppedDown() {
        role = .candidate
        renewedAt = nil
        attemptedAt = nil
        lastRenewalFailed = false
    }

    /// Stopped leading at `at` because the service could not start: a candidate again, campaigning a TTL later
    /// (the other candidates campaign every TTL/3 meanwhile).
    public mutating func startFailed(at: Instant) {
        steppedDown()
        campaignNotBefore = at + timing.ttl
    }

    /// Whether this instance may publish at `now`: it leads and the step-down instant has not passed (the
    /// publishers' own check, so a process that was stopped and woke up past it publishes nothing even before
    /// its driver ran).
    public func mayLead(now: Instant) -> Bool {
        guard case .leader = role, let renewedAt else { return false }
        return now < renewedAt + timing.stepDownAfter
    }

    /// When this leader must stop (2·TTL/3 after the last accepted renewal); nil when not leading. A renewal
    /// still waiting for etcd's answer is given up then: a retry sent late must not hold the step-down back.
    public var stepDownDue: Instant? {
        guard case .leader = role, let renewedAt else { return nil }
        return renewedAt + timing.stepDownAfter
    }

    /// The least time the lease has left at `now` (from the last accepted renewal's send time); nil when not
    /// leading.
    public func leaseRemaining(now: Instant) -> Duration? {
        guard case .leader = role, let renewedAt else { return nil }
        return max(.zero, renewedAt + timing.ttl - now)
    }
}
