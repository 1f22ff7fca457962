import Foundation
import Synchronization
import TransitCore
import TransitModel
import TransitProto

/// Where framed PUB messages go (an nng PUB socket in the service, a recorder in tests).
public protocol FrameSink: Sendable {
    func send(_ frame: [UInt8]) throws
}

/// The published side of the live state: applies changes to the state subscribers hold, numbers them per
/// topic and sends them; answers snapshots and queries from that same state.
///
/// Thread-safe. Publishing happens under the lock (the state change, the sequence number and the send), so
/// a snapshot is always "the state after messages 1 … seq" and the wire order is the sequence order.
public final class RealtimeHub: Sendable {
    /// Random per process start: a subscriber seeing a new epoch knows the publisher restarted.
    public let epoch: UInt64
    private let sink: any FrameSink
    private let state = Mutex(PublishedState())
    private let sendFailures = Atomic<UInt64>(0)
    private let nowMs: @Sendable () -> Int64
    /// Records the departures the trip-update batches show and answers `delay_histograms` (nil: no store).
    public let delays: TypicalDelays?

    public init(
        sink: any FrameSink, epoch: UInt64 = UInt64.random(in: 1...UInt64.max),
        nowMs: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
        delays: TypicalDelays? = nil
    ) {
        self.sink = sink
        self.epoch = epoch
        self.nowMs = nowMs
        self.delays = delays
    }

    /// Messages PUB refused to take (the socket closed), reported in the `sources` answer; a full subscriber
    /// queue drops silently instead.
    public var failedSends: UInt64 { sendFailures.load(ordering: .relaxed) }

    /// Publishes one feed update's changes: one message per topic that changed (`tu`, `vp`, `al`), and `st`
    /// with every source's status when `sources` is given.
    public func publish(_ changes: LiveChanges, sources: [LiveSourceStatus]?) {
        var retired: [LiveTrip] = []
        var transitions: [(old: LiveTrip?, new: LiveTrip?)] = []
        var positions: [(position: LiveVehicle, trip: LiveTrip)] = []
        state.withLock { s in
            if delays != nil && changes.hasTrips {
                // Each changed or removed instance with what subscribers held before (flow 6).
                transitions.reserveCapacity(changes.trips.count + changes.removedTrips.count)
                for instance in changes.removedTrips { transitions.append((s.trips[instance], nil)) }
                for trip in changes.trips { transitions.append((s.trips[trip.instance], trip)) }
            }
            for payload in s.apply(changes, sources: sources, retired: &retired) {
                send(PubMessage(epoch: epoch, seq: s.next(payload.topic), sentUnixMs: nowMs(), payload: payload))
            }
            if delays != nil {
                // Each changed vehicle on a live instance, with that instance's schedule (flow 6).
                for vehicle in changes.vehicles {
                    if let instance = vehicle.trip, let trip = s.trips[instance] { positions.append((vehicle, trip)) }
                }
            }
        }
        if let delays {
            // Positions first: a vehicle seen past a stop in this update settles that stop before its
            // prediction is looked at.
            if !positions.isEmpty { delays.observe(positions: positions) }
            if !transitions.isEmpty { delays.observe(transitions, now: nowMs() / 1000) }
        }
        // The replaced trips are usually the last references to their stops: freeing 100,000 stops takes
        // ≈ 2 ms, which the next update need not wait for.
        if retired.count >= 256 {
            let garbage = retired
            retired = []
            Self.reaper.async { withExtendedLifetime(garbage) {} }
        }
    }

    private static let reaper = DispatchQueue(label: "transit-realtime.retired-trips", qos: .utility)

    /// Records the static database version the trip updates are resolved against (sent in heartbeats).
    public func setDatabaseVersion(_ version: String?) {
        state.withLock { $0.databaseVersion = version }
    }

    /// Sends a heartbeat: every source's last status and every topic's current sequence number.
    public func heartbeat() {
        state.withLock { s in
            var sequences: [RealtimeTopic: UInt64] = [:]
            for topic in RealtimeTopic.stateful { sequences[topic] = s.sequence(topic) }
            let beat = LiveHeartbeat(
                sources: s.sources, sequences: sequences, databaseVersion: s.databaseVersion,
                residentBytes: ProcessMemory.residentBytes())
            send(PubMessage(epoch: epoch, seq: s.next(.heartbeat), sentUnixMs: nowMs(), payload: .heartbeat(beat)))
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

    private func send(_ message: PubMessage) {
        do {
            try sink.send(RealtimeCodec.encodeFramed(message))
        } catch {
            sendFailures.add(1, ordering: .relaxed)
        }
    }
}
