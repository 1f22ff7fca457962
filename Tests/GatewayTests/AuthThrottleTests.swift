import Foundation
import Synchronization
import Testing
import TransitTesting

@testable import Gateway

/// Guessing tokens is slowed per address (GATEWAY.md "auth"): the policy with an injected clock, then against a
/// real gateway (the log line, the refusal, the metrics).
@Suite struct AuthThrottleTests {
    private final class Clock: Sendable {
        private let seconds = Mutex<Double>(0)
        func read() -> Double { seconds.withLock { $0 } }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    /// Four failures cost nothing; from the fifth on each blocks the address, 1 s doubling to 60 s, and while
    /// blocked the address is refused (counted) without a token being tried. Other addresses are untouched.
    @Test func afterFiveFailuresEachOneBlocksTheAddressDoublingToAMinute() {
        let clock = Clock()
        let throttle = AuthThrottle(now: clock.read)
        for n in 1...4 {
            #expect(throttle.check("10.0.0.1") == .allowed)
            #expect(throttle.failed("10.0.0.1") == .init(failures: n, blockedFor: nil))
        }
        var blocks: [Double] = []
        for _ in 0..<9 {
            #expect(throttle.check("10.0.0.1") == .allowed)
            let failure = throttle.failed("10.0.0.1")
            let blocked = failure.blockedFor ?? 0
            blocks.append(blocked)
            clock.advance(blocked - 0.25)
            #expect(throttle.check("10.0.0.1") == .refused(retryAfter: 0.25))
            #expect(throttle.check("10.0.0.2") == .allowed)
            clock.advance(0.25)
        }
        #expect(blocks == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(throttle.counts.failures == 13 && throttle.counts.refusals == 9)
    }

    /// A good token clears the address; so do ten minutes without a failure.
    @Test func aGoodTokenOrTenQuietMinutesStartTheCountAgain() {
        let clock = Clock()
        let throttle = AuthThrottle(now: clock.read)
        for _ in 1...5 { _ = throttle.failed("a") }
        throttle.succeeded("a")
        #expect(throttle.check("a") == .allowed)
        #expect(throttle.failed("a").blockedFor == nil)
        for _ in 1...4 { _ = throttle.failed("b") }
        clock.advance(601)
        #expect(throttle.failed("b") == .init(failures: 1, blockedFor: nil))
    }

    /// The table of addresses is bounded: beyond the cap the forgotten and then the oldest are dropped.
    @Test func theAddressesRememberedAreBounded() {
        let clock = Clock()
        var policy = AuthThrottle.Policy()
        policy.maxAddresses = 100
        let throttle = AuthThrottle(policy: policy, now: clock.read)
        for i in 0..<1000 {
            _ = throttle.failed("10.0.\(i / 256).\(i % 256)")
            clock.advance(0.01)
        }
        #expect(throttle.addresses <= 100)
        // The newest are kept.
        for _ in 1...3 { _ = throttle.failed("10.0.3.231") }
        #expect(throttle.failed("10.0.3.231").failures == 5)
    }

    /// Against a real gateway: five wrong tokens from 127.0.0.1 on five connections, each logged without the
    /// token; then even the right token is refused RATE_LIMITED (not compared) and the connection closes; the
    /// metrics count both.
    @Test func aGuessingAddressIsLoggedSlowedAndCounted() async throws {
        let token = "tok-\(UUID().uuidString)"
        let log = LogRecorder()
        try await withGateway(configure: {
            $0.authToken = Array(token.utf8)
            $0.logger = log.logger
        }) { fixture in
            for n in 1...5 {
                let guesser = try fixture.client()
                try guesser.sendLines([#"{"id":\#(n),"op":"auth","token":"wrong-\#(n)"}"#])
                let lines = try await guesser.readUntilClosed()
                #expect(try lines.count == 1 && JSONLine(lines[0]).errorCode == "UNAUTHENTICATED")
            }
            let failures = log.all.filter { $0.message == "authentication failed" }
            #expect(failures.map { $0.metadata["failures_in_a_row"] } == ["1", "2", "3", "4", "5"])
            #expect(failures.allSatisfy { $0.metadata["address"] == "127.0.0.1" && $0.level == .warning })
            #expect(failures.last?.metadata["blocked_s"] == "1")
            #expect(!log.all.contains { "\($0.message) \($0.metadata)".contains("wrong-") })

            let client = try fixture.client()
            try client.sendLines([#"{"id":6,"op":"auth","token":"\#(token)"}"#, #"{"id":7,"op":"stats"}"#])
            let lines = try await client.readUntilClosed()
            #expect(lines.count == 1)
            let refused = try JSONLine(lines[0])
            #expect(refused.errorCode == "RATE_LIMITED")
            #expect(
                refused.errorMessage == "too many failed authentications from your address; retry in 1 s",
                "\(lines[0])")

            let metrics = Dictionary(
                fixture.gateway.metricValues().map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            #expect(metrics["transit_gateway_auth_failures_total"] == 5)
            #expect(metrics["transit_gateway_auth_refused_total"] == 1)

            // Once the block has passed, the right token is taken (and clears the count).
            try await Task.sleep(for: .milliseconds(1100))
            let later = try fixture.client()
            #expect(try await later.ask(#"{"id":8,"op":"auth","token":"\#(token)"}"#).ok)
        }
    }
}
