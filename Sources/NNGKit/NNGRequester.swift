import CNNG

/// A REQ client for many concurrent callers: every request gets its own REQ context, so any number of
/// threads and tasks may call `request` at once, each waiting only for its own reply.
///
/// Every request has a deadline (`timeout`, else `defaultTimeout`) covering send and reply: with no server
/// connected, or a server that does not answer in time, it fails with an `NNGError` whose `isTimedOut` is
/// true; its `operation` ends in "(sending)" if no server took the request, "(awaiting reply)" if one did.
/// The socket dials without blocking, so the requester works once the server comes (back) up; a request
/// whose connection is lost is resent by nng on the next connection, within its deadline.
public final class NNGRequester: Sendable {
    /// For socket options (e.g. reconnect interval). Close through `close()`, not on the socket directly.
    public let socket: NNGSocket
    /// The URLs dialed, joined by commas (for messages).
    public let url: String
    /// Every URL dialed: one REQ socket dialing several REP peers (replicas) spreads requests over the
    /// connected ones and resends a request whose peer went away to another, within its deadline.
    public let urls: [String]
    public let defaultTimeout: Duration
    private let gate = OperationGate()

    /// Dials `url` (non-blocking). `maxReplySize` bounds accepted replies in bytes (0 = no limit); a bigger
    /// reply is dropped silently and the request times out, so leave room for snapshots.
    public convenience init(dialing url: String, defaultTimeout: Duration = .seconds(5), maxReplySize: Int = 64 << 20)
        throws(NNGError)
    {
        try self.init(dialing: [url], defaultTimeout: defaultTimeout, maxReplySize: maxReplySize)
    }

    /// Dials every one of `urls` (non-blocking; at least one) from one REQ socket. `reconnect` (min, max)
    /// is set before dialing, so every dialer redials a lost peer that quickly.
    public convenience init(
        dialing urls: [String], defaultTimeout: Duration = .seconds(5), maxReplySize: Int = 64 << 20,
        reconnect: (min: Duration, max: Duration)? = nil
    ) throws(NNGError) {
        try self.init(
            socket: NNGSocket.req(), urls: urls, defaultTimeout: defaultTimeout, maxReplySize: maxReplySize,
            reconnect: reconnect, beforeDialing: { _ throws(NNGError) in })
    }

    /// As above, on `socket` (a REQ socket), calling `beforeDialing` with it once set up, before it dials.
    init(
        socket: NNGSocket, urls: [String], defaultTimeout: Duration, maxReplySize: Int,
        reconnect: (min: Duration, max: Duration)?, beforeDialing: (NNGSocket) throws(NNGError) -> Void
    ) throws(NNGError) {
        precondition(!urls.isEmpty, "NNGRequester needs a URL to dial")
        self.socket = socket
        self.urls = urls
        self.url = urls.joined(separator: ",")
        self.defaultTimeout = defaultTimeout
        try socket.setMaxReceiveSize(maxReplySize)
        if let reconnect { try socket.setReconnectInterval(min: reconnect.min, max: reconnect.max) }
        try beforeDialing(socket)
        for url in urls { try socket.dial(url) }
    }

    /// Fails the requests in flight (with `isClosed`), waits until they have let go of their contexts, then
    /// closes the socket; later requests fail with `isClosed`. Returns false if that took over `timeout`.
    @discardableResult
    public func close(timeout: Duration = NNGSocket.closeTimeout) -> Bool {
        let drained = gate.closeAll(waitingAtMost: timeout)
        // Closing while a context call is still under way could crash nng 1.5.2 (see OperationGate): if some
        // request did not let go in time, leave the socket open rather than risk it.
        return drained && socket.close(timeout: timeout)
    }

    /// Sends `bytes` and blocks the calling thread until the reply arrives or `timeout` passes.
    public func request(_ bytes: [UInt8], timeout: Duration? = nil) throws(NNGError) -> [UInt8] {
        try operation(for: bytes, timeout: timeout).runBlocking()
    }

    /// Sends `bytes` and suspends (without blocking a thread) until the reply arrives or `timeout` passes.
    /// Throws `CancellationError` if the task is cancelled meanwhile.
    public func request(_ bytes: [UInt8], timeout: Duration? = nil) async throws -> [UInt8] {
        try await operation(for: bytes, timeout: timeout).run()
    }

    private func operation(for bytes: [UInt8], timeout: Duration?) throws(NNGError) -> AioOperation {
        let name = "request to \(url)"
        let message = try NNGMessage.make(bytes, operation: name)
        return try AioOperation(
            .request(socket: socket.handle, message: message, gate: gate), operation: name,
            timeout: (timeout ?? defaultTimeout).nngMilliseconds)
    }
}
