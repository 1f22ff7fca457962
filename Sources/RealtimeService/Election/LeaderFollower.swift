import Foundation
import Logging
import NNGKit
import Synchronization
import TransitModel
import TransitProto

/// A standby's record of the leader's departures (`serve --election` with `--delay-store`): it subscribes to the
/// leader's PUB stream (`tu`, `vp`) and applies each batch to a hub of its own that sends nowhere, so its
/// `TypicalDelays` sees the same transitions the leader's does and its delay store keeps recording; when it
/// takes over, it has the history up to the moment the leader stopped. A new epoch (another leader) starts the
/// hub afresh (its first batch per trip records nothing, as after a start); a lost message is like a longer
/// poll interval (the next batch carries each trip in full), not a wrong sample.
///
/// A dedicated thread (it blocks on nng), stopped by `stop()`, which also writes what is waiting and closes the
/// store, so the service taking over opens it alone.
final class LeaderFollower: Sendable {
    let publishURL: String
    private let subscriber: NNGSubscriber
    private let delays: TypicalDelays
    private let logger: Logger
    private let nowMs: @Sendable () -> Int64
    private let stopping = Atomic<Bool>(false)
    private let applied = Atomic<Int>(0)
    private let ended = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Dials the leader's PUB URL (non-blocking); `start()` runs the loop. `nowMs`: the service clock, as the
    /// leader's hub has it.
    init(
        publishURL: String, delays: TypicalDelays, nowMs: @escaping @Sendable () -> Int64, logger: Logger
    ) throws(NNGError) {
        self.publishURL = publishURL
        self.delays = delays
        self.nowMs = nowMs
        self.logger = logger
        subscriber = try NNGSubscriber(
            dialing: publishURL, topics: [RealtimeTopic.tripUpdates.prefix, RealtimeTopic.vehicles.prefix],
            maxReceiveSize: 64 << 20, receiveBuffer: 1024)
        try? subscriber.socket.setReconnectInterval(min: .milliseconds(50), max: .milliseconds(500))
    }

    /// Trip-update and vehicle batches applied so far.
    var appliedBatches: Int { applied.load(ordering: .relaxed) }

    func start() {
        let thread = Thread { [self] in
            loop()
            let waiters = ended.withLock { e in
                e.done = true
                defer { e.waiters = [] }
                return e.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = "leader-follower"
        thread.start()
    }

    /// Stops following, writes the waiting samples and closes the store.
    func stop() async {
        stopping.store(true, ordering: .relaxed)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = ended.withLock { e in
                if !e.done { e.waiters.append(continuation) }
                return e.done
            }
            if done { continuation.resume() }
        }
        subscriber.close()
        do {
            try delays.close()
        } catch {
            logger.error("writing the delay store after following failed", metadata: ["error": "\(error)"])
        }
    }

    private func loop() {
        logger.info("following the leader's stream to record departure delays", metadata: ["publish": "\(publishURL)"])
        var epoch: UInt64?
        var hub = RealtimeHub(sink: DiscardingSink(), epoch: 0, nowMs: nowMs, delays: delays)
        while !stopping.load(ordering: .relaxed) {
            let bytes: [UInt8]
            do {
                bytes = try subscriber.receive(timeout: .milliseconds(200))
            } catch  where error.isTimedOut {
                if let error = delays.flushIfDue() {
                    logger.warning("writing the delay store failed", metadata: ["error": "\(error)"])
                }
                continue
            } catch {
                if !stopping.load(ordering: .relaxed) { logger.error("following the leader failed: \(error)") }
                return
            }
            guard let message = try? RealtimeCodec.decodeFramed(bytes) else { continue }
            if epoch != message.epoch {
                // Another leader (or the same one restarted): its batches describe its own state.
                hub = RealtimeHub(sink: DiscardingSink(), epoch: 0, nowMs: nowMs, delays: delays)
                epoch = message.epoch
            }
            var changes = LiveChanges()
            switch message.payload {
            case .tripUpdates(let batch):
                changes.trips = batch.trips
                changes.removedTrips = batch.removed
            case .vehicles(let batch):
                changes.vehicles = batch.vehicles
                changes.removedVehicles = batch.removed
            default:
                continue
            }
            hub.publish(changes, sources: nil)
            applied.add(1, ordering: .relaxed)
        }
        logger.info("stopped following the leader", metadata: ["batches": "\(appliedBatches)"])
    }
}

/// Frames nobody receives (the follower's hub).
struct DiscardingSink: FrameSink {
    func send(_ frame: [UInt8]) throws {}
}
