import Foundation

/// Runs `body` on a thread of its own and waits for it. A test's long synchronous work (tens of seconds of CPU
/// over a real feed) then leaves Swift's concurrency pool, two threads on a 2-core machine, to the tests that
/// wait on timers: beside the real-data suites, the timed replay tests starved and missed their moments.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
