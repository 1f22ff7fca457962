// A trivial TCP line server: answers every line with the line itself, the floor under the gateway's answers
// (the kernel's TCP and the generator). With `delay`, each connection answers one line at a time, each taking
// `delay` after the previous answer (or its arrival): a slow server, for the open loop's tests.
import NIOCore
import NIOPosix

public final class LineEchoServer: Sendable {
    public let port: Int
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    private init(port: Int, channel: any Channel, group: MultiThreadedEventLoopGroup) {
        self.port = port
        self.channel = channel
        self.group = group
    }

    /// Listens on host:port (port 0: an ephemeral one, see `port`).
    public static func start(host: String, port: Int, threads: Int = 1, delay: Duration = .zero) async throws
        -> LineEchoServer
    {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(threads, 1))
        let delayNanos = UInt64(max(delay.nanos, 0))
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(EchoConnection(delayNanos: delayNanos))
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        return LineEchoServer(port: channel.localAddress?.port ?? port, channel: channel, group: group)
    }

    public func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

private final class EchoConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let delayNanos: UInt64
    private var input: ByteBuffer?
    private var nextFree: UInt64 = 0

    init(delayNanos: UInt64) { self.delayNanos = delayNanos }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if input == nil {
            input = incoming
        } else {
            input!.writeBuffer(&incoming)
        }
        var wrote = false
        while let nl = input!.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = nl - input!.readerIndex + 1
            let line = input!.readSlice(length: length)!
            if delayNanos == 0 {
                context.write(wrapOutboundOut(line), promise: nil)
                wrote = true
            } else {
                let now = NIODeadline.now().uptimeNanoseconds
                nextFree = max(now, nextFree) + delayNanos
                context.eventLoop.assumeIsolated().scheduleTask(deadline: .uptimeNanoseconds(nextFree)) {
                    context.writeAndFlush(NIOAny(line), promise: nil)
                }
            }
        }
        if input!.readableBytes == 0 { input = nil } else { input!.discardReadBytes() }
        if wrote { context.flush() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}
