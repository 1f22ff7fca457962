// What a source has been doing, for the service's status replies and logs. Holds no header values.
// Fetching only: whether the bytes decode is the consumer's verdict (the realtime service's `SourceStatus`
// in protocol/README.md keeps a broken feed an error through "not modified" polls; this one cannot know).
import Foundation

public struct SourceStatus: Sendable, Hashable {
    public var name: String
    public var kind: SourceKind
    /// Where, with any URL query and user info left out.
    public var location: String
    /// When the last poll started.
    public var lastAttempt: Date?
    /// When the last poll succeeded (new bytes or not modified).
    public var lastSuccess: Date?
    /// When new bytes last arrived, and how many.
    public var lastFetched: Date?
    public var lastByteCount: Int?
    /// The last failure's message (kept after recovery; `consecutiveFailures` says whether it is current).
    public var lastError: String?
    public var lastErrorAt: Date?
    /// Failures since the start.
    public var errorCount = 0
    /// Failures since the last success.
    public var consecutiveFailures = 0
    /// HTTP requests started since local midnight (0 for files and replays).
    public var requestsToday = 0
    /// Polls since the start.
    public var pollCount = 0
    /// When the next poll is due; nil when stopped or when a non-looping replay has finished.
    public var nextPoll: Date?
    /// A non-looping replay played its last snapshot.
    public var finished = false

    public init(name: String, kind: SourceKind, location: String) {
        self.name = name
        self.kind = kind
        self.location = location
    }
}
