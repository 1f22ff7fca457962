import Testing
import TransitTesting

@testable import Gateway

/// Cache keeps drawn per entry: never under half of the lifetime nor over it, and spread over that half.
@Suite struct ExpirySpreadTests {
    @Test func keepsLieInTheSecondHalfOfTheLifetimeAndFillIt() {
        let t0 = ContinuousClock.now
        let spread = ExpirySpread(.seconds(600))
        #expect(spread.shortest == .seconds(300))
        var random = SplitMix64(seed: 7)
        var perTenth = [Int](repeating: 0, count: 10)
        for _ in 0..<10_000 {
            let keep = spread.expiry(from: t0, using: &random) - t0
            #expect(keep >= .seconds(300) && keep <= .seconds(600))
            perTenth[min(9, Int((keep - .seconds(300)) / .seconds(30)))] += 1
        }
        // Each tenth of the half gets about a tenth of the entries (1,000 ± 5 standard deviations).
        #expect(perTenth.allSatisfy { (850...1150).contains($0) }, "\(perTenth)")
    }

    /// The typical-delay cache's slices: from the last quarter.
    @Test func aGivenShortestKeepBoundsTheDraws() {
        let t0 = ContinuousClock.now
        let spread = ExpirySpread(.seconds(600), shortest: .seconds(450))
        var random = SplitMix64(seed: 11)
        let keeps = (0..<2_000).map { _ in spread.expiry(from: t0, using: &random) - t0 }
        #expect(keeps.allSatisfy { $0 >= .seconds(450) && $0 <= .seconds(600) })
        #expect(keeps.min()! < .seconds(455) && keeps.max()! > .seconds(595))
        #expect(ExpirySpread(.seconds(10), shortest: .seconds(20)).shortest == .seconds(10), "never over the lifetime")
    }

    @Test func aZeroLifetimeKeepsNothing() {
        let t0 = ContinuousClock.now
        #expect(ExpirySpread(.zero).expiry(from: t0) == t0)
    }
}
