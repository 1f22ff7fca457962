import Gateway
import NIOCore
import NIOWebSocket

/// Between a WebSocket's frames and the line connection above it (GATEWAY.md §8, "WebSocket"): a text
/// message becomes one request line (its fragments joined; a line break inside it turned into a tab, which
/// JSON reads as whitespace between tokens and refuses inside a string, as it does a raw line break), each
/// answer or event line becomes one text frame. Pings are answered; a close frame ends the input (the line
/// connection answers what it has, then closes); closing the channel sends a close frame first. Binary
/// frames close the connection (1003).
final class WebSocketLineFraming: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    /// Inside a fragmented text message.
    private var inMessage = false
    private var closeSent = false
    private var inputEnded = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !inputEnded else { return }
        switch frame.opcode {
        case .text:
            inMessage = !frame.fin
            pass(frame, context: context)
        case .continuation:
            guard inMessage else { return }
            inMessage = !frame.fin
            pass(frame, context: context)
        case .ping:
            let data = frame.unmaskedData
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: data)), promise: nil)
        case .pong:
            break
        case .connectionClose:
            inputEnded = true
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        case .binary:
            inputEnded = true
            sendClose(context: context, code: .unacceptableData, then: true)
        default:
            inputEnded = true
            sendClose(context: context, code: .protocolError, then: true)
        }
    }

    private func pass(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        var bytes = frame.unmaskedData
        let count = bytes.readableBytes
        if count > 0 {
            bytes.withUnsafeMutableReadableBytes { raw in
                for index in raw.indices where raw[index] == 0x0A { raw[index] = 0x09 }
            }
            context.fireChannelRead(wrapInboundOut(bytes))
        }
        if frame.fin {
            context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(integer: UInt8(0x0A))))
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Hummingbird's graceful shutdown: drain as the line port's connections do.
        if event is ChannelShouldQuiesceEvent {
            context.fireUserInboundEventTriggered(GatewayServer.drainEvent)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Each answer or event line (one write may hold several) as one text frame, without its "\n".
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var buffer = unwrapOutboundIn(data)
        var frames: [ByteBuffer] = []
        while buffer.readableBytes > 0 {
            let view = buffer.readableBytesView
            if let newline = view.firstIndex(of: 0x0A) {
                let length = newline - view.startIndex
                if let line = buffer.readSlice(length: length), line.readableBytes > 0 { frames.append(line) }
                buffer.moveReaderIndex(forwardBy: 1)
            } else {
                frames.append(buffer)
                break
            }
        }
        guard let last = frames.popLast() else {
            promise?.succeed()
            return
        }
        for frame in frames {
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: frame)), promise: nil)
        }
        context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: last)), promise: promise)
    }

    /// The line connection closes: a close frame goes first (once).
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, !closeSent, context.channel.isActive else {
            context.close(mode: mode, promise: promise)
            return
        }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .normalClosure)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)))
            .whenComplete { _ in bound.value.close(mode: mode, promise: promise) }
    }

    private func sendClose(context: ChannelHandlerContext, code: WebSocketErrorCode, then close: Bool) {
        guard !closeSent else { return }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)))
            .whenComplete { _ in if close { channel.close(promise: nil) } }
    }
}
