import Logging
import NIOCore
import NNGKit
import RealtimeFollowing

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
    /// Connections, subscriptions and requests per client address.
    let budgets: ClientBudgets
    /// Gives the heap's free memory back every `config.heapTrimInterval` (nil: never).
    let heapTrimmer: HeapTrimmer?

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
                ("max_unauthenticated_per_address", Int64(config.maxUnauthenticatedPerAddress)),
                ("max_in_flight", Int64(config.maxInFlight)),
                ("max_in_flight_per_address", Int64(config.maxInFlightPerAddress)),
                ("max_pipelined", Int64(config.maxPipelined)),
                ("max_unwritten_bytes", Int64(config.maxUnwrittenBytes)),
                ("max_line_bytes", Int64(config.maxLineBytes)),
                ("max_subscriptions", Int64(config.maxSubscriptions)),
                ("max_subscriptions_per_address", Int64(config.maxSubscriptionsPerAddress)),
                ("max_unread_event_bytes", Int64(config.maxUnreadEventBytes)),
                ("max_cache_bytes", Int64(config.maxCacheBytes)),
                ("idle_timeout_ms", config.idleTimeout.milliseconds),
                ("line_timeout_ms", config.lineTimeout.milliseconds),
                ("auth_timeout_ms", config.authTimeout.milliseconds),
                ("request_timeout_ms", config.requestTimeout.milliseconds),
                ("request_rate", Int64(config.requestRate)),
            ],
            switches: [
                ("limit_loopback", config.limitLoopback), ("auth", config.authToken != nil),
                ("proxy_protocol", config.proxyProtocol),
            ])
        budgets = ClientBudgets(
            limits: .init(
                connections: config.maxConnections, connectionsPerAddress: config.maxConnectionsPerAddress,
                unauthenticatedPerAddress: config.maxUnauthenticatedPerAddress,
                subscriptionsPerAddress: config.maxSubscriptionsPerAddress,
                inFlight: InFlightShare(total: config.maxInFlight, perAddress: config.maxInFlightPerAddress),
                limitLoopback: config.limitLoopback),
            stats: stats)
        logger = config.logger
        heapTrimmer = config.heapTrimInterval > .zero ? HeapTrimmer(interval: config.heapTrimInterval) : nil
        dispatcher = RequestDispatcher(
            staticClient: staticClient,
            boardCache: BoardWindowCache(
                capacity: config.boardCacheStops, windowRows: config.boardWindowRows,
                windowsPerStop: config.boardWindowsPerStop, maxWindows: config.boardCacheWindows,
                maxBytes: config.cacheBytes.boardWindows, versionCheck: config.staticVersionCheck),
            realtime: realtime, realtimeClient: realtimeClient, stats: stats, clock: config.clock,
            cacheBytes: config.cacheBytes, planBudget: config.planBudget, heapTrimmer: heapTrimmer,
            logger: config.logger)
    }

    /// The handlers in front of a connection of `port`: the PROXY v2 header's reader (`--proxy-protocol`) and
    /// the admission in the per-address budgets.
    func admissionHandlers(port: ClientAdmission.Port) -> [any ChannelHandler] {
        let admission = ClientAdmission(budgets: budgets, stats: stats, port: port)
        guard config.proxyProtocol else { return [admission] }
        return [ProxyHeaderHandler(timeout: config.lineTimeout.timeAmount, logger: logger), admission]
    }

    func close() {
        heapTrimmer?.stop()
        staticClient.close()
        realtimeClient?.close()
    }
}
