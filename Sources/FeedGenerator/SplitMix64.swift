/// A tiny deterministic pseudo-random generator (SplitMix64).
///
/// The generator must give byte-identical feeds for the same seed on every run and platform, so it
/// never uses `SystemRandomNumberGenerator` or Swift's randomised hashing.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<upperBound` (upperBound > 0). The tiny modulo bias does not matter here.
    mutating func below(_ upperBound: Int) -> Int {
        Int(next() % UInt64(upperBound))
    }

    /// A value in the closed range.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A value in `0.0..<1.0` with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }
}
