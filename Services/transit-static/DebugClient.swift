import Foundation
import GatewayProtocol
import NNGKit
import ProcessSupport
import Synchronization
import TransitModel
import TransitProto

/// The debug client's core: one gateway-style JSON line in, one answer line out, with the static service
/// in between (JSON → `StaticRequest` protobuf → `StaticResponse` → the gateway's JSON shape).
struct DebugClient: Sendable {
    enum Outcome: Sendable {
        /// The service answered (its answer may be an error such as NOT_FOUND).
        case answered
        /// The line was not a request the static service answers.
        case invalidRequest
        /// No answer (timeout, no service) or an answer that did not decode.
        case transportFailed(String)

        var exitCode: Int32 {
            switch self {
            case .answered: 0
            case .transportFailed: 1
            case .invalidRequest: 2
            }
        }
    }

    let requester: NNGRequester
    /// "Now" of requests without `at` (the service clock, `query --clock`).
    let clock: ServiceClock
    private let nextId = RequestIds()

    init(requester: NNGRequester, clock: ServiceClock = .system) {
        self.requester = requester
        self.clock = clock
    }

    /// The line to print (nil for a blank input line) and how it went.
    func answer(_ line: String) -> (output: [UInt8]?, outcome: Outcome) {
        let bytes = Array(line.utf8)
        if bytes.withUnsafeBytes({ GatewayRequest.isBlank($0) }) { return (nil, .answered) }

        let request: GatewayRequest
        switch GatewayRequest.parse(bytes) {
        case .failure(let failure):
            return (GatewayResponse.error(failure), .invalidRequest)
        case .success(let parsed):
            request = parsed
        }
        guard var query = request.op.staticQuery else {
            let error = GatewayError(
                .unknownOp,
                "op \"\(request.op.kind.name)\" is answered by the gateway, "
                    + "not the static service (static ops: \(Self.staticOps))")
            return (GatewayResponse.error(id: request.id, error), .invalidRequest)
        }

        // Pin "now" here, so the service and the printed answer agree on it.
        let now = clock.unixSeconds
        var at = now
        switch query {
        case .trip(var q):
            if let given = q.at { at = given } else { q.at = now }
            query = .trip(q)
        case .departures(var q) where q.at == nil && q.cursor == nil:
            q.at = now
            query = .departures(q)
        default:
            break
        }

        let started = ContinuousClock.now
        let reply: [UInt8]
        do {
            reply = try requester.request(StaticCodec.encode(StaticRequest(requestId: nextId.next(), query: query)))
        } catch {
            let message =
                error.isTimedOut
                ? "no answer from \(requester.url) within the timeout (is `transit-static serve` running there?)"
                : error.description
            let line = GatewayResponse.error(id: request.id, GatewayError(.staticUnavailable, message))
            return (line, .transportFailed(message))
        }
        let elapsed = ContinuousClock.now - started
        let response: StaticResponse
        do {
            response = try StaticCodec.decodeResponse(reply)
        } catch {
            let message = "the answer from \(requester.url) did not decode: \(error)"
            return (GatewayResponse.error(id: request.id, GatewayError(.internal, message)), .transportFailed(message))
        }
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        let line = GatewayResponse.staticAnswer(
            id: request.id, op: request.op.kind, result: response.result, at: at, elapsedMicros: micros)
        return (line, .answered)
    }

    private static let staticOps = GatewayOpKind.allCases.filter(\.isStatic).map(\.name).joined(separator: ", ")
}

/// Request ids for the log lines of the service: increasing, starting at a random point per process.
private final class RequestIds: Sendable {
    private let value = Mutex(UInt64.random(in: 1...(1 << 32)))

    func next() -> UInt64 {
        value.withLock {
            $0 += 1; return $0
        }
    }
}
