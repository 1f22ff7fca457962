import CNNG
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

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
    if finished {
        nng_thread_destroy(thread)  // joins; otherwise the handle is left to the stuck thread
    } else {
        UnfinishedCloses.record(timeout: timeout)
    }
    return finished
}

/// Closes nng did not finish in time, in this process: the sign of nng 1.5.2's reaper wedge (NNGSocket.swift),
/// after which the process can no longer close sockets or reconnect dialers.
///
/// `NNGKIT_EXIT_ON_UNFINISHED_CLOSE=<code>` makes the first such close end the process with that exit code, so
/// a supervisor or a test runner can start it afresh instead of living on with nng wedged. scripts/test sets
/// it: a wedged test process stops at once with a recognisable code and is run again, rather than failing
/// every later nng test at 2 s per close.
public enum UnfinishedCloses {
    private static let total = Atomic<Int>(0)

    /// How many closes did not finish in time so far.
    public static var count: Int { total.load(ordering: .relaxed) }

    /// The exit code asked for by `NNGKIT_EXIT_ON_UNFINISHED_CLOSE`, if any (1…255). Another value is named
    /// on stderr when the first close is left unfinished, and the process lives on.
    static let exitCode: Int32? = {
        guard let value = getenv("NNGKIT_EXIT_ON_UNFINISHED_CLOSE") else { return nil }
        let text = String(cString: value)
        guard let code = exitCode(text) else {
            stderrLine(
                "NNGKit: NNGKIT_EXIT_ON_UNFINISHED_CLOSE=\(text.debugDescription) is not an exit code 1…255; ignored")
            return nil
        }
        return code
    }()

    /// `text` as an exit code 1…255, else nil.
    static func exitCode(_ text: String) -> Int32? {
        Int32(text).flatMap { (1...255).contains($0) ? $0 : nil }
    }

    private static func stderrLine(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    static func record(timeout: Duration) {
        total.add(1, ordering: .relaxed)
        guard let code = exitCode else { return }
        fflush(nil)  // what the process printed so far, then the reason, straight to fd 2
        stderrLine(
            "NNGKit: nng did not finish closing a socket within \(timeout) (nng 1.5.2's reaper wedge, NNGSocket.swift); "
                + "exiting with \(code) as NNGKIT_EXIT_ON_UNFINISHED_CLOSE asks")
        // _exit, not exit: atexit handlers (nng's own among them) could wait on the wedged reaper.
        _exit(code)
    }
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
