import Foundation
import GatewayProtocol
import ProcessSupport
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// `health`'s overall status follows the sources at once: degraded as soon as one fails repeatedly or goes
/// stale, ok again when it recovers (saying when), and ok without realtime when none is configured.
@Suite struct HealthStatusTests {
    private let now: Int64 = 1_766_394_000

    private func source(
        errors: Int = 0, consecutive: Int = 0, lastErrorUnix: Int64? = nil, recovered: Int64? = nil,
        stale: Bool = false
    ) -> RealtimeSourceStatus {
        var status = RealtimeSourceStatus(
            name: "tu", kind: .tripUpdates, feedTimestamp: now - 5, stale: stale, lastSuccessUnix: now - 5,
            errors: errors, lastError: errors > 0 ? "the body did not decode" : nil)
        status.lastErrorUnix = lastErrorUnix
        status.consecutiveErrors = consecutive
        status.recoveredUnix = recovered
        return status
    }

    private func health(_ client: LineClient, _ view: RealtimeView, _ source: RealtimeSourceStatus) async throws
        -> (String?, [String: Any])
    {
        view.replace(RealtimeState(sources: [source]))
        let answer = try await client.ask(#"{"op":"health"}"#)
        let realtime = answer.data["realtime"] as? [String: Any]
        let first = (realtime?["sources"] as? [[String: Any]])?.first ?? [:]
        return (answer.data["status"] as? String, first)
    }

    @Test func oneFailureIsOkTwoInARowAreDegradedAndTheRecoveryIsDated() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view, configure: { $0.clock = ServiceClock(start: Double(now), rate: 0) }) {
            fixture in
            let client = try fixture.client()
            var (status, tu) = try await health(client, view, source())
            #expect(status == "ok")
            #expect(tu["last_error"] is NSNull && tu["last_error_unix"] is NSNull && tu["recovered_unix"] is NSNull)

            (status, tu) = try await health(client, view, source(errors: 1, consecutive: 1, lastErrorUnix: now - 2))
            #expect(status == "ok")  // a single failure may be a hiccup
            #expect(tu["consecutive_errors"] as? Int == 1)

            (status, tu) = try await health(client, view, source(errors: 2, consecutive: 2, lastErrorUnix: now - 1))
            #expect(status == "degraded")  // failing repeatedly, long before the data goes stale
            #expect(tu["stale"] as? Bool == false)
            #expect(tu["last_error"] as? String == "the body did not decode")
            #expect(tu["last_error_unix"] as? Int == Int(now - 1))

            (status, tu) = try await health(client, view, source(errors: 2, lastErrorUnix: now - 1, recovered: now))
            #expect(status == "ok")
            #expect(tu["consecutive_errors"] as? Int == 0)
            #expect(tu["recovered_unix"] as? Int == Int(now))
            #expect(tu["last_error_unix"] as? Int == Int(now - 1))  // the last error stays, dated

            (status, _) = try await health(client, view, source(stale: true))
            #expect(status == "degraded")
        }
    }

    @Test func realtimeNotConfiguredOnPurposeIsNotDegraded() async throws {
        try await withGateway { fixture in
            let answer = try await fixture.client().ask(#"{"op":"health"}"#)
            #expect(answer.data["status"] as? String == "ok", "\(answer)")
            #expect((answer.data["realtime"] as? [String: Any])?["status"] as? String == "not_configured")
        }
    }
}
