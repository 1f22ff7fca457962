import GatewayProtocol
import NIOCore

/// The handler in front of every connection of both ports (behind `ProxyHeaderHandler`): admits it in
/// `ClientBudgets` when it opens (the handlers behind see `channelActive` only then), marks it active on each
/// read, closes it when it must make room for another, and gives its place back when it closes. A refused
/// connection gets one OVERLOADED answer in its port's framing and is closed.
final class ClientAdmission: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    enum Port {
        /// Refused and closed connections get an OVERLOADED line (the ConnectionHandler behind writes it).
        case line
        /// Refused connections get an HTTP 429 answer; closed ones no answer.
        case http
    }

    let budgets: ClientBudgets
    let stats: GatewayStats
    let port: Port
    /// The connection's ticket once admitted (nil before, or refused).
    private(set) var ticket: ConnectionTicket?
    private var proxied: ProxiedClient?
    private var refused = false

    init(budgets: ClientBudgets, stats: GatewayStats, port: Port) {
        self.budgets = budgets
        self.stats = stats
        self.port = port
    }

    func channelActive(context: ChannelHandlerContext) {
        let address = proxied?.address ?? context.remoteAddress
        let client = budgets.client(at: address)
        let channel = context.channel
        ticket = budgets.admit(name: client.name, limited: client.limited) {
            channel.pipeline.fireUserInboundEventTriggered(MakeRoom())
        }
        guard ticket != nil else {
            refused = true
            let error = GatewayError(
                .overloaded,
                "too many connections from your address (limit \(budgets.limits.connectionsPerAddress)); retry later")
            stats.record(op: nil, error: .overloaded, micros: 0)
            let line = GatewayResponse.error(id: .null, error)
            var bytes: [UInt8]
            switch port {
            case .line:
                bytes = line
            case .http:
                bytes = Array(
                    ("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
                        + "Connection: close\r\nContent-Length: \(line.count)\r\n\r\n").utf8)
                bytes += line
            }
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(bytes: bytes))).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        ticket?.touch(.now())
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ProxiedClient {
            proxied = event
        } else if event is MakeRoom, port == .http {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let ticket { budgets.closed(ticket) }
        ticket = nil
        guard !refused else { return }
        context.fireChannelInactive()
    }

    /// The connection is closed to make room for another (the gateway holds `--max-connections`).
    struct MakeRoom: Sendable {}
}
