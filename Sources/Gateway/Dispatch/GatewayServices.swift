import Logging
import NNGKit

/// What every connection shares: configuration, the static client, the realtime view and the statistics.
final class GatewayServices: Sendable {
    let config: GatewayConfiguration
    let staticClient: StaticClient
    let realtimeClient: RealtimeClient?
    let realtime: RealtimeView
    let stats: GatewayStats
    let logger: Logger
    let dispatcher: RequestDispatcher
    /// The open connections, for draining at shutdown.
    let connections = OpenConnections()
    /// Failed `auth` attempts per client address (slows guessing).
    let authThrottle = AuthThrottle()

    init(config: GatewayConfiguration, realtime: RealtimeView) throws(NNGError) {
        self.config = config
        staticClient = try StaticClient(
            urls: config.staticURLs, timeout: config.staticTimeout, probeInterval: config.staticProbeInterval,
            clock: config.clock)
        do {
            realtimeClient = try config.realtimeURL.map { url throws(NNGError) in
                try RealtimeClient(url: url, timeout: config.realtimeTimeout)
            }
        } catch {
            staticClient.close()
            throw error
        }
        self.realtime = realtime
        stats = GatewayStats(
            limits: [
                ("max_connections", Int64(config.maxConnections)),
                ("max_connections_per_address", Int64(config.maxConnectionsPerAddress)),
                ("max_in_flight", Int64(config.maxInFlight)),
                ("max_pipelined", Int64(config.maxPipelined)),
                ("max_unwritten_bytes", Int64(config.maxUnwrittenBytes)),
                ("max_line_bytes", Int64(config.maxLineBytes)),
                ("max_subscriptions", Int64(config.maxSubscriptions)),
                ("idle_timeout_ms", config.idleTimeout.milliseconds),
                ("request_timeout_ms", config.requestTimeout.milliseconds),
                ("request_rate", Int64(config.requestRate)),
            ], switches: [("limit_loopback", config.limitLoopback), ("auth", config.authToken != nil)])
        logger = config.logger
        dispatcher = RequestDispatcher(
            staticClient: staticClient,
            boardCache: BoardWindowCache(
                capacity: config.boardCacheStops, windowRows: config.boardWindowRows,
                windowsPerStop: config.boardWindowsPerStop, maxWindows: config.boardCacheWindows,
                versionCheck: config.staticVersionCheck),
            realtime: realtime, realtimeClient: realtimeClient, stats: stats, clock: config.clock,
            planBudget: config.planBudget, logger: config.logger)
    }

    func close() {
        staticClient.close()
        realtimeClient?.close()
    }
}
