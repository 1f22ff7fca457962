import GatewayProtocol
import Testing

@testable import Gateway

/// The static service's circuit breaker as a state machine, on a clock the test moves.
@Suite struct StaticBreakerTests {
    private let t0 = ContinuousClock.now
    private let unix0: Int64 = 1_766_394_000  // 2025-12-22T09:00:00Z

    private func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    /// A breaker tripped by a request sent at 0 that timed out at 1000 ms.
    private func tripped(interval: Duration = .milliseconds(500)) -> StaticBreaker {
        var breaker = StaticBreaker(probeInterval: interval)
        #expect(breaker.admit(now: at(0)) == .ask)
        breaker.failed(sentAt: at(0), now: at(1000), unixNow: unix0, reason: "no answer within 1000 ms")
        return breaker
    }

    /// The background prober's turn (a helper: `#expect` cannot call a mutating method).
    private func takeProbe(_ breaker: inout StaticBreaker, _ now: ContinuousClock.Instant) -> Bool {
        breaker.takeProbe(now: now)
    }

    private func isRefused(_ admission: StaticBreaker.Admission) -> Bool {
        if case .refuse(let error) = admission { return error.code == .staticUnavailable }
        return false
    }

    @Test func upAsksEveryTime() {
        var breaker = StaticBreaker(probeInterval: .milliseconds(500))
        for ms in [0, 1, 2, 5000] { #expect(breaker.admit(now: at(ms)) == .ask) }
        #expect(breaker.isUp && breaker.counts == StaticBreaker.Counts())
    }

    @Test func oneFailureTripsItAndClientRequestsAreRefusedWhileTheBackgroundProbeTakesItsTurns() {
        var breaker = tripped()
        #expect(!breaker.isUp)
        #expect(breaker.outage?.sinceUnix == unix0)
        #expect(breaker.counts.trips == 1)
        // Client requests are refused, no round trip, however long it has been down.
        for ms in [1001, 1499, 1500, 2000, 60_000] { #expect(isRefused(breaker.admit(now: at(ms)))) }
        #expect(!breaker.wouldAsk(now: at(1500)))
        // The background probe: first due one interval after the trip, then once per interval.
        #expect(breaker.probeDelay(now: at(1200)) == .milliseconds(300))
        #expect(!takeProbe(&breaker, at(1499)))
        #expect(takeProbe(&breaker, at(1500)))
        #expect(!takeProbe(&breaker, at(1500)))
        #expect(breaker.probeDelay(now: at(1600)) == .milliseconds(400))
        #expect(takeProbe(&breaker, at(2000)))
        #expect(breaker.counts == StaticBreaker.Counts(trips: 1, probes: 2, fastFailures: 5))
    }

    @Test func aFailedProbeKeepsItDownWithTheFirstOutagesTime() {
        var breaker = tripped()
        #expect(takeProbe(&breaker, at(1500)))
        breaker.failed(sentAt: at(1500), now: at(2500), unixNow: unix0 + 2, reason: "no answer within 1000 ms")
        #expect(breaker.outage?.sinceUnix == unix0)
        #expect(breaker.counts.trips == 1)
        #expect(takeProbe(&breaker, at(2600)))  // the failed probe does not push the next one back
    }

    @Test func anyAnswerBringsItUpAtOnce() {
        // A probe's answer, or one from a request or check sent before the trip.
        var breaker = tripped()
        #expect(takeProbe(&breaker, at(1500)))
        breaker.answered(now: at(1501))
        #expect(breaker.isUp)
        #expect(breaker.probeDelay(now: at(1502)) == nil)  // nothing to probe
        #expect(breaker.admit(now: at(1502)) == .ask)

        breaker = tripped()
        breaker.answered(now: at(1100))  // e.g. the background version check, NOT_FOUND, INVALID_ARGUMENT
        #expect(breaker.isUp && breaker.outage == nil)
        #expect(breaker.admit(now: at(1101)) == .ask)
    }

    @Test func aSlowAnswerAmongQuickOnesDoesNotTripIt() {
        var breaker = StaticBreaker(probeInterval: .milliseconds(500))
        // Sent at 0; another request sent later is answered at 300; the first times out at 1000.
        breaker.answered(now: at(300))
        breaker.failed(sentAt: at(0), now: at(1000), unixNow: unix0, reason: "no answer within 1000 ms")
        #expect(breaker.isUp)
        // A request sent after the last answer that gets none does trip it.
        breaker.failed(sentAt: at(301), now: at(1301), unixNow: unix0, reason: "no answer within 1000 ms")
        #expect(!breaker.isUp)
    }

    @Test func aLateFailureAfterRecoveryDoesNotTripItAgain() {
        var breaker = tripped()
        // Two requests sent while up at 900 time out at 1900; a probe at 1500 was answered at 1510.
        #expect(takeProbe(&breaker, at(1500)))
        breaker.answered(now: at(1510))
        breaker.failed(sentAt: at(900), now: at(1900), unixNow: unix0 + 1, reason: "no answer within 1000 ms")
        #expect(breaker.isUp)
    }

    @Test func aZeroIntervalLetsEveryRequestAsk() {
        var breaker = tripped(interval: .zero)
        #expect(!breaker.isUp)
        for ms in [1000, 1000, 1001] { #expect(breaker.admit(now: at(ms)) == .probe) }
        #expect(breaker.counts.fastFailures == 0)
    }

    @Test func theRefusalSaysSinceWhenWhyAndWhenItIsTriedAgain() {
        var breaker = tripped()
        guard case .refuse(let error) = breaker.admit(now: at(4200)) else {
            Issue.record("not refused")
            return
        }
        #expect(error.code == .staticUnavailable)
        #expect(
            error.message
                == "the static service is unreachable since 2025-12-22T09:00:00Z (3 s: no answer within 1000 ms); the gateway asks it again every 500 ms"
        )
    }

    @Test func utcTextOfEdgeTimes() {
        #expect(StaticBreaker.utcText(0) == "1970-01-01T00:00:00Z")
        #expect(StaticBreaker.utcText(951_782_399) == "2000-02-28T23:59:59Z")
        #expect(StaticBreaker.utcText(951_868_800) == "2000-03-01T00:00:00Z")
        #expect(StaticBreaker.utcText(-1) == "1969-12-31T23:59:59Z")
    }
}
