import TransitModel

/// Error codes of the line protocol (protocol/GATEWAY.md §3).
public enum GatewayErrorCode: String, Sendable, Hashable, CaseIterable {
    case badJSON = "BAD_JSON"
    case unknownOp = "UNKNOWN_OP"
    case invalidArgument = "INVALID_ARGUMENT"
    case notFound = "NOT_FOUND"
    case lineTooLong = "LINE_TOO_LONG"
    case staticUnavailable = "STATIC_UNAVAILABLE"
    case realtimeUnavailable = "REALTIME_UNAVAILABLE"
    case timeout = "TIMEOUT"
    case overloaded = "OVERLOADED"
    case unauthenticated = "UNAUTHENTICATED"
    case rateLimited = "RATE_LIMITED"
    case `internal` = "INTERNAL"
}

public struct GatewayError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: GatewayErrorCode
    public var message: String

    public init(_ code: GatewayErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The answer to a line longer than the limit (in bytes, without the terminator).
    public static func lineTooLong(limit: Int) -> GatewayError {
        GatewayError(.lineTooLong, "line longer than \(limit) bytes; the rest of it was discarded")
    }

    /// The gateway's code for an error status of the static service (protocol/README.md): UNAVAILABLE becomes
    /// STATIC_UNAVAILABLE; INTERNAL and BAD_REQUEST (bytes the gateway sent did not decode) are INTERNAL.
    public init(staticError: ServiceError) {
        switch staticError.status {
        case .notFound: self.init(.notFound, staticError.message)
        case .invalidArgument: self.init(.invalidArgument, staticError.message)
        case .unavailable: self.init(.staticUnavailable, "static service unavailable: \(staticError.message)")
        case .internal, .badRequest, .ok: self.init(.internal, "static service: \(staticError.message)")
        }
    }
}
