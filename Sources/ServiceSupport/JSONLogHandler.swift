import Foundation
import Logging
import Synchronization

/// How the services write their log lines (`serve --log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's `StreamLogHandler` lines, for people.
    case text
    /// One JSON object per line, for log collectors: `ts` (ISO 8601, UTC, milliseconds), `level`, `service`
    /// (the logger's label), `msg`, then every metadata key as its own field (a key that collides with those
    /// four is prefixed `meta.`), and `source` / `file` / `line` at debug and trace.
    case json
}

/// A swift-log handler writing one JSON object per line to standard error. Written by hand: swift-log has
/// no JSON handler, and a log line must not allocate an encoder or go through Foundation's JSONSerialization
/// (which reorders keys and escapes slashes).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (String) -> Void

    /// `write` takes each finished line (with its newline); standard error by default.
    public init(label: String, write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var line = "{\"ts\":"
        Self.appendString(Self.timestamp(), to: &line)
        line += ",\"level\":"
        Self.appendString(event.level.rawValue, to: &line)
        line += ",\"service\":"
        Self.appendString(label, to: &line)
        line += ",\"msg\":"
        Self.appendString(event.message.description, to: &line)
        for key in merged.keys.sorted() {
            line += ","
            let reserved = ["ts", "level", "service", "msg", "source", "file", "line"].contains(key)
            Self.appendString(reserved ? "meta.\(key)" : key, to: &line)
            line += ":"
            Self.append(merged[key]!, to: &line)
        }
        if logLevel <= .debug {
            line += ",\"source\":"
            Self.appendString(event.source, to: &line)
            line += ",\"file\":"
            Self.appendString(event.file, to: &line)
            line += ",\"line\":\(event.line)"
        }
        line += "}\n"
        write(line)
    }

    /// Writes `line` to standard error in one `write` (lines of concurrent loggers do not interleave).
    public static let standardError: @Sendable (String) -> Void = { line in
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    static func append(_ value: Logger.Metadata.Value, to line: inout String) {
        switch value {
        case .string(let s): appendString(s, to: &line)
        case .stringConvertible(let c): appendString(c.description, to: &line)
        case .array(let values):
            line += "["
            for (i, v) in values.enumerated() {
                if i > 0 { line += "," }
                append(v, to: &line)
            }
            line += "]"
        case .dictionary(let dictionary):
            line += "{"
            for (i, key) in dictionary.keys.sorted().enumerated() {
                if i > 0 { line += "," }
                appendString(key, to: &line)
                line += ":"
                append(dictionary[key]!, to: &line)
            }
            line += "}"
        }
    }

    /// `s` as a JSON string: quotes, backslashes and control characters escaped, everything else as is.
    static func appendString(_ s: String, to line: inout String) {
        line += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }

    /// Now, as "2026-11-25T01:02:03.456Z".
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = Int(now.tv_nsec / 1_000_000)
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}
