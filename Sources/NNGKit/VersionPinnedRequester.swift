import CNNG
import Synchronization

/// A REQ client of several replicas of one versioned database that answers from one version at a time
/// while a rollout puts the replicas on different versions (`VersionPin` has the rule).
///
/// One REQ socket per replica, not one socket dialing them all: a socket dialing several peers picks the
/// peer itself, so it cannot send a request to a replica on the pinned version. In exchange this client does
/// what that socket did for free: it spreads requests over the replicas (round robin within the pinned
/// ones), and a request whose replica goes away (its connection drops) is sent to another replica within its
/// deadline. Connections are watched through nng's pipe events, so a lost replica is noticed at once, not
/// when a request times out.
///
/// An answer from another version than the pinned one is not used while a replica that may be on the pinned
/// version is left to ask; if none is, it is used (an answer beats a failure) and marked as such
/// (`VersionedAnswer.onPinnedVersion`), so caches of the pinned version leave it out. A request that carries
/// a cursor is bound to the cursor's version (`answer(onlyVersion:)`): no other version answers it. A background probe (when
/// `probe` is given) asks every connected replica every `probeInterval`, so the client learns the versions
/// of replicas it sends no requests to and moves when they all have the new one.
public final class VersionPinnedRequester: Sendable {
    /// One URL per replica, in the order given.
    public let urls: [String]
    /// The URLs joined by commas (for messages).
    public let url: String
    public let defaultTimeout: Duration
    private let requesters: [NNGRequester]
    private let links: [ReplicaLink]
    private let shared: Shared
    private let turn = Atomic<Int>(0)
    private let prober = Mutex<(task: Task<Void, Never>?, closed: Bool)>((nil, false))

    /// The pin and who wants to hear of moves; shared with the pipe-event callbacks.
    private final class Shared: Sendable {
        let pin: Mutex<VersionPin>
        let listeners = Mutex<[@Sendable (VersionPin.Move) -> Void]>([])
        init(count: Int) { pin = Mutex(VersionPin(replicas: count)) }

        func tell(_ move: VersionPin.Move?) {
            guard let move else { return }
            for listener in listeners.withLock({ $0 }) { listener(move) }
        }
    }

    /// Dials every one of `urls` (non-blocking), one REQ socket each.
    public init(
        dialing urls: [String], defaultTimeout: Duration = .seconds(5), maxReplySize: Int = 64 << 20,
        reconnect: (min: Duration, max: Duration)? = nil
    ) throws(NNGError) {
        precondition(!urls.isEmpty, "VersionPinnedRequester needs a URL to dial")
        self.urls = urls
        self.url = urls.joined(separator: ",")
        self.defaultTimeout = defaultTimeout
        let shared = Shared(count: urls.count)
        self.shared = shared
        var requesters: [NNGRequester] = []
        var links: [ReplicaLink] = []
        for (index, url) in urls.enumerated() {
            let link = ReplicaLink { connected in
                if connected {
                    shared.pin.withLock { $0.connected(index) }
                } else {
                    shared.tell(shared.pin.withLock { $0.disconnected(index) })
                }
            }
            // The socket is made here and dialed after the pipe events are hooked, so no connection is missed.
            let requester = try NNGRequester(
                socket: NNGSocket.req(), urls: [url], defaultTimeout: defaultTimeout, maxReplySize: maxReplySize,
                reconnect: reconnect
            ) { socket throws(NNGError) in try link.watch(socket) }
            requesters.append(requester)
            links.append(link)
        }
        self.requesters = requesters
        self.links = links
    }

    /// Calls `listener` (on an nng or a requesting thread; keep it short) each time the pin moves.
    public func onMove(_ listener: @escaping @Sendable (VersionPin.Move) -> Void) {
        shared.listeners.withLock { $0.append(listener) }
    }

    /// The version answers are taken from, and what is known of each replica (for stats).
    public var pin: VersionPin { shared.pin.withLock { $0 } }

    /// Asks every connected replica `probe` once per `interval`, in the background, reading each answer's
    /// version with `version` (nil: unreadable); until `close`.
    public func startProbing(
        _ probe: [UInt8], every interval: Duration, version: @escaping @Sendable ([UInt8]) -> String?
    ) {
        prober.withLock { p in
            guard p.task == nil, !p.closed else { return }
            p.task = Task.detached { [requesters, links, shared] in
                while !Task.isCancelled {
                    await withTaskGroup(of: Void.self) { group in
                        for index in requesters.indices where links[index].isConnected {
                            group.addTask {
                                guard let reply = try? await requesters[index].request(probe, timeout: interval * 2)
                                else { return }
                                shared.tell(shared.pin.withLock { $0.answered(index, version: version(reply)) })
                            }
                        }
                    }
                    try? await Task.sleep(for: interval)
                }
            }
        }
    }

    /// Stops the probe and closes every socket (requests in flight fail with `isClosed`).
    public func close() {
        let task = prober.withLock { p in
            p.closed = true
            return p.task
        }
        task?.cancel()
        for requester in requesters { requester.close() }
    }

    /// Sends `bytes` to a replica on the pinned version (see the type's comment) and suspends until an
    /// answer is read (`read`, whose errors are thrown as they are) or `timeout` passes (an `NNGError`,
    /// `isTimedOut`, the last replica's). `version` names the version an answer was read from.
    public func request<Answer: Sendable>(
        _ bytes: [UInt8], timeout: Duration? = nil, read: ([UInt8]) throws -> Answer,
        version: (Answer) -> String?
    ) async throws -> Answer {
        try await answer(bytes, timeout: timeout, read: read, version: version).answer
    }

    /// An answer, the version it was read from and whether that is the pinned one.
    public struct VersionedAnswer<Answer: Sendable>: Sendable {
        public var answer: Answer
        /// The version the answer names (nil: it names none).
        public var version: String?
        /// Read from the pinned version (or naming none). False: another version's answer, used because no
        /// replica that may be on the pinned one answered within the deadline; a cache of the pinned
        /// version must not keep it.
        public var onPinnedVersion: Bool
    }

    /// A request bound to one version (`onlyVersion`) found no replica on it that answered: replicas on
    /// other versions were left out or their answers not used.
    public struct VersionNotAnswered: Error, Sendable, CustomStringConvertible {
        /// The version the request needs.
        public var version: String
        /// A replica on another version answered (so the service is up; the answer was not used).
        public var otherVersionAnswered: Bool
        /// The error of the last replica asked on `version` (nil: none was asked).
        public var lastError: NNGError?
        public var description: String {
            "no replica on database version \(version) answered" + (lastError.map { " (\($0))" } ?? "")
        }
    }

    /// `request`, with the answer's version. `onlyVersion` (a request carrying a cursor of that version)
    /// sends the request only to replicas that may be on that version and uses only an answer from it;
    /// when none answers within the deadline while replicas on other versions exist (known, or answering),
    /// `VersionNotAnswered`. Without it, an answer from another version is used when no replica that may be
    /// on the pinned one answers (an answer beats a failure).
    public func answer<Answer: Sendable>(
        _ bytes: [UInt8], timeout: Duration? = nil, onlyVersion: String? = nil, read: ([UInt8]) throws -> Answer,
        version: (Answer) -> String?
    ) async throws -> VersionedAnswer<Answer> {
        if requesters.count == 1 {
            // One replica: nothing to choose or to redirect to, and nng's REQ socket itself resends a request
            // whose connection drops once it reconnects, so no task, link or retry bookkeeping per request.
            let answer = try read(try await requesters[0].request(bytes, timeout: timeout ?? defaultTimeout))
            let answerVersion = version(answer)
            let (move, pinned) = shared.pin.withLock { p in
                (p.answered(0, version: answerVersion), p.isPinned(answerVersion))
            }
            shared.tell(move)
            if let onlyVersion, let answerVersion, answerVersion != onlyVersion {
                throw VersionNotAnswered(version: onlyVersion, otherVersionAnswered: true, lastError: nil)
            }
            return VersionedAnswer(answer: answer, version: answerVersion, onPinnedVersion: pinned)
        }
        let deadline = ContinuousClock.now + (timeout ?? defaultTimeout)
        let turn = turn.add(1, ordering: .relaxed).newValue
        var tried = Set<Int>()
        var offPin: VersionedAnswer<Answer>?
        var otherVersionAnswered = false
        var lastError: NNGError?
        while true {
            let (order, pin) = shared.pin.withLock { ($0.order(turn: turn), $0) }
            let untried = order.filter { !tried.contains($0) }
            // Bound to a version, only its replicas help; with an answer from another version in hand, only a
            // replica that may be on the pinned one does.
            let next: Int?
            if let onlyVersion {
                next = untried.first { pin.mayBeOn(onlyVersion, $0) }
            } else {
                next = offPin == nil ? untried.first : untried.first(where: pin.mayBePinned)
            }
            guard let index = next else { break }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { break }
            tried.insert(index)
            let reply: [UInt8]
            do {
                reply = try await attempt(
                    index, bytes, timeout: remaining, connected: pin.replicas[index].connected)
            } catch let error as NNGError {
                if error.isClosed { throw error }
                lastError = error
                continue
            } catch is ReplicaLost {
                // Asked again if no other replica answers first: it may reconnect within the deadline
                // (a single static service restarting costs no request, as with one socket).
                tried.remove(index)
                continue
            }
            let answer = try read(reply)
            let answerVersion = version(answer)
            let (move, pinned) = shared.pin.withLock { p in
                (p.answered(index, version: answerVersion), p.isPinned(answerVersion))
            }
            shared.tell(move)
            if let onlyVersion {
                if answerVersion == nil || answerVersion == onlyVersion {
                    return VersionedAnswer(answer: answer, version: answerVersion, onPinnedVersion: pinned)
                }
                otherVersionAnswered = true
                continue
            }
            if pinned { return VersionedAnswer(answer: answer, version: answerVersion, onPinnedVersion: true) }
            offPin = VersionedAnswer(answer: answer, version: answerVersion, onPinnedVersion: false)
        }
        if let offPin { return offPin }
        if let onlyVersion,
            otherVersionAnswered || shared.pin.withLock({ $0.someConnectedReplicaIsNotOn(onlyVersion) })
        {
            throw VersionNotAnswered(
                version: onlyVersion, otherVersionAnswered: otherVersionAnswered, lastError: lastError)
        }
        throw lastError ?? NNGError(operation: "request to \(url)", code: Int32(NNG_ETIMEDOUT.rawValue))
    }

    /// The replica's connection dropped while it held the request.
    private struct ReplicaLost: Error {}

    /// One round trip to replica `index`; ReplicaLost when its connection drops meanwhile (or dropped
    /// since it was chosen as `connected`).
    private func attempt(_ index: Int, _ bytes: [UInt8], timeout: Duration, connected: Bool) async throws -> [UInt8] {
        let requester = requesters[index]
        let task = Task { try await requester.request(bytes, timeout: timeout) }
        let (token, stillConnected) = links[index].register { task.cancel() }
        defer { links[index].unregister(token) }
        if connected && !stillConnected { task.cancel() }
        return try await withTaskCancellationHandler {
            do {
                return try await task.value
            } catch is CancellationError {
                if Task.isCancelled { throw CancellationError() }
                throw ReplicaLost()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// One replica's connection as nng's pipe events report it, and the requests it holds (cancelled when the
/// connection drops, so they go to another replica instead of waiting for this one to come back).
final class ReplicaLink: Sendable {
    private struct State {
        var pipes = 0
        var inFlight: [UInt64: @Sendable () -> Void] = [:]
        var nextToken: UInt64 = 0
    }
    private let state = Mutex(State())
    private let changed: @Sendable (Bool) -> Void

    init(changed: @escaping @Sendable (Bool) -> Void) { self.changed = changed }

    var isConnected: Bool { state.withLock { $0.pipes > 0 } }

    /// Hooks the pipe events of `socket` (before it dials). The link is retained for good: nng may call the
    /// callback until the socket is closed, and a few bytes per replica are not worth a race.
    func watch(_ socket: NNGSocket) throws(NNGError) {
        let context = Unmanaged.passRetained(self).toOpaque()
        for event in [NNG_PIPE_EV_ADD_POST, NNG_PIPE_EV_REM_POST] {
            try check("watch connections", nng_pipe_notify(socket.handle, event, replicaPipeEvent, context))
        }
    }

    fileprivate func pipe(added: Bool) {
        let (cancels, connected) = state.withLock { s -> ([@Sendable () -> Void], Bool) in
            s.pipes = max(0, s.pipes + (added ? 1 : -1))
            guard !added, s.pipes == 0 else { return ([], s.pipes > 0) }
            return (Array(s.inFlight.values), false)
        }
        changed(connected)
        for cancel in cancels { cancel() }
    }

    /// Keeps `cancel` until `unregister`, to be called when the connection drops; and whether it is up now.
    func register(_ cancel: @escaping @Sendable () -> Void) -> (token: UInt64, connected: Bool) {
        state.withLock { s in
            s.nextToken += 1
            s.inFlight[s.nextToken] = cancel
            return (s.nextToken, s.pipes > 0)
        }
    }

    func unregister(_ token: UInt64) {
        _ = state.withLock { $0.inFlight.removeValue(forKey: token) }
    }
}

private let replicaPipeEvent: nng_pipe_cb = { _, event, context in
    guard let context else { return }
    Unmanaged<ReplicaLink>.fromOpaque(context).takeUnretainedValue().pipe(added: event == NNG_PIPE_EV_ADD_POST)
}
