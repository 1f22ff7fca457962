import GatewayProtocol
import Logging
import NNGKit
import ProcessSupport
import RealtimeFollowing
import TransitModel

/// Answers one parsed request (everything but the per-connection ops `subscribe`/`unsubscribe`/`auth`, which the
/// connection handles with `subscriptionBoard`). Runs off the event loops; every wait on a service is an
/// async nng round trip, so no thread is ever blocked.
final class RequestDispatcher: Sendable {
    let staticClient: StaticClient
    /// Static answers live boards reuse (stations' platforms, details of trips outside the static window).
    let cache: StaticCache
    /// The static rows of hot stops' forward boards.
    let boardCache: BoardWindowCache
    /// The `data` JSON of `stop` and `search` answers, per static query, while the database version holds.
    let staticAnswers: VersionedCache<StaticQuery, [UInt8]>
    /// Static results other ops resolve ids with (`alerts`' stop, the route list), while the version holds.
    let staticResults: VersionedCache<StaticQuery, StaticResult>
    let realtime: RealtimeView
    /// The realtime service's REP, for `vehicles` while the view is not live; nil without `--realtime`.
    let realtimeClient: RealtimeClient?
    /// Recorded departure delays (typical delays of rows, `reliability`), asked from `realtimeClient`.
    let typicalDelays: TypicalDelayCache
    let stats: GatewayStats
    /// "Now" of requests without `at`, of feed ages and of `health`.
    let clock: ServiceClock
    /// How long a plan may search (`--plan-budget-ms`).
    let planBudget: Duration
    /// Gives the heap's free memory back (`stats`' `heap_trim`); nil: never.
    let heapTrimmer: HeapTrimmer?
    let logger: Logger

    init(
        staticClient: StaticClient, boardCache: BoardWindowCache, realtime: RealtimeView,
        realtimeClient: RealtimeClient?,
        stats: GatewayStats, clock: ServiceClock = .system, cacheBytes: CacheBytes = CacheBytes(total: .max),
        planBudget: Duration = GatewayConfiguration.Defaults.planBudget, heapTrimmer: HeapTrimmer? = nil,
        logger: Logger
    ) {
        self.planBudget = planBudget
        self.heapTrimmer = heapTrimmer
        self.staticClient = staticClient
        cache = StaticCache(client: staticClient, maxBytes: cacheBytes.staticDetails)
        staticAnswers = VersionedCache(maxBytes: cacheBytes.staticAnswers)
        staticResults = VersionedCache(maxBytes: cacheBytes.staticResults)
        self.boardCache = boardCache
        self.realtime = realtime
        self.realtimeClient = realtimeClient
        typicalDelays = TypicalDelayCache(client: realtimeClient, maxBytes: cacheBytes.typicalDelays) {
            [staticClient] in
            guard case .success(.feedInfo(let info)) = await staticClient.query(.feedInfo) else { return nil }
            return info.dayTypes
        }
        self.stats = stats
        self.clock = clock
        self.logger = logger
        // Nothing of the old database version is served once the static client moved to a new one.
        staticClient.onVersionMove { [cache, boardCache, logger] move in
            cache.removeAll()
            boardCache.versionMoved(to: move.to)
            logger.notice(
                "static database version moved: old answers and caches dropped",
                metadata: ["from": "\(move.from)", "to": "\(move.to)"])
        }
    }

    func answer(_ request: GatewayRequest, received: ContinuousClock.Instant) async -> Answer {
        let traceId = RequestTrace.newId()
        let answer = await RequestTrace.$id.withValue(traceId) { await answerTraced(request, received: received) }
        logger.debug(
            "request",
            metadata: [
                "request_id": "\(traceId)", "op": "\(request.op.kind.name)",
                "status": "\(answer.error.map { "\($0)" } ?? "ok")", "elapsed_us": "\(answer.micros)",
            ])
        return answer
    }

    private func answerTraced(_ request: GatewayRequest, received: ContinuousClock.Instant) async -> Answer {
        let answer: Answer
        switch request.op {
        case .health: answer = await health(request, received: received)
        case .stats: answer = statsAnswer(request, received: received)
        case .feedInfo, .stop, .search, .nearby, .routes, .route, .shape, .stopsInBBox:
            answer = await staticOp(request, received: received)
        case .departures(let query): answer = await departures(request, query, received: received)
        case .trip(let query): answer = await trip(request, query, received: received)
        case .alerts(let query): answer = await alerts(request, query, received: received)
        case .vehicles(let query): answer = await vehicles(request, query, received: received)
        case .reliability(let query): answer = await reliability(request, query, received: received)
        case .plan(let query): answer = await plan(request, query, received: received)
        case .subscribe, .unsubscribe, .auth:
            answer = .failure(
                id: request.id, op: request.op.kind,
                GatewayError(.internal, "op \(request.op.kind.name) reached the shared dispatcher"),
                received: received)
        }
        if answer.error == .internal {
            logger.error(
                "internal error",
                metadata: [
                    "request_id": "\(RequestTrace.id.map { "\($0)" } ?? "-")", "request": "\(request)",
                    "answer": "\(String(decoding: answer.bytes, as: UTF8.self))",
                ])
        }
        return answer
    }

    /// An error answer to `request`.
    func failure(_ request: GatewayRequest, _ error: GatewayError, received: ContinuousClock.Instant) -> Answer {
        .failure(id: request.id, op: request.op.kind, error, received: received)
    }

    /// A static result of an unexpected kind: the service and the gateway disagree (a bug).
    func unexpected(_ request: GatewayRequest, _ result: StaticResult, received: ContinuousClock.Instant) -> Answer {
        failure(
            request,
            GatewayError(
                .internal,
                "the static service answered \(request.op.kind.name) with another kind of result (\(result.kindName))"
            ), received: received)
    }
}

extension StaticResult {
    var kindName: String {
        switch self {
        case .stop: "stop"
        case .stops: "stops"
        case .routes: "routes"
        case .departures: "departures"
        case .trip: "trip"
        case .tripSchedules: "trip_schedules"
        case .feedInfo: "feed_info"
        case .shape: "shape"
        case .route: "route"
        case .plan: "plan"
        }
    }
}
