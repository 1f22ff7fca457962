import Foundation
import Logging
import NIOCore
import NIOPosix
import NNGKit
import ProcessSupport
import RealtimeFollowing
import ServiceLifecycle

/// The query gateway: a TCP listener speaking the line protocol (protocol/GATEWAY.md) in front of the static
/// service (nng REQ) and the realtime view. As a `Service` (`transit-gateway serve` runs it in a
/// `ServiceGroup`) it serves until graceful shutdown.
public final class GatewayServer: Service, Sendable {
    public let config: GatewayConfiguration
    /// The live state the answers merge in, fed by `subscriber`.
    public let realtime: RealtimeView
    /// The realtime PUB subscriber (nil without `subscribeURL`).
    public let subscriber: GatewayRealtimeSubscriber?
    /// The port it listens on (the chosen one when `config.port` was 0).
    public let port: Int

    let services: GatewayServices
    let group: MultiThreadedEventLoopGroup
    private let listener: any Channel

    private init(
        config: GatewayConfiguration, realtime: RealtimeView, subscriber: GatewayRealtimeSubscriber?,
        services: GatewayServices,
        group: MultiThreadedEventLoopGroup, listener: any Channel, port: Int
    ) {
        self.config = config
        self.realtime = realtime
        self.subscriber = subscriber
        self.services = services
        self.group = group
        self.listener = listener
        self.port = port
    }

    /// Dials the services (non-blocking: they may come up later), starts the realtime subscriber when
    /// `subscribeURL` is set, and listens. A given `realtime` view is fed instead of a new one (tests).
    public static func start(config: GatewayConfiguration, realtime: RealtimeView? = nil) async throws -> GatewayServer
    {
        if config.subscribeURL != nil, config.realtimeURL == nil {
            throw GatewayStartError.configuration(
                "a realtime PUB URL (--subscribe) needs the realtime REP URL (--realtime) for snapshots")
        }
        let realtime =
            realtime ?? RealtimeView(configured: config.subscribeURL != nil, silenceLimit: config.realtimeSilence)
        let services = try GatewayServices(config: config, realtime: realtime)
        let threads = config.threads > 0 ? config.threads : System.coreCount
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        if let watchdog = config.watchdog { EventLoopHeartbeats.start(on: group, watchdog: watchdog) }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            // `nc -N` half-closes after sending: keep the channel open to answer every line.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(services.admissionHandlers(port: .line))
                    try channel.pipeline.syncOperations.addHandler(ConnectionHandler(services: services))
                }
            }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: config.host, port: config.port).get()
        } catch {
            services.close()
            try? await group.shutdownGracefully()
            throw GatewayStartError.listen(host: config.host, port: config.port, error)
        }
        let port = listener.localAddress?.port ?? config.port
        let logger = config.logger
        var subscriber: GatewayRealtimeSubscriber?
        if let subscribeURL = config.subscribeURL, let realtimeURL = config.realtimeURL {
            do {
                subscriber = try GatewayRealtimeSubscriber(
                    consumer: GatewayLiveFeed(view: realtime), fence: realtime.fence,
                    options: .init(
                        subscribeURL: subscribeURL, realtimeURL: realtimeURL, silenceLimit: realtime.silenceLimit,
                        snapshotTimeout: config.realtimeTimeout, retryMax: config.snapshotRetryMax),
                    logger: logger)
            } catch {
                try? await listener.close()
                services.close()
                try? await group.shutdownGracefully()
                throw error
            }
            subscriber?.start()
        }
        logger.info(
            "listening",
            metadata: [
                "listen": "\(config.host):\(port)", "static": "\(config.staticURL)", "threads": "\(threads)",
                "realtime": "\(config.realtimeURL ?? "-")", "subscribe": "\(config.subscribeURL ?? "-")",
            ])
        return GatewayServer(
            config: config, realtime: realtime, subscriber: subscriber, services: services, group: group,
            listener: listener,
            port: port)
    }

    /// Stops listening and drains: every open connection takes no further requests, gets the answers of
    /// the ones it sent, its subscribers `{"event":"closing"}`, and closes; after `config.drainTimeout` the
    /// ones still open are closed. Then closes the service sockets.
    public func stop() async {
        try? await listener.close()
        let open = services.connections.count
        services.connections.drainAll()
        let deadline = ContinuousClock.now + config.drainTimeout
        while services.connections.count > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let left = services.connections.count
        if open > 0 {
            config.logger.info("drained", metadata: ["connections": "\(open)", "closed_unfinished": "\(left)"])
        }
        services.connections.closeAll()
        await subscriber?.stop()
        // Closing the service sockets first ends the requests still waiting on them, so their tasks finish
        // before the event loops go away.
        services.close()
        if let watchdog = config.watchdog { EventLoopHeartbeats.stop(on: group, watchdog: watchdog) }
        try? await group.shutdownGracefully()
    }

    /// Logs "ready", serves until graceful shutdown (or cancellation), then stops (`stop()`).
    public func run() async throws {
        let logger = config.logger
        logger.info(
            "ready",
            metadata: [
                "port": "\(port)", "clock": "\(config.clock)", "pid": "\(ProcessInfo.processInfo.processIdentifier)",
            ])
        try? await gracefulShutdown()
        if config.drainAnnounce > .zero {
            // Still serving everything; only the load balancer's health checks fail, so it sends no new clients.
            services.stats.draining = true
            logger.info("draining: health answers draining for \(config.drainAnnounce) before the drain")
            try? await Task.sleep(for: config.drainAnnounce)
        }
        logger.info("stopping")
        await stop()
        logger.info("stopped")
    }
}

public enum GatewayStartError: Error, CustomStringConvertible {
    case listen(host: String, port: Int, any Error)
    case configuration(String)

    public var description: String {
        switch self {
        case .listen(let host, let port, let error): "cannot listen on \(host):\(port): \(error)"
        case .configuration(let why): why
        }
    }
}
