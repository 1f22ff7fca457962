import CNNG

/// Keeps `nng_close` away from context calls in progress. nng 1.5.2 can touch freed memory (and panic
/// with "pthread_mutex_lock: Invalid argument") when a socket is closed while a call on one of its
/// contexts (open, send, receive, close) is under way: the context's last release lets the close go on
/// before the context is finalised. Every request runs from context open to context close inside a
/// ticket; `closeAll` refuses new tickets, aborts the running operations and waits until all have left.
final class ContextGate: @unchecked Sendable {
    // @unchecked: all state is guarded by `mutex`.
    private let mutex: OpaquePointer
    private let condition: OpaquePointer
    private var members: [Int: AioOperation] = [:]
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
        members[nextTicket] = operation
        return nextTicket
    }

    func leave(_ ticket: Int) {
        nng_mtx_lock(mutex)
        members[ticket] = nil
        if members.isEmpty { nng_cv_wake(condition) }
        nng_mtx_unlock(mutex)
    }

    /// Refuses new operations, cancels the running ones (they fail with an `isClosed` error) and waits until
    /// they have closed their contexts, at most `timeout`. Returns whether they all did.
    func closeAll(waitingAtMost timeout: Duration) -> Bool {
        let deadline = nng_clock() + nng_time(timeout.nngMilliseconds)
        nng_mtx_lock(mutex)
        defer { nng_mtx_unlock(mutex) }
        closing = true
        // Cancelling under our lock is safe: an operation leaves (under this lock) before freeing its aio,
        // and nng runs the resulting callbacks on its own threads, which never take this lock.
        for operation in members.values { operation.cancel(.closed) }
        while !members.isEmpty {
            if nng_cv_until(condition, deadline) == Int32(NNG_ETIMEDOUT.rawValue) { break }
        }
        return members.isEmpty
    }
}
