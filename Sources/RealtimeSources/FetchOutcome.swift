// What one poll of one source produced, before the poller turns it into an event and a status.
import Foundation

enum FetchOutcome: Sendable {
    case fetched(bytes: [UInt8], httpDate: Date?)
    case notModified
    /// `retryAfter`: the server's Retry-After, when it sent one.
    case failed(FetchError, retryAfter: Duration?)
    /// Nothing to deliver and nothing wrong: a file being replaced while read (read again next tick), or a
    /// replay snapshot without this kind's file.
    case nothing
    /// A non-looping replay played its last snapshot.
    case finished
}
