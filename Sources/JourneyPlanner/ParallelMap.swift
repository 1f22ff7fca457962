import Dispatch
import Foundation

/// `body(0) … body(count − 1)` on every core (Dispatch's `concurrentPerform`), the results in order: the planner's
/// independent pieces of work (each pattern's routes when a timetable is built or a live update is applied).
enum ParallelMap {
    /// Slices per core: enough that a slice of slow pieces does not leave the other cores idle at its end.
    static let slicesPerCore = 8

    static func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard count > 1, cores > 1 else { return (0..<count).map(body) }
        let slices = min(count, slicesPerCore * cores)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            withoutActuallyEscaping(body) { body in
                let job = Job(out: buffer.baseAddress!, body: body, count: count, slices: slices)
                DispatchQueue.concurrentPerform(iterations: slices) { job.run(slice: $0) }
            }
            initialized = count
        }
    }

    /// `body` over stretches of 0..<count (a few per core, in order, and more when a stretch would hold more than `most`
    /// pieces), on every core: for work whose pieces are small, so that each stretch gathers its results in arrays of
    /// its own.
    static func stretches<T>(_ count: Int, atMost most: Int = .max, _ body: (Range<Int>) -> T) -> [T] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let slices = max(1, min(count, max(slicesPerCore * cores, (count - 1) / most + 1)))
        return map(slices) { s in body(count * s / slices..<count * (s + 1) / slices) }
    }

    /// One map's work, shared by the slices: slice s writes the results of its own stretch of indexes (each index by
    /// exactly one slice, read only after `concurrentPerform` returned), and `body` only reads what it was given. A
    /// stretch, not every slices-th index: two cores never write next to each other (the same cache line).
    private struct Job<T>: @unchecked Sendable {
        let out: UnsafeMutablePointer<T>
        let body: (Int) -> T
        let count: Int
        let slices: Int

        func run(slice: Int) {
            for i in count * slice / slices..<count * (slice + 1) / slices {
                (out + i).initialize(to: body(i))
            }
        }
    }
}
