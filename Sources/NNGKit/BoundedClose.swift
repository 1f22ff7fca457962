import CNNG

/// `nng_close` that waits at most `timeout`; returns whether nng finished in time.
///
/// Why: nng 1.5.2 can block forever inside `nng_close`, waiting for a connection (pipe) that is never
/// released. Reproduced with a REQ socket whose server went away and came back while a request was
/// outstanding (roughly once in a few hundred restarts). By the time it blocks, nng has already closed the
/// socket's endpoints and contexts and failed every pending operation with NNG_ECLOSED, so the socket is
/// dead either way. Closing on a helper thread and giving up after `timeout` keeps a service's shutdown (or
/// a test run) from hanging; in the bad case that helper thread stays blocked until the process exits.
func closeSocket(_ socket: nng_socket, waitingAtMost timeout: Duration) -> Bool {
    guard let job = CloseJob(socket) else {
        nng_close(socket)  // no resources for a helper thread: close inline
        return true
    }
    var thread: OpaquePointer?
    let started = nng_thread_create(
        &thread,
        { arg in
            let job = Unmanaged<CloseJob>.fromOpaque(arg!).takeRetainedValue()
            nng_close(job.socket)
            job.markDone()
        }, Unmanaged.passRetained(job).toOpaque())
    guard started == 0, let thread else {
        Unmanaged.passUnretained(job).release()  // the thread never took its reference
        nng_close(socket)
        return true
    }
    let finished = job.wait(until: nng_clock() + nng_time(timeout.nngMilliseconds))
    if finished { nng_thread_destroy(thread) }  // joins; otherwise the handle is left to the stuck thread
    return finished
}

private final class CloseJob: @unchecked Sendable {
    // @unchecked: `done` is guarded by `mutex`.
    let socket: nng_socket
    private let mutex: OpaquePointer
    private let condition: OpaquePointer
    private var done = false

    init?(_ socket: nng_socket) {
        var m: OpaquePointer?
        var c: OpaquePointer?
        guard nng_mtx_alloc(&m) == 0, let m else { return nil }
        guard nng_cv_alloc(&c, m) == 0, let c else {
            nng_mtx_free(m)
            return nil
        }
        self.socket = socket
        mutex = m
        condition = c
    }

    deinit {
        nng_cv_free(condition)
        nng_mtx_free(mutex)
    }

    func markDone() {
        nng_mtx_lock(mutex)
        done = true
        nng_cv_wake(condition)
        nng_mtx_unlock(mutex)
    }

    /// Waits for `markDone` until the absolute nng time `deadline`.
    func wait(until deadline: nng_time) -> Bool {
        nng_mtx_lock(mutex)
        defer { nng_mtx_unlock(mutex) }
        while !done {
            if nng_cv_until(condition, deadline) == Int32(NNG_ETIMEDOUT.rawValue) { break }
        }
        return done
    }
}
