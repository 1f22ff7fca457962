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
