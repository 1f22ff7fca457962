import Foundation
import Logging
import Synchronization
import Testing

@testable import ServiceSupport

/// `--log-format json`: one parseable JSON object per line, metadata as fields, nothing lost to escaping.
@Suite struct JSONLogHandlerTests {
    private final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    private func logger(level: Logger.Level = .info, _ lines: Lines) -> Logger {
        Logger(label: "transit-gateway") { label in
            var handler = JSONLogHandler(label: label) { line in lines.lines.withLock { $0.append(line) } }
            handler.logLevel = level
            return handler
        }
    }

    private func object(_ line: String) throws -> [String: Any] {
        #expect(line.hasSuffix("}\n"))
        #expect(line.dropLast().firstIndex(of: "\n") == nil, "one line per record")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func aLineIsOneJSONObjectWithMetadataAsFields() throws {
        let lines = Lines()
        var log = logger(lines)
        log[metadataKey: "pid"] = "42"
        log.info(
            "request failed: \"stop\"\n\tnext\u{01}",
            metadata: [
                "request_id": "7", "msg": "collides", "nested": ["a": "1", "b": ["x", "y"]],
                "url": "ipc:///tmp/static.sock",
            ])
        let line = try #require(lines.all.first)
        let o = try object(line)
        #expect(o["level"] as? String == "info")
        #expect(o["service"] as? String == "transit-gateway")
        #expect(o["msg"] as? String == "request failed: \"stop\"\n\tnext\u{01}")
        #expect(o["request_id"] as? String == "7")
        #expect(o["pid"] as? String == "42")
        #expect(o["meta.msg"] as? String == "collides")
        #expect(o["url"] as? String == "ipc:///tmp/static.sock")
        #expect(line.contains("ipc:///tmp/static.sock"), "slashes are not escaped")
        let nested = try #require(o["nested"] as? [String: Any])
        #expect(nested["b"] as? [String] == ["x", "y"])
        let ts = try #require(o["ts"] as? String)
        #expect(ts.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(ts)")
        #expect(o["file"] == nil, "source location only at debug")
    }

    @Test func theLevelFiltersAndDebugAddsTheSourceLocation() throws {
        let lines = Lines()
        logger(level: .warning, lines).info("dropped")
        #expect(lines.all.isEmpty)
        logger(level: .debug, lines).debug("kept")
        let o = try object(try #require(lines.all.first))
        #expect(o["msg"] as? String == "kept")
        #expect((o["file"] as? String)?.hasSuffix("JSONLogHandlerTests.swift") == true)
        #expect(o["line"] is Int)
    }

    @Test func logFormatParsesTheFlagsValues() {
        #expect(LogFormat(rawValue: "json") == .json)
        #expect(LogFormat(rawValue: "text") == .text)
        #expect(LogFormat(rawValue: "yaml") == nil)
    }
}
