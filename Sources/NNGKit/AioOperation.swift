import CNNG

/// One nng operation driven by aio callbacks: a request (open a REQ context, send, receive the reply, close
/// the context) or a receive on a socket. The result goes either to an async caller (`run()`, resumes a
/// CheckedContinuation, never blocks a thread) or to a blocked thread (`runBlocking()`).
///
/// nng calls `completed()` on one of its threads when a step finishes. Callbacks of one aio may overlap
/// briefly (a callback submits the next step, whose completion can run on another thread before the first
/// returns); they touch disjoint state, in order. The caller cleans up after the result arrived, on its own
/// thread: `nng_aio_stop` there waits for the last callback to return (microseconds at that point), so no
/// callback ever outlives the object and nng's reaper thread (with known hangs in 1.5.x) is not needed.
final class AioOperation: @unchecked Sendable {
    // @unchecked: `cancellation`, `outcome` and `continuation` are guarded by `mutex`. The rest is written
    // before the first submission, then only by the callback of the step in progress, which finishes
    // writing before it submits the next step (nng orders a submission before its completion), and
    // finally by `cleanUp()` after `nng_aio_stop` waited for every callback.

    enum Kind {
        /// Send `message` (owned from now on) on a new context of `socket`, then receive the reply.
        case request(socket: nng_socket, message: OpaquePointer, gate: OperationGate)
        case receive(socket: nng_socket, gate: OperationGate)
    }

    enum Cancellation { case task, closed }

    private enum Outcome {
        case bytes([UInt8])
        case failed(NNGError)
        case cancelled
    }

    private let kind: Kind
    private let operation: String
    private let deadline: nng_time?
    private var aio: OpaquePointer?
    private var messageOnAio = false
    private var context: nng_ctx?
    private var ticket: Int?
    private var sending: Bool

    private let mutex: OpaquePointer
    private let condition: OpaquePointer
    private var cancellation: Cancellation?
    private var outcome: Outcome?
    private var continuation: CheckedContinuation<[UInt8], any Error>?

    /// `timeout` covers the whole operation (both steps of a request); `nil` = none.
    init(_ kind: Kind, operation: String, timeout: nng_duration?) throws(NNGError) {
        self.kind = kind
        self.operation = operation
        if let timeout, timeout >= 0 { deadline = nng_clock() + nng_time(timeout) } else { deadline = nil }
        if case .request = kind { sending = true } else { sending = false }
        var m: OpaquePointer?
        var c: OpaquePointer?
        if nng_mtx_alloc(&m) == 0 { _ = nng_cv_alloc(&c, m) }
        guard let m, let c else {
            if let m { nng_mtx_free(m) }
            if case .request(_, let message, _) = kind { nng_msg_free(message) }
            throw NNGError(operation: operation, code: Int32(NNG_ENOMEM.rawValue))
        }
        mutex = m
        condition = c

        let rv = nng_aio_alloc(
            &aio,
            { arg in
                Unmanaged<AioOperation>.fromOpaque(arg!).takeUnretainedValue().completed()
            }, Unmanaged.passUnretained(self).toOpaque())
        if rv == 0, case .request(_, let message, _) = kind {
            nng_aio_set_msg(aio, message)  // from now on the aio holds it until nng sends it
            messageOnAio = true
        }
        try check("\(operation): allocate aio", rv)  // a failure runs deinit, which cleans up
    }

    deinit {
        if aio != nil { cleanUp() }  // never run; no callback can be pending
        if !messageOnAio, case .request(_, let message, _) = kind { nng_msg_free(message) }
        nng_cv_free(condition)
        nng_mtx_free(mutex)
    }

    // MARK: Running

    func run() async throws -> [UInt8] {
        defer { cleanUp() }  // after withTaskCancellationHandler returned: no cancel handler can touch the aio
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                locked { self.continuation = continuation }
                begin()
            }
        } onCancel: {
            cancel(.task)
        }
    }

    func runBlocking() throws(NNGError) -> [UInt8] {
        defer { cleanUp() }
        begin()
        nng_mtx_lock(mutex)
        while outcome == nil { nng_cv_wait(condition) }
        let result = outcome!
        nng_mtx_unlock(mutex)
        switch result {
        case .bytes(let bytes): return bytes
        case .failed(let error): throw error
        case .cancelled: throw NNGError(operation: operation, code: Int32(NNG_ECANCELED.rawValue))
        }
    }

    /// Aborts the operation: it ends with `CancellationError` (`.task`) or an `isClosed` error (`.closed`).
    /// Callers guarantee the aio is still allocated (see `run()` and `OperationGate`).
    func cancel(_ reason: Cancellation) {
        locked { if cancellation == nil { cancellation = reason } }
        if let aio { nng_aio_cancel(aio) }
    }

    // MARK: Steps

    private func begin() {
        guard let ticket = gate.enter(self) else {
            return deliver(.failed(NNGError(operation: operation, code: Int32(NNG_ECLOSED.rawValue))))
        }
        self.ticket = ticket
        switch kind {
        case .request(let socket, _, _):
            var ctx = nng_ctx()
            let rv = nng_ctx_open(&ctx, socket)
            guard rv == 0 else { return deliver(.failed(NNGError(operation: operation, code: rv))) }
            context = ctx
            submit { nng_ctx_send(ctx, $0) }
        case .receive(let socket, _):
            submit { nng_recv_aio(socket, $0) }
        }
    }

    /// Starts a step with what is left of the deadline. A cancellation that raced with the start (its
    /// nng_aio_cancel hit an idle aio) is caught by re-checking after submitting.
    private func submit(_ start: (OpaquePointer) -> Void) {
        var remaining = NNG_DURATION_INFINITE
        if let deadline {
            let now = nng_clock()
            remaining = now >= deadline ? 0 : nng_duration(clamping: deadline - now)
        }
        nng_aio_set_timeout(aio, remaining)
        start(aio!)
        if locked({ cancellation != nil }) { nng_aio_cancel(aio) }
    }

    private func completed() {
        let result = nng_aio_result(aio)
        if result == 0, sending, let context {
            sending = false
            submit { nng_ctx_recv(context, $0) }
            return
        }
        if result == 0 {
            let msg = nng_aio_get_msg(aio)!
            nng_aio_set_msg(aio, nil)
            return deliver(.bytes(NNGMessage.consume(msg)))
        }
        switch locked({ cancellation }) {
        case .task?:
            deliver(.cancelled)
        case .closed?:
            deliver(.failed(NNGError(operation: operation, code: Int32(NNG_ECLOSED.rawValue))))
        case nil:
            let step = if case .request = kind { sending ? " (sending)" : " (awaiting reply)" } else { "" }
            deliver(.failed(NNGError(operation: operation + step, code: result)))
        }
    }

    private func deliver(_ result: Outcome) {
        let waiting: CheckedContinuation<[UInt8], any Error>? = locked {
            outcome = result
            nng_cv_wake(condition)
            defer { continuation = nil }
            return continuation
        }
        switch result {
        case .bytes(let bytes): waiting?.resume(returning: bytes)
        case .failed(let error): waiting?.resume(throwing: error)
        case .cancelled: waiting?.resume(throwing: CancellationError())
        }
    }

    /// Once the outcome is known: waits out the last callback, frees what nng did not send and the aio,
    /// closes the context, and only then leaves the gate (so a socket close may proceed). The aio is freed
    /// before leaving because `nng_aio_free`, unlike `nng_aio_stop`, waits for nng's expire thread to be
    /// done with it: that thread may still be about to call the protocol's cancel function, which locks the
    /// socket's (or context's) mutex, after the aio has finished (see OperationGate).
    private func cleanUp() {
        guard let aio else { return }
        nng_aio_stop(aio)
        if let ticket { gate.settle(ticket) }  // from here on the gate no longer cancels this aio
        if let msg = nng_aio_get_msg(aio) { nng_msg_free(msg) }
        nng_aio_free(aio)
        self.aio = nil
        if let context { nng_ctx_close(context) }
        context = nil
        if let ticket { gate.leave(ticket) }
        ticket = nil
    }

    private var gate: OperationGate {
        switch kind {
        case .request(_, _, let gate), .receive(_, let gate): gate
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        nng_mtx_lock(mutex)
        defer { nng_mtx_unlock(mutex) }
        return body()
    }
}
