// Helpers of the sources' tests: an event recorder, atomic file replacement, test configs (the helpers
// every test target uses are in TransitTesting).
import Foundation
import Synchronization

@testable import RealtimeSources

/// Keeps every event a SourceGroup delivers, with its arrival time.
final class EventRecorder: Sendable {
    struct Entry: Sendable {
        var event: SourceEvent
        var at: ContinuousClock.Instant
    }

    private let entries = Mutex<[Entry]>([])

    var handler: SourceEventHandler {
        { event in self.entries.withLock { $0.append(Entry(event: event, at: .now)) } }
    }

    var all: [Entry] { entries.withLock { $0 } }
    var events: [SourceEvent] { all.map(\.event) }

    var fetched: [FetchedFeed] {
        events.compactMap { if case .fetched(let feed) = $0 { return feed } else { return nil } }
    }

    var failures: [FetchError] {
        events.compactMap { if case .failed(_, let error) = $0 { return error } else { return nil } }
    }

    var notModifiedCount: Int {
        events.filter { if case .notModified = $0 { return true } else { return false } }.count
    }

    func events(of source: String) -> [SourceEvent] { events.filter { $0.source == source } }
}

/// Writes a file the way a careful producer does: a temporary file renamed over the old one.
func replaceAtomically(_ path: String, with bytes: [UInt8]) throws {
    let temporary = path + ".tmp-" + UUID().uuidString
    try Data(bytes).write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
}

/// A source for tests, polled over HTTP.
func httpSource(
    _ name: String = "feed", url: String, interval: Duration = .seconds(60), timeout: Duration = .seconds(5),
    maxBytes: Int = SourceConfig.defaultMaxBytes, headers: [HTTPHeader] = []
) -> SourceConfig {
    SourceConfig(
        name: name, kind: .tripUpdates, location: .http(URL(string: url)!), headers: headers, pollInterval: interval,
        timeout: timeout, maxBytes: maxBytes
    )
}

/// A config whose budget and rate never get in a test's way.
func testConfig(_ sources: [SourceConfig], maxRequestsPerSecond: Double = 1000) -> RealtimeConfig {
    RealtimeConfig(sources: sources, dailyRequestBudget: Int.max, maxRequestsPerSecond: maxRequestsPerSecond)
}
