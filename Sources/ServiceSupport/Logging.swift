import Foundation
import Logging

/// Every logger of the process writes its lines to standard error, from `level` up: swift-log's
/// `StreamLogHandler` lines (`.text`) or one JSON object per line (`.json`, `JSONLogHandler`). Call once,
/// first thing; the libraries take their `Logger` from the main.
public func bootstrapLogging(level: Logger.Level, format: LogFormat = .text) {
    LoggingSystem.bootstrap { label in
        switch format {
        case .text:
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        case .json:
            var handler = JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

/// Standard error sent to a file, so that the log lines (and anything else written there) are appended to
/// `path`. `reopen()` opens `path` again and points standard error at it: after the file was moved away (log
/// rotation), the lines that follow go to a new file at `path`; lines written meanwhile went to the old one.
public struct StandardErrorFile: Sendable {
    public let path: String

    /// Opens `path` (created with mode 0644 when missing, appended to) and makes it standard error.
    public init(path: String) throws(LogFileError) {
        self.path = path
        try redirect()
    }

    /// Opens `path` again, as `init` did, and makes it standard error; on failure standard error stays the
    /// file it was.
    public func reopen() throws(LogFileError) {
        try redirect()
    }

    private func redirect() throws(LogFileError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw LogFileError(path: path, errno: errno) }
        defer { close(fd) }
        // dup2 replaces descriptor 2 in one step: every write lands in the old file or in the new one.
        guard dup2(fd, STDERR_FILENO) >= 0 else { throw LogFileError(path: path, errno: errno) }
    }
}

public struct LogFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    init(path: String, errno code: Int32) {
        self.path = path
        reason = String(cString: strerror(code))
    }

    public var description: String { "cannot open the log file \(path): \(reason)" }
}
