// Why an HTTP fetch brought no answer. Messages never contain header values, the URL's query or user info, or
// response bodies (a server may echo the request's headers, and so its API key, in its error page).

public enum HTTPFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No complete answer within the request's timeout.
    case timeout(Duration)
    /// The body was larger than the request's cap; the transfer was aborted.
    case tooLarge(limit: Int)
    /// No exchange took place or it broke off: connection refused, host not found, TLS failure, connection lost.
    case connection(String)
    /// The downloaded body could not be written where it was asked to go.
    case destination(String)
    /// The fetch was cancelled (its task was).
    case cancelled

    public var description: String {
        switch self {
        case .timeout(let limit): "timeout: no complete answer within \(Self.seconds(limit))"
        case .tooLarge(let limit): "response too large: over the limit of \(limit) bytes, transfer aborted"
        case .connection(let reason): "connection failed: \(reason)"
        case .destination(let reason): "cannot store the download: \(reason)"
        case .cancelled: "cancelled"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let (s, atto) = duration.components
        let value = Double(s) + Double(atto) / 1e18
        if value == value.rounded() { return "\(Int(value)) s" }
        return "\((value * 1000).rounded() / 1000) s"
    }
}
