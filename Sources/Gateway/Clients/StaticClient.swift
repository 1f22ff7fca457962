import NNGKit
import Synchronization
import TransitJSON
import TransitModel
import TransitProto

/// The gateway's REQ client of the static service: one `StaticRequest` per call, one nng context each (any
/// number at once), never blocking a thread. Failures come back as the gateway's errors (protocol/README.md):
/// no answer within `timeout` or UNAVAILABLE → STATIC_UNAVAILABLE; NOT_FOUND and INVALID_ARGUMENT pass
/// through; an answer that does not decode → INTERNAL. The socket redials by itself, so a service that
/// restarts is used again without restarting the gateway.
final class StaticClient: Sendable {
    /// Replies may be large (bulk schedules); protocol/README.md "REQ → static RECVMAXSZ".
    static let maxReplyBytes = 64 << 20

    let url: String
    let timeout: Duration
    private let requester: NNGRequester
    private let nextRequestId = Atomic<UInt64>(UInt64.random(in: 1...(1 << 32)))

    init(url: String, timeout: Duration) throws(NNGError) {
        self.url = url
        self.timeout = timeout
        requester = try NNGRequester(dialing: url, defaultTimeout: timeout, maxReplySize: Self.maxReplyBytes)
        // Find a restarted service quickly, without hammering a dead one.
        try? requester.socket.setReconnectInterval(min: .milliseconds(50), max: .milliseconds(500))
    }

    func close() { requester.close() }

    /// One round trip. Cancellation (the request's deadline passed) ends the wait at once.
    func query(_ query: StaticQuery) async -> Result<StaticResult, GatewayError> {
        let id = nextRequestId.add(1, ordering: .relaxed).newValue
        let reply: [UInt8]
        do {
            reply = try await requester.request(StaticCodec.encode(StaticRequest(requestId: id, query: query)), timeout: timeout)
        } catch let error as NNGError {
            if error.isTimedOut {
                return .failure(GatewayError(
                    .staticUnavailable, "the static service did not answer within \(timeout.milliseconds) ms (\(url))"))
            }
            return .failure(GatewayError(.staticUnavailable, "the static service could not be asked: \(error)"))
        } catch {
            return .failure(GatewayError(.timeout, "cancelled while waiting for the static service"))
        }
        let response: StaticResponse
        do {
            response = try StaticCodec.decodeResponse(reply)
        } catch {
            return .failure(GatewayError(.internal, "the static service's answer did not decode: \(error)"))
        }
        return response.result.mapError { GatewayError(staticError: $0) }
    }
}
