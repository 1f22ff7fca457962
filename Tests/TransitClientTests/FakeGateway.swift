import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

@testable import TransitClient

/// A tiny in-process line server standing in for the gateway: every request line goes to `respond` with a
/// handle to answer on (now, later, out of order, or never) and to close the connection.
final class FakeGateway: @unchecked Sendable {
    struct Request: @unchecked Sendable {
        let line: String
        let object: [String: Any]
        let connection: Int
        var id: Int { object["id"] as? Int ?? -1 }
        var op: String { object["op"] as? String ?? "" }
    }

    final class Peer: @unchecked Sendable {
        let channel: any Channel
        let number: Int
        init(channel: any Channel, number: Int) {
            self.channel = channel
            self.number = number
        }

        func send(_ line: String) {
            var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
            buffer.writeString(line + "\n")
            channel.writeAndFlush(buffer, promise: nil)
        }

        func close() { channel.close(promise: nil) }
    }

    private let lock = NIOLock()
    private var peers: [Peer] = []
    private var requests: [Request] = []
    private var server: (any Channel)?
    let respond: @Sendable (Request, Peer) -> Void
    private(set) var port = 0

    init(respond: @escaping @Sendable (Request, Peer) -> Void) async throws {
        self.respond = respond
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let peer = self.lock.withLock {
                        let peer = Peer(channel: channel, number: self.peers.count + 1)
                        self.peers.append(peer)
                        return peer
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                    try channel.pipeline.syncOperations.addHandler(Handler(gateway: self, peer: peer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        server = channel
        port = channel.localAddress?.port ?? 0
    }

    var connectionCount: Int { lock.withLock { peers.count } }
    var received: [Request] { lock.withLock { requests } }

    /// Closes every client connection (the server keeps listening).
    func dropConnections() {
        for peer in lock.withLock({ peers }) { peer.close() }
    }

    func stop() async {
        dropConnections()
        try? await server?.close()
    }

    fileprivate func receive(_ line: String, from peer: Peer) {
        guard let data = line.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return }
        let request = Request(line: line, object: object, connection: peer.number)
        lock.withLock { requests.append(request) }
        respond(request, peer)
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let gateway: FakeGateway
        let peer: Peer
        init(gateway: FakeGateway, peer: Peer) {
            self.gateway = gateway
            self.peer = peer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            gateway.receive(String(buffer: buffer), from: peer)
        }
    }

    /// `{"id":N,"ok":true,"data":DATA,"meta":{"op":OP,"elapsed_us":1}}`
    static func ok(_ request: Request, data: String) -> String {
        #"{"id":\#(request.id),"ok":true,"data":\#(data),"meta":{"op":"\#(request.op)","elapsed_us":1}}"#
    }

    static func error(_ request: Request, code: String, message: String) -> String {
        #"{"id":\#(request.id),"ok":false,"error":{"code":"\#(code)","message":"\#(message)"}}"#
    }
}
