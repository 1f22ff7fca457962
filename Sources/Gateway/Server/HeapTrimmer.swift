import Dispatch
import ProcessSupport
import Synchronization

/// Gives the heap's free memory back to the kernel every `interval` (glibc's `malloc_trim`), on a queue of its
/// own, never on an event loop. What the caches count is what they hold (`EntryBytes`), but the answers made
/// around them are freed into the gaps between long-lived entries, and glibc keeps such free pages: a fill of
/// 20,000 distinct trip answers left the gateway's RSS at 2.3 × the bytes its caches counted, 1.1 × after one
/// trim (RELIABILITY.md "Cache bytes"). A trim takes a few milliseconds on a 300 MB heap; pages it returns are
/// faulted in again when reused.
final class HeapTrimmer: Sendable {
    private let interval: DispatchTimeInterval
    private let trim: @Sendable () -> Void
    private let queue = DispatchQueue(label: "transit-gateway.heap-trim", qos: .utility)
    private let stopped = Atomic<Bool>(false)
    private let counts = Mutex(Counts())

    /// What the trims did since the start (`stats`' `heap_trim`).
    struct Counts: Sendable, Equatable {
        var trims = 0
        /// Resident bytes given back, summed.
        var releasedBytes = 0
        /// The longest trim, in microseconds.
        var maxMicroseconds = 0
    }

    /// Starts trimming every `interval` with `trim` (tests pass their own).
    init(interval: Duration, trim: @escaping @Sendable () -> Void = { ProcessMemory.trim() }) {
        let (seconds, attoseconds) = interval.components
        self.interval = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        self.trim = trim
        scheduleNext()
    }

    private func scheduleNext() {
        queue.asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self, !self.stopped.load(ordering: .relaxed) else { return }
            let before = ProcessMemory.residentBytes() ?? 0
            let started = ContinuousClock.now
            self.trim()
            let took = Int((ContinuousClock.now - started).microseconds)
            let after = ProcessMemory.residentBytes() ?? 0
            self.counts.withLock {
                $0.trims += 1
                $0.releasedBytes += Int(before > after ? before - after : 0)
                $0.maxMicroseconds = max($0.maxMicroseconds, took)
            }
            self.scheduleNext()
        }
    }

    var trims: Counts { counts.withLock { $0 } }

    /// No trim starts after this returns: one running now is waited for (trims run on `queue`, one at a time).
    func stop() {
        stopped.store(true, ordering: .relaxed)
        queue.sync {}
    }
}
