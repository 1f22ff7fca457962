import Testing

@testable import Gateway

/// Cache keeps drawn per entry: never under half of the lifetime nor over it, and spread over that half.
@Suite struct ExpirySpreadTests {
    /// splitmix64, so the draws are the same in every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func keepsLieInTheSecondHalfOfTheLifetimeAndFillIt() {
        let t0 = ContinuousClock.now
        let spread = ExpirySpread(.seconds(600))
        #expect(spread.shortest == .seconds(300))
        var random = Seeded(state: 7)
        var perTenth = [Int](repeating: 0, count: 10)
        for _ in 0..<10_000 {
            let keep = spread.expiry(from: t0, using: &random) - t0
            #expect(keep >= .seconds(300) && keep <= .seconds(600))
            perTenth[min(9, Int((keep - .seconds(300)) / .seconds(30)))] += 1
        }
        // Each tenth of the half gets about a tenth of the entries (1,000 ± 5 standard deviations).
        #expect(perTenth.allSatisfy { (850...1150).contains($0) }, "\(perTenth)")
    }

    @Test func aZeroLifetimeKeepsNothing() {
        let t0 = ContinuousClock.now
        #expect(ExpirySpread(.zero).expiry(from: t0) == t0)
    }
}
