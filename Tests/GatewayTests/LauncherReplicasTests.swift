import Foundation
import Testing
import TransitTesting

/// `Services/launch --replicas static=3,gateway=2` on the debug build (LAUNCH_BIN), as scripts/faults drives
/// the launcher: it gets ready, every gateway it lists answers `health` and dials the three static replicas
/// over loopback tcp, and SIGTERM to the launcher leaves no process behind. A fixed service clock (a weekday
/// morning) so the generated realtime fixtures hold trips whatever the time of day.
@Suite(.launcherStack)
struct LauncherReplicasTests {
    @Test func threeStaticReplicasAndTwoGatewaysStartAnswerAndStopCleanly() async throws {
        let bin = URL(fileURLWithPath: BuiltExecutables.path("transit-gateway")!).deletingLastPathComponent().path
        // The ports are free when picked, but another test running meanwhile may take one before a service binds it
        // (seen in CI: "Address in use" for the realtime service's publisher): then the launch is tried again, on other
        // ports, at most twice more. Any other failure to start fails the test.
        var attempt = 0
        var launched: (launcher: ChildProcess, state: TemporaryFolder, port: Int)?
        var started = ContinuousClock.now
        while launched == nil {
            attempt += 1
            let state = try TemporaryFolder("launch-replicas")
            // The line ports, the HTTP ports (--port + 1000 on), the replicas' and the realtime service's tcp ports,
            // and the six services' metrics ports (--metrics-port, --port + 200 on).
            let port = try FreePort.block(offsets: [0, 1, 1000, 1001] + Array(101...105) + Array(200...205))
            started = ContinuousClock.now
            let launcher = try LauncherProcess.start(
                bin: bin,
                [
                    "--state", state.path, "--port", "\(port)", "--replicas", "static=3,gateway=2", "--clock",
                    "2026-11-23T08:00:00+11:00", "--metrics-port", "\(port + 200)",
                ])
            let ready = await eventually(timeout: .seconds(60), interval: .milliseconds(100)) {
                launcher.stdout.contains("Ready.") || !launcher.process.isRunning
            }
            if ready && launcher.process.isRunning {
                launched = (launcher, state, port)
            } else {
                LauncherProcess.kill(launcher)
                let output = launcher.stdout + launcher.stderr
                try #require(attempt < 3 && output.contains("Address in use"), "\(output)")
            }
        }
        let (launcher, state, port) = launched!
        _ = state  // kept alive until the test ends
        defer { LauncherProcess.kill(launcher) }
        let readyAfter = ContinuousClock.now - started

        // Every gateway the launcher lists answers, dialing the three replicas, all connected on one version.
        let listed = try #require(launcher.stdout.firstMatch(of: /gateways +([0-9 ]+?) +\(/)).1
        let ports = listed.split(separator: " ").compactMap { Int($0) }
        #expect(ports == [port, port + 1], "\(launcher.stdout)")
        for gatewayPort in ports {
            let client = try LineClient(port: gatewayPort)
            let health = try await client.ask(#"{"id":1,"op":"health"}"#)
            #expect(health.ok && (health.data["static"] as? [String: Any])?["status"] as? String == "ok", "\(health)")
            // Each replica's version is learnt by the gateway's probe (every second).
            var staticStats: [String: Any] = [:]
            let allKnown = try await eventually(timeout: .seconds(10), interval: .milliseconds(200)) {
                staticStats = try await client.ask(#"{"id":2,"op":"stats"}"#).data["static"] as? [String: Any] ?? [:]
                let pinned = staticStats["pinned_version"] as? String
                let replicas = staticStats["replica_versions"] as? [[String: Any]] ?? []
                return pinned != nil
                    && replicas.allSatisfy { $0["connected"] as? Bool == true && $0["version"] as? String == pinned }
            }
            #expect((staticStats["urls"] as? [String])?.count == 3, "\(staticStats)")
            #expect((staticStats["replica_versions"] as? [Any])?.count == 3, "\(staticStats)")
            #expect(allKnown, "three connected replicas on the pinned version: \(staticStats)")
        }

        // The paste line of `plan` the launcher printed finds a journey (the planner's first timetable may still be
        // building: STATIC_UNAVAILABLE until it is).
        let planLine = try #require(
            launcher.stdout.firstMatch(of: /echo '(\{"id":12,"op":"plan",[^']*)'/)?.1, "\(launcher.stdout)")
        var plan: JSONLine?
        _ = try await eventually(timeout: .seconds(30), interval: .milliseconds(300)) {
            plan = try await LineClient(port: port).ask(String(planLine))
            return plan?.ok == true
        }
        #expect(plan?.list("journeys").isEmpty == false, "\(plan?.text ?? "no answer")")

        // --metrics-port: each service's endpoint, listed; a static replica's planner follows the live trips.
        #expect(
            launcher.stdout.contains(
                "metrics   static-1 \(port + 200), static-2 \(port + 201), static-3 \(port + 202), realtime \(port + 203), "
                    + "gateway-1 \(port + 204), gateway-2 \(port + 205)"), "\(launcher.stdout)")
        var staticMetrics = ""
        let followed = try await eventually(timeout: .seconds(20), interval: .milliseconds(300)) {
            staticMetrics = try await MetricsEndpointTests.get(port: port + 200, path: "/metrics").1
            return staticMetrics.firstMatch(of: /transit_static_planner_live_update_duration_seconds_count [1-9]/)
                != nil
        }
        #expect(followed, "\(staticMetrics.prefix(3000))")
        #expect(staticMetrics.contains(#"transit_static_planner_builds_total{timetable="window",result="ok"} 1"#))
        let gatewayMetrics = try await MetricsEndpointTests.get(port: port + 205, path: "/metrics").1
        #expect(gatewayMetrics.contains("transit_gateway_static_up 1"), "\(gatewayMetrics.prefix(2000))")

        // SIGTERM: the launcher stops every supervisor and service, and nothing is left.
        let family = LauncherProcess.descendants(of: launcher.process.processIdentifier)
        #expect(family.count >= 6, "supervisors and services: \(family)")
        let stopping = ContinuousClock.now
        launcher.signal(SIGTERM)
        let status = try await launcher.waitForExit(timeout: .seconds(20))
        #expect(status == 0, "\(launcher.stdout.suffix(500))")
        try await Task.sleep(for: .milliseconds(200))
        let left = family.filter(LauncherProcess.alive)
        #expect(left.isEmpty, "processes left after SIGTERM: \(left.map(LauncherProcess.describe))")
        print(
            "launcher --replicas static=3,gateway=2: ready after \(readyAfter), stopped in \(ContinuousClock.now - stopping)"
        )
        // A process the launcher had to sweep up (`sweep_strays`) means a race in a supervisor: printed for the
        // diagnosis (CI once saw one), not failed, as the stop itself was clean.
        for line in launcher.stdout.split(separator: "\n") where line.contains("a process was left behind") {
            print("launcher --replicas static=3,gateway=2: \(line)")
        }
    }
}
