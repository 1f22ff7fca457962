import Gateway
import GatewayProtocol
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// One connection of the HTTP port: HTTP/1.1 requests one after another (Hummingbird's keep-alive loop,
/// answered by `HTTPEndpoints`), or, after a WebSocket upgrade on `/v1/ws`, a line connection of the gateway
/// (its `ConnectionHandler`, every limit of it) over `WebSocketLineFraming`.
struct GatewayHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    enum Negotiated: Sendable {
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case webSocket(any Channel)
        /// An upgrade refused: answered with this error, then closed (NIO's decoder reads no further request
        /// after an upgrade request, so it cannot go on as a keep-alive connection).
        case refusedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, GatewayError)
    }

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let gateway: GatewayServer
    /// Largest WebSocket frame read; a bigger one closes the connection (1009). Messages over the line limit
    /// but under this are answered LINE_TOO_LONG, as long lines are.
    let maxFrameSize: Int
    let idleTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let gateway = self.gateway
            try channel.pipeline.syncOperations.addHandlers(gateway.httpAdmissionHandlers())
            let refusal = NIOLoopBoundBox<GatewayError?>(nil, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: maxFrameSize,
                shouldUpgrade: { channel, head in
                    refusal.value = Self.refusal(of: head, from: gateway.clientName(of: channel), gateway: gateway)
                    return channel.eventLoop.makeSucceededFuture(refusal.value == nil ? HTTPHeaders() : nil)
                },
                upgradePipelineHandler: { channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        // Accepted with a Bearer: `refusal` found it good.
                        let authenticated = gateway.authToken != nil && head.headers.first(name: "authorization") != nil
                        try channel.pipeline.syncOperations.addHandler(WebSocketLineFraming())
                        try channel.pipeline.syncOperations.addHandler(
                            gateway.lineConnectionHandler(authenticated: authenticated))
                        return Negotiated.webSocket(channel)
                    }
                })
            let upgrade = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(HTTP10ConnectionClose())
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try channel.pipeline.syncOperations.addHandler(
                            HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true))
                        if let refused = refusal.value { return Negotiated.refusedUpgrade(http, refused) }
                        return Negotiated.http(http)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Negotiated>(
                upgradeConfiguration: upgrade)
            configuration.enablePipelining = false  // one request at a time: the async loop reads the next
            configuration.enableErrorHandling = false
            configuration.enableResponseHeaderValidation = false
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: configuration)
            return Value(negotiated: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .http(let channel):
                // The connection's request loop (reading, answering, writing) runs on its event loop, as the
                // line port's request tasks do: no hand-over to the cooperative pool and back per request.
                await withTaskExecutorPreference(EventLoopTaskExecutor(channel.channel.eventLoop)) {
                    await handleHTTP(asyncChannel: channel, logger: logger)
                }
            case .webSocket(let channel):
                // The line connection runs on the channel's event loop; this task only waits for its end.
                try? await channel.closeFuture.get()
            case .refusedUpgrade(let channel, let error):
                try await refuse(channel, error)
            }
        } catch {
            logger.debug("HTTP connection ended before a request", metadata: ["error": "\(error)"])
        }
    }

    /// Why a WebSocket upgrade request is refused (nil: accepted): it is accepted on `/v1/ws` only, and with a
    /// token configured, only when the request has no `Authorization` (the in-band `auth` op follows) or a
    /// Bearer one the gateway accepts (through the `auth` op's per-address throttle).
    static func refusal(of head: HTTPRequestHead, from address: String?, gateway: GatewayServer) -> GatewayError? {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path == "/v1/ws" else {
            return GatewayError(.notFound, "no WebSocket at \(path): it is at /v1/ws")
        }
        guard gateway.authToken != nil, let header = head.headers.first(name: "authorization") else { return nil }
        guard let token = Bearer.token(in: header) else {
            return GatewayError(.unauthenticated, "send the token as Authorization: Bearer <token>")
        }
        return gateway.refusal(ofToken: AuthToken(Array(token.utf8)), from: address ?? "unknown")?.error
    }

    /// Answers a refused upgrade with its error (counted as any answer) and closes.
    private func refuse(_ channel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, _ error: GatewayError)
        async throws
    {
        let answer = gateway.recorded(.failure(id: .null, op: nil, error, received: .now))
        var headers: HTTPFields = [
            .contentType: "application/json", .contentLength: "\(answer.bytes.count)", .connection: "close",
        ]
        if error.code == .unauthenticated { headers[.wwwAuthenticate] = "Bearer" }
        if error.code == .rateLimited { headers[.retryAfter] = "1" }
        try await channel.executeThenClose { _, outbound in
            try await outbound.write(.head(HTTPResponse(status: error.code.httpStatus, headerFields: headers)))
            try await outbound.write(.body(ByteBuffer(bytes: answer.bytes)))
            try await outbound.write(.end(nil))
        }
    }
}

/// An HTTP/1.0 request without keep-alive gets `Connection: close`, so the connection closes after its answer
/// as HTTP/1.0 wants (the HTTP types past this point no longer say the version).
final class HTTP10ConnectionClose: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.version == .http1_0, !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
