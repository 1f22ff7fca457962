import CoreMetrics
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// `serve --metrics host:port`: the Prometheus text endpoint of a service. The services record through
/// swift-metrics (counters, timers); `bootstrap` makes swift-prometheus their backend, and this small HTTP
/// listener (ours, on SwiftNIO: swift-prometheus renders text but serves nothing) answers `GET /metrics` with
/// the registry's text, after `refresh` has set the gauges that are read at scrape time (RSS, feed ages, …).
/// Any other path is 404; any other method 405. It serves until graceful shutdown.
public final class MetricsEndpoint: Service, Sendable {
    public let registry: PrometheusCollectorRegistry
    /// The port it listens on (the chosen one when asked for port 0).
    public let port: Int
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// Latency buckets of every timer: 50 µs … 5 s (the services answer in tens of µs to seconds).
    public static let durationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
        .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    /// Makes swift-prometheus the swift-metrics backend of the process (once, before any metric is made) and
    /// returns its registry.
    public static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        MetricsSystem.bootstrap(factory)
        return registry
    }

    /// Listens on `host:port` (port 0: any free one). `refresh` runs before each scrape, to publish the
    /// values read then (`ScrapedValues`).
    public init(
        host: String, port: Int, registry: PrometheusCollectorRegistry,
        refresh: @escaping @Sendable (ScrapedValues) -> Void = { _ in }
    ) async throws {
        self.registry = registry
        let scraped = ScrapedValues()
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(
                        ScrapeHandler(registry: registry, refresh: { refresh(scraped) }))
                }
            }
        do {
            channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        self.port = channel.localAddress?.port ?? port
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await stop()
    }

    public func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// "host:port" → (host, port), for `--metrics`; nil when malformed.
    public static func parseAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port), colon > text.startIndex
        else { return nil }
        return (String(text[..<colon]), port)
    }
}

/// One HTTP/1.1 request at a time: GET /metrics → the registry's text.
private final class ScrapeHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let registry: PrometheusCollectorRegistry
    let refresh: @Sendable () -> Void
    /// The request head being read (the body, if any, is ignored).
    private let head = Mutex<HTTPRequestHead?>(nil)

    init(registry: PrometheusCollectorRegistry, refresh: @escaping @Sendable () -> Void) {
        self.registry = registry
        self.refresh = refresh
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): head.withLock { $0 = request }
        case .body: break
        case .end:
            guard let request = head.withLock({ $0.take() }) else { return }
            let path = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.uri
            let status: HTTPResponseStatus
            let body: [UInt8]
            var contentType = "text/plain; charset=utf-8"
            if path != "/metrics" {
                (status, body) = (.notFound, Array("not found: try /metrics\n".utf8))
            } else if request.method != .GET && request.method != .HEAD {
                (status, body) = (.methodNotAllowed, Array("GET /metrics\n".utf8))
            } else {
                refresh()
                (status, body) = (.ok, registry.emitToBuffer())
                contentType = "text/plain; version=0.0.4; charset=utf-8"
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: contentType)
            headers.add(name: "Content-Length", value: "\(body.count)")
            let keepAlive = request.isKeepAlive
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
                promise: nil)
            if request.method != .HEAD {
                context.write(
                    wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { channel.close(promise: nil) }
            }
        }
    }
}
