import Foundation
import Testing
import TransitTesting

/// A realtime service and its hot standby (`serve --peer`), as real processes linked over loopback tcp: the
/// standby binds nothing and polls nothing while the primary's heartbeats come; killed, the primary is
/// replaced within seconds (new epoch; the gateway, dialing both instances' URLs, follows); restarted, the
/// former primary stands by.
@Suite(.enabled(if: BuiltExecutables.path("transit-realtime") != nil, "build the executables first (swift build)"))
struct StandbyRealtimeTests {
    private func realtimeStatus(port: Int) async throws -> String? {
        let client = try LineClient(port: port)
        let health = try await client.ask(#"{"id":1,"op":"health"}"#)
        return (health.data["realtime"] as? [String: Any])?["status"] as? String
    }

    @Test func theStandbyTakesOverWhenThePrimaryDiesAndTheFormerPrimaryStandsBy() async throws {
        let folder = try TemporaryFolder("standby")
        let config = try folder.writeIdleRealtimeConfig()
        // Every link over loopback tcp, as between machines (the former primary comes back on its ports).
        let staticURL = try FreePort.tcpURL()
        let (repA, pubA) = (try FreePort.tcpURL(), try FreePort.tcpURL())
        let (repB, pubB) = (try FreePort.tcpURL(), try FreePort.tcpURL())
        func realtimeArguments(rep: String, pub: String, peer: String, standby: Bool) -> [String] {
            [
                "serve", "--config", config, "--static", staticURL, "--listen", rep,
                "--publish", pub, "--peer", peer, "--takeover-after", "3",
            ] + (standby ? ["--standby"] : [])
        }
        let staticService = try await ChildProcess.started(
            "transit-static", ["serve", "--db", try SampleDatabase.path(), "--listen", staticURL], until: " ready")
        defer { staticService.signal(SIGKILL) }
        // The primary: nobody else publishes, so after its 3 s it is active.
        var primary = try await ChildProcess.started(
            "transit-realtime", realtimeArguments(rep: repA, pub: pubA, peer: pubB, standby: false), until: " ready")
        defer { primary.signal(SIGKILL) }
        let standby = try await ChildProcess.started(
            "transit-realtime", realtimeArguments(rep: repB, pub: pubB, peer: pubA, standby: true),
            until: "standing by")
        defer { standby.signal(SIGKILL) }
        let gateway = try await ChildProcess.started(
            "transit-gateway",
            [
                "serve", "--static", staticURL, "--realtime", "\(repA),\(repB)", "--subscribe", "\(pubA),\(pubB)",
                "--listen", "127.0.0.1:0", "--realtime-silence", "4",
            ], until: " ready")
        defer { gateway.signal(SIGKILL) }
        let port = try #require(gateway.stderr.firstMatch(of: /\bport=(\d+)/).flatMap { Int($0.1) })
        let live = try await eventually(timeout: .seconds(15), interval: .milliseconds(100)) {
            try await realtimeStatus(port: port) == "ok"
        }
        try #require(live, "the gateway follows the primary")
        #expect(!standby.stderr.contains(" ready"), "the standby must not serve while the primary is alive")

        // The primary dies without a goodbye: the standby takes over and the gateway follows it.
        let killed = ContinuousClock.now
        primary.signal(SIGKILL)
        _ = try await primary.waitForExit(timeout: .seconds(5))
        let tookOver = try await standby.waitForStderr(timeout: .seconds(15)) { $0.contains(" ready") }
        #expect(tookOver, "\(standby.stderr.suffix(600))")
        let standbyReady = ContinuousClock.now - killed
        #expect(standby.stderr.contains("taking over"))
        // The gateway hears the new epoch and takes its snapshots (the primary's state meanwhile ages out
        // after --realtime-silence).
        let resynced = try await gateway.waitForStderr(timeout: .seconds(20)) { $0.contains("new epoch") }
        #expect(resynced, "\(gateway.stderr.suffix(1000))")
        let followed = try await eventually(timeout: .seconds(20), interval: .milliseconds(100)) {
            try await realtimeStatus(port: port) == "ok"
        }
        #expect(followed, "the gateway follows the new active instance")
        let takeover = ContinuousClock.now - killed
        #expect(takeover < .seconds(20), "takeover took \(takeover)")
        print(
            "standby takeover: ready after \(standbyReady), gateway live again \(takeover) after the primary was killed"
        )

        // The former primary comes back: it hears the active one and stands by.
        primary = try await ChildProcess.started(
            "transit-realtime", realtimeArguments(rep: repA, pub: pubA, peer: pubB, standby: false),
            until: "standing by")
        try await Task.sleep(for: .seconds(4))
        #expect(!primary.stderr.contains(" ready"), "a second active instance: \(primary.stderr.suffix(600))")
        #expect(try await realtimeStatus(port: port) == "ok")
    }
}
