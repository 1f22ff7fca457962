import Foundation

/// The floor under the planner's figures: how long a read that depends on the one before takes, over memory the size
/// of a cache and over memory far larger than the caches. A plan and a live update are mostly such reads (labels,
/// routes and walks of stops reached in no order the prefetchers can guess: BENCHMARKS.md, sessions 32–34), so their
/// times move with these from one machine, or one hour, to the next, as a query's latency moves with the nng echo
/// round trip printed beside it. `transit-bench plan` prints them before and after its rows: compare ratios.
enum MemoryFloor {
    /// Nanoseconds per read in a chase through one random cycle over the cache lines of `bytes`: each read's address
    /// is the value of the read before, so no two overlap, and the cycle's order defeats the prefetchers.
    static func nanosPerRead(bytes: Int, reads: Int = 1_000_000) -> Double {
        let perLine = 64 / MemoryLayout<Int>.stride
        let lines = max(2, bytes / 64)
        var order = Array(0..<lines)
        var rng = SeededGenerator(seed: 40)
        order.shuffle(using: &rng)
        var links = [Int](repeating: 0, count: lines * perLine)
        for i in 0..<lines { links[order[i] * perLine] = order[(i + 1) % lines] * perLine }
        return links.withUnsafeBufferPointer { links in
            var at = order[0] * perLine
            // The caches and TLBs warmed as the timed reads will find them.
            for _ in 0..<min(lines, reads / 4) { at = links[at] }
            let started = monotonicNanos()
            for _ in 0..<reads { at = links[at] }
            let elapsed = monotonicNanos() - started
            // `at` is used, so the chase is not optimised away (a cycle never reaches −1).
            return at < 0 ? 0 : Double(elapsed) / Double(reads)
        }
    }

    /// One table row: the chase over 1 MiB (a core's L2 cache on the machines here) and over 256 MiB.
    static func row(_ when: String) -> String {
        let small = nanosPerRead(bytes: 1 << 20), large = nanosPerRead(bytes: 256 << 20)
        return "| \(when) | \(String(format: "%.1f", small)) | \(String(format: "%.1f", large)) |"
    }

    static let header = "| memory floor | dependent read, 1 MiB, ns | dependent read, 256 MiB, ns |\n|---|---|---|"
}
