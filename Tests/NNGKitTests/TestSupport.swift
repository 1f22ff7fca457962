import Foundation
@testable import NNGKit

/// Bytes of a string, for readable tests.
func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

/// Seconds since `start`, for bounds on how long a failing call may take.
func elapsed(since start: ContinuousClock.Instant) -> Duration { ContinuousClock.now - start }

/// A counter of concurrent calls, shared across handler threads.
final class ConcurrencyGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private(set) var peak = 0
    private(set) var total = 0

    func enter() { lock.withLock { current += 1; total += 1; peak = max(peak, current) } }
    func leave() { lock.withLock { current -= 1 } }
    var snapshot: (peak: Int, total: Int) { lock.withLock { (peak, total) } }
}
