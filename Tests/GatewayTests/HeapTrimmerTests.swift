import Synchronization
import Testing

@testable import Gateway

@Suite struct HeapTrimmerTests {
    @Test func trimsEveryIntervalUntilStopped() async throws {
        let calls = Atomic<Int>(0)
        let trimmer = HeapTrimmer(interval: .milliseconds(20)) { calls.add(1, ordering: .relaxed) }
        for _ in 0..<250 where calls.load(ordering: .relaxed) < 3 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(calls.load(ordering: .relaxed) >= 3)
        #expect(trimmer.trims.trims >= 3)
        trimmer.stop()
        try await Task.sleep(for: .milliseconds(60))
        let after = calls.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.load(ordering: .relaxed) == after, "no trim after stop")
    }
}
