import ArgumentParser
import Dispatch
import Foundation
import Logging
import RealtimeService
import ServiceSupport

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
            protocol/README.md. SIGINT/SIGTERM stop cleanly.
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

    @Option(help: ArgumentHelp(
        "Seconds after which a source's data is stale, for sources without their own stale_after_s in the config "
            + "(default: by kind, 90 for trip updates and vehicle positions, 600 for alerts).", valueName: "s"))
    var staleAfter: Int64?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        if let staleAfter, staleAfter < 1 { throw ValidationError("--stale-after must be at least 1 second") }
    }

    func run() async throws {
        GlibcMalloc.keepFreedMemory()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "transit-realtime")

        let service: RealtimeServiceRunner
        do {
            service = try await RealtimeServiceRunner(
                configPath: config, staticURL: staticURL, listen: listen, publish: publish,
                options: .init(staleAfterSecs: staleAfter), logger: logger)
        } catch {
            printError("serve: \(error)")
            throw ExitCode.failure
        }
        let stop = AsyncStream<Int32>.makeStream()
        let signals = SignalHandlers()
        for signalNumber in [SIGINT, SIGTERM] {
            signals.on(signalNumber) { stop.continuation.yield(signalNumber) }
        }
        service.start()
        logger.info("ready", metadata: [
            "listen": "\(listen)", "publish": "\(publish)", "static": "\(staticURL)", "epoch": "\(service.sockets.hub.epoch)",
            "sources": "\(service.sourceNames.joined(separator: ","))", "time_zone": "\(service.timeZone)", "pid": "\(getpid())",
        ])
        for await signalNumber in stop.stream {
            logger.info("stopping", metadata: ["signal": "\(signalNumber == SIGINT ? "SIGINT" : "SIGTERM")"])
            break
        }
        await service.stop()
        logger.info("stopped")
    }
}

/// glibc's malloc tuning for a process that decodes big feeds again and again: keep freed memory instead of
/// returning it to the kernel every time (GTFSRealtimeCodec.decode's note: halves the decode time).
/// `mallopt` is not in Swift's Glibc module (malloc.h is not part of it), so it is looked up by name.
enum GlibcMalloc {
    private static let mTrimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in <malloc.h>
    private static let mMmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD

    static func keepFreedMemory() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(mMmapThreshold, 32 << 20)
        _ = mallopt(mTrimThreshold, 256 << 20)
    }
}
