import Foundation
import Testing
import TransitTesting

/// `--drain-announce`: on SIGTERM a gateway first answers `health` with `status: draining` (new connections
/// still taken), so a load balancer's checks take it out, then drains and exits.
@Suite(.enabled(if: BuiltExecutables.available, "build the executables first (swift build)"))
struct DrainAnnounceTests {
    @Test func healthSaysDrainingAfterSIGTERMThenTheGatewayStops() async throws {
        let gateway = try await ChildProcess.started(
            "transit-gateway",
            [
                "serve", "--static", try FreePort.tcpURL(), "--listen", "127.0.0.1:0",
                "--drain-announce", "6",
            ], until: " ready")
        defer { gateway.signal(SIGKILL) }
        let port = try #require(gateway.stderr.firstMatch(of: /\bport=(\d+)/).flatMap { Int($0.1) })
        let before = try await LineClient(port: port).ask(#"{"id":"hc","op":"health"}"#)
        #expect(before.data["status"] as? String == "down", "no static service behind it")

        gateway.signal(SIGTERM)
        let announced = try await gateway.waitForStderr(timeout: .seconds(5)) { $0.contains("draining:") }
        try #require(announced)
        // A new connection is still taken, and its health check fails for the load balancer.
        let during = try await LineClient(port: port).ask(#"{"id":"hc","op":"health"}"#)
        #expect(during.data["status"] as? String == "draining", "\(during)")
        let reasons = during.data["reasons"] as? [[String: Any]] ?? []
        #expect(reasons.first?["code"] as? String == "draining")
        #expect(try await gateway.waitForExit(timeout: .seconds(10)) == 0)
    }
}
