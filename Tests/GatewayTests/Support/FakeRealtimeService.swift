import Foundation
import NNGKit
import Synchronization
import TransitModel
import TransitProto
import TransitTesting

/// A stand-in for transit-realtime speaking exactly the contract (protocol/README.md flows 3–4): a PUB
/// socket sending framed `PubMessage`s with per-topic sequence numbers and one epoch, and a REP socket
/// answering topic snapshots ("the state after messages 1 … seq") and vehicle queries from the same state.
/// Tests can drop messages (sequence taken, nothing sent), restart it under a new epoch, and count snapshots.
final class FakeRealtimeService: Sendable {
    struct Truth: Sendable {
        var epoch: UInt64
        var sequences: [RealtimeTopic: UInt64] = [:]
        var trips: [TripInstanceKey: LiveTrip] = [:]
        var vehicles: [String: LiveVehicle] = [:]
        var alerts: [String: LiveAlert] = [:]
        var detours: [String: LiveDetour] = [:]
        var sources: [LiveSourceStatus] = []
        var snapshotRequests: [RealtimeTopic: Int] = [:]
        /// REP answers nothing while false (a hung service: requests time out).
        var answering = true

        func payload(_ topic: RealtimeTopic) -> LivePayload? {
            switch topic {
            case .tripUpdates:
                .tripUpdates(LiveTripBatch(trips: trips.values.sorted { $0.instance.tripId < $1.instance.tripId }))
            case .vehicles: .vehicles(LiveVehicleBatch(vehicles: vehicles.keys.sorted().map { vehicles[$0]! }))
            case .alerts: .alerts(LiveAlertBatch(alerts: alerts.keys.sorted().map { alerts[$0]! }))
            case .sources: .sources(sources)
            case .detours: .detours(LiveDetourBatch(detours: detours.keys.sorted().map { detours[$0]! }))
            case .heartbeat: nil
            }
        }
    }

    let pubURL: String
    let repURL: String
    private let publisher: NNGPublisher
    private let server: NNGReplyServer
    private let box: TruthBox

    final class TruthBox: Sendable {
        let truth: Mutex<Truth>
        init(_ truth: Truth) { self.truth = Mutex(truth) }
    }

    /// Listens on new URLs, or on given ones (a restarted service at the same place).
    init(epoch: UInt64 = 1, pubURL: String? = nil, repURL: String? = nil) throws {
        self.pubURL = pubURL ?? UniqueURL.ipc("gwt-rtpub")
        self.repURL = repURL ?? UniqueURL.ipc("gwt-rtrep")
        publisher = try NNGPublisher(listeningOn: self.pubURL)
        let box = TruthBox(Truth(epoch: epoch))
        self.box = box
        server = try NNGReplyServer(listeningOn: self.repURL, contexts: 2) { bytes in
            bytes.withUnsafeBytes { raw in Self.answer(raw, box: box) }
        }
    }

    func stop() {
        server.stop()
        publisher.close()
    }

    var epoch: UInt64 { box.truth.withLock { $0.epoch } }
    func snapshotRequests(_ topic: RealtimeTopic) -> Int { box.truth.withLock { $0.snapshotRequests[topic] ?? 0 } }
    func sequence(_ topic: RealtimeTopic) -> UInt64 { box.truth.withLock { $0.sequences[topic] ?? 0 } }
    func setAnswering(_ answering: Bool) { box.truth.withLock { $0.answering = answering } }

    // MARK: publishing (the state changes first, then the message goes out, under one lock like the hub)

    /// New or changed trips and removed instances; `send: false` loses the message on the way.
    func publishTrips(_ trips: [LiveTrip], removed: [TripInstanceKey] = [], send: Bool = true) {
        publish(.tripUpdates(LiveTripBatch(trips: trips, removed: removed)), send: send) { t in
            for instance in removed { t.trips[instance] = nil }
            for trip in trips { t.trips[trip.instance] = trip }
        }
    }

    func publishVehicles(_ vehicles: [LiveVehicle], send: Bool = true) {
        publish(.vehicles(LiveVehicleBatch(vehicles: vehicles)), send: send) { t in
            for vehicle in vehicles { t.vehicles[vehicle.key] = vehicle }
        }
    }

    func publishDetours(_ detours: [LiveDetour], removed: [String] = [], send: Bool = true) {
        publish(.detours(LiveDetourBatch(detours: detours, removed: removed)), send: send) { t in
            for key in removed { t.detours[key] = nil }
            for detour in detours { t.detours[detour.key] = detour }
        }
    }

    func publishSources(_ sources: [LiveSourceStatus], send: Bool = true) {
        publish(.sources(sources), send: send) { $0.sources = sources }
    }

    /// Every source's status and every topic's current sequence.
    /// The resident size its heartbeats claim.
    static let residentBytes: UInt64 = 123 << 20

    func heartbeat() {
        box.truth.withLock { t in
            var sequences: [RealtimeTopic: UInt64] = [:]
            for topic in RealtimeTopic.stateful { sequences[topic] = t.sequences[topic] ?? 0 }
            let seq = (t.sequences[.heartbeat] ?? 0) + 1
            t.sequences[.heartbeat] = seq
            send(
                PubMessage(
                    epoch: t.epoch, seq: seq, sentUnixMs: 0,
                    payload: .heartbeat(
                        LiveHeartbeat(
                            sources: t.sources, sequences: sequences, residentBytes: FakeRealtimeService.residentBytes))
                ))
        }
    }

    /// A process restart: a new epoch, sequences from 1 again, and a state of its own.
    func restart(epoch: UInt64, trips: [LiveTrip], sources: [LiveSourceStatus]) {
        box.truth.withLock { t in
            let counts = t.snapshotRequests
            t = Truth(epoch: epoch)
            t.snapshotRequests = counts
            for trip in trips { t.trips[trip.instance] = trip }
            t.sources = sources
            // Like a real start: the first feed update is message 1 of each topic.
            t.sequences[.tripUpdates] = 1
            t.sequences[.sources] = 1
        }
    }

    private func publish(_ payload: LivePayload, send shouldSend: Bool, change: (inout Truth) -> Void) {
        box.truth.withLock { t in
            change(&t)
            let seq = (t.sequences[payload.topic] ?? 0) + 1
            t.sequences[payload.topic] = seq
            if shouldSend { send(PubMessage(epoch: t.epoch, seq: seq, sentUnixMs: 0, payload: payload)) }
        }
    }

    private func send(_ message: PubMessage) {
        try? publisher.publish(RealtimeCodec.encodeFramed(message))
    }

    // MARK: REP

    private static func answer(_ bytes: UnsafeRawBufferPointer, box: TruthBox) -> [UInt8] {
        guard let request = try? RealtimeCodec.decodeRequest(bytes) else {
            return RealtimeCodec.encode(
                RealtimeResponse(requestId: 0, result: .failure(ServiceError(.badRequest, "bad request"))))
        }
        while !box.truth.withLock({ $0.answering }) { usleep(20_000) }
        let result: Result<RealtimeResult, ServiceError> = box.truth.withLock { t in
            switch request.query {
            case .snapshot(let topic):
                guard let payload = t.payload(topic) else {
                    return .failure(ServiceError(.invalidArgument, "no snapshot of \(topic)"))
                }
                t.snapshotRequests[topic, default: 0] += 1
                return .success(
                    .snapshot(RealtimeSnapshot(epoch: t.epoch, seq: t.sequences[topic] ?? 0, payload: payload)))
            case .vehicles(.route(let id)):
                return .success(.vehicles(t.vehicles.values.filter { $0.routeId == id }.sorted { $0.key < $1.key }))
            case .vehicles(.trip(let id)):
                return .success(.vehicles(t.vehicles.values.filter { $0.tripId == id }.sorted { $0.key < $1.key }))
            default:
                return .failure(ServiceError(.invalidArgument, "the fake answers snapshots and vehicles only"))
            }
        }
        return RealtimeCodec.encode(RealtimeResponse(requestId: request.requestId, result: result))
    }
}
