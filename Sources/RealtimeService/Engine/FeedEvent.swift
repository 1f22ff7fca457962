/// What a source delivered, as the engine takes it (the pollers' events map onto this).
public enum FeedEvent: Sendable {
    /// New bytes of the source's feed, fetched at `at` (unix seconds).
    case fetched(source: String, bytes: [UInt8], at: Int64)
    /// The source answered that its feed did not change (HTTP 304, an unchanged file).
    case notModified(source: String, at: Int64)
    /// The fetch failed; `message` says why (never holding a secret).
    case failed(source: String, message: String, at: Int64)

    public var source: String {
        switch self {
        case .fetched(let source, _, _), .notModified(let source, _), .failed(let source, _, _): source
        }
    }
}
