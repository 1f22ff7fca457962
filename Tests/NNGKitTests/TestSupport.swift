import Foundation
import Synchronization

@testable import NNGKit

/// Bytes of a string, for readable tests.
func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

/// Seconds since `start`, for bounds on how long a failing call may take.
func elapsed(since start: ContinuousClock.Instant) -> Duration { ContinuousClock.now - start }

/// A counter of concurrent calls, shared across handler threads.
final class ConcurrencyGauge: Sendable {
    private let counts = Mutex<(current: Int, peak: Int, total: Int)>((0, 0, 0))

    func enter() {
        counts.withLock {
            $0.current += 1; $0.total += 1; $0.peak = max($0.peak, $0.current)
        }
    }
    func leave() { counts.withLock { $0.current -= 1 } }
    var snapshot: (peak: Int, total: Int) { counts.withLock { ($0.peak, $0.total) } }
}
