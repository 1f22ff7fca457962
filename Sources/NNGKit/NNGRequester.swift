import CNNG

/// A REQ client for many concurrent callers: every request gets its own REQ context, so any number of
/// threads and tasks may call `request` at once, each waiting only for its own reply.
///
/// Every request has a deadline (`timeout`, else `defaultTimeout`) covering send and reply: with no server
/// connected, or a server that does not answer in time, it fails with an `NNGError` whose `isTimedOut` is
/// true. The socket dials without blocking, so the requester works once the server comes (back) up.
public final class NNGRequester: Sendable {
    public let socket: NNGSocket
    public let url: String
    public let defaultTimeout: Duration

    /// Dials `url` (non-blocking). `maxReplySize` bounds accepted replies in bytes (0 = no limit); a bigger
    /// reply is dropped silently and the request times out, so leave room for snapshots.
    public init(dialing url: String, defaultTimeout: Duration = .seconds(5), maxReplySize: Int = 64 << 20) throws(NNGError) {
        socket = try NNGSocket.req()
        self.url = url
        self.defaultTimeout = defaultTimeout
        try socket.setMaxReceiveSize(maxReplySize)
        try socket.dial(url)
    }

    @discardableResult public func close() -> Bool { socket.close() }

    /// Sends `bytes` and blocks the calling thread until the reply arrives or `timeout` passes.
    public func request(_ bytes: [UInt8], timeout: Duration? = nil) throws(NNGError) -> [UInt8] {
        let operation = "request to \(url)"
        var context = nng_ctx()
        try check(operation, nng_ctx_open(&context, socket.handle))
        defer { nng_ctx_close(context) }
        let aio = try BlockingAio(operation: operation)
        let deadline = nng_clock() + nng_time((timeout ?? defaultTimeout).nngMilliseconds)

        nng_aio_set_msg(aio.aio, try NNGMessage.make(bytes, operation: operation))
        let sent = aio.run(timeout: Self.remaining(until: deadline)) { nng_ctx_send(context, $0) }
        if sent != 0 {
            if let unsent = aio.takeMessage() { nng_msg_free(unsent) }
            throw NNGError(operation: operation, code: sent)
        }
        let received = aio.run(timeout: Self.remaining(until: deadline)) { nng_ctx_recv(context, $0) }
        try check(operation, received)
        return NNGMessage.consume(aio.takeMessage()!)
    }

    /// Sends `bytes` and suspends (without blocking a thread) until the reply arrives or `timeout` passes.
    /// Throws `CancellationError` if the task is cancelled meanwhile.
    public func request(_ bytes: [UInt8], timeout: Duration? = nil) async throws -> [UInt8] {
        let operation = "request to \(url)"
        var context = nng_ctx()
        try check(operation, nng_ctx_open(&context, socket.handle))
        let message: OpaquePointer
        do {
            message = try NNGMessage.make(bytes, operation: operation)
        } catch {
            nng_ctx_close(context)
            throw error
        }
        let pending = try AsyncOperation(.request(context: context, message: message), operation: operation,
                                         timeout: (timeout ?? defaultTimeout).nngMilliseconds)
        return try await pending.run()
    }

    private static func remaining(until deadline: nng_time) -> nng_duration {
        let now = nng_clock()
        return now >= deadline ? 0 : nng_duration(clamping: deadline - now)
    }
}
