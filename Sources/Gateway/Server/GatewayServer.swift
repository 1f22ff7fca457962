import Logging
import NIOCore
import NIOPosix
import NNGKit

/// The query gateway: a TCP listener speaking the line protocol (protocol/GATEWAY.md) in front of the static
/// service (nng REQ) and the realtime view.
public final class GatewayServer: Sendable {
    public let config: GatewayConfig
    /// The live state the answers merge in; its feeder (the realtime SUB subscriber) is issue 3's.
    public let realtime: RealtimeView
    /// The port it listens on (the chosen one when `config.port` was 0).
    public let port: Int

    private let services: GatewayServices
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel

    private init(config: GatewayConfig, realtime: RealtimeView, services: GatewayServices,
                 group: MultiThreadedEventLoopGroup, listener: any Channel, port: Int) {
        self.config = config
        self.realtime = realtime
        self.services = services
        self.group = group
        self.listener = listener
        self.port = port
    }

    /// Dials the static service (non-blocking: it may come up later) and listens.
    public static func start(config: GatewayConfig, realtime: RealtimeView? = nil) async throws -> GatewayServer {
        let realtime = realtime ?? RealtimeView(configured: config.subscribeURL != nil)
        let services = try GatewayServices(config: config, realtime: realtime)
        let threads = config.threads > 0 ? config.threads : System.coreCount
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            // `nc -N` half-closes after sending: keep the channel open to answer every line.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
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
        if config.realtimeURL != nil || config.subscribeURL != nil {
            logger.notice("realtime URLs accepted but not used yet: the realtime subscriber is not built (issue 3); answers are static_only with stale true", metadata: [
                "realtime": "\(config.realtimeURL ?? "-")", "subscribe": "\(config.subscribeURL ?? "-")",
            ])
        }
        logger.info("listening", metadata: [
            "listen": "\(config.host):\(port)", "static": "\(config.staticURL)", "threads": "\(threads)",
        ])
        return GatewayServer(config: config, realtime: realtime, services: services, group: group, listener: listener, port: port)
    }

    /// Stops listening, closes every connection and the service sockets.
    public func stop() async {
        try? await listener.close()
        // Closing the service sockets first ends the requests still waiting on them, so their tasks finish
        // before the event loops go away.
        services.close()
        try? await group.shutdownGracefully()
    }
}

public enum GatewayStartError: Error, CustomStringConvertible {
    case listen(host: String, port: Int, any Error)

    public var description: String {
        switch self {
        case .listen(let host, let port, let error): "cannot listen on \(host):\(port): \(error)"
        }
    }
}
