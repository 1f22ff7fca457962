import Foundation
import ProcessSupport
import Synchronization
import TransitModel
import TransitProto

/// Where framed PUB messages go (an nng PUB socket in the service, a recorder in tests).
public protocol FrameSink: Sendable {
    func send(_ frame: [UInt8]) throws
}

/// Whether this instance may publish, and what its heartbeats say of its leadership: with `--election`,
/// `ElectionRole`'s lease check (a process that wakes up after losing its lease publishes nothing, even before its
/// election driver runs); without, always and nothing.
public struct PublishingLease: Sendable {
    public var mayPublish: @Sendable () -> Bool
    public var leadership: @Sendable () -> LiveLeadership?

    public init(mayPublish: @escaping @Sendable () -> Bool, leadership: @escaping @Sendable () -> LiveLeadership?) {
        self.mayPublish = mayPublish
        self.leadership = leadership
    }

    public static let unelected = PublishingLease(mayPublish: { true }, leadership: { nil })
}

/// The published side of the live state: applies changes to the state subscribers hold, numbers them per
/// topic and sends them; answers snapshots and queries from that same state.
///
/// Thread-safe. Publishers (`publish`, `heartbeat`, `setDatabaseVersion`) take turns under `publishing`: each
/// builds the next state on a copy of the published one, numbers and encodes its messages, swaps the new state
/// in under `state` (held only for the swap) and sends the messages, still in its turn. So a snapshot is always
/// "the state after messages 1 … seq" (state and sequence numbers are swapped together), the wire order is the
/// sequence order (sends happen one publisher at a time, heartbeats after the messages they count), and a
/// query or snapshot never waits for an update to be applied or encoded: it copies the state before or after
/// the swap, never a mix.
public final class RealtimeHub: Sendable {
    /// The publisher's epoch: the election key's etcd revision (`--election`), else one more than the last start's
    /// (`--epoch-file`) or the start's unix milliseconds; gateways follow only the highest they have seen.
    public let epoch: UInt64
    private let sink: any FrameSink
    /// Serializes the publishers (see above); never taken by queries.
    private let publishing = Mutex(())
    /// The published state: read (copied) by queries, replaced by publishers.
    private let state = Mutex(PublishedState())
    private let sendFailures = Atomic<UInt64>(0)
    private let fencedFrames = Atomic<UInt64>(0)
    /// Asked before each send (false once this instance may no longer lead) and by each heartbeat.
    private let lease: PublishingLease
    private let nowMs: @Sendable () -> Int64
    /// Records the departures the trip-update batches show and answers `delay_histograms` (nil: no store).
    public let delays: TypicalDelays?

    public init(
        sink: any FrameSink, epoch: UInt64 = EpochCounter.fromClock(),
        nowMs: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
        delays: TypicalDelays? = nil, lease: PublishingLease = .unelected
    ) {
        self.sink = sink
        self.lease = lease
        self.epoch = epoch
        self.nowMs = nowMs
        self.delays = delays
    }

    /// Messages PUB refused to take (the socket closed), reported in the `sources` answer; a full subscriber
    /// queue drops silently instead.
    public var failedSends: UInt64 { sendFailures.load(ordering: .relaxed) }
    /// Messages not sent because this instance could no longer be sure it leads.
    public var fencedSends: UInt64 { fencedFrames.load(ordering: .relaxed) }

    /// Publishes one feed update's changes: one message per topic that changed (`tu`, `vp`, `al`), and `st`
    /// with every source's status when `sources` is given.
    public func publish(_ changes: LiveChanges, sources: [LiveSourceStatus]?) {
        var transitions: [(old: LiveTrip?, new: LiveTrip?)] = []
        var positions: [(position: LiveVehicle, trip: LiveTrip)] = []
        publishing.withLock { _ in
            // Copy-on-write: the first change below copies what it changes; queries keep the published state.
            var next = state.withLock { $0 }
            if delays != nil && changes.hasTrips {
                // Each changed or removed instance with what subscribers held before (flow 6).
                transitions.reserveCapacity(changes.trips.count + changes.removedTrips.count)
                for instance in changes.removedTrips { transitions.append((next.trips[instance], nil)) }
                for trip in changes.trips { transitions.append((next.trips[trip.instance], trip)) }
            }
            var retired: [LiveTrip] = []
            var frames: [[UInt8]] = []
            for payload in next.apply(changes, sources: sources, retired: &retired) {
                frames.append(
                    RealtimeCodec.encodeFramed(
                        PubMessage(epoch: epoch, seq: next.next(payload.topic), sentUnixMs: nowMs(), payload: payload)))
            }
            if delays != nil {
                // Each changed vehicle on a live instance, with that instance's schedule (flow 6).
                for vehicle in changes.vehicles {
                    if let instance = vehicle.trip, let trip = next.trips[instance] {
                        positions.append((vehicle, trip))
                    }
                }
            }
            // The state replaced holds the trips replaced, usually their last references: freeing 100,000
            // stops takes ≈ 2 ms, which neither the sends nor the next update need wait for.
            state.withLock { swap(&$0, &next) }
            if retired.count >= 256 {
                let garbage = (next, retired)
                Self.reaper.async { withExtendedLifetime(garbage) {} }
            }
            for frame in frames { send(frame) }
        }
        if let delays {
            // Positions first: a vehicle seen past a stop in this update settles that stop before its
            // prediction is looked at.
            if !positions.isEmpty { delays.observe(positions: positions) }
            if !transitions.isEmpty { delays.observe(transitions, now: nowMs() / 1000) }
        }
    }

    private static let reaper = DispatchQueue(label: "transit-realtime.retired-trips", qos: .utility)

    /// Records the static database version the trip updates are resolved against (sent in heartbeats).
    public func setDatabaseVersion(_ version: String?) {
        publishing.withLock { _ in state.withLock { $0.databaseVersion = version } }
    }

    /// Sends a heartbeat: every source's last status and every topic's current sequence number.
    public func heartbeat() {
        let resident = ProcessMemory.residentBytes()
        let leader = lease.leadership()
        publishing.withLock { _ in
            let message = state.withLock { s in
                var sequences: [RealtimeTopic: UInt64] = [:]
                for topic in RealtimeTopic.stateful { sequences[topic] = s.sequence(topic) }
                let beat = LiveHeartbeat(
                    sources: s.sources, sequences: sequences, databaseVersion: s.databaseVersion,
                    residentBytes: resident, leader: leader)
                return PubMessage(epoch: epoch, seq: s.next(.heartbeat), sentUnixMs: nowMs(), payload: .heartbeat(beat))
            }
            send(RealtimeCodec.encodeFramed(message))
        }
    }

    /// The state of `topic` after its messages 1 … seq, taken atomically.
    public func snapshot(_ topic: RealtimeTopic) -> RealtimeSnapshot? {
        // Copying the state under the lock is cheap (copy-on-write); building the batch happens outside.
        let (copy, seq) = state.withLock { ($0, $0.sequence(topic)) }
        guard let payload = copy.payload(topic) else { return nil }
        return RealtimeSnapshot(epoch: epoch, seq: seq, payload: payload)
    }

    /// Answers a REP query.
    public func answer(_ query: RealtimeQuery) -> Result<RealtimeResult, ServiceError> {
        if case .snapshot(let topic) = query {
            guard let snapshot = snapshot(topic) else {
                return .failure(
                    ServiceError(.invalidArgument, "topic \"\(topic.rawValue)\" has no snapshot (use tu, vp, al or st)")
                )
            }
            return .success(.snapshot(snapshot))
        }
        if case .delayHistograms(let slices) = query {
            guard let delays else {
                return .failure(
                    ServiceError(.unavailable, "this realtime service records no delays (serve --delay-store)"))
            }
            return delays.answer(slices)
        }
        let copy = state.withLock { $0 }
        switch query {
        case .snapshot: return .failure(ServiceError(.internal, "unreachable"))
        case .trip(let q): return LiveQueries.trip(q, in: copy)
        case .stop(let q): return LiveQueries.stop(q, in: copy)
        case .vehicles(let q): return LiveQueries.vehicles(q, in: copy)
        case .alerts(let q): return LiveQueries.alerts(q, in: copy)
        case .sources:
            return .success(
                .sources(copy.sources, failedSends: failedSends, residentBytes: ProcessMemory.residentBytes()))
        case .delayHistograms: return .failure(ServiceError(.internal, "unreachable"))
        }
    }

    /// Current sequence numbers (tests, logs).
    public func sequence(_ topic: RealtimeTopic) -> UInt64 { state.withLock { $0.sequence(topic) } }

    private func send(_ frame: [UInt8]) {
        guard lease.mayPublish() else {
            fencedFrames.add(1, ordering: .relaxed)
            return
        }
        do {
            try sink.send(frame)
        } catch {
            sendFailures.add(1, ordering: .relaxed)
        }
    }
}
