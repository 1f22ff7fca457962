// Why a poll brought no bytes. Messages never contain header values or response bodies (a server may echo
// the request's headers in its error page).

public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a status other than 2xx or 304.
    case httpStatus(Int)
    /// No complete answer within the source's timeout.
    case timeout(Duration)
    /// The body was larger than the source's max_bytes; the transfer was aborted.
    case tooLarge(limit: Int)
    /// No exchange took place or it broke off: connection refused, host not found, TLS failure, connection lost.
    case connection(String)
    /// A file or replay folder that does not exist.
    case fileMissing(String)
    /// A file or folder that exists but cannot be read.
    case fileUnreadable(path: String, reason: String)
    /// A replay folder without snapshot folders.
    case replayEmpty(folder: String)
    /// The restamp closure refused a replay file (e.g. it is not a feed).
    case restampFailed(path: String, reason: String)
    /// The poll was cancelled (the source was stopped).
    case cancelled

    public var description: String {
        switch self {
        case .httpStatus(let code):
            return "HTTP \(code) \(Self.statusText(code))"
        case .timeout(let limit):
            return "timeout: no complete answer within \(formatSeconds(limit.seconds))"
        case .tooLarge(let limit):
            return "response too large: over the limit of \(limit) bytes (max_bytes), transfer aborted"
        case .connection(let reason):
            return "connection failed: \(reason)"
        case .fileMissing(let path):
            return "\(path) does not exist"
        case .fileUnreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .replayEmpty(let folder):
            return "replay folder \(folder) holds no numbered snapshot folders (0001/, 0002/, ...) nor .pb files"
        case .restampFailed(let path, let reason):
            return "cannot restamp \(path): \(reason)"
        case .cancelled:
            return "cancelled"
        }
    }

    /// Whether the next poll waits with exponential backoff (server trouble, limits, network) rather than the
    /// plain interval (local files: cheap to retry and nobody to spare).
    var backsOff: Bool {
        switch self {
        case .httpStatus, .timeout, .tooLarge, .connection: true
        case .fileMissing, .fileUnreadable, .replayEmpty, .restampFailed, .cancelled: false
        }
    }

    private static func statusText(_ code: Int) -> String {
        switch code {
        case 301, 302, 303, 307, 308: "redirect not followed (only redirects to the same host are)"
        case 400: "Bad Request"
        case 401:
            "Unauthorized (Transport for NSW answers 401 when over the requests-per-second limit; or the API key is wrong)"
        case 403: "Forbidden (Transport for NSW answers 403 when the daily quota is used up; or no access to this feed)"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 500..<600: "(server error)"
        case 400..<500: "(client error)"
        default: "(unexpected status)"
        }
    }
}
