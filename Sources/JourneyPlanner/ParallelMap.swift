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

    /// One map's work, shared by the slices: slice s writes results s, s + slices, … (each index by exactly one
    /// slice, read only after `concurrentPerform` returned), and `body` only reads what it was given.
    private struct Job<T>: @unchecked Sendable {
        let out: UnsafeMutablePointer<T>
        let body: (Int) -> T
        let count: Int
        let slices: Int

        func run(slice: Int) {
            var i = slice
            while i < count {
                (out + i).initialize(to: body(i))
                i += slices
            }
        }
    }
}
