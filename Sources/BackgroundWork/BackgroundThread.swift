import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scheduling priority of the calling thread: background work (applying a realtime update) yields the CPU to
/// the threads answering requests.
public enum ThreadPriority {
    /// The nice value background threads take: the kernel gives such a thread about a tenth of the CPU share of
    /// a normal one while both want to run, and a normal thread that wakes up runs at once.
    public static let backgroundNice: Int32 = 10

    /// Lowers the calling thread's priority to `nice` (Linux: per thread). Returns false when the system
    /// refused (the thread keeps its priority; nothing else changes). A thread cannot raise its priority back
    /// without privileges, so call this only on threads that do background work and nothing else.
    @discardableResult
    public static func lowerCurrentThread(nice: Int32 = backgroundNice) -> Bool {
        #if os(Linux)
        // Linux keeps the nice value per thread: who 0 is the calling thread, not the whole process.
        return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0
        #else
        return false
        #endif
    }

    /// The calling thread's nice value (nil when it cannot be read).
    public static func currentThreadNice() -> Int32? {
        #if os(Linux)
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return errno == 0 ? value : nil
        #else
        return nil
        #endif
    }
}

/// A serial executor running its jobs, one at a time in order, on one dedicated thread at background priority
/// (`ThreadPriority.lowerCurrentThread`): an actor using it (`unownedExecutor`) does its CPU work without
/// taking the CPU from threads answering requests. The thread ends when the executor is freed.
public final class BackgroundThreadExecutor: SerialExecutor, Sendable {
    private final class Queue: Sendable {
        struct State {
            var jobs: [UnownedJob] = []
            var closed = false
        }
        let state = Mutex(State())
        let signal = DispatchSemaphore(value: 0)
    }

    private let queue = Queue()

    /// Starts the thread (named `name` where the system allows).
    public init(name: String, nice: Int32 = ThreadPriority.backgroundNice) {
        let queue = self.queue
        let executor = UnownedSerialExecutor(ordinary: self)
        let thread = Thread {
            #if os(Linux)
            // Foundation does not name the system thread on Linux; top, perf and the tests see this name.
            if let file = fopen("/proc/thread-self/comm", "w") {
                fputs(String(decoding: name.utf8.prefix(15), as: UTF8.self), file)
                fclose(file)
            }
            #endif
            ThreadPriority.lowerCurrentThread(nice: nice)
            while true {
                queue.signal.wait()
                let (jobs, closed) = queue.state.withLock { s in
                    defer { s.jobs.removeAll(keepingCapacity: true) }
                    return (s.jobs, s.closed)
                }
                for job in jobs { job.runSynchronously(on: executor) }
                if closed && jobs.isEmpty { return }
            }
        }
        thread.name = name
        thread.start()
    }

    deinit {
        queue.state.withLock { $0.closed = true }
        queue.signal.signal()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.state.withLock { $0.jobs.append(job) }
        queue.signal.signal()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
