import CNNG

/// A REP server answering many requests at once: `contexts` worker threads, each with its own REP context,
/// receive a request, call `handler` with its bytes and send back what it returns.
///
/// The handler runs on the worker threads (up to `contexts` calls concurrently) and may block; see the
/// threading notes in NNGSocket.swift. `stop()` (or the last reference going away) closes the socket and
/// waits until every handler call in progress has returned.
public final class NNGReplyServer: @unchecked Sendable {
    // @unchecked: `workers` is written once in init; `stopped` is guarded by `lock`.

    /// Called with the request bytes (valid only during the call); returns the reply.
    public typealias Handler = @Sendable (Span<UInt8>) -> [UInt8]

    public let socket: NNGSocket
    private let workers: [ReplyWorker]
    private let lock = NNGLock()
    private var stopped = false

    /// Serves on `socket` (a REP socket, already listening or dialled, options already set).
    public init(socket: NNGSocket, contexts: Int = 8, handler: @escaping Handler) throws(NNGError) {
        precondition(contexts > 0, "NNGReplyServer needs at least one context")
        self.socket = socket
        var started: [ReplyWorker] = []
        do {
            for _ in 0..<contexts {
                let worker = try ReplyWorker(socket: socket, handler: handler)
                started.append(worker)
                try worker.start()
            }
        } catch {
            socket.close()
            for worker in started { worker.join() }
            throw error
        }
        workers = started
    }

    /// Opens a REP socket listening on `url` and serves it.
    public convenience init(listeningOn url: String, contexts: Int = 8, handler: @escaping Handler) throws(NNGError) {
        let socket = try NNGSocket.rep()
        try socket.listen(url)
        try self.init(socket: socket, contexts: contexts, handler: handler)
    }

    deinit { stop() }

    /// Closes the socket and waits for the workers: in-flight handler calls finish (their replies are
    /// dropped). Idempotent. Must not be called from inside the handler (it would wait for itself).
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        socket.close()
        for worker in workers { worker.join() }
    }
}

/// One REP context served by one thread in a blocking receive → handle → send loop.
private final class ReplyWorker: @unchecked Sendable {
    // @unchecked: `thread` is set before the thread starts and read by `join` after; the rest is immutable.
    private let context: nng_ctx
    private let aio: BlockingAio
    private let handler: NNGReplyServer.Handler
    private var thread: OpaquePointer?

    init(socket: NNGSocket, handler: @escaping NNGReplyServer.Handler) throws(NNGError) {
        var ctx = nng_ctx()
        try check("open rep context", nng_ctx_open(&ctx, socket.handle))
        context = ctx
        do {
            aio = try BlockingAio(operation: "allocate rep aio")
        } catch {
            nng_ctx_close(ctx)
            throw error
        }
        self.handler = handler
    }

    deinit { nng_ctx_close(context) }

    func start() throws(NNGError) {
        let rv = nng_thread_create(&thread, { arg in
            Unmanaged<ReplyWorker>.fromOpaque(arg!).takeUnretainedValue().serve()
        }, Unmanaged.passUnretained(self).toOpaque())
        try check("start rep worker thread", rv)
        nng_thread_set_name(thread, "nng-rep")
    }

    /// Waits for the thread to end (after the socket was closed).
    func join() {
        if let thread { nng_thread_destroy(thread) }
        thread = nil
    }

    private func serve() {
        let closed = Int32(NNG_ECLOSED.rawValue)
        while true {
            let received = aio.run(timeout: NNG_DURATION_INFINITE) { nng_ctx_recv(context, $0) }
            if received == closed { return }
            guard received == 0, let msg = aio.takeMessage() else { continue }

            let count = nng_msg_len(msg)
            let body = nng_msg_body(msg)?.assumingMemoryBound(to: UInt8.self)
            let reply = handler(UnsafeBufferPointer(start: count > 0 ? body : nil, count: count).span)

            // Reuse the request's message (and its capacity) for the reply.
            nng_msg_clear(msg)
            let appended = reply.withUnsafeBytes { nng_msg_append(msg, $0.baseAddress, $0.count) }
            guard appended == 0 else {
                nng_msg_free(msg)
                continue
            }
            nng_aio_set_msg(aio.aio, msg)
            let sent = aio.run(timeout: NNG_DURATION_INFINITE) { nng_ctx_send(context, $0) }
            if sent != 0, let unsent = aio.takeMessage() { nng_msg_free(unsent) }
            if sent == closed { return }
        }
    }
}
