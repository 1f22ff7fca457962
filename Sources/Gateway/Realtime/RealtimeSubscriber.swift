import Foundation
import Logging
import NNGKit
import ProcessSupport
import Synchronization
import TransitModel
import TransitProto

/// Feeds a `RealtimeView` from the realtime service's PUB stream (protocol/README.md flows 3–4).
///
/// A dedicated thread at background priority (never a NIO event loop, never the cooperative pool: it blocks
/// on nng; applying a full update yields the CPU to the event loops answering requests) subscribes to
/// every topic, then keeps each stateful topic in sync with the snapshot handshake: a snapshot over REQ at
/// start and after any gap, epoch change or lost tail (seen in a heartbeat), then the messages after it. After
/// each burst of messages the working state goes to the view, with the stop ids whose boards changed. No
/// message for the view's silence limit: the topics are re-synced (retrying with backoff) and the view, which
/// counts only PUB traffic as heard, serves static_only until the publisher is heard again; nothing needs a
/// restart.
public final class RealtimeSubscriber: Sendable {
    public struct Options: Sendable {
        /// The realtime service's PUB socket.
        public var subscribeURL: String
        /// Its REP socket (snapshots).
        public var realtimeURL: String
        /// One snapshot round trip.
        public var snapshotTimeout: Duration
        /// Backoff between failed snapshot attempts: doubles from `retryMin` up to `retryMax`.
        public var retryMin: Duration
        public var retryMax: Duration

        public init(
            subscribeURL: String, realtimeURL: String, snapshotTimeout: Duration = .seconds(1),
            retryMin: Duration = .milliseconds(200), retryMax: Duration = .seconds(2)
        ) {
            self.subscribeURL = subscribeURL
            self.realtimeURL = realtimeURL
            self.snapshotTimeout = snapshotTimeout
            self.retryMin = retryMin
            self.retryMax = retryMax
        }
    }

    /// SUB `RECVMAXSZ` and `RECVBUF` (protocol/README.md limits).
    static let maxMessageBytes = 64 << 20
    static let receiveBufferMessages = 1024

    public let options: Options
    let view: RealtimeView
    private let subscriber: NNGSubscriber
    private let client: RealtimeClient
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let ended = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Dials both sockets (non-blocking: the service may come up later). `start` runs the loop.
    public init(view: RealtimeView, options: Options, logger: Logger) throws(NNGError) {
        self.view = view
        self.options = options
        self.logger = logger
        // Several URLs: a realtime service and its standby (only the active one publishes and answers).
        subscriber = try NNGSubscriber(
            dialing: NNGURLList.split(options.subscribeURL),
            topics: RealtimeTopic.allCases.map(\.prefix),
            maxReceiveSize: Self.maxMessageBytes, receiveBuffer: Self.receiveBufferMessages)
        try? subscriber.socket.setReconnectInterval(min: .milliseconds(50), max: .milliseconds(500))
        do {
            client = try RealtimeClient(url: options.realtimeURL, timeout: options.snapshotTimeout)
        } catch {
            subscriber.close()
            throw error
        }
    }

    /// Starts the subscriber's thread.
    public func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            // Decoding and applying a full update is background work: the event loops answering requests
            // come first.
            ThreadPriority.lowerCurrentThread()
            var loop = SubscriberLoop(owner: self)
            loop.run()
            let waiters = ended.withLock { e in
                e.done = true
                defer { e.waiters = [] }
                return e.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = "realtime-subscriber"
        thread.start()
    }

    /// Stops the loop and closes the sockets (a blocked receive or snapshot ends at once).
    public func stop() async {
        stopping.store(true, ordering: .relaxed)
        subscriber.close()
        client.close()
        guard started.load(ordering: .relaxed) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = ended.withLock { e in
                if !e.done { e.waiters.append(continuation) }
                return e.done
            }
            if done { continuation.resume() }
        }
    }

    // MARK: for the loop

    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// The next message within `timeout`; nil on timeout; throws once the socket is closed.
    func receive(timeout: Duration) throws(NNGError) -> [UInt8]? {
        do {
            return try subscriber.receive(timeout: timeout)
        } catch  where error.isTimedOut {
            return nil
        }
    }

    func snapshot(_ topic: RealtimeTopic) throws(RealtimeClientError) -> RealtimeSnapshot {
        try client.snapshot(topic)
    }

    var log: Logger { logger }
}

/// The loop's state, owned by the subscriber's thread.
private struct SubscriberLoop {
    let owner: RealtimeSubscriber
    var sequencers: [RealtimeTopic: TopicSequencer] = [:]
    var assembler = LiveStateAssembler()
    /// The epoch of the last PUB message or snapshot.
    var epoch: UInt64?
    var lastHeard: ContinuousClock.Instant?
    /// PUB traffic since the last hand-over to the view.
    var heardSinceHandOver = false
    /// The current silence was noticed (topics unsynced once per silence).
    var silenceNoted = false
    var nextAttempt = ContinuousClock.now
    var backoff: Duration
    /// Snapshot attempts that failed in a row.
    var failedAttempts = 0
    var lastDecodeWarning: ContinuousClock.Instant?
    /// The lower epoch last logged as dropped.
    var lastLowerEpoch: UInt64?

    /// Messages handled before the state goes to the view even if more are waiting.
    static let burst = 512
    /// Longest wait for a message before the loop checks timers.
    static let poll = Duration.milliseconds(100)

    init(owner: RealtimeSubscriber) {
        self.owner = owner
        backoff = owner.options.retryMin
        for topic in RealtimeTopic.stateful { sequencers[topic] = TopicSequencer() }
    }

    mutating func run() {
        owner.log.info(
            "realtime subscriber started",
            metadata: [
                "subscribe": "\(owner.options.subscribeURL)", "realtime": "\(owner.options.realtimeURL)",
            ])
        while !owner.isStopping {
            do {
                let wait = max(.zero, min(Self.poll, nextAttempt - .now))
                if let first = try owner.receive(timeout: needsSync ? wait : Self.poll) {
                    handle(first)
                    var count = 1
                    while count < Self.burst, let more = try owner.receive(timeout: .zero) {
                        handle(more)
                        count += 1
                    }
                }
            } catch {
                if !owner.isStopping { owner.log.error("realtime subscriber socket failed: \(error)") }
                break
            }
            if owner.isStopping { break }
            checkSilence()
            if needsSync && ContinuousClock.now >= nextAttempt { syncTopics() }
            handOver()
        }
        owner.log.info("realtime subscriber stopped")
    }

    var needsSync: Bool { sequencers.values.contains { !$0.synced } }

    // MARK: messages

    mutating func handle(_ bytes: [UInt8]) {
        let message: PubMessage
        do {
            message = try RealtimeCodec.decodeFramed(bytes)
        } catch {
            // A bad message is dropped; its sequence number goes missing, which the handshake repairs.
            if lastDecodeWarning.map({ ContinuousClock.now - $0 > .seconds(10) }) ?? true {
                owner.log.warning("undecodable realtime PUB message dropped: \(error)")
                lastDecodeWarning = .now
            }
            return
        }
        // Fencing: a former leader that woke up (a lower epoch) is not followed, and not counted as heard.
        guard owner.view.admit(epoch: message.epoch) else {
            noteLowerEpoch(message.epoch)
            return
        }
        lastHeard = .now
        heardSinceHandOver = true
        if let epoch, message.epoch != epoch {
            owner.log.notice(
                "realtime publisher restarted or a new leader elected (new epoch): re-syncing every topic",
                metadata: ["epoch": "\(message.epoch)", "previous": "\(epoch)"])
            for topic in sequencers.keys { sequencers[topic]?.unsync() }
            nextAttempt = .now
        }
        epoch = message.epoch

        if case .heartbeat(let beat) = message.payload {
            assembler.setSources(beat.sources)
            owner.view.notePublisherResidentBytes(beat.residentBytes)
            owner.view.noteLeader(beat.leader)
            for (topic, seq) in beat.sequences where sequencers[topic] != nil {
                if sequencers[topic]!.heartbeat(epoch: message.epoch, seq: seq) {
                    owner.log.notice("realtime \(topic.rawValue) messages lost (heartbeat at \(seq)): re-syncing")
                    nextAttempt = min(nextAttempt, .now)
                }
            }
            return
        }
        guard sequencers[message.topic] != nil else { return }
        switch sequencers[message.topic]!.offer(message) {
        case .apply:
            assembler.apply(message.payload)
        case .ignore, .buffered:
            break
        case .needsSnapshot:
            owner.log.notice("realtime \(message.topic.rawValue) gap at \(message.seq): re-syncing")
        }
    }

    /// Logs the first message of a lower epoch per epoch (the count is in `stats`).
    mutating func noteLowerEpoch(_ lower: UInt64) {
        guard lastLowerEpoch != lower else { return }
        lastLowerEpoch = lower
        owner.log.warning(
            "realtime message of a lower epoch dropped (a former leader)",
            metadata: ["epoch": "\(lower)", "following": "\(owner.view.epoch.map(String.init) ?? "-")"])
    }

    // MARK: snapshots

    /// Takes a snapshot of every unsynced topic; stops at the first failure and retries after the backoff.
    mutating func syncTopics() {
        for topic in RealtimeTopic.stateful where sequencers[topic]?.synced == false {
            let snapshot: RealtimeSnapshot
            do {
                snapshot = try owner.snapshot(topic)
            } catch {
                if owner.isStopping { return }
                // The first failure is worth a warning; the retries while the service stays down are not.
                failedAttempts += 1
                owner.log.log(
                    level: failedAttempts == 1 ? .warning : .debug, "realtime snapshot failed, retrying in \(backoff)",
                    metadata: [
                        "topic": "\(topic.rawValue)", "error": "\(error)", "attempt": "\(failedAttempts)",
                    ])
                nextAttempt = .now + backoff
                backoff = min(backoff * 2, owner.options.retryMax)
                return
            }
            guard owner.view.admit(epoch: snapshot.epoch) else {
                // A former leader's REP answered: ask again (the new leader's answers).
                noteLowerEpoch(snapshot.epoch)
                nextAttempt = .now + backoff
                backoff = min(backoff * 2, owner.options.retryMax)
                return
            }
            assembler.applySnapshot(snapshot.payload)
            let (apply, gap) = sequencers[topic]!.snapshotApplied(epoch: snapshot.epoch, seq: snapshot.seq)
            for message in apply { assembler.apply(message.payload) }
            if epoch != snapshot.epoch {
                // The service restarted since the last message: the other topics' states are of the old one.
                if epoch != nil {
                    for other in sequencers.keys where other != topic && sequencers[other]?.epoch != snapshot.epoch {
                        sequencers[other]?.unsync()
                    }
                }
                epoch = snapshot.epoch
            }
            owner.log.debug(
                "realtime snapshot applied",
                metadata: [
                    "topic": "\(topic.rawValue)", "seq": "\(snapshot.seq)", "replayed": "\(apply.count)",
                    "gap": "\(gap)",
                ])
        }
        if failedAttempts > 0 {
            owner.log.notice("realtime snapshots answered again after \(failedAttempts) failed attempts")
            failedAttempts = 0
        }
        backoff = owner.options.retryMin
        nextAttempt = .now
    }

    // MARK: silence and hand-over

    /// No message for the silence limit: the state can no longer be trusted to follow the stream; re-sync
    /// (with backoff) so it is current when the publisher is heard again.
    mutating func checkSilence() {
        guard let lastHeard else { return }
        if ContinuousClock.now - lastHeard >= owner.view.silenceLimit {
            if !silenceNoted {
                silenceNoted = true
                owner.log.warning(
                    "realtime publisher silent for \(owner.view.silenceLimit): serving static_only until it is heard again"
                )
                for topic in sequencers.keys { sequencers[topic]?.unsync() }
                owner.view.silenceNoticed()
            }
        } else if silenceNoted {
            silenceNoted = false
            owner.log.notice("realtime publisher heard again")
        }
    }

    mutating func handOver() {
        if let change = assembler.takeChange() {
            owner.view.replace(assembler.state, change: change, heard: heardSinceHandOver)
        } else if heardSinceHandOver {
            owner.view.heartbeat()
        }
        heardSinceHandOver = false
    }
}
