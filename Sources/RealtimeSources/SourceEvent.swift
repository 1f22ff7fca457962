// What a poll delivers to the consumer (the realtime service decodes and applies it).
import Foundation

/// New bytes of one source.
public struct FetchedFeed: Sendable {
    public var source: String
    public var bytes: [UInt8]
    /// When the last byte arrived (or the file was read).
    public var fetchedAt: Date
    /// The server's Date header, when it sent one (lets staleness checks see the server's clock).
    public var httpDate: Date?

    public init(source: String, bytes: [UInt8], fetchedAt: Date, httpDate: Date? = nil) {
        self.source = source
        self.bytes = bytes
        self.fetchedAt = fetchedAt
        self.httpDate = httpDate
    }
}

public enum SourceEvent: Sendable {
    /// New bytes (HTTP 200, a changed file, the next replay snapshot).
    case fetched(FetchedFeed)
    /// The server answered 304 or the file did not change: the last bytes still hold.
    case notModified(source: String)
    /// The poll failed; the consumer keeps what it had from this source.
    case failed(source: String, error: FetchError)

    public var source: String {
        switch self {
        case .fetched(let feed): feed.source
        case .notModified(let source): source
        case .failed(let source, _): source
        }
    }
}

/// Receives every event of every source; polling of that source waits until it returns (so a slow consumer
/// slows polling down instead of piling up feeds).
public typealias SourceEventHandler = @Sendable (SourceEvent) async -> Void

/// Replaces the header timestamp of a feed (the service passes `GTFSRealtimeCodec.restamp`).
public typealias FeedRestamp = @Sendable (_ bytes: [UInt8], _ timestamp: UInt64) throws -> [UInt8]
