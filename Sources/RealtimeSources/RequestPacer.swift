// Keeps the request rate of all sources together under the API's limit.
import Foundation
import Synchronization

/// Lets requests start at least 1/rate apart, across every source that shares it (a token bucket holding
/// one token): so no window of one second ever sees more than `requestsPerSecond` starts, however the
/// sources' schedules line up. The gap is measured between actual grants (a late wake-up never lets two
/// requests out closer together).
public final class RequestPacer: Sendable {
    public let requestsPerSecond: Double
    private let spacing: Duration
    private let clock = ContinuousClock()
    private let nextGrant = Mutex<ContinuousClock.Instant?>(nil)

    public init(requestsPerSecond: Double) {
        precondition(requestsPerSecond > 0 && requestsPerSecond.isFinite, "requestsPerSecond must be positive")
        self.requestsPerSecond = requestsPerSecond
        spacing = .fromSeconds(1 / requestsPerSecond)
    }

    /// Waits until this request may start; returns the instant it was let through. Throws CancellationError
    /// when the waiting task is cancelled.
    @discardableResult
    public func acquire() async throws -> ContinuousClock.Instant {
        while true {
            try Task.checkCancellation()
            let now = clock.now
            let wait: Duration? = nextGrant.withLock { next in
                if let due = next, due > now { return due - now }
                next = now + spacing
                return nil
            }
            guard let wait else { return now }
            try await clock.sleep(for: wait)
        }
    }
}
