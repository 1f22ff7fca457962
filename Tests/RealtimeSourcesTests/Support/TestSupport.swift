// Helpers shared by the tests: an event recorder, waiting for a condition, temporary folders, a
// seeded random generator and a log handler that keeps what it is given.
import Foundation
import Logging
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

/// Waits until `condition` holds, checking every 5 ms; false when `timeout` passes first.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// A fresh folder under the temporary directory.
func makeTemporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "rtsources-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes a file the way a careful producer does: a temporary file renamed over the old one.
func replaceAtomically(_ path: String, with bytes: [UInt8]) throws {
    let temporary = path + ".tmp-" + UUID().uuidString
    try Data(bytes).write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
}

/// SplitMix64: deterministic, for jitter tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The lines a `CapturingLogHandler` kept.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A log handler that keeps every line and its metadata, to check what gets logged.
struct CapturingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.append("\(event.level) \(event.message) \(all)")
    }
}

func capturingLogger() -> (Logger, LogLines) {
    let lines = LogLines()
    return (Logger(label: "test", factory: { _ in CapturingLogHandler(lines: lines) }), lines)
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
