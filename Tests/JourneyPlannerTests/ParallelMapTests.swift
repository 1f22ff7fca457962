import Testing

@testable import JourneyPlanner

/// `ParallelMap.stretches` cuts 0..<count into stretches that cover it in order, a few per core, and more when a
/// stretch would hold more than `atMost` pieces (a live update's `prepare` relies on both: its stretches' times are
/// laid in one after another, and a stretch must fit a core's cache).
@Suite struct ParallelMapTests {
    @Test(arguments: [
        (0, Int.max), (1, Int.max), (5, Int.max), (10_000, Int.max), (10_000, 256), (4_097, 256), (300, 1),
    ])
    func stretchesCoverTheRangeInOrderWithinTheBound(count: Int, most: Int) {
        let stretches = ParallelMap.stretches(count, atMost: most) { $0 }
        #expect(stretches.first?.lowerBound == 0)
        #expect(stretches.last?.upperBound == count)
        for (a, b) in zip(stretches, stretches.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        #expect(stretches.allSatisfy { $0.count <= most })
        if most < Int.max && count > 0 { #expect(stretches.count >= (count + most - 1) / most) }
    }
}
