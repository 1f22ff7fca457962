import GatewayProtocol
import HTTPTypes

extension GatewayErrorCode {
    /// The HTTP status of an answer with this error (GATEWAY.md §8, "Status codes").
    var httpStatus: HTTPResponse.Status {
        switch self {
        case .badJSON, .unknownOp, .invalidArgument: .badRequest
        case .unauthenticated: .unauthorized
        case .notFound: .notFound
        case .lineTooLong: .contentTooLarge
        case .overloaded, .rateLimited: .tooManyRequests
        case .internal: .internalServerError
        case .staticUnavailable, .realtimeUnavailable: .serviceUnavailable
        case .timeout: .gatewayTimeout
        }
    }
}
