import ArgumentParser
import Dispatch
import Gateway
import Logging
import ServiceSupport

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

@main
struct TransitGateway: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-gateway",
        abstract: "The query gateway: line-oriented JSON over TCP (protocol/GATEWAY.md).",
        subcommands: [Serve.self]
    )
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer the line protocol on --listen, asking the static service at --static.",
        discussion: """
            One JSON object per line; try: printf '%s\\n' '{"id":1,"op":"health"}' | nc -N 127.0.0.1 7878. \
            SIGINT/SIGTERM stop it.
            """
    )

    @Option(help: ArgumentHelp("nng URL of the static service (transit-static serve --listen).", valueName: "url"))
    var `static`: String

    @Option(help: ArgumentHelp("nng URL of the realtime service's REP socket (snapshots; vehicles while the stream is silent).", valueName: "url"))
    var realtime: String?

    @Option(help: ArgumentHelp("nng URL of the realtime service's PUB socket (the live stream; needs --realtime).", valueName: "url"))
    var subscribe: String?

    @Option(help: ArgumentHelp("host:port to listen on (port 0: any free port).", valueName: "host:port"))
    var listen = "127.0.0.1:7878"

    @Option(help: "Open connections at most.")
    var maxConnections = 1024

    @Option(help: "Requests in flight over all connections at most (beyond: OVERLOADED).")
    var maxInFlight = 512

    @Option(help: "Seconds without a request (and without a subscription) before a connection is closed.")
    var idleTimeout = 300.0

    @Option(help: "Seconds a whole request may take (beyond: TIMEOUT).")
    var requestTimeout = 2.0

    @Option(help: "Seconds to wait for the static service (beyond: STATIC_UNAVAILABLE).")
    var staticTimeout = 1.0

    @Option(help: "Seconds between two requests let through to a static service found down (the others get STATIC_UNAVAILABLE at once; 0: every request asks).")
    var staticProbeInterval = 0.5

    @Option(help: "Seconds to wait for the realtime service (beyond: REALTIME_UNAVAILABLE; also each snapshot).")
    var realtimeTimeout = 1.0

    @Option(help: "Seconds without a message from the realtime publisher before it counts as silent (static_only, stale).")
    var realtimeSilence = 15.0

    @Option(help: "Stops whose forward-board static rows are kept (least recently used dropped; 0: no cache).")
    var boardCacheStops = 512

    @Option(help: "Event-loop threads (0: one per core).")
    var threads = 0

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard parsedListen != nil else { throw ValidationError("--listen must be host:port, got \(listen)") }
        for (name, value) in [
            ("--idle-timeout", idleTimeout), ("--request-timeout", requestTimeout), ("--static-timeout", staticTimeout),
            ("--realtime-timeout", realtimeTimeout), ("--realtime-silence", realtimeSilence),
        ] {
            guard value > 0, value.isFinite else { throw ValidationError("\(name) must be a positive number of seconds") }
        }
        guard staticProbeInterval >= 0, staticProbeInterval.isFinite else {
            throw ValidationError("--static-probe-interval must be 0 or a positive number of seconds")
        }
        guard maxConnections >= 1, maxInFlight >= 1, threads >= 0, boardCacheStops >= 0 else {
            throw ValidationError(
                "--max-connections and --max-in-flight must be at least 1, --threads and --board-cache-stops at least 0")
        }
        if subscribe != nil, realtime == nil {
            throw ValidationError("--subscribe needs --realtime (the realtime service's REP URL, for snapshots)")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
    }

    private var parsedListen: (host: String, port: Int)? {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        let host = String(listen[..<colon])
        return host.isEmpty ? nil : (host, port)
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "transit-gateway")
        let (host, port) = parsedListen!
        let config = GatewayConfig(
            host: host, port: port, staticURL: `static`, realtimeURL: realtime, subscribeURL: subscribe,
            maxConnections: maxConnections, maxInFlight: maxInFlight, idleTimeout: .seconds(idleTimeout),
            requestTimeout: .seconds(requestTimeout), staticTimeout: .seconds(staticTimeout),
            staticProbeInterval: .seconds(staticProbeInterval),
            realtimeTimeout: .seconds(realtimeTimeout), realtimeSilence: .seconds(realtimeSilence),
            boardCacheStops: boardCacheStops, threads: threads, logger: logger)

        let server: GatewayServer
        do {
            server = try await GatewayServer.start(config: config)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        logger.info("ready", metadata: ["port": "\(server.port)", "pid": "\(getpid())"])
        let signal = await Self.waitForStopSignal()
        logger.info("stopping", metadata: ["signal": "\(signal)"])
        await server.stop()
        logger.info("stopped")
    }

    /// Suspends until SIGINT or SIGTERM; returns its name.
    private static func waitForStopSignal() async -> String {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let handlers = SignalHandlers()
        handlers.on(SIGINT) { continuation.yield("SIGINT") }
        handlers.on(SIGTERM) { continuation.yield("SIGTERM") }
        var iterator = stream.makeAsyncIterator()
        let name = await iterator.next() ?? "end"
        withExtendedLifetime(handlers) {}  // the handlers live until a signal came
        return name
    }
}


