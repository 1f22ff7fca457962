import CoreMetrics
import Foundation
import Logging
import TransitModel
import TransitProto
import TransitStore

/// Turns one request's bytes into the response's bytes: decode (`StaticCodec`), validate, answer on the
/// current store, encode. Never throws and never traps on bad input: every failure becomes a status.
///
/// - bytes that are not a `StaticRequest` → BAD_REQUEST (request id 0: there is none to echo);
/// - out-of-range arguments → INVALID_ARGUMENT; unknown ids → NOT_FOUND;
/// - a database failure → INTERNAL, logged with the request.
public struct StaticRequestHandler: Sendable {
    public let stores: ReloadableStore
    public let logger: Logger
    /// This replica's name, put into every answer (`served_by`); nil: none.
    public let servedBy: String?
    /// The journey planner answering `plan` (nil: `plan` is UNAVAILABLE).
    public let planning: JourneyPlanning?
    /// Unix seconds for requests without `at`; a parameter so tests can pin it.
    let now: @Sendable () -> Int64
    /// swift-metrics handles (`serve --metrics`), made once: answers by query and status, latency by query.
    private let metrics = QueryMetrics()
    /// The refresher's per-feed state, for feed_info.
    private let refreshStatuses: RefreshStatuses

    public init(
        stores: ReloadableStore, logger: Logger, servedBy: String? = nil, planning: JourneyPlanning? = nil,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.stores = stores
        self.planning = planning
        self.logger = logger
        self.servedBy = servedBy
        self.now = now
        refreshStatuses = RefreshStatuses(databasePath: stores.path)
    }

    /// `feed_info` of the served database with the refresher's statuses, outside the counted answers.
    func feedInfo() -> FeedInfo? {
        guard case .feedInfo(let info) = try? stores.store.answer(.feedInfo, now: now()) else { return nil }
        return refreshStatuses.annotate(info)
    }

    public func handle(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let request: StaticRequest
        do {
            request = try StaticCodec.decodeRequest(bytes)
        } catch {
            logger.debug("bad request bytes", metadata: ["error": "\(error)", "bytes": "\(bytes.count)"])
            return StaticCodec.encode(
                StaticResponse(
                    requestId: 0, result: .failure(ServiceError(.badRequest, error.description)), servedBy: servedBy))
        }
        return StaticCodec.encode(respond(to: request))
    }

    public func handle(_ bytes: Span<UInt8>) -> [UInt8] {
        bytes.withUnsafeBytes { handle($0) }
    }

    public func respond(to request: StaticRequest) -> StaticResponse {
        let started = ContinuousClock.now
        // One store for the answer and the version it names (a reload may swap the store meanwhile).
        let store = stores.store
        var version = store.databaseVersion
        let result: Result<StaticResult, ServiceError>
        if case .plan(let plan) = request.query {
            // Planned on the planner's timetable, named from the database it was built from (its version).
            (result, version) = answerPlan(plan, servedStore: store)
        } else {
            result = answer(request, on: store)
        }
        metrics.record(request.query, result, elapsed: started.duration(to: .now))
        // The gateway sends its own request's id (`request_id` in its log): one id across the services' logs.
        logger.debug(
            "request",
            metadata: [
                "request_id": "\(request.requestId)", "query": "\(request.query.kind.name)",
                "status": "\(result.statusName)", "elapsed_us": "\(Int(started.duration(to: .now) / .microseconds(1)))",
            ])
        return StaticResponse(
            requestId: request.requestId, result: result, servedBy: servedBy, databaseVersion: version)
    }

    private func answerPlan(_ plan: PlanRequest, servedStore store: StaticStore) -> (
        Result<StaticResult, ServiceError>, String
    ) {
        do throws(ServiceError) {
            try RequestValidation.validate(.plan(plan))
        } catch {
            return (.failure(error), store.databaseVersion)
        }
        guard let planning else {
            return (
                .failure(ServiceError(.unavailable, "this static service plans no journeys")), store.databaseVersion
            )
        }
        let (result, version) = planning.answer(plan, servedStore: store)
        return (result, version ?? store.databaseVersion)
    }

    private func answer(_ request: StaticRequest, on store: StaticStore) -> Result<StaticResult, ServiceError> {
        do throws(ServiceError) {
            try RequestValidation.validate(request.query)
        } catch {
            return .failure(error)
        }
        do {
            let result = try store.answer(request.query, now: now())
            if case .feedInfo(let info) = result { return .success(.feedInfo(refreshStatuses.annotate(info))) }
            return .success(result)
        } catch {
            let failure = error.serviceError
            if failure.status == .internal {
                logger.error(
                    "query failed",
                    metadata: [
                        "request_id": "\(request.requestId)", "query": "\(request.query)", "error": "\(error)",
                    ])
            }
            return .failure(failure)
        }
    }
}

extension Result<StaticResult, ServiceError> {
    /// "ok" or the failure's status, for log lines.
    fileprivate var statusName: String {
        switch self {
        case .success: "ok"
        case .failure(let error): "\(error.status)"
        }
    }
}

/// One counter per (query kind, status) and one timer per query kind, made up front so that answering
/// never looks a handle up under a lock.
private final class QueryMetrics: Sendable {
    /// Indexed by `StaticQueryKind.rawValue` (its position in `allCases`), then by `ServiceStatus.rawValue`.
    private let answers: [[Counter]]
    /// Indexed by `StaticQueryKind.rawValue`.
    private let latency: [CoreMetrics.Timer]

    init() {
        answers = StaticQueryKind.allCases.map { kind in
            ServiceStatus.allCases.map { status in
                Counter(
                    label: "transit_static_answers_total",
                    dimensions: [("query", kind.name), ("status", "\(status)")])
            }
        }
        latency = StaticQueryKind.allCases.map { kind in
            CoreMetrics.Timer(
                label: "transit_static_answer_duration_seconds", dimensions: [("query", kind.name)],
                preferredDisplayUnit: .seconds)
        }
    }

    func record(_ query: StaticQuery, _ result: Result<StaticResult, ServiceError>, elapsed: Duration) {
        let kind = query.kind.rawValue
        let status: ServiceStatus
        switch result {
        case .success: status = .ok
        case .failure(let error): status = error.status
        }
        answers[kind][status.rawValue].increment()
        latency[kind].recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
