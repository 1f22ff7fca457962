import Logging
import NIOCore

/// The first handler of a connection under `--proxy-protocol`: holds the connection back until its PROXY v2
/// header (`ProxyHeader`) arrived, then tells the handlers behind it the client's address (`ProxiedClient`,
/// before `channelActive`), passes the bytes after the header on and leaves the pipeline. A connection whose first
/// bytes are not a header, or whose header is not complete within `timeout`, is closed without an answer.
final class ProxyHeaderHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var buffered: ByteBuffer?
    private var timer: Scheduled<Void>?
    private var done = false
    let timeout: TimeAmount
    let logger: Logger

    init(timeout: TimeAmount, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        // Not passed on yet: the handlers behind start once the client's address is known.
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let channel = context.channel
        timer = loop.scheduleTask(in: timeout) {
            guard !handler.value.done else { return }
            handler.value.logger.debug("no PROXY header in time; closing")
            channel.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        if buffered == nil {
            buffered = bytes
        } else {
            buffered?.writeBuffer(&bytes)
        }
        guard var buffer = buffered else { return }
        switch buffer.withUnsafeReadableBytes({ ProxyHeader.parse($0) }) {
        case .needMore:
            return
        case .invalid(let why):
            done = true
            timer?.cancel()
            logger.debug("refused a connection", metadata: ["why": "\(why)"])
            context.close(promise: nil)
        case .header(let header):
            done = true
            timer?.cancel()
            buffer.moveReaderIndex(forwardBy: header.length)
            buffered = nil
            let address = header.source.flatMap { source in
                try? SocketAddress(packedIPAddress: ByteBuffer(bytes: source.address), port: Int(source.port))
            }
            context.fireUserInboundEventTriggered(ProxiedClient(address: address))
            context.fireChannelActive()
            if buffer.readableBytes > 0 {
                context.fireChannelRead(wrapInboundOut(buffer))
                context.fireChannelReadComplete()
            }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }
}

/// The client's address as a PROXY v2 header gave it (nil: a LOCAL header, or no address the gateway counts
/// by: the peer address counts).
struct ProxiedClient: Sendable {
    var address: SocketAddress?
}
