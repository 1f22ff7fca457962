import Synchronization
import TransitJSON

/// The gateway's view of the live state, fed by the realtime PUB stream (protocol/README.md flows 3–4) and
/// read by every request; requests never ask the realtime service.
///
/// The feeder (`RealtimeSubscriber`, with its per-topic snapshot/sequence handshake) calls `replace` with the
/// state after a snapshot or after applying messages, and `heartbeat` when it hears the publisher without a
/// state change. Until something is heard the view is "never heard": boards are static, flagged stale when
/// realtime is configured. Readers get a `RealtimeReading`: the state and whether it may be used.
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
    /// The realtime service's resident size from its last heartbeat (0: never told).
    private let publisherResident = Atomic<UInt64>(0)

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
    }

    // MARK: feeding

    /// The whole live state (after a snapshot, or after applying stream messages). `heard`: it came with a
    /// PUB message, so it counts as a heartbeat (a snapshot taken while the publisher is silent does not).
    /// Observers (subscriptions) are told `change` afterwards.
    public func replace(_ state: RealtimeState, change: RealtimeChange = .everything, heard: Bool = true) {
        let observers = stored.withLock { s in
            let wasSilent = s.lastHeartbeat.map { ContinuousClock.now - $0 >= silenceLimit } ?? true
            s.state = state
            if heard { s.lastHeartbeat = .now }
            s.version += 1
            // Coming back from silence changes every board (they were static until now).
            return (heard && wasSilent ? RealtimeChange.everything : change, Array(s.observers.values))
        }
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
        stored.withLock { s in
            let age = s.lastHeartbeat.map { ContinuousClock.now - $0 }
            let live = s.state != nil && age.map { $0 < silenceLimit } == true
            let status: RealtimeReading.Status = !configured ? .unavailable : (live ? .ok : .silent)
            return RealtimeReading(
                configured: configured, status: status, state: live ? s.state! : .empty,
                sources: s.state?.sources ?? [], heartbeatAge: age, version: s.version)
        }
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
        /// No realtime configured.
        case unavailable
    }

    public var configured: Bool
    public var status: Status
    /// Empty unless `status` is ok.
    public var state: RealtimeState
    /// The sources as last reported (also while silent, for `health`).
    public var sources: [RealtimeSourceStatus]
    public var heartbeatAge: Duration?
    /// Changes with every state change.
    public var version: UInt64

    /// The live state may be used (heartbeats fresh and not every source stale).
    public var usable: Bool { status == .ok && !state.allSourcesStale }

    /// The answer's `meta.stale` when realtime cannot be used: true when it is configured (the publisher is
    /// silent or every source stale), false when there is no realtime at all (nothing is stale).
    var staleWhenUnusable: Bool { configured }
}
