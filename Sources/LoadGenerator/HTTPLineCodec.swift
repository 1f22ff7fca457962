import NIOCore

/// Carries the line load over the gateway's HTTP port (GATEWAY.md §8) instead of the line port: each request
/// line goes out as `POST /v1/<op>` on a keep-alive connection (HTTP/1.1 pipelining when the depth is above 1),
/// and each answer's body (the answer line, "\n" included) comes back in as the line port would send it, so
/// `LoadConnection` measures both transports the same way. No Accept-Encoding: answers are not compressed.
final class HTTPLineCodec: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let host: String
    private var input: ByteBuffer?

    init(host: String) { self.host = host }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let line = unwrapOutboundIn(data)
        let op = line.withUnsafeReadableBytes { Self.op(in: $0) } ?? "unknown"
        var request = context.channel.allocator.buffer(capacity: line.readableBytes + 128)
        request.writeString(
            "POST /v1/\(op) HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\nContent-Length: "
                + "\(line.readableBytes)\r\n\r\n")
        var body = line
        request.writeBuffer(&body)
        context.write(wrapOutboundOut(request), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if input == nil { input = incoming } else { input!.writeBuffer(&incoming) }
        while var buffer = input, let (headerLength, bodyLength) = Self.responseHead(buffer) {
            guard buffer.readableBytes >= headerLength + bodyLength else { break }
            buffer.moveReaderIndex(forwardBy: headerLength)
            let body = buffer.readSlice(length: bodyLength)!
            input = buffer.readableBytes > 0 ? buffer : nil
            context.fireChannelRead(wrapInboundOut(body))
        }
    }

    /// The length of a complete response head (status line and headers, blank line included) and its
    /// Content-Length; nil while the head is incomplete.
    static func responseHead(_ buffer: ByteBuffer) -> (Int, Int)? {
        buffer.withUnsafeReadableBytes { bytes -> (Int, Int)? in
            guard bytes.count >= 4 else { return nil }
            var end: Int?
            for i in 0...(bytes.count - 4)
            where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
                end = i
                break
            }
            guard let end else { return nil }
            let head = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            var length = 0
            for line in head.split(separator: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "content-length" {
                    length = Int(parts[1].drop(while: { $0 == " " })) ?? 0
                }
            }
            return (end + 4, length)
        }
    }

    /// The value of `"op":"…"` in a request line.
    static func op(in line: UnsafeRawBufferPointer) -> String? {
        let key = Array(#""op":""#.utf8)
        guard line.count > key.count else { return nil }
        for start in 0...(line.count - key.count) where line[start] == key[0] {
            guard (0..<key.count).allSatisfy({ line[start + $0] == key[$0] }) else { continue }
            let from = start + key.count
            guard let close = line[from...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: line[from..<close]), as: UTF8.self)
        }
        return nil
    }
}
