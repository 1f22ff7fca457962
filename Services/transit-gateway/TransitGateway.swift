import ArgumentParser
import Foundation
import Gateway
import GatewayHTTP
import Logging
import NNGKit
import ProcessSupport
import ServiceLifecycle
import ServiceMetrics
import ServiceSupport
import TransitModel

@main
struct TransitGateway: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-gateway",
        abstract: "The query gateway: line-oriented JSON over TCP (protocol/GATEWAY.md).",
        version: TransitVersion.current,
        subcommands: [Serve.self]
    )
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer the line protocol on --listen, asking the static service at --static.",
        discussion: """
            One JSON object per line; try: printf '%s\\n' '{"id":1,"op":"health"}' | nc -N 127.0.0.1 7878. \
            SIGHUP reopens the --log-file (after log rotation moved it away, the lines that follow go to a new \
            file at that path); without --log-file the log goes to standard error and SIGHUP only logs that there \
            is nothing to reopen. SIGINT/SIGTERM stop it gracefully: no new connections; open ones take no further requests, get the \
            answers of the ones they sent (subscribers get {"event":"closing"}) and are closed, at the latest after \
            --drain-timeout. --clock replays a recorded day: requests without \
            `at`, feed ages and health use the service clock (give all three services the same --clock and \
            --clock-origin).
            """
    )

    @Option(
        help: ArgumentHelp(
            "nng URL of the static service (transit-static serve --listen); replicas of one database: their URLs separated by commas (requests are spread over the connected ones).",
            valueName: "url[,url…]"))
    var `static`: String

    @Option(
        help: ArgumentHelp(
            "nng URL of the realtime service's REP socket (snapshots; vehicles while the stream is silent).",
            valueName: "url"))
    var realtime: String?

    @Option(
        help: ArgumentHelp(
            "nng URL of the realtime service's PUB socket (the live stream; needs --realtime).", valueName: "url"))
    var subscribe: String?

    @Option(help: ArgumentHelp("host:port to listen on (port 0: any free port).", valueName: "host:port"))
    var listen = "\(GatewayConfiguration.Defaults.host):\(GatewayConfiguration.Defaults.port)"

    @Option(
        help: ArgumentHelp(
            "Also serve HTTP/1.1 and WebSocket on host:port (GET/POST /v1/<op>, /v1/ws, /v1/openapi.json; protocol/GATEWAY.md §8). Default: off.",
            valueName: "host:port"))
    var http: String?

    @Option(
        help: ArgumentHelp(
            "The browser origin whose pages may read the HTTP answers (CORS), or '*' for any. Default: no CORS headers.",
            valueName: "origin"))
    var corsOrigin: String?

    @Option(
        help:
            "Open connections at most, line and HTTP ports together (at the bound, the least recently active connection of the client address holding the most is closed to make room)."
    )
    var maxConnections = GatewayConfiguration.Defaults.maxConnections

    @Option(
        help:
            "Open connections from one client address at most (beyond: one OVERLOADED line, then close); loopback clients are exempt unless --limit-loopback."
    )
    var maxConnectionsPerAddress = GatewayConfiguration.Defaults.maxConnectionsPerAddress

    @Option(
        help:
            "Connections from one client address waiting to authenticate (--token-file) at most (beyond: one OVERLOADED line, then close)."
    )
    var maxUnauthenticatedPerAddress = GatewayConfiguration.Defaults.maxUnauthenticatedPerAddress

    @Option(help: "Subscriptions of one client address at most, over its connections (beyond: INVALID_ARGUMENT).")
    var maxSubscriptionsPerAddress = GatewayConfiguration.Defaults.maxSubscriptionsPerAddress

    @Option(help: "Requests in flight from one client address at most (beyond: OVERLOADED).")
    var maxInFlightPerAddress = GatewayConfiguration.Defaults.maxInFlightPerAddress

    @Flag(help: "Apply the per-address bounds to loopback clients (127.0.0.0/8, ::1) too.")
    var limitLoopback = GatewayConfiguration.Defaults.limitLoopback

    @Flag(
        help:
            "Every connection (line and HTTP ports) starts with a PROXY protocol v2 header (HAProxy send-proxy-v2), whose source address is the client's; connections without one are closed."
    )
    var proxyProtocol = GatewayConfiguration.Defaults.proxyProtocol

    @Option(help: "Seconds a request line may take from its first byte to its end (beyond: TIMEOUT, then close).")
    var lineTimeout = GatewayConfiguration.Defaults.lineTimeout.inSeconds

    @Option(
        help: "Seconds a connection has to authenticate, with --token-file (beyond: UNAUTHENTICATED, then close).")
    var authTimeout = GatewayConfiguration.Defaults.authTimeout.inSeconds

    @Option(
        help:
            "Bytes of answers a client has not read yet, per connection, at most: beyond, its further requests wait and the gateway stops reading it."
    )
    var maxUnwrittenBytes = GatewayConfiguration.Defaults.maxUnwrittenBytes

    @Option(help: "Requests read ahead (unanswered) per connection at most; beyond, the gateway stops reading it.")
    var maxPipelined = GatewayConfiguration.Defaults.maxPipelined

    @Option(help: "Requests in flight over all connections at most (beyond: OVERLOADED).")
    var maxInFlight = GatewayConfiguration.Defaults.maxInFlight

    @Option(help: "Seconds without a request (and without a subscription) before a connection is closed.")
    var idleTimeout = GatewayConfiguration.Defaults.idleTimeout.inSeconds

    @Option(
        help: ArgumentHelp(
            "File holding the shared token (surrounding whitespace ignored): every connection must send {\"op\":\"auth\",\"token\":…} first (others: UNAUTHENTICATED). Default: no authentication.",
            valueName: "file"))
    var tokenFile: String?

    @Flag(
        help:
            "Accept a --token-file that its group or others may read (refused by default: the token is the gateway's only secret)."
    )
    var allowReadableTokenFile = false

    @Option(
        help: "Requests per second one connection may send, in bursts of as many (beyond: RATE_LIMITED); 0: no limit.")
    var requestRate = GatewayConfiguration.Defaults.requestRate

    @Option(help: "Seconds a whole request may take (beyond: TIMEOUT).")
    var requestTimeout = GatewayConfiguration.Defaults.requestTimeout.inSeconds

    @Option(help: "Seconds to wait for the static service (beyond: STATIC_UNAVAILABLE).")
    var staticTimeout = GatewayConfiguration.Defaults.staticTimeout.inSeconds

    @Option(
        help:
            "Seconds between two requests let through to a static service found down (the others get STATIC_UNAVAILABLE at once; 0: every request asks)."
    )
    var staticProbeInterval = GatewayConfiguration.Defaults.staticProbeInterval.inSeconds

    @Option(
        help: ArgumentHelp(
            "How long one journey plan may search (the answer then says `cut`); 1…60000.", valueName: "ms"))
    var planBudgetMs = PlanLimits.defaultBudgetMilliseconds

    @Option(help: "Seconds to wait for the realtime service (beyond: REALTIME_UNAVAILABLE; also each snapshot).")
    var realtimeTimeout = GatewayConfiguration.Defaults.realtimeTimeout.inSeconds

    @Option(
        help: "Seconds without a message from the realtime publisher before it counts as silent (static_only, stale).")
    var realtimeSilence = GatewayConfiguration.Defaults.realtimeSilence.inSeconds

    @Option(help: "Stops whose forward-board static rows are kept (least recently used dropped; 0: no cache).")
    var boardCacheStops = GatewayConfiguration.Defaults.boardCacheStops

    @Option(
        help: "Board windows (up to 100 static rows each) kept per stop at most, for boards asked at different times.")
    var boardWindowsPerStop = GatewayConfiguration.Defaults.boardWindowsPerStop

    @Option(help: "Board windows kept in all stops together (the cache's memory bound; busy stops hold the most).")
    var boardCacheWindows = GatewayConfiguration.Defaults.boardCacheWindows

    @Option(
        help:
            "Bytes all the gateway's caches hold at most together (board windows 1/2, typical delays 1/4, stop and trip details 1/8, kept stop/search answers and static results 1/16 each)."
    )
    var maxCacheBytes = GatewayConfiguration.Defaults.maxCacheBytes

    @Option(help: "Event-loop threads (0: one per core).")
    var threads = GatewayConfiguration.Defaults.threads

    @Option(
        help:
            "Seconds open connections get, at SIGTERM/SIGINT, to receive the answers of requests sent before it (subscribers get {\"event\":\"closing\"}); then the rest are closed."
    )
    var drainTimeout = GatewayConfiguration.Defaults.drainTimeout.inSeconds

    @Option(
        help:
            "Seconds, at SIGTERM/SIGINT and before the drain, during which health answers status draining while everything is still served (a load balancer's checks take the gateway out first; deploy/haproxy.cfg wants 4)."
    )
    var drainAnnounce = GatewayConfiguration.Defaults.drainAnnounce.inSeconds

    @OptionGroup var logging: LoggingOptions

    @OptionGroup var metrics: MetricsOptions

    @OptionGroup(title: "Service clock")
    var clock: ClockOptions

    @OptionGroup(title: "TLS (tls+tcp:// URLs)")
    var tls: TLSOptions

    @OptionGroup(title: "Hang detection")
    var watchdogOptions: WatchdogOptions

    @Option(
        help: ArgumentHelp(
            "Append the log (all of standard error) to this file instead; SIGHUP reopens it.", valueName: "file"))
    var logFile: String?

    // Flags with a configuration field take their default from `GatewayConfiguration.Defaults` (shown by
    // --help); `configuration()` maps them onto the struct. README.md "Configuring a service".

    func validate() throws {
        _ = try configuration()
    }

    /// The gateway configuration these flags describe; a bad value throws a `ValidationError` naming its flag.
    /// The token of `--token-file` is read at start (`run`), not here: a file that cannot be read is a start
    /// failure, not a usage error.
    func configuration(logger: Logger = Logger(label: "transit-gateway")) throws -> GatewayConfiguration {
        guard let (host, port) = parsedListen else {
            throw ValidationError("--listen must be host:port, got \(listen)")
        }
        let httpAddress = try http.map { text in
            guard let address = ListenAddress(text) else {
                throw ValidationError("--http must be host:port, got \(text)")
            }
            return address
        }
        if corsOrigin != nil, http == nil { throw ValidationError("--cors-origin needs --http") }
        if let corsOrigin, corsOrigin.isEmpty || corsOrigin.contains(where: { $0 == " " || $0 == "," }) {
            throw ValidationError(
                "--cors-origin takes one origin (e.g. https://example.org) or '*', got \"\(corsOrigin)\"")
        }
        for (flag, value) in [("--static", `static`), ("--realtime", realtime), ("--subscribe", subscribe)] {
            if let value, NNGURLList.split(value).isEmpty {
                throw ValidationError(
                    "\(flag) needs at least one nng URL (several: separated by commas), got \"\(value)\"")
            }
        }
        for (name, value) in [
            ("--idle-timeout", idleTimeout), ("--request-timeout", requestTimeout), ("--static-timeout", staticTimeout),
            ("--realtime-timeout", realtimeTimeout), ("--realtime-silence", realtimeSilence),
            ("--drain-timeout", drainTimeout), ("--line-timeout", lineTimeout), ("--auth-timeout", authTimeout),
        ] {
            guard value > 0, value.isFinite else {
                throw ValidationError("\(name) must be a positive number of seconds")
            }
        }
        guard staticProbeInterval >= 0, staticProbeInterval.isFinite else {
            throw ValidationError("--static-probe-interval must be 0 or a positive number of seconds")
        }
        for (flag, value, least) in [
            ("--max-connections", maxConnections, 1), ("--max-in-flight", maxInFlight, 1),
            ("--max-pipelined", maxPipelined, 1), ("--max-connections-per-address", maxConnectionsPerAddress, 1),
            ("--max-unwritten-bytes", maxUnwrittenBytes, 1024), ("--request-rate", requestRate, 0),
            ("--board-cache-stops", boardCacheStops, 0), ("--board-windows-per-stop", boardWindowsPerStop, 1),
            ("--board-cache-windows", boardCacheWindows, 1), ("--threads", threads, 0),
            ("--max-unauthenticated-per-address", maxUnauthenticatedPerAddress, 1),
            ("--max-subscriptions-per-address", maxSubscriptionsPerAddress, 1),
            ("--max-in-flight-per-address", maxInFlightPerAddress, 1), ("--max-cache-bytes", maxCacheBytes, 1 << 20),
        ] where value < least {
            throw ValidationError("\(flag) must be at least \(least), got \(value)")
        }
        if subscribe != nil, realtime == nil {
            throw ValidationError("--subscribe needs --realtime (the realtime service's REP URL, for snapshots)")
        }
        guard PlanLimits.budgetMilliseconds.contains(planBudgetMs) else {
            throw ValidationError("--plan-budget-ms must be 1…60000, got \(planBudgetMs)")
        }
        guard drainAnnounce >= 0, drainAnnounce.isFinite else {
            throw ValidationError("--drain-announce must be 0 or more seconds, got \(drainAnnounce)")
        }
        var configuration = GatewayConfiguration(
            host: host, port: port, http: httpAddress, corsOrigin: corsOrigin, staticURL: `static`,
            realtimeURL: realtime, subscribeURL: subscribe,
            maxConnections: maxConnections, maxInFlight: maxInFlight, maxPipelined: maxPipelined,
            maxUnwrittenBytes: maxUnwrittenBytes, maxConnectionsPerAddress: maxConnectionsPerAddress,
            limitLoopback: limitLoopback, idleTimeout: .seconds(idleTimeout), requestRate: requestRate,
            requestTimeout: .seconds(requestTimeout), staticTimeout: .seconds(staticTimeout),
            staticProbeInterval: .seconds(staticProbeInterval), realtimeTimeout: .seconds(realtimeTimeout),
            realtimeSilence: .seconds(realtimeSilence), boardCacheStops: boardCacheStops,
            boardWindowsPerStop: boardWindowsPerStop, boardCacheWindows: boardCacheWindows, threads: threads,
            drainTimeout: .seconds(drainTimeout), clock: clock.serviceClock, logger: logger)
        configuration.drainAnnounce = .seconds(drainAnnounce)
        configuration.maxUnauthenticatedPerAddress = maxUnauthenticatedPerAddress
        configuration.maxSubscriptionsPerAddress = maxSubscriptionsPerAddress
        configuration.maxInFlightPerAddress = maxInFlightPerAddress
        configuration.proxyProtocol = proxyProtocol
        configuration.lineTimeout = .seconds(lineTimeout)
        configuration.authTimeout = .seconds(authTimeout)
        configuration.maxCacheBytes = maxCacheBytes
        configuration.planBudget = .milliseconds(planBudgetMs)
        return configuration
    }

    private var parsedListen: (host: String, port: Int)? {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        let host = String(listen[..<colon])
        return host.isEmpty ? nil : (host, port)
    }

    func run() async throws {
        var logFile: StandardErrorFile?
        if let path = self.logFile {
            do {
                logFile = try StandardErrorFile(path: path)
            } catch {
                printError("serve: \(error)")
                throw ExitCode.failure
            }
        }
        logging.bootstrap()
        tls.apply()
        let logger = Logger(label: "transit-gateway")
        var config = try configuration(logger: logger)
        let watchdog = Watchdog()
        config.watchdog = watchdog
        if let tokenFile {
            do {
                config.authToken = try Self.readToken(tokenFile, allowReadable: allowReadableTokenFile)
            } catch {
                logger.critical("cannot start: \(error)")
                throw ExitCode.failure
            }
        }

        // Before the server makes its first metric handles.
        let registry = metrics.bootstrap()
        let server: GatewayServer
        do {
            server = try await GatewayServer.start(config: config)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        let hangup = await SignalAction(.sighup) { [logFile] in
            guard let logFile else {
                logger.info("SIGHUP: the log goes to standard error (no --log-file), nothing to reopen")
                return
            }
            do {
                try logFile.reopen()
                logger.info("SIGHUP: log file reopened", metadata: ["path": "\(logFile.path)"])
            } catch {
                logger.error(
                    "SIGHUP: reopening the log file failed; logging on to the file open before",
                    metadata: ["error": "\(error)"])
            }
        }
        var services: [any Service] = [server, hangup]
        do {
            if let http = try GatewayHTTPServer(gateway: server) { services.append(http) }
        } catch {
            logger.critical("cannot start: --http: \(error)")
            await server.stop()
            throw ExitCode.failure
        }
        do {
            let endpoint = try await metrics.endpoint(registry, logger: logger) { scraped in
                for value in server.metricValues() {
                    if value.isTotal {
                        scraped.total(value.name, value.dimensions, Int64(value.value))
                    } else {
                        scraped.gauge(value.name, value.dimensions, value.value)
                    }
                }
            }
            if let endpoint { services.append(endpoint) }
        } catch {
            logger.critical("cannot start: \(error)")
            await server.stop()
            throw ExitCode.failure
        }
        // Last: it stops first, so loops stopping on purpose are not reported late.
        services.append(watchdogOptions.service(watchdog, logger: logger))
        try await runUntilStopped(services, logger: logger)
    }

    /// The token in `path`, without surrounding whitespace; an empty file is an error (the message never
    /// shows the file's content), and so is a file its group or others may read, unless `allowReadable`.
    static func readToken(_ path: String, allowReadable: Bool = false) throws -> [UInt8] {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0, !allowReadable {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw ValidationError(
                "--token-file \(path) may be read by its group or others (mode \(mode)): chmod 600 it, or pass "
                    + "--allow-readable-token-file")
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ValidationError("--token-file \(path): cannot read it as UTF-8 text")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw ValidationError("--token-file \(path) is empty") }
        return Array(token.utf8)
    }
}
