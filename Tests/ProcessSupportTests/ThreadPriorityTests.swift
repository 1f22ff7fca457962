import Foundation
import ProcessSupport
import Testing

@Suite struct ThreadPriorityTests {
    /// A thread that lowers itself runs at the background nice value; the thread that started it keeps its own.
    @Test func lowering_aThreadLeavesTheOthersAlone() async {
        let before = ThreadPriority.currentThreadNice()
        let seen: (lowered: Bool, nice: Int32?) = await withCheckedContinuation { done in
            let thread = Thread {
                let lowered = ThreadPriority.lowerCurrentThread()
                done.resume(returning: (lowered, ThreadPriority.currentThreadNice()))
            }
            thread.start()
        }
        #if os(Linux)
        #expect(seen.lowered)
        #expect(seen.nice == ThreadPriority.backgroundNice)
        #expect(ThreadPriority.currentThreadNice() == before)
        #endif
    }
}
