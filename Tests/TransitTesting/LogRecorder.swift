import Logging
import Synchronization

/// Log records kept in memory, so tests can check what was logged (and what was not: secrets).
public final class LogRecorder: Sendable {
    public struct Record: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]
    }

    private let records = Mutex<[Record]>([])

    public init() {}

    public var all: [Record] { records.withLock { $0 } }

    public func append(_ record: Record) { records.withLock { $0.append(record) } }

    /// A logger at level trace whose records land here.
    public var logger: Logger {
        Logger(label: "test") { _ in RecordingHandler(recorder: self) }
    }

    private struct RecordingHandler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var flat: [String: String] = [:]
            for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
                flat[key] = "\(value)"
            }
            recorder.append(Record(level: event.level, message: "\(event.message)", metadata: flat))
        }
    }
}
