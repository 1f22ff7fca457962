import CoreMetrics
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// `serve --metrics host:port`: the Prometheus text endpoint of a service. The services record through
/// swift-metrics (counters, timers); `bootstrap` makes swift-prometheus their backend, and this small HTTP
/// listener (HummingbirdCore's HTTP/1.1 server, the one the gateway's HTTP port runs on: swift-prometheus
/// renders text but serves nothing) answers `GET /metrics` with the registry's text, after `refresh` has set
/// the gauges that are read at scrape time (RSS, feed ages, …). Any other path is 404; any other method 405.
/// It serves until graceful shutdown.
public final class MetricsEndpoint: Service, Sendable {
    public let registry: PrometheusCollectorRegistry
    /// The port it listens on (the chosen one when asked for port 0).
    public let port: Int
    private let server: Server<HTTP1Channel>
    private let serving: Task<Void, any Error>
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
        var logger = Logger(label: "metrics")
        logger.logLevel = .warning
        let (bound, boundContinuation) = AsyncStream<Int>.makeStream()
        server = Server(
            childChannelSetup: HTTP1Channel(responder: { request, writer, _ in
                try await Self.answer(request, writer: writer, registry: registry) { refresh(scraped) }
            }),
            configuration: ServerConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? port)
                boundContinuation.finish()
            },
            eventLoopGroup: group, logger: logger)
        let server = self.server
        serving = Task {
            defer { boundContinuation.finish() }
            try await server.run()
        }
        var ports = bound.makeAsyncIterator()
        guard let boundPort = await ports.next() else {
            let failure: any Error
            do {
                try await serving.value
                failure = CannotListen()
            } catch {
                failure = error
            }
            try? await group.shutdownGracefully()
            throw failure
        }
        self.port = boundPort
    }

    struct CannotListen: Error {}

    public func run() async throws {
        try? await gracefulShutdown()
        await stop()
    }

    public func stop() async {
        try? await server.shutdownGracefully()
        _ = await serving.result
        try? await group.shutdownGracefully()
    }

    /// "host:port" → (host, port), for `--metrics`; nil when malformed.
    public static func parseAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port), colon > text.startIndex
        else { return nil }
        return (String(text[..<colon]), port)
    }

    /// GET /metrics → the registry's text.
    private static func answer(
        _ request: Request, writer: consuming ResponseWriter, registry: PrometheusCollectorRegistry,
        refresh: () -> Void
    ) async throws {
        let status: HTTPResponse.Status
        let body: [UInt8]
        var contentType = "text/plain; charset=utf-8"
        if request.uri.path != "/metrics" {
            (status, body) = (.notFound, Array("not found: try /metrics\n".utf8))
        } else if request.method != .get && request.method != .head {
            (status, body) = (.methodNotAllowed, Array("GET /metrics\n".utf8))
        } else {
            refresh()
            (status, body) = (.ok, registry.emitToBuffer())
            contentType = "text/plain; version=0.0.4; charset=utf-8"
        }
        let head = HTTPResponse(
            status: status, headerFields: [.contentType: contentType, .contentLength: "\(body.count)"])
        if request.method == .head {
            try await writer.writeResponse(head)
        } else {
            try await writer.write(response: head, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }
}
