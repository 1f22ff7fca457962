import Foundation
import Logging
import NNGKit
import ProcessSupport
import Synchronization
import TransitModel
import TransitProto

/// What a `RealtimeSubscriber` feeds: the state of the topics it follows, kept on the subscriber's thread (the
/// calls come from it alone, in order), handed to readers in `handOver`. The gateway's is `GatewayLiveFeed` (its
/// boards' view); the static service's is the planner's live trips.
public protocol RealtimeStreamConsumer: Sendable {
    /// A snapshot of the payload's topic replaces what the consumer held of that topic.
    mutating func applySnapshot(_ payload: LivePayload)
    /// One PUB message of a followed topic, in sequence, on top of the state.
    mutating func apply(_ payload: LivePayload)
    /// A heartbeat of the epoch followed (source statuses, the publisher's size and leader).
    mutating func heartbeat(_ beat: LiveHeartbeat)
    /// The publisher has been silent for the silence limit: the state can no longer be trusted (the topics are
    /// re-synced when it is heard again).
    mutating func silenceNoticed()
    /// After each burst of messages (and at least every poll): hand what changed to the readers. `heard`: PUB
    /// traffic came since the last call.
    mutating func handOver(heard: Bool)
}

/// Follows the realtime service's PUB stream (protocol/README.md flows 3–4) for a `RealtimeStreamConsumer`.
///
/// A dedicated thread at background priority (never a NIO event loop, never the cooperative pool: it blocks
/// on nng; applying a full update yields the CPU to the threads answering requests) subscribes to the followed
/// topics and heartbeats, then keeps each followed topic in sync with the snapshot handshake: a snapshot over REQ
/// at start and after any gap, epoch change or lost tail (seen in a heartbeat), then the messages after it.
/// Messages and snapshots of an epoch the `EpochFence` refuses (a former leader's) are dropped. After each burst of
/// messages the consumer hands its state over. No message for the silence limit: the consumer is told, the topics
/// are re-synced (retrying with backoff), and nothing needs a restart when the publisher is heard again.
public final class RealtimeSubscriber<Consumer: RealtimeStreamConsumer>: Sendable {
    public struct Options: Sendable {
        /// The realtime service's PUB socket.
        public var subscribeURL: String
        /// Its REP socket (snapshots).
        public var realtimeURL: String
        /// The stateful topics followed (heartbeats always are).
        public var topics: [RealtimeTopic]
        /// No PUB message for this long: the publisher counts as silent.
        public var silenceLimit: Duration
        /// One snapshot round trip.
        public var snapshotTimeout: Duration
        /// Backoff between failed snapshot attempts: doubles from `retryMin` up to `retryMax`.
        public var retryMin: Duration
        public var retryMax: Duration
        /// The subscriber thread's name.
        public var threadName: String

        public init(
            subscribeURL: String, realtimeURL: String, topics: [RealtimeTopic] = RealtimeTopic.stateful,
            silenceLimit: Duration = .seconds(15), snapshotTimeout: Duration = .seconds(1),
            retryMin: Duration = .milliseconds(200), retryMax: Duration = .seconds(2),
            threadName: String = "realtime-subscriber"
        ) {
            self.subscribeURL = subscribeURL
            self.realtimeURL = realtimeURL
            self.topics = topics.filter { RealtimeTopic.stateful.contains($0) }
            self.silenceLimit = silenceLimit
            self.snapshotTimeout = snapshotTimeout
            self.retryMin = retryMin
            self.retryMax = retryMax
            self.threadName = threadName
        }
    }

    /// SUB `RECVMAXSZ` and `RECVBUF` (protocol/README.md limits).
    static var maxMessageBytes: Int { 64 << 20 }
    static var receiveBufferMessages: Int { 1024 }

    public let options: Options
    let fence: EpochFence
    /// The consumer until the thread takes it.
    private let waitingConsumer: Mutex<Consumer?>
    private let subscriber: NNGSubscriber
    private let client: RealtimeClient
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let ended = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Dials both sockets (non-blocking: the service may come up later). `start` runs the loop.
    public init(consumer: Consumer, fence: EpochFence, options: Options, logger: Logger) throws(NNGError) {
        waitingConsumer = Mutex(consumer)
        self.fence = fence
        self.options = options
        self.logger = logger
        // Several URLs: a realtime service and its standby (only the active one publishes and answers).
        subscriber = try NNGSubscriber(
            dialing: NNGURLList.split(options.subscribeURL),
            topics: (options.topics + [.heartbeat]).map(\.prefix),
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
            if let consumer = waitingConsumer.withLock({ c in
                defer { c = nil }
                return c
            }) {
                var loop = SubscriberLoop(owner: self, consumer: consumer)
                loop.run()
            }
            let waiters = ended.withLock { e in
                e.done = true
                defer { e.waiters = [] }
                return e.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = options.threadName
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
private struct SubscriberLoop<Consumer: RealtimeStreamConsumer> {
    let owner: RealtimeSubscriber<Consumer>
    var sequencers: [RealtimeTopic: TopicSequencer] = [:]
    var consumer: Consumer
    /// The epoch of the last PUB message or snapshot.
    var epoch: UInt64?
    var lastHeard: ContinuousClock.Instant?
    /// PUB traffic since the last hand-over.
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

    /// Messages handled before the consumer hands its state over even if more are waiting.
    static var burst: Int { 512 }
    /// Longest wait for a message before the loop checks timers.
    static var poll: Duration { .milliseconds(100) }

    init(owner: RealtimeSubscriber<Consumer>, consumer: Consumer) {
        self.owner = owner
        self.consumer = consumer
        backoff = owner.options.retryMin
        for topic in owner.options.topics { sequencers[topic] = TopicSequencer() }
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
        guard owner.fence.admit(epoch: message.epoch) else {
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
            owner.fence.noteLeader(beat.leader)
            consumer.heartbeat(beat)
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
            consumer.apply(message.payload)
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
            metadata: ["epoch": "\(lower)", "following": "\(owner.fence.epoch.map(String.init) ?? "-")"])
    }

    // MARK: snapshots

    /// Takes a snapshot of every unsynced topic; stops at the first failure and retries after the backoff.
    mutating func syncTopics() {
        for topic in owner.options.topics where sequencers[topic]?.synced == false {
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
            guard owner.fence.admit(epoch: snapshot.epoch) else {
                // A former leader's REP answered: ask again (the new leader's answers).
                noteLowerEpoch(snapshot.epoch)
                nextAttempt = .now + backoff
                backoff = min(backoff * 2, owner.options.retryMax)
                return
            }
            consumer.applySnapshot(snapshot.payload)
            let (apply, gap) = sequencers[topic]!.snapshotApplied(epoch: snapshot.epoch, seq: snapshot.seq)
            for message in apply { consumer.apply(message.payload) }
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
        if ContinuousClock.now - lastHeard >= owner.options.silenceLimit {
            if !silenceNoted {
                silenceNoted = true
                owner.log.warning(
                    "realtime publisher silent for \(owner.options.silenceLimit): its live state is not used until it is heard again"
                )
                for topic in sequencers.keys { sequencers[topic]?.unsync() }
                consumer.silenceNoticed()
            }
        } else if silenceNoted {
            silenceNoted = false
            owner.log.notice("realtime publisher heard again")
        }
    }

    mutating func handOver() {
        consumer.handOver(heard: heardSinceHandOver)
        heardSinceHandOver = false
    }
}
