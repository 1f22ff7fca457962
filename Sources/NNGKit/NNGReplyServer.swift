import CNNG
import Synchronization

/// A REP server answering many requests at once: `contexts` worker threads, each with its own REP context,
/// receive a request, call `handler` with its bytes and send back what it returns.
///
/// The handler runs on the worker threads (up to `contexts` calls concurrently) and may block; see the
/// threading notes in NNGSocket.swift. `stop()` (or the last reference going away) waits until every
/// handler call in progress has returned and closes the socket.
public final class NNGReplyServer: Sendable {
    /// Called with the request bytes (valid only during the call); returns the reply.
    public typealias Handler = @Sendable (Span<UInt8>) -> [UInt8]

    public let socket: NNGSocket
    private let workers: [ReplyWorker]
    private let stopped = Mutex(false)

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
            for worker in started { worker.requestStop() }
            for worker in started { worker.join() }
            socket.close()
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

    /// Stops receiving, waits for the handler calls in progress to return (their replies are dropped),
    /// closes the contexts and then the socket. Idempotent. Must not be called from inside the handler (it
    /// would wait for itself). Contexts are closed before the socket, never concurrently with a context
    /// call, because nng 1.5.2 can crash when a socket is closed under a context call in progress.
    /// Returns false when nng did not finish closing the socket in time (its reaper wedge: NNGSocket.swift);
    /// peers then may stay connected.
    @discardableResult
    public func stop() -> Bool {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return true }
        for worker in workers { worker.requestStop() }
        for worker in workers { worker.join() }
        return socket.close()
    }
}

/// One REP context served by one thread in a blocking receive → handle → send loop.
private final class ReplyWorker: @unchecked Sendable {
    // @unchecked: `thread` is set before the thread starts and read by `join` after; `stopping` is a Mutex
    // (context calls are made under it, see `submit`); the rest is immutable.
    private let context: nng_ctx
    private let aio: OpaquePointer
    private let handler: NNGReplyServer.Handler
    private let stopping = Mutex(false)
    private var thread: OpaquePointer?

    init(socket: NNGSocket, handler: @escaping NNGReplyServer.Handler) throws(NNGError) {
        var ctx = nng_ctx()
        try check("open rep context", nng_ctx_open(&ctx, socket.handle))
        var a: OpaquePointer?
        let rv = nng_aio_alloc(&a, nil, nil)
        guard rv == 0, let a else {
            nng_ctx_close(ctx)
            throw NNGError(operation: "allocate rep aio", code: rv)
        }
        context = ctx
        aio = a
        self.handler = handler
    }

    deinit { nng_aio_free(aio) }

    func start() throws(NNGError) {
        let rv = nng_thread_create(
            &thread,
            { arg in
                Unmanaged<ReplyWorker>.fromOpaque(arg!).takeUnretainedValue().serve()
            }, Unmanaged.passUnretained(self).toOpaque())
        try check("start rep worker thread", rv)
        nng_thread_set_name(thread, "nng-rep")
    }

    /// Makes the thread leave its loop: no new context call starts, a pending receive is cancelled.
    func requestStop() {
        stopping.withLock { $0 = true }
        nng_aio_cancel(aio)
    }

    /// Waits for the thread to end, then closes the context (no call on it can be in progress any more).
    func join() {
        if let thread { nng_thread_destroy(thread) }
        thread = nil
        nng_ctx_close(context)
    }

    private func serve() {
        while true {
            guard submit({ nng_ctx_recv(context, $0) }) else { return }
            nng_aio_wait(aio)
            guard nng_aio_result(aio) == 0, let msg = nng_aio_get_msg(aio) else {
                if stopping.withLock({ $0 }) { return }
                continue
            }
            nng_aio_set_msg(aio, nil)

            let count = nng_msg_len(msg)
            let body = nng_msg_body(msg)?.assumingMemoryBound(to: UInt8.self)
            let reply = handler(UnsafeBufferPointer(start: count > 0 ? body : nil, count: count).span)

            // Reuse the request's message (and its capacity) for the reply.
            nng_msg_clear(msg)
            let appended = reply.withUnsafeBytes { nng_msg_append(msg, $0.baseAddress, $0.count) }
            nng_aio_set_msg(aio, msg)
            guard appended == 0, submit({ nng_ctx_send(context, $0) }) else {
                nng_aio_set_msg(aio, nil)
                nng_msg_free(msg)
                if stopping.withLock({ $0 }) { return }
                continue
            }
            nng_aio_wait(aio)
            if nng_aio_result(aio) != 0, let unsent = nng_aio_get_msg(aio) {
                nng_aio_set_msg(aio, nil)
                nng_msg_free(unsent)
            }
        }
    }

    /// Starts a context call unless stopping. Under the lock, so `requestStop` either comes first (and the
    /// call is not made) or comes after it (and its cancel reaches the submitted operation).
    private func submit(_ call: (OpaquePointer) -> Void) -> Bool {
        stopping.withLock { stopping in
            guard !stopping else { return false }
            call(aio)
            return true
        }
    }
}
