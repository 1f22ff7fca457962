import ArgumentParser
import ServiceMetrics
import ServiceSupport
import Testing

/// The flags every service shares (`LoggingOptions`, `MetricsOptions`): their defaults, and a bad value refused
/// with a message naming the flag before the service starts.
@Suite struct ServiceOptionsTests {
    /// The usage error `parse` throws for `arguments`, as the command line would print it.
    static func refusal<T: ParsableArguments>(_ type: T.Type, _ arguments: [String]) -> String? {
        do {
            _ = try T.parse(arguments)
            return nil
        } catch {
            return T.message(for: error)
        }
    }

    @Test func loggingFlagsDefaultToInfoTextAndRefuseUnknownValues() throws {
        let defaults = try LoggingOptions.parse([])
        #expect(defaults.logLevel == "info" && defaults.logFormat == "text")
        let json = try LoggingOptions.parse(["--log-level", "debug", "--log-format", "json"])
        #expect(json.logLevel == "debug" && json.logFormat == "json")
        #expect(Self.refusal(LoggingOptions.self, ["--log-level", "bogus"]) == "unknown --log-level bogus")
        #expect(
            Self.refusal(LoggingOptions.self, ["--log-format", "xml"]) == "--log-format must be text or json, got xml")
    }

    @Test func metricsFlagIsOffByDefaultAndMustBeHostColonPort() throws {
        let off = try MetricsOptions.parse([])
        #expect(off.metrics == nil && off.bootstrap() == nil, "no registry without --metrics")
        #expect(try MetricsOptions.parse(["--metrics", "127.0.0.1:0"]).metrics == "127.0.0.1:0")
        #expect(Self.refusal(MetricsOptions.self, ["--metrics", "1.2.3"]) == "--metrics must be host:port, got 1.2.3")
        #expect(
            Self.refusal(MetricsOptions.self, ["--metrics", "host:99999"])
                == "--metrics must be host:port, got host:99999")
    }
}
