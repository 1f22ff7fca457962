import BackgroundWork
import Foundation
import Testing

@Suite struct BackgroundThreadTests {
    /// An actor whose jobs run on a background thread.
    actor Worker {
        private nonisolated let executor = BackgroundThreadExecutor(name: "test-worker")
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        private(set) var order: [Int] = []
        private var running = false
        private(set) var overlapped = false

        func record(_ n: Int) async {
            if running { overlapped = true }
            running = true
            order.append(n)
            running = false
        }

        /// The nice value and name of the thread running the actor.
        func thread() -> (nice: Int32?, name: String?) { (ThreadPriority.currentThreadNice(), Thread.current.name) }
    }

    @Test func anActorOnTheExecutorRunsOnItsBackgroundThreadOneJobAtATime() async {
        let worker = Worker()
        let ran = await worker.thread()
        #if os(Linux)
        #expect(ran.nice == ThreadPriority.backgroundNice)
        #endif
        #expect(ran.name == "test-worker")
        // Callers on many threads: every call runs, one at a time.
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<500 { group.addTask { await worker.record(n) } }
        }
        #expect(await worker.order.sorted() == Array(0..<500))
        #expect(await worker.overlapped == false)
        // In order for one caller.
        let before = await worker.order.count
        for n in 1000..<1100 { await worker.record(n) }
        #expect(await Array(worker.order[before...]) == Array(1000..<1100))
    }
}
