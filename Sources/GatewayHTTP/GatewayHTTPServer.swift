import Gateway
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The gateway's HTTP port (`transit-gateway serve --http`, GATEWAY.md §8): HTTP/1.1 and WebSocket in front of
/// the same dispatcher as the line port, on the line port's event loops. As a `Service` it serves until
/// graceful shutdown; `port()` tells where it listens once it does.
public final class GatewayHTTPServer: Service, Sendable {
    private let server: any Service
    private let listening = ListeningPort()
    /// Where it listens (`--http`).
    private let address: ListenAddress
    let endpoints: HTTPEndpoints

    /// The server of `gateway.config.http` (nil when the configuration has no HTTP port).
    public init?(gateway: GatewayServer) throws {
        let config = gateway.config
        guard let listen = config.http else { return nil }
        address = listen
        endpoints = try HTTPEndpoints(
            gateway: gateway, openAPI: OpenAPIDocument.bytes, cors: config.corsOrigin.map(CORSPolicy.init))
        let listening = self.listening
        let endpoints = self.endpoints
        let channel = GatewayHTTPChannel(
            responder: { request, writer, channel in
                try await endpoints.respond(to: request, writer: writer, channel: channel)
            },
            gateway: gateway, maxFrameSize: max(1 << 20, 2 * config.maxLineBytes), idleTimeout: config.idleTimeout)
        let logger = config.logger
        server = channel.server(
            // Connections count against --max-connections with the line port's, in the gateway's per-address
            // budgets (`httpAdmissionHandlers`): at the bound a newcomer makes room rather than waits.
            configuration: ServerConfiguration(
                address: .hostname(listen.host, port: listen.port), serverName: nil, backlog: 256,
                reuseAddress: true),
            onServerRunning: { listener in
                let port = listener.localAddress?.port ?? listen.port
                logger.info("http listening", metadata: ["listen": "\(listen.host):\(port)"])
                listening.settle(.success(port))
            },
            eventLoopGroup: gateway.eventLoopGroup, logger: logger)
    }

    /// Serves until graceful shutdown (then lets open requests finish; WebSockets drain as line connections).
    public func run() async throws {
        do {
            try await server.run()
            listening.settle(.failure(ListenFailed(reason: "stopped before it listened")))
        } catch {
            let failure = ListenFailed(reason: "\(address): \(error)")
            listening.settle(.failure(failure))
            throw failure
        }
    }

    /// The port it listens on, once it does (`run` must be running); throws when listening failed.
    public func port() async throws -> Int {
        try await listening.port()
    }

    struct ListenFailed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "cannot serve --http \(reason)" }
    }
}

/// The port a server listens on, for those who wait for it.
private final class ListeningPort: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Int, any Error>])
        case settled(Result<Int, any Error>)
    }

    private let state = Mutex<State>(.waiting([]))

    /// The first outcome counts.
    func settle(_ outcome: Result<Int, any Error>) {
        let waiting = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .waiting(let waiting) = state else { return [] }
            state = .settled(outcome)
            return waiting
        }
        for continuation in waiting { continuation.resume(with: outcome) }
    }

    func port() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let settled = state.withLock { state -> Result<Int, any Error>? in
                switch state {
                case .waiting(var waiting):
                    waiting.append(continuation)
                    state = .waiting(waiting)
                    return nil
                case .settled(let outcome): return outcome
                }
            }
            if let settled { continuation.resume(with: settled) }
        }
    }
}
