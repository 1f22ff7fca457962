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
    private let gate = ContextGate()

    /// Serves on `socket` (a REP socket, already listening or dialled, options already set).
    public init(socket: NNGSocket, contexts: Int = 8, handler: @escaping Handler) throws(NNGError) {
        precondition(contexts > 0, "NNGReplyServer needs at least one context")
        self.socket = socket
        var started: [ReplyWorker] = []
        do {
            for _ in 0..<contexts {
                let worker = try ReplyWorker(socket: socket, gate: gate, handler: handler)
                started.append(worker)
                try worker.start()
            }
        } catch {
            gate.close { socket.close() }
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
        gate.close { socket.close() }
        for worker in workers { worker.join() }
    }
}

/// Keeps closing the socket apart from the workers' `nng_ctx_send`/`nng_ctx_recv` calls. nng 1.5.2 can
/// panic ("pthread_mutex_lock: Invalid argument" inside nng_ctx_send) when a socket is closed while another
/// thread is still inside an nng_ctx_* call on one of its contexts, e.g. a worker whose reply the client
/// already received. The calls only submit work (microseconds); waiting happens outside the gate.
final class ContextGate: @unchecked Sendable {
    // @unchecked: `closed` is guarded by `lock`.
    private let lock = NNGLock()
    private var closed = false

    /// Runs `submit` unless the socket is closed; returns whether it ran.
    func submit(_ submit: () -> Void) -> Bool {
        lock.withLock {
            if closed { return false }
            submit()
            return true
        }
    }

    /// Marks the socket closed and runs `close` while no submission is in progress.
    func close(_ close: () -> Void) {
        lock.withLock {
            closed = true
            close()
        }
    }
}

/// One REP context served by one thread in a blocking receive → handle → send loop.
private final class ReplyWorker: @unchecked Sendable {
    // @unchecked: `thread` is set before the thread starts and read by `join` after; the rest is immutable.
    private let context: nng_ctx
    private let aio: BlockingAio
    private let handler: NNGReplyServer.Handler
    private let gate: ContextGate
    private var thread: OpaquePointer?

    init(socket: NNGSocket, gate: ContextGate, handler: @escaping NNGReplyServer.Handler) throws(NNGError) {
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
        self.gate = gate
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
            var submitted = true
            let received = aio.run(timeout: NNG_DURATION_INFINITE) { a in
                submitted = gate.submit { nng_ctx_recv(context, a) }
            }
            if !submitted || received == closed { return }
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
            let sent = aio.run(timeout: NNG_DURATION_INFINITE) { a in
                submitted = gate.submit { nng_ctx_send(context, a) }
            }
            if !submitted || sent != 0, let unsent = aio.takeMessage() { nng_msg_free(unsent) }
            if !submitted || sent == closed { return }
        }
    }
}
