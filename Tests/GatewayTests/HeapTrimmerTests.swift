import Synchronization
import Testing

@testable import Gateway

@Suite struct HeapTrimmerTests {
    @Test func trimsEveryIntervalUntilStopped() async throws {
        let calls = Atomic<Int>(0)
        let trimmer = HeapTrimmer(interval: .milliseconds(20)) { calls.add(1, ordering: .relaxed) }
        for _ in 0..<250 where calls.load(ordering: .relaxed) < 3 { try await Task.sleep(for: .milliseconds(10)) }
        trimmer.stop()  // waits for a trim under way: from here on the counts are final
        let after = calls.load(ordering: .relaxed)
        #expect(after >= 3)
        #expect(trimmer.trims.trims == after, "every trim counted")
        try await Task.sleep(for: .milliseconds(100))  // five intervals
        #expect(calls.load(ordering: .relaxed) == after, "no trim after stop")
    }
}
