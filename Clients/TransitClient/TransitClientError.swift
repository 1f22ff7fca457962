/// An error code of the gateway's protocol (GATEWAY.md §3). Codes this client does not know are kept as sent.
public struct GatewayErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let badJSON = GatewayErrorCode(rawValue: "BAD_JSON")
    public static let unknownOp = GatewayErrorCode(rawValue: "UNKNOWN_OP")
    public static let invalidArgument = GatewayErrorCode(rawValue: "INVALID_ARGUMENT")
    public static let notFound = GatewayErrorCode(rawValue: "NOT_FOUND")
    public static let lineTooLong = GatewayErrorCode(rawValue: "LINE_TOO_LONG")
    public static let staticUnavailable = GatewayErrorCode(rawValue: "STATIC_UNAVAILABLE")
    public static let realtimeUnavailable = GatewayErrorCode(rawValue: "REALTIME_UNAVAILABLE")
    public static let timeout = GatewayErrorCode(rawValue: "TIMEOUT")
    public static let overloaded = GatewayErrorCode(rawValue: "OVERLOADED")
    public static let unauthenticated = GatewayErrorCode(rawValue: "UNAUTHENTICATED")
    public static let rateLimited = GatewayErrorCode(rawValue: "RATE_LIMITED")
    public static let `internal` = GatewayErrorCode(rawValue: "INTERNAL")
}

/// Why a request of `TransitClient` failed.
public enum TransitClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The gateway answered with an error (`ok: false`).
    case server(code: GatewayErrorCode, message: String)
    /// No answer within the per-request timeout, or the overall one ran out while reconnecting.
    case timeout(op: String, seconds: Double)
    /// No connection could be made (refused, unreachable, name not resolved).
    case unreachable(address: String, reason: String)
    /// The connection closed before the answer came.
    case connectionLost(reason: String)
    /// The answer was not what the protocol says (not JSON, or a field of the wrong type).
    case badAnswer(op: String, reason: String)
    /// `close()` was called.
    case closed

    public var description: String {
        switch self {
        case .server(let code, let message): "\(code): \(message)"
        case .timeout(let op, let seconds): "no answer to \(op) within \(Self.format(seconds)) s"
        case .unreachable(let address, let reason): "cannot connect to the gateway at \(address): \(reason)"
        case .connectionLost(let reason): "the connection to the gateway closed: \(reason)"
        case .badAnswer(let op, let reason): "the gateway's answer to \(op) could not be read: \(reason)"
        case .closed: "the client was closed"
        }
    }

    /// The gateway's error code, when it answered with one.
    public var code: GatewayErrorCode? {
        if case .server(let code, _) = self { return code }
        return nil
    }

    /// Errors a new connection or a later attempt may cure: the client retries them within the overall timeout.
    var isRetryable: Bool {
        switch self {
        case .unreachable, .connectionLost, .timeout: true
        case .server, .badAnswer, .closed: false
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
