import Testing
import TransitTesting

@testable import HTTPFetching

@Suite struct BackoffTests {
    let backoff = Backoff(base: .seconds(30), cap: .seconds(600))

    @Test func boundsDoubleUntilTheCap() {
        #expect(backoff.bounds(afterFailures: 1) == .seconds(30)...(.seconds(60)))
        #expect(backoff.bounds(afterFailures: 2) == .seconds(60)...(.seconds(120)))
        #expect(backoff.bounds(afterFailures: 3) == .seconds(120)...(.seconds(240)))
        #expect(backoff.bounds(afterFailures: 4) == .seconds(240)...(.seconds(480)))
        #expect(backoff.bounds(afterFailures: 5) == .seconds(300)...(.seconds(600)))
        #expect(backoff.bounds(afterFailures: 500) == .seconds(300)...(.seconds(600)))
    }

    @Test func neverBelowTheInterval() {
        // An alerts source polled every 5 min with a 10 min cap: waits between 5 and 10 min.
        let slow = Backoff(base: .seconds(300), cap: .seconds(600))
        #expect(slow.bounds(afterFailures: 1) == .seconds(300)...(.seconds(600)))
        #expect(slow.bounds(afterFailures: 9) == .seconds(300)...(.seconds(600)))
        // A cap below the interval is raised to it.
        let odd = Backoff(base: .seconds(900), cap: .seconds(600))
        #expect(odd.bounds(afterFailures: 3) == .seconds(900)...(.seconds(900)))
    }

    @Test func jitterStaysInBoundsAndSpreads() {
        var generator = SplitMix64(seed: 42)
        for failures in 1...8 {
            let bounds = backoff.bounds(afterFailures: failures)
            let delays = (0..<200).map { _ in backoff.delay(afterFailures: failures, using: &generator) }
            #expect(delays.allSatisfy { bounds.contains($0) }, "\(failures)")
            // Jitter: the waits spread over most of the range, not one value.
            let spread = (delays.max()! - delays.min()!).seconds
            #expect(spread > 0.8 * (bounds.upperBound - bounds.lowerBound).seconds, "\(failures)")
        }
    }

    @Test func delaysGrowOnAverage() {
        var generator = SplitMix64(seed: 7)
        let means = (1...5).map { failures in
            (0..<100).map { _ in backoff.delay(afterFailures: failures, using: &generator).seconds }.reduce(0, +) / 100
        }
        #expect(zip(means, means.dropFirst()).allSatisfy { $0 < $1 }, "\(means)")
    }
}
