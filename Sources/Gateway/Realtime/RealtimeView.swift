import GatewayProtocol
import RealtimeFollowing
import Synchronization
import TransitModel

/// The gateway's view of the live state, fed by the realtime PUB stream (protocol/README.md flows 3–4) and
/// read by every request; requests never ask the realtime service.
///
/// The feeder (`RealtimeSubscriber` with `GatewayLiveFeed`, with its per-topic snapshot/sequence handshake) calls `replace` with the
/// state after a snapshot or after applying messages, and `heartbeat` when it hears the publisher without a
/// state change. Until something is heard the view is "never heard": boards are static, flagged stale when
/// realtime is configured. Readers get a `RealtimeReading`: the state and whether it may be used. While the
/// publisher is silent the last state is still held, with every source counted stale: its predictions are not
/// used, but what stays true (cancellations, skipped stops, alerts) is shown as old.
public final class RealtimeView: Sendable {
    /// Whether the gateway was started with realtime URLs at all.
    public let configured: Bool
    /// No heartbeat for this long: the publisher counts as dead and its state is not used.
    public let silenceLimit: Duration

    private struct Stored: Sendable {
        var state: RealtimeState?
        var lastHeartbeat: ContinuousClock.Instant?
        var version: UInt64 = 0
        var observers: [UInt64: @Sendable (RealtimeChange) -> Void] = [:]
        var nextObserver: UInt64 = 0
    }

    private let stored = Mutex(Stored())
    /// The state replaced by the last `replace`, kept until the next one: a request that still reads it
    /// when it is replaced is done by then, so its memory (a full update's trips) is freed on the feeder's
    /// thread, outside the lock readers take, and never by an event loop finishing a request.
    private let retired = Mutex<RealtimeState?>(nil)
    /// The realtime service's resident size from its last heartbeat (0: never told).
    private let publisherResident = Atomic<UInt64>(0)

    /// Fencing of the publisher's epochs (protocol/README.md "Leader election"), shared with the subscriber.
    public let fence: EpochFence

    /// The highest publisher epoch heard (PUB or snapshot); nil before any.
    public var epoch: UInt64? { fence.epoch }
    /// Messages and snapshots dropped for an epoch lower than the highest heard (a former leader's).
    public var lowerEpochDropped: UInt64 { fence.lowerEpochDropped }
    /// The elected leader as its last heartbeat described itself; nil without election or before one.
    public var leader: LiveLeadership? { fence.leader }

    /// `EpochFence.admit`.
    func admit(epoch: UInt64, now: ContinuousClock.Instant = .now) -> Bool { fence.admit(epoch: epoch, now: now) }

    /// The leader a heartbeat of the followed epoch named.
    func noteLeader(_ leader: LiveLeadership?) { fence.noteLeader(leader) }

    /// The realtime service's resident set size in bytes, as its last heartbeat said; nil before one said it.
    public var publisherResidentBytes: UInt64? {
        let bytes = publisherResident.load(ordering: .relaxed)
        return bytes == 0 ? nil : bytes
    }

    /// Records the resident size a heartbeat carried (`stats`).
    public func notePublisherResidentBytes(_ bytes: UInt64?) {
        if let bytes { publisherResident.store(bytes, ordering: .relaxed) }
    }

    public init(configured: Bool, silenceLimit: Duration = .seconds(15)) {
        self.configured = configured
        self.silenceLimit = silenceLimit
        fence = EpochFence(silenceLimit: silenceLimit)
    }

    // MARK: feeding

    /// The whole live state (after a snapshot, or after applying stream messages). `heard`: it came with a
    /// PUB message, so it counts as a heartbeat (a snapshot taken while the publisher is silent does not).
    /// Observers (subscriptions) are told `change` afterwards.
    public func replace(_ state: RealtimeState, change: RealtimeChange = .everything, heard: Bool = true) {
        var replaced: RealtimeState? = state
        let observers = stored.withLock { s in
            let wasSilent = s.lastHeartbeat.map { ContinuousClock.now - $0 >= silenceLimit } ?? true
            swap(&s.state, &replaced)
            if heard { s.lastHeartbeat = .now }
            s.version += 1
            // Coming back from silence changes every board (they were static until now).
            return (heard && wasSilent ? RealtimeChange.everything : change, Array(s.observers.values))
        }
        let older = retired.withLock { r in
            defer { r = replaced }
            return r
        }
        withExtendedLifetime(older) {}  // freed here, if nothing reads it any more
        for observer in observers.1 { observer(observers.0) }
    }

    /// A heartbeat from the publisher, with the sources' current status.
    public func heartbeat(sources: [RealtimeSourceStatus]? = nil) {
        let changed = stored.withLock { s -> Bool in
            let wasSilent = s.lastHeartbeat.map { ContinuousClock.now - $0 >= silenceLimit } ?? true
            s.lastHeartbeat = .now
            if let sources, s.state != nil, s.state?.sources != sources {
                s.state?.sources = sources
                s.version += 1
                return true
            }
            return wasSilent && s.state != nil
        }
        if changed { notifyObservers(.everything) }
    }

    /// The feeder noticed the publisher is silent: boards lose their predictions, so observers are told.
    func silenceNoticed() {
        notifyObservers(.everything)
    }

    // MARK: reading

    public func read() -> RealtimeReading {
        let epoch = self.epoch
        return stored.withLock { s in
            let (live, age) = liveness(s)
            var held = s.state ?? .empty
            if !live { held.markEveryStale() }
            return RealtimeReading(
                configured: configured, status: status(live: live), state: held, sources: s.state?.sources ?? [],
                heartbeatAge: age, version: s.version, epoch: epoch)
        }
    }

    /// The status `read()` would give, without copying the state (a board asks it to know whether typical
    /// delays may be asked of the realtime service).
    public func status() -> RealtimeReading.Status {
        status(live: stored.withLock { liveness($0).live })
    }

    /// For metrics: liveness, heartbeat age and the sources as last reported, without copying the state.
    func metricsReading() -> (
        live: Bool, heartbeatAge: Duration?, sources: [RealtimeSourceStatus], publisherResidentBytes: UInt64?
    ) {
        let rss = publisherResidentBytes
        return stored.withLock { s in
            let (live, age) = liveness(s)
            return (live, age, s.state?.sources ?? [], rss)
        }
    }

    /// A state is held and the publisher's last heartbeat is within `silenceLimit`; and that heartbeat's age.
    private func liveness(_ s: Stored) -> (live: Bool, heartbeatAge: Duration?) {
        let age = s.lastHeartbeat.map { ContinuousClock.now - $0 }
        return (s.state != nil && age.map { $0 < silenceLimit } == true, age)
    }

    private func status(live: Bool) -> RealtimeReading.Status {
        !configured ? .notConfigured : (live ? .ok : .silent)
    }

    // MARK: observers

    /// Calls `observer` (on the feeder's thread) after every change of the state. Returns a token for
    /// `removeObserver`.
    func addObserver(_ observer: @escaping @Sendable (RealtimeChange) -> Void) -> UInt64 {
        stored.withLock { s in
            s.nextObserver += 1
            s.observers[s.nextObserver] = observer
            return s.nextObserver
        }
    }

    func removeObserver(_ token: UInt64) {
        _ = stored.withLock { $0.observers.removeValue(forKey: token) }
    }

    private func notifyObservers(_ change: RealtimeChange) {
        let observers = stored.withLock { Array($0.observers.values) }
        for observer in observers { observer(change) }
    }
}

/// One consistent look at the live state.
public struct RealtimeReading: Sendable {
    public enum Status: String, Sendable {
        /// Heartbeats fresh and a state applied.
        case ok
        /// Configured, but no heartbeat for the silence limit (or never heard).
        case silent
        /// No realtime configured (on purpose: the gateway was started without `--subscribe`).
        case notConfigured = "not_configured"
    }

    public var configured: Bool
    public var status: Status
    /// The state held: while `status` is not ok the last one heard (empty when never heard) with every
    /// source marked stale, so only what stays true is used of it.
    public var state: RealtimeState
    /// The sources as last reported (also while silent, for `health`).
    public var sources: [RealtimeSourceStatus]
    public var heartbeatAge: Duration?
    /// Changes with every state change.
    public var version: UInt64
    /// The highest publisher epoch heard (the one followed); nil before any (`meta.epoch`).
    public var epoch: UInt64?

    /// The live state may be used (heartbeats fresh and not every source stale).
    public var usable: Bool { status == .ok && !state.allSourcesStale }

    /// A state was heard at some point (possibly silent or stale now): its lasting facts may be shown.
    public var holdsState: Bool {
        usable || (configured && !(state.sources.isEmpty && state.trips.isEmpty && state.alerts.isEmpty))
    }

    /// Fresh realtime of `kind` was used: heartbeats fresh, and a source carrying `kind` is not stale (with
    /// no source of that kind: not every source is stale). `meta.source` is `static+rt` exactly then.
    func fresh(_ kind: RealtimeSourceStatus.Kind) -> Bool {
        guard status == .ok else { return false }
        let carrying = state.sources.filter { $0.kind == kind || $0.kind == .auto }
        return carrying.isEmpty ? !state.allSourcesStale : carrying.contains { !$0.stale }
    }

    /// `meta` of an answer about `kind` made with this reading (GATEWAY.md §2): `static+rt` when fresh data of
    /// its kind was used, else `static_only`; `stale` when something was left out or shown though old
    /// (`leftOut`), or realtime is configured but not fresh; `feed_age_s` from the fresh sources, else (data
    /// held but stale) from every source of the kind, so an old answer says how old.
    func meta(_ kind: RealtimeSourceStatus.Kind, at: Int64, now: Int64, leftOut: Bool) -> LiveMeta {
        let fresh = fresh(kind)
        let age = fresh || holdsState ? LiveMerge.feedAge(state, kind: kind, now: now, includingStale: !fresh) : nil
        return LiveMeta(
            at: at, source: fresh ? .staticAndRealtime : .staticOnly, stale: leftOut || (configured && !fresh),
            feedAgeSeconds: age, epoch: epoch)
    }

    /// The answer's `meta.stale` when realtime cannot be used: true when it is configured (the publisher is
    /// silent or every source stale), false when there is no realtime at all (nothing is stale).
    var staleWhenUnusable: Bool { configured }
}
