import Foundation
import ProcessSupport
import Testing

@Suite struct ServiceClockTests {
    @Test func parsesISO8601AndUnixSeconds() {
        #expect(ServiceClock.parseInstant("2025-03-12T08:05:00+11:00") == 1_741_727_100)
        #expect(ServiceClock.parseInstant("2025-03-11T21:05:00Z") == 1_741_727_100)
        #expect(ServiceClock.parseInstant("2025-03-11T21:05:00.5Z") == 1_741_727_100.5)
        #expect(ServiceClock.parseInstant("1741727100") == 1_741_727_100)
        #expect(ServiceClock.parseInstant("1741727100.25") == 1_741_727_100.25)
        #expect(ServiceClock.parseInstant("2025-03-12T08:05:00") == nil)  // no zone: ambiguous
        #expect(ServiceClock.parseInstant("tomorrow") == nil)
        #expect(ServiceClock.parseInstant("1e9") == nil)
    }

    @Test func aFrozenClockReadsItsStart() async throws {
        let clock = ServiceClock(start: 1_741_727_100, rate: 0)
        #expect(clock.isReplay)
        try await Task.sleep(for: .milliseconds(20))
        #expect(clock.unixSeconds == 1_741_727_100)
        #expect(clock.unixMilliseconds == 1_741_727_100_000)
        #expect(clock.date == Date(timeIntervalSince1970: 1_741_727_100))
    }

    @Test func aReplayClockRunsAtItsRateFromItsStart() async throws {
        let clock = ServiceClock(start: 1_000_000, rate: 1)
        let first = clock.seconds
        #expect(first >= 1_000_000 && first < 1_000_001)
        try await Task.sleep(for: .milliseconds(50))
        let later = clock.seconds
        #expect(later - first >= 0.04 && later - first < 5)  // real speed (generous for a loaded machine)

        let fast = ServiceClock(start: 1_000_000, rate: 60)
        try await Task.sleep(for: .milliseconds(50))
        #expect(fast.seconds - 1_000_000 >= 2.4)  // 50 ms × 60
    }

    /// An origin in the past: the clock reads what it would had it started then, so processes started one
    /// after another agree.
    @Test func anOriginInThePastCountsTheTimeSince() {
        let origin = ServiceClock.machineSeconds() - 30
        let clock = ServiceClock(start: 1_000_000, origin: origin, rate: 1)
        #expect(clock.seconds >= 1_000_030 && clock.seconds < 1_000_035)
        let frozen = ServiceClock(start: 1_000_000, origin: origin, rate: 0)
        #expect(frozen.seconds == 1_000_000)
        let a = ServiceClock(start: 5_000, origin: origin), b = ServiceClock(start: 5_000, origin: origin)
        #expect(abs(a.seconds - b.seconds) < 1)
    }

    @Test func theSystemClockIsTheMachines() {
        #expect(!ServiceClock.system.isReplay)
        #expect(abs(ServiceClock.system.seconds - Date().timeIntervalSince1970) < 2)
    }
}

@Suite struct ServiceClockDescriptionTests {
    /// What the services' "ready" log lines say about their clock.
    @Test func saysWhichClock() {
        #expect(ServiceClock.system.description == "system")
        #expect(ServiceClock(start: 1_741_727_100, rate: 0).description == "frozen at 2025-03-11T21:05:00Z")
        #expect(ServiceClock(start: 1_741_727_100, rate: 2).description.hasPrefix("replay from 2025-03-11T21:05"))
        #expect(ServiceClock(start: 1_741_727_100, rate: 2).description.hasSuffix(" at rate 2.0"))
    }
}
