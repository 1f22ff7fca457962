import ArgumentParser
import Foundation
import Logging
import RealtimeService
import ServiceSupport
import TransitCore

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Poll the configured GTFS-Realtime sources, publish resolved changes (PUB) and answer queries (REP).",
        discussion: """
            The config file lists the sources (see config/realtime-tfnsw.json). Trip updates are resolved against \
            the static service's schedules; PUB topics tu, vp, al, st, hb and the REP queries are described in \
            protocol/README.md. SIGHUP re-reads the config file: sources added, removed or changed take effect \
            (unchanged sources keep their live state; every source starts polling again); a config that cannot be \
            read or is invalid changes nothing and is logged. SIGINT/SIGTERM stop it gracefully: polling stops, \
            the feed being processed finishes, then the sockets close. --clock replays a recorded day: the service \
            clock starts at that instant (fetch times, staleness, the schedule date window and replay re-stamps \
            follow it); give the static service and the gateway the same --clock and --clock-origin.
            """
    )

    @Option(help: ArgumentHelp("The sources' config file (JSON).", valueName: "file"))
    var config: String

    @Option(name: .customLong("static"), help: ArgumentHelp("The static service's nng URL.", valueName: "url"))
    var staticURL: String

    @Option(help: ArgumentHelp("nng URL of the REP socket (queries, snapshots).", valueName: "url"))
    var listen: String

    @Option(help: ArgumentHelp("nng URL of the PUB socket (the change stream).", valueName: "url"))
    var publish: String

    @Option(
        help: ArgumentHelp(
            "Seconds after which a source's data is stale, for sources without their own stale_after_s in the config "
                + "(default: by kind, 90 for trip updates and vehicle positions, 600 for alerts).", valueName: "s"))
    var staleAfter: Int64?

    @Option(
        help: ArgumentHelp(
            "IANA time zone of the schedule dates when the static service does not answer at start (otherwise its "
                + "first feed's zone is used).", valueName: "zone"))
    var defaultTimeZone = "Australia/Sydney"

    @Option(
        help: ArgumentHelp(
            "SQLite file recording how late departures are (created when missing; the launcher uses "
                + "STATE/delays.db). Without it no delays are recorded and the gateway's typical delays are null.",
            valueName: "file"))
    var delayStore: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @OptionGroup(title: "Service clock")
    var clock: ClockOptions

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        if let staleAfter, staleAfter < 1 { throw ValidationError("--stale-after must be at least 1 second") }
        guard (try? ServiceTimeZone(identifier: defaultTimeZone)) != nil else {
            throw ValidationError(
                "unknown --default-time-zone \(defaultTimeZone) (expected an IANA name such as Australia/Sydney)")
        }
    }

    func run() async throws {
        ProcessMemory.keepFreedMemory()
        bootstrapLogging(level: Logger.Level(rawValue: logLevel) ?? .info)
        let logger = Logger(label: "transit-realtime")

        let service: RealtimeServiceRunner
        do {
            service = try await RealtimeServiceRunner(
                configPath: config, staticURL: staticURL, listen: listen, publish: publish,
                options: .init(
                    defaultTimeZone: defaultTimeZone, staleAfterSecs: staleAfter, clock: clock.serviceClock,
                    delayStorePath: delayStore),
                logger: logger)
        } catch {
            printError("serve: \(error)")
            throw ExitCode.failure
        }
        let config = self.config
        let hangup = await SignalAction(.sighup) {
            logger.info("SIGHUP: re-reading the sources config", metadata: ["config": "\(config)"])
            try? await service.reloadSources()  // logs what it did or why it changed nothing
        }
        try await runUntilStopped([service, hangup], logger: logger)
    }
}
