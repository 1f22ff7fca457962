import ArgumentParser
import Logging

/// `--log-level`, `--log-format`: how a command's loggers write (`bootstrapLogging`). Every long-running command
/// takes these two, under the same names and defaults.
public struct LoggingOptions: ParsableArguments, Sendable {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    public var logLevel = "info"

    @Option(help: "Log lines as text (for people) or json (one object per line, for log collectors).")
    public var logFormat = "text"

    public init() {}

    public func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        guard LogFormat(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json, got \(logFormat)")
        }
    }

    /// Sends every logger of the process to standard error as these options say (once, first thing).
    public func bootstrap() {
        bootstrapLogging(
            level: Logger.Level(rawValue: logLevel) ?? .info, format: LogFormat(rawValue: logFormat) ?? .text)
    }
}
