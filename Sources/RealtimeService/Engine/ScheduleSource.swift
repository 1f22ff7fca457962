import NNGKit
import Synchronization
import TransitModel
import TransitProto

/// Where the engine gets static schedules: the static service (over nng) or, in tests, a store directly.
public protocol ScheduleSource: Sendable {
    /// The bulk trip-schedule query.
    func tripSchedules(_ query: TripSchedulesQuery) async throws -> TripSchedules
    /// The static database's version and feeds (checked periodically to notice a new import).
    func feedInfo() async throws -> FeedInfo
}

public struct ScheduleSourceError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// `ScheduleSource` over the static service's REQ/REP socket. With several replicas, answers come from one
/// database version at a time (`VersionPinnedRequester`): during a rollout the schedules are resolved
/// against the old version until every replica the service reaches has the new one; then feed_info and the
/// bulk answers name the new version and the engine drops its schedule cache and resolves again.
public final class StaticScheduleClient: ScheduleSource {
    /// Bulk answers for many trips are large (protocol/README.md: REQ → static RECVMAXSZ 64 MiB).
    public static let maxReplyBytes = 64 << 20

    private let requester: VersionPinnedRequester
    private let nextId = Atomic<UInt64>(1)

    /// Dials `url` (non-blocking: the static service may start later); replicas of one database: their URLs
    /// separated by commas, one REQ socket each. `timeout` covers each request. With several replicas each is
    /// asked its feed_info every `versionProbe` to learn its version.
    public init(url: String, timeout: Duration = .seconds(2), versionProbe: Duration = .seconds(1)) throws(NNGError) {
        let urls = NNGURLList.split(url)
        requester = try VersionPinnedRequester(
            dialing: urls.isEmpty ? [url] : urls, defaultTimeout: timeout, maxReplySize: Self.maxReplyBytes,
            reconnect: (.milliseconds(50), .milliseconds(500)))
        if urls.count > 1 {
            requester.startProbing(
                StaticCodec.encode(StaticRequest(requestId: 0, query: .feedInfo)), every: versionProbe,
                version: { try? StaticCodec.decodeResponse($0).databaseVersion })
        }
    }

    /// The pinned version and what is known of each replica.
    public var versionPin: VersionPin { requester.pin }

    public func close() { requester.close() }

    public func tripSchedules(_ query: TripSchedulesQuery) async throws -> TripSchedules {
        guard case .tripSchedules(let answer) = try await ask(.tripSchedules(query)) else {
            throw ScheduleSourceError("the static service answered a trip_schedules query with another result")
        }
        return answer
    }

    public func feedInfo() async throws -> FeedInfo {
        guard case .feedInfo(let info) = try await ask(.feedInfo) else {
            throw ScheduleSourceError("the static service answered a feed_info query with another result")
        }
        return info
    }

    private func ask(_ query: StaticQuery) async throws -> StaticResult {
        let id = nextId.add(1, ordering: .relaxed).newValue
        let response = try await requester.request(
            StaticCodec.encode(StaticRequest(requestId: id, query: query)),
            read: { bytes in try StaticCodec.decodeResponse(bytes) }, version: \.databaseVersion)
        switch response.result {
        case .success(let result): return result
        case .failure(let error): throw ScheduleSourceError("static service: \(error)")
        }
    }
}
