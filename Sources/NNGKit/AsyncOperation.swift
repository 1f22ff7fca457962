import CNNG

/// One asynchronous nng operation that never blocks a thread: a request (send, then receive, on its own
/// REQ context) or a receive on a socket. nng calls `completed()` on one of its threads when a step
/// finishes; the last step resumes the continuation. Task cancellation aborts the aio.
///
/// Lifetime: `run()` retains the object for as long as nng may call back (balanced in `finish`), so it
/// outlives the awaiting task if need be. `deinit` may therefore run on nng's callback thread, where
/// `nng_aio_free` would wait for the running callback forever; it uses `nng_aio_reap` instead.
/// Callbacks of one aio may overlap briefly (a callback submits the next step, whose completion can run
/// on another thread before the first returns); they touch disjoint state, in order.
final class AsyncOperation: @unchecked Sendable {
    // @unchecked: `cancelled` is guarded by `lock`. Everything else is written by the starting task before
    // the first submission, and afterwards only by callbacks, which nng runs one at a time per aio and
    // orders after the submission that caused them.

    enum Kind {
        /// Send `message` on the context, then receive the reply. Both are owned (closed, freed) here.
        case request(context: nng_ctx, message: OpaquePointer)
        case receive(socket: nng_socket)
    }

    private let kind: Kind
    private let operation: String
    private let deadline: nng_time?
    private var aio: OpaquePointer?
    private var sending: Bool
    private var continuation: CheckedContinuation<[UInt8], any Error>?
    private let lock = NNGLock()
    private var cancelled = false

    /// `timeout` covers the whole operation (both steps of a request); `nil` = none.
    init(_ kind: Kind, operation: String, timeout: nng_duration?) throws(NNGError) {
        self.kind = kind
        self.operation = operation
        if let timeout, timeout >= 0 { deadline = nng_clock() + nng_time(timeout) } else { deadline = nil }
        if case .request = kind { sending = true } else { sending = false }

        let rv = nng_aio_alloc(&aio, { arg in
            // Hold a reference for the whole callback: the step it submits may complete on another nng
            // thread and release the operation's own reference before this callback returns.
            let operation = Unmanaged<AsyncOperation>.fromOpaque(arg!).takeUnretainedValue()
            withExtendedLifetime(operation) { operation.completed() }
        }, Unmanaged.passUnretained(self).toOpaque())
        if rv == 0, case .request(_, let message) = kind {
            nng_aio_set_msg(aio, message)  // from now on the aio holds it until nng sends it
        }
        try check("\(operation): allocate aio", rv)  // a failure runs deinit, which cleans up
    }

    deinit {
        if let aio {
            // A request nng did not send is still on the aio (nng hands it back on failure).
            if let msg = nng_aio_get_msg(aio) { nng_msg_free(msg) }
            nng_aio_reap(aio)
        }
        if case .request(let context, let message) = kind {
            nng_ctx_close(context)
            if aio == nil { nng_msg_free(message) }
        }
    }

    func run() async throws -> [UInt8] {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                self.continuation = continuation
                _ = Unmanaged.passRetained(self)  // released in finish()
                switch kind {
                case .request(let context, _):
                    submit { nng_ctx_send(context, $0) }
                case .receive(let socket):
                    submit { nng_recv_aio(socket, $0) }
                }
            }
        } onCancel: {
            lock.withLock { cancelled = true }
            nng_aio_cancel(aio)
        }
    }

    /// Starts a step. A cancellation that raced with the start (its nng_aio_cancel hit an idle aio) is
    /// caught by re-checking the flag after submitting.
    private func submit(_ start: (OpaquePointer) -> Void) {
        let remaining: nng_duration
        if let deadline {
            let now = nng_clock()
            remaining = now >= deadline ? 0 : nng_duration(clamping: deadline - now)
        } else {
            remaining = NNG_DURATION_INFINITE
        }
        nng_aio_set_timeout(aio, remaining)
        start(aio!)
        if lock.withLock({ cancelled }) { nng_aio_cancel(aio) }
    }

    private func completed() {
        let result = nng_aio_result(aio)
        if result == 0, sending, case .request(let context, _) = kind {
            sending = false
            submit { nng_ctx_recv(context, $0) }
            return
        }
        if result == 0 {
            let msg = nng_aio_get_msg(aio)!
            nng_aio_set_msg(aio, nil)
            finish(.success(NNGMessage.consume(msg)))
        } else if lock.withLock({ cancelled }) {
            finish(.failure(CancellationError()))
        } else {
            finish(.failure(NNGError(operation: operation, code: result)))
        }
    }

    private func finish(_ result: Result<[UInt8], any Error>) {
        let continuation = self.continuation
        self.continuation = nil
        continuation?.resume(with: result)
        Unmanaged.passUnretained(self).release()  // may run deinit: touch nothing after this
    }
}
