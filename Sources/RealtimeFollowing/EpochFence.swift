import Synchronization
import TransitModel

/// Fencing of the realtime publisher's epochs (protocol/README.md "Leader election"): the highest epoch followed,
/// what was dropped for coming from a lower one, and the leader its last heartbeat named. A `RealtimeSubscriber`
/// asks it about every PUB message and snapshot; its owner (the gateway's view, the static service's live
/// trips) reads the epoch from it.
public final class EpochFence: Sendable {
    /// How long a higher epoch, once followed, fences lower ones off: twice the subscriber's silence limit.
    public let silenceLimit: Duration

    private struct State: Sendable {
        var epoch: UInt64?
        var lastAdmitted: ContinuousClock.Instant?
        var lowerEpochDropped: UInt64 = 0
        var leader: LiveLeadership?
    }
    private let state = Mutex(State())

    public init(silenceLimit: Duration) {
        self.silenceLimit = silenceLimit
    }

    /// The highest publisher epoch heard (PUB or snapshot); nil before any.
    public var epoch: UInt64? { state.withLock { $0.epoch } }
    /// Messages and snapshots dropped for an epoch lower than the highest heard (a former leader's).
    public var lowerEpochDropped: UInt64 { state.withLock { $0.lowerEpochDropped } }
    /// The elected leader as its last heartbeat described itself; nil without election or before one.
    public var leader: LiveLeadership? { state.withLock { $0.leader } }

    /// Whether a message or snapshot of `epoch` may be used: not when a higher one was heard within twice the
    /// silence limit (it is then counted as dropped). A higher one becomes the epoch followed; so does a lower
    /// one once the followed epoch has been silent that long (a lone realtime service restarted after its clock
    /// went back is followed again; a woken former leader has stopped by then).
    public func admit(epoch: UInt64, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { f in
            if let highest = f.epoch, epoch < highest,
                let last = f.lastAdmitted, now - last < silenceLimit * 2
            {
                f.lowerEpochDropped += 1
                return false
            }
            if f.epoch != epoch { f.leader = nil }
            f.epoch = epoch
            f.lastAdmitted = now
            return true
        }
    }

    /// The leader a heartbeat of the followed epoch named.
    public func noteLeader(_ leader: LiveLeadership?) { state.withLock { $0.leader = leader } }
}
