import NNGKit
import Synchronization
import TransitModel
import TransitProto

/// A REQ client of the realtime service's REP socket: topic snapshots for a `RealtimeSubscriber` (blocking, on
/// its own thread) and the gateway's queries (async: the `vehicles` fallback, delay histograms). Every request has the realtime timeout;
/// the socket redials by itself, so a restarted service is found again.
public final class RealtimeClient: Sendable {
    /// A topic snapshot holds the whole live state: protocol/README.md "REQ → realtime RECVMAXSZ".
    public static let maxReplyBytes = 256 << 20

    public let url: String
    public let timeout: Duration
    private let requester: NNGRequester
    private let nextRequestId = Atomic<UInt64>(UInt64.random(in: 1...(1 << 32)))

    public init(url: String, timeout: Duration) throws(NNGError) {
        self.url = url
        self.timeout = timeout
        // Several URLs: a realtime service and its standby; only the active one listens, so only it answers.
        requester = try NNGRequester(
            dialing: NNGURLList.split(url), defaultTimeout: timeout,
            maxReplySize: Self.maxReplyBytes, reconnect: (.milliseconds(50), .milliseconds(500)))
    }

    public func close() { requester.close() }

    /// The state of `topic` (blocks the calling thread up to the timeout). `requestId`: the caller's trace id
    /// (else one of the client's own).
    public func snapshot(_ topic: RealtimeTopic, requestId: UInt64? = nil) throws(RealtimeClientError)
        -> RealtimeSnapshot
    {
        let id = requestId ?? nextRequestId.add(1, ordering: .relaxed).newValue
        let reply: [UInt8]
        do {
            reply = try requester.request(RealtimeCodec.encode(RealtimeRequest(requestId: id, query: .snapshot(topic))))
        } catch {
            throw .unavailable(
                error.isTimedOut
                    ? "the realtime service did not answer a \(topic.rawValue) snapshot within \(Self.milliseconds(timeout)) ms (\(url))"
                    : "the realtime service could not be asked for a \(topic.rawValue) snapshot: \(error)")
        }
        switch Self.decode(reply) {
        case .success(.snapshot(let snapshot)) where snapshot.topic == topic:
            return snapshot
        case .success:
            throw .badAnswer("the realtime service answered a \(topic.rawValue) snapshot request with something else")
        case .failure(let error):
            throw error
        }
    }

    /// One query, suspending without blocking a thread. `requestId` as for `snapshot`.
    public func query(_ query: RealtimeQuery, requestId: UInt64? = nil) async
        -> Result<RealtimeResult, RealtimeClientError>
    {
        let id = requestId ?? nextRequestId.add(1, ordering: .relaxed).newValue
        let reply: [UInt8]
        do {
            reply = try await requester.request(
                RealtimeCodec.encode(RealtimeRequest(requestId: id, query: query)), timeout: timeout)
        } catch let error as NNGError {
            return .failure(
                .unavailable(
                    error.isTimedOut
                        ? "the realtime service did not answer within \(Self.milliseconds(timeout)) ms (\(url))"
                        : "the realtime service could not be asked: \(error)"))
        } catch {
            return .failure(.cancelled)
        }
        return Self.decode(reply)
    }

    private static func milliseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }

    private static func decode(_ reply: [UInt8]) -> Result<RealtimeResult, RealtimeClientError> {
        let response: RealtimeResponse
        do {
            response = try RealtimeCodec.decodeResponse(reply)
        } catch {
            return .failure(.badAnswer("the realtime service's answer did not decode: \(error)"))
        }
        return response.result.mapError { error in
            error.status == .unavailable
                ? .unavailable("the realtime service is unavailable: \(error.message)") : .refused(error)
        }
    }
}

public enum RealtimeClientError: Error, CustomStringConvertible {
    /// No answer in time, or the service says it cannot answer now.
    case unavailable(String)
    /// The service refused the request (NOT_FOUND, INVALID_ARGUMENT …).
    case refused(ServiceError)
    /// An answer that does not decode or is of the wrong kind (a bug on one side).
    case badAnswer(String)
    case cancelled

    public var description: String {
        switch self {
        case .unavailable(let why), .badAnswer(let why): why
        case .refused(let error): "the realtime service refused the request: \(error)"
        case .cancelled: "cancelled while waiting for the realtime service"
        }
    }
}
