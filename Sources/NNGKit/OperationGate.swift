import CNNG

/// Keeps `nng_close` away from the operations of a socket that are still under way. nng 1.5.2 can touch
/// freed memory (and panic with "pthread_mutex_lock: Invalid argument") in two ways when a socket is closed
/// too early:
/// - while a call on one of its contexts (open, send, receive, close) is under way: the context's last
///   release lets the close go on before the context is finalised;
/// - while nng's expire thread ("nng:aio:expire") is timing out one of its aios: that thread takes the aio
///   off its list, drops its own lock and only then calls the protocol's cancel function, which locks the
///   socket's mutex. Nothing in `nng_close` waits for that thread, so if the close (or a message) finishes
///   the aio in between, the socket can be freed before the cancel function runs. `nng_aio_free` does wait
///   for it (nng_aio_stop does not), so an operation leaves only after freeing its aio.
/// Every operation runs from its start to `nng_aio_free` (and context close) inside a ticket; `closeAll`
/// refuses new tickets, aborts the running operations and waits until all have left.
final class OperationGate: @unchecked Sendable {
    // @unchecked: all state is guarded by `mutex`.
    private let mutex: OpaquePointer
    private let condition: OpaquePointer
    /// Operations that may still be cancelled (their aio is allocated), by ticket.
    private var cancellable: [Int: AioOperation] = [:]
    /// Tickets not yet returned by `leave`.
    private var inside = 0
    private var nextTicket = 0
    private var closing = false

    init() {
        var m: OpaquePointer?
        var c: OpaquePointer?
        precondition(nng_mtx_alloc(&m) == 0 && nng_cv_alloc(&c, m) == 0, "nng: out of memory for a mutex")
        mutex = m!
        condition = c!
    }

    deinit {
        nng_cv_free(condition)
        nng_mtx_free(mutex)
    }

    /// A ticket for `operation`, or nil once closing.
    func enter(_ operation: AioOperation) -> Int? {
        nng_mtx_lock(mutex)
        defer { nng_mtx_unlock(mutex) }
        guard !closing else { return nil }
        nextTicket += 1
        inside += 1
        cancellable[nextTicket] = operation
        return nextTicket
    }

    /// The operation is about to free its aio: `closeAll` must no longer cancel it. Once this returns, no
    /// cancel from `closeAll` is in progress either (they run under the same lock).
    func settle(_ ticket: Int) {
        nng_mtx_lock(mutex)
        cancellable[ticket] = nil
        nng_mtx_unlock(mutex)
    }

    /// The operation has freed its aio and closed its context: the socket may be closed as far as it goes.
    func leave(_ ticket: Int) {
        nng_mtx_lock(mutex)
        cancellable[ticket] = nil
        inside -= 1
        if inside == 0 { nng_cv_wake(condition) }
        nng_mtx_unlock(mutex)
    }

    /// Refuses new operations, cancels the running ones (they fail with an `isClosed` error) and waits until
    /// they have freed their aios and closed their contexts, at most `timeout`. Returns whether they all did.
    func closeAll(waitingAtMost timeout: Duration) -> Bool {
        let deadline = nng_clock() + nng_time(timeout.nngMilliseconds)
        nng_mtx_lock(mutex)
        defer { nng_mtx_unlock(mutex) }
        closing = true
        // Cancelling under our lock is safe: an operation settles (under this lock) before freeing its aio,
        // and nng runs the resulting callbacks on its own threads, which never take this lock.
        for operation in cancellable.values { operation.cancel(.closed) }
        while inside > 0 {
            if nng_cv_until(condition, deadline) == Int32(NNG_ETIMEDOUT.rawValue) { break }
        }
        return inside == 0
    }
}
