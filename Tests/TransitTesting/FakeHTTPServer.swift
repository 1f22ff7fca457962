// A scriptable HTTP/1.1 server on 127.0.0.1 (ephemeral port) for the HTTP tests (realtime sources, the
// HTTP client, static feed refreshes): it records every
// request and answers as the test's behaviour says, including never answering or trickling a body forever.
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

public final class FakeHTTPServer: Sendable {
    public struct Request: Sendable {
        /// 0 for the first request the server saw, 1 for the second, ...
        public var index: Int
        public var method: String
        public var uri: String
        public var headers: [(String, String)]
        public var receivedAt: ContinuousClock.Instant

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    public enum Reply: Sendable {
        /// A complete answer; `chunked` sends the body in 16 KiB chunks without Content-Length.
        case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], chunked: Bool = false)
        /// Reads the request and never answers.
        case hang
        /// Sends the head, then a few bytes every `every`, never ending.
        case trickle(every: Duration)
    }

    public typealias Behaviour = @Sendable (Request) -> Reply

    public let port: Int
    let behaviour: Behaviour
    private let channel: any Channel
    private let recorded = Mutex<[Request]>([])

    private init(port: Int, behaviour: @escaping Behaviour, channel: any Channel) {
        self.port = port
        self.behaviour = behaviour
        self.channel = channel
    }

    public static func start(_ behaviour: @escaping Behaviour) async throws -> FakeHTTPServer {
        let box = Mutex<FakeHTTPServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FakeHTTPHandler(server: box.withLock { $0 }!))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = FakeHTTPServer(port: channel.localAddress!.port!, behaviour: behaviour, channel: channel)
        box.withLock { $0 = server }
        return server
    }

    public func url(_ path: String = "/feed") -> String { "http://127.0.0.1:\(port)\(path)" }

    public var requests: [Request] { recorded.withLock { $0 } }

    fileprivate func record(_ head: HTTPRequestHead) -> Request {
        recorded.withLock { list in
            let request = Request(
                index: list.count, method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { ($0.name, $0.value) }, receivedAt: .now
            )
            list.append(request)
            return request
        }
    }

    public func shutdown() async {
        try? await channel.close()
    }
}

private final class FakeHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let server: FakeHTTPServer
    private var head: HTTPRequestHead?

    init(server: FakeHTTPServer) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            let request = server.record(head)
            reply(server.behaviour(request), context: context, keepAlive: head.isKeepAlive)
        }
    }

    private func reply(_ reply: FakeHTTPServer.Reply, context: ChannelHandlerContext, keepAlive: Bool) {
        switch reply {
        case .hang:
            return
        case .respond(let status, let extra, let body, let chunked):
            var headers = HTTPHeaders(extra)
            if chunked {
                headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
            } else {
                headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
            }
            let head = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            var offset = 0
            while offset < body.count {
                let end = chunked ? min(body.count, offset + 16_384) : body.count
                let buffer = context.channel.allocator.buffer(bytes: body[offset..<end])
                context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                offset = end
            }
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive {
                let channel = context.channel
                done.whenComplete { _ in channel.close(promise: nil) }
            }
        case .trickle(let every):
            var headers = HTTPHeaders()
            headers.add(name: "Transfer-Encoding", value: "chunked")
            let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)
            context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
            let channel = context.channel
            channel.eventLoop.scheduleRepeatedTask(
                initialDelay: .zero,
                delay: .nanoseconds(
                    Int64(every.components.seconds) * 1_000_000_000 + every.components.attoseconds / 1_000_000_000)
            ) { task in
                guard channel.isActive else {
                    task.cancel()
                    return
                }
                let part = HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: [1, 2, 3, 4])))
                channel.writeAndFlush(part, promise: nil)
            }
        }
    }
}
