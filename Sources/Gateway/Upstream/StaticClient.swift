import GatewayProtocol
import NNGKit
import ProcessSupport
import Synchronization
import TransitModel
import TransitProto

/// The gateway's REQ client of the static service: one `StaticRequest` per call, one nng context each (any
/// number at once), never blocking a thread. Failures come back as the gateway's errors (protocol/README.md):
/// no answer within `timeout` or UNAVAILABLE → STATIC_UNAVAILABLE; NOT_FOUND and INVALID_ARGUMENT pass
/// through; an answer that does not decode → INTERNAL. The socket redials by itself, so a service that
/// restarts is used again without restarting the gateway.
///
/// Several replicas (`urls`) are asked through a `VersionPinnedRequester`: answers come from one database
/// version at a time, and the client moves to a new import once every replica it reaches has it
/// (protocol/README.md "A new timetable across replicas"); `onVersionMove` hears of the move (caches drop
/// what they hold of the old version). `reply(to:)` tells whether an answer may be cached (it is from the
/// pinned version) and binds a departures page that carries a static cursor to the cursor's version.
///
/// Every round trip goes through a circuit breaker (`StaticBreaker`): while the service is known to be down,
/// requests get STATIC_UNAVAILABLE at once, and a background task probes it once per `probeInterval` until it
/// answers (no client's request ever waits for a probe).
final class StaticClient: Sendable {
    /// Replies may be large (bulk schedules); protocol/README.md "REQ → static RECVMAXSZ".
    static let maxReplyBytes = 64 << 20

    /// The static service's URLs (one per replica), joined by commas for messages.
    let url: String
    /// One URL per replica.
    var urls: [String] { requester.urls }
    let timeout: Duration
    private let requester: VersionPinnedRequester
    /// Answers per replica (`served_by`), for `stats`: shows how nng spreads requests over replicas.
    private let answersByReplica = Mutex<[String: Int]>([:])
    private let nextRequestId = Atomic<UInt64>(UInt64.random(in: 1...(1 << 32)))
    private let breaker: Mutex<StaticBreaker>
    /// Dates an outage's start (`health`).
    private let clock: ServiceClock
    /// The background prober while the service is down; `closed` once `close` was called.
    private let prober = Mutex<(task: Task<Void, Never>?, closed: Bool)>((nil, false))

    convenience init(
        url: String, timeout: Duration, probeInterval: Duration = .milliseconds(500), clock: ServiceClock = .system
    ) throws(NNGError) {
        try self.init(urls: [url], timeout: timeout, probeInterval: probeInterval, clock: clock)
    }

    /// One REQ socket per replica of `urls` (replicas of one database): requests are spread over the
    /// replicas on the pinned version, and one whose replica went away is sent to another. With several
    /// replicas, each is asked its feed_info every `versionProbe` to learn its version.
    init(
        urls: [String], timeout: Duration, probeInterval: Duration = .milliseconds(500), clock: ServiceClock = .system,
        versionProbe: Duration = .seconds(1)
    ) throws(NNGError) {
        self.url = urls.joined(separator: ",")
        self.clock = clock
        self.timeout = timeout
        breaker = Mutex(StaticBreaker(probeInterval: probeInterval))
        // Find a restarted service quickly, without hammering a dead one.
        requester = try VersionPinnedRequester(
            dialing: urls, defaultTimeout: timeout, maxReplySize: Self.maxReplyBytes,
            reconnect: (.milliseconds(50), .milliseconds(500)))
        if urls.count > 1 {
            requester.startProbing(
                StaticCodec.encode(StaticRequest(requestId: 0, query: .feedInfo)), every: versionProbe,
                version: { try? StaticCodec.decodeResponse($0).databaseVersion })
        }
    }

    /// Calls `listener` when the pinned database version moves to a new import (keep it short).
    func onVersionMove(_ listener: @escaping @Sendable (VersionPin.Move) -> Void) {
        requester.onMove(listener)
    }

    /// The pinned version and what is known of each replica, for `stats`.
    var versionPin: VersionPin { requester.pin }

    func close() {
        let task = prober.withLock { p in
            p.closed = true
            return p.task
        }
        task?.cancel()
        requester.close()
    }

    /// One round trip. Cancellation (the request's deadline passed) ends the wait at once.
    /// While the service is down (the breaker refuses), STATIC_UNAVAILABLE without a round trip.
    func query(_ query: StaticQuery) async -> Result<StaticResult, GatewayError> {
        await reply(to: query).result
    }

    /// A static answer and whether a cache of the pinned database version may keep it.
    struct Reply: Sendable {
        var result: Result<StaticResult, GatewayError>
        /// The database version the answer was read from (nil: a failure, or the service named none).
        var version: String?
        /// A success read from the pinned version. False for failures and for another version's answer,
        /// used during a rolling re-import because no replica on the pinned version answered in time.
        var cacheable: Bool
    }

    /// `query`, with the answer's version. A departures query that carries a static cursor is asked only
    /// of replicas on `cursorVersion` (the version of the page the cursor came from; nil: the pinned
    /// version): a cursor names rows of one import (protocol/README.md "A new timetable across replicas").
    func reply(to query: StaticQuery, cursorVersion: String? = nil) async -> Reply {
        let sent = ContinuousClock.now
        if case .refuse(let error) = breaker.withLock({ $0.admit(now: sent) }) {
            return Reply(result: .failure(error), version: nil, cacheable: false)
        }
        let onlyVersion = query.carriesCursor ? cursorVersion ?? requester.pin.pinned : nil
        return await roundTrip(query, sent: sent, onlyVersion: onlyVersion)
    }

    /// Asks the service, and tells the breaker what happened (starting the prober when it trips).
    private func roundTrip(
        _ query: StaticQuery, sent: ContinuousClock.Instant, onlyVersion: String? = nil
    ) async -> Reply {
        let id = RequestTrace.id ?? nextRequestId.add(1, ordering: .relaxed).newValue
        let answered: VersionPinnedRequester.VersionedAnswer<StaticResponse>
        do {
            answered = try await requester.answer(
                StaticCodec.encode(StaticRequest(requestId: id, query: query)), timeout: timeout,
                onlyVersion: onlyVersion, read: { reply in try StaticCodec.decodeResponse(reply) },
                version: \.databaseVersion)
        } catch let error as VersionPinnedRequester.VersionNotAnswered {
            // Not an outage: replicas on other versions are there (a rolling re-import is under way).
            if error.otherVersionAnswered { breaker.withLock { $0.answered(now: .now) } }
            return Reply(
                result: .failure(
                    GatewayError(
                        .staticUnavailable,
                        "no static replica on database version \(error.version) answered within "
                            + "\(timeout.milliseconds) ms; the request's cursor belongs to that version: "
                            + "ask again without the cursor")), version: nil, cacheable: false)
        } catch let error as NNGError {
            let reason =
                error.isTimedOut ? "no answer within \(timeout.milliseconds) ms" : "could not be asked: \(error)"
            let down = breaker.withLock { b in
                b.failed(sentAt: sent, now: .now, unixNow: clock.unixSeconds, reason: reason)
                return !b.isUp && b.probeInterval > .zero
            }
            if down { startProber() }
            let message =
                error.isTimedOut
                ? "the static service did not answer within \(timeout.milliseconds) ms (\(url))"
                : "the static service could not be asked: \(error)"
            return Reply(result: .failure(GatewayError(.staticUnavailable, message)), version: nil, cacheable: false)
        } catch is CancellationError {
            // The request's deadline passed: says nothing about the service.
            return Reply(
                result: .failure(GatewayError(.timeout, "cancelled while waiting for the static service")),
                version: nil, cacheable: false)
        } catch {
            breaker.withLock { $0.answered(now: .now) }
            return Reply(
                result: .failure(GatewayError(.internal, "the static service's answer did not decode: \(error)")),
                version: nil, cacheable: false)
        }
        breaker.withLock { $0.answered(now: .now) }
        let response = answered.answer
        if let replica = response.servedBy { answersByReplica.withLock { $0[replica, default: 0] += 1 } }
        let result = response.result.mapError { GatewayError(staticError: $0) }
        let succeeded = if case .success = result { true } else { false }
        return Reply(
            result: result, version: answered.version, cacheable: succeeded && answered.onPinnedVersion)
    }

    /// Starts the background prober unless it runs already (or the client is closed).
    private func startProber() {
        prober.withLock { p in
            guard p.task == nil, !p.closed else { return }
            p.task = Task.detached { [weak self] in await self?.probeUntilUp() }
        }
    }

    /// While the breaker says down: one feed_info round trip per probe interval, off every client's path.
    private func probeUntilUp() async {
        while !Task.isCancelled {
            let delay = breaker.withLock { b -> Duration? in
                guard let delay = b.probeDelay(now: .now) else { return nil }
                return delay == .zero && b.takeProbe(now: .now) ? .zero : max(delay, .milliseconds(1))
            }
            guard let delay else {
                // Up again. Stop, unless it tripped again before the prober let go.
                let stopped = prober.withLock { p in
                    if breaker.withLock({ !$0.isUp }) { return false }
                    p.task = nil
                    return true
                }
                if stopped { return }
                continue
            }
            if delay > .zero {
                try? await Task.sleep(for: delay)
                continue
            }
            _ = await roundTrip(.feedInfo, sent: .now)
        }
    }

    /// True when a request now would ask the service (it is up): a background check that would only be
    /// refused is not started.
    var wouldAsk: Bool { breaker.withLock { $0.wouldAsk(now: .now) } }

    /// No request failed since the service last answered (the breaker holds no outage).
    var believedUp: Bool { breaker.withLock { $0.outage == nil } }

    /// Answers per replica name since the gateway started (replicas that never answered are absent).
    var replicaAnswers: [String: Int] { answersByReplica.withLock { $0 } }

    /// The breaker's view of the service, for `health` and `stats`.
    var availability: (outage: StaticBreaker.Outage?, counts: StaticBreaker.Counts, probeInterval: Duration) {
        breaker.withLock { ($0.outage, $0.counts, $0.probeInterval) }
    }
}

extension StaticQuery {
    /// A departures page after the first: its static cursor names rows of one database import.
    var carriesCursor: Bool {
        guard case .departures(let query) = self, let cursor = query.cursor else { return false }
        return !cursor.isEmpty
    }
}
