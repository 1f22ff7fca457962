import CNNG

/// A PUB socket sending topic-prefixed messages. Publishing never blocks: nng drops messages a slow
/// subscriber's queue (`sendBuffer`) cannot hold, and everything sent before a subscriber connected.
public final class NNGPublisher: Sendable {
    public let socket: NNGSocket

    /// Listens on `url`. `sendBuffer` is in messages (nng's maximum is 8192); size it for bursts.
    public init(listeningOn url: String, sendBuffer: Int = 1024) throws(NNGError) {
        socket = try NNGSocket.pub()
        try socket.setSendBuffer(messages: sendBuffer)
        try socket.listen(url)
    }

    /// Sends `topic` followed by `payload` as one message (copied once into it; no concatenated array).
    public func publish(topic: [UInt8], payload: [UInt8]) throws(NNGError) {
        let made = topic.withUnsafeBytes { t in
            payload.withUnsafeBytes { p in
                Result { () throws(NNGError) in try NNGMessage.make(t, p, operation: "publish") }
            }
        }
        try socket.sendMessage(made.get())
    }

    /// Sends `message` as is (it should start with its topic).
    public func publish(_ message: [UInt8]) throws(NNGError) {
        try socket.send(message)
    }

    @discardableResult public func close() -> Bool { socket.close() }
}

/// A SUB socket receiving the messages whose bytes start with one of its subscribed prefixes.
public final class NNGSubscriber: Sendable {
    /// For socket options. Close through `close()`, not on the socket directly.
    public let socket: NNGSocket
    private let gate = OperationGate()

    /// Dials `url` (non-blocking, reconnecting) and subscribes to `topics`. `maxReceiveSize` in bytes
    /// (0 = no limit; bigger messages are dropped silently, so leave room for full snapshots);
    /// `receiveBuffer` in messages (at most 8192) absorbs bursts.
    public convenience init(
        dialing url: String, topics: [[UInt8]] = [], maxReceiveSize: Int = 64 << 20,
        receiveBuffer: Int = 1024
    ) throws(NNGError) {
        try self.init(dialing: [url], topics: topics, maxReceiveSize: maxReceiveSize, receiveBuffer: receiveBuffer)
    }

    /// Dials every one of `urls` (e.g. a realtime service and its standby: only the active one publishes).
    public init(
        dialing urls: [String], topics: [[UInt8]] = [], maxReceiveSize: Int = 64 << 20,
        receiveBuffer: Int = 1024
    ) throws(NNGError) {
        socket = try NNGSocket.sub()
        try socket.setMaxReceiveSize(maxReceiveSize)
        try socket.setReceiveBuffer(messages: receiveBuffer)
        try socket.setReconnectInterval(min: .milliseconds(50), max: .milliseconds(500))
        for topic in topics { try socket.subscribe(prefix: topic) }
        for url in urls { try socket.dial(url) }
    }

    public func subscribe(_ prefix: [UInt8]) throws(NNGError) { try socket.subscribe(prefix: prefix) }
    public func subscribe(_ prefix: String) throws(NNGError) { try socket.subscribe(prefix: Array(prefix.utf8)) }
    public func unsubscribe(_ prefix: [UInt8]) throws(NNGError) { try socket.unsubscribe(prefix: prefix) }
    public func unsubscribe(_ prefix: String) throws(NNGError) { try socket.unsubscribe(prefix: Array(prefix.utf8)) }

    /// The next message, blocking the calling thread; `timeout` nil = wait forever.
    public func receive(timeout: Duration? = nil) throws(NNGError) -> [UInt8] {
        try AioOperation(
            .receive(socket: socket.handle, gate: gate), operation: "sub receive",
            timeout: timeout.map { $0.nngMilliseconds }
        ).runBlocking()
    }

    /// The next message, suspending without blocking a thread; `timeout` nil = wait forever (until the task
    /// is cancelled: then `CancellationError`).
    public func receive(timeout: Duration? = nil) async throws -> [UInt8] {
        let pending = try AioOperation(
            .receive(socket: socket.handle, gate: gate), operation: "sub receive",
            timeout: timeout.map { $0.nngMilliseconds })
        return try await pending.run()
    }

    /// Fails the receives in flight (with `isClosed`), waits until they have let go of their aios, then
    /// closes the socket; later receives fail with `isClosed`. Returns false if that took over `timeout`.
    /// Closing under a receive with a timeout could crash nng 1.5.2 (see OperationGate): if some receive did
    /// not let go in time, the socket is left open rather than risk it.
    @discardableResult
    public func close(timeout: Duration = NNGSocket.closeTimeout) -> Bool {
        gate.closeAll(waitingAtMost: timeout) && socket.close(timeout: timeout)
    }
}
