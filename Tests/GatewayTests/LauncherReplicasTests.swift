import Foundation
import Testing
import TransitTesting

/// `Services/launch --replicas static=3,gateway=2` on the debug build (LAUNCH_BIN), as scripts/faults drives
/// the launcher: it gets ready, every gateway it lists answers `health` and dials the three static replicas
/// over loopback tcp, and SIGTERM to the launcher leaves no process behind. A fixed service clock (a weekday
/// morning) so the generated realtime fixtures hold trips whatever the time of day.
@Suite(
    .enabled(
        if: BuiltExecutables.path("transit-realtime") != nil && BuiltExecutables.netcat != nil,
        "needs the built executables and nc"))
struct LauncherReplicasTests {
    /// A gateway port `p` such that the launcher's ports are free now: the gateways' p and p+1, the replicas'
    /// and the realtime service's p+101…p+105.
    private static func freePortBlock() throws -> Int {
        for _ in 0..<50 {
            let base = Int.random(in: 20_000...50_000)
            // The line ports, the HTTP ports (--port + 1000 on) and the services' tcp ports.
            if ([0, 1, 1000, 1001] + Array(101...105)).allSatisfy({ isFree(base + $0) }) { return base }
        }
        throw POSIXError(.EADDRINUSE)
    }

    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Every process below `pid` now (from /proc).
    private static func descendants(of pid: Int32) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry), let parent = parentAndState(child)?.parent else { continue }
            children[parent, default: []].append(child)
        }
        var found: [Int32] = [], todo = [pid]
        while let next = todo.popLast() {
            for child in children[next] ?? [] {
                found.append(child)
                todo.append(child)
            }
        }
        return found
    }

    /// The parent and state letter of `pid` (nil: gone).
    private static func parentAndState(_ pid: Int32) -> (parent: Int32, state: String)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
        return (parent, String(fields[0]))
    }

    /// Alive and not a zombie.
    private static func alive(_ pid: Int32) -> Bool {
        guard let state = parentAndState(pid)?.state else { return false }
        return state != "Z"
    }

    @Test func threeStaticReplicasAndTwoGatewaysStartAnswerAndStopCleanly() async throws {
        let state = try TemporaryFolder("launch-replicas")
        let port = try Self.freePortBlock()
        let bin = URL(fileURLWithPath: BuiltExecutables.path("transit-gateway")!).deletingLastPathComponent().path
        let started = ContinuousClock.now
        // The test process ignores SIGTERM and SIGINT (swift-service-lifecycle handles them through a dispatch
        // source), a child inherits that, and bash cannot trap a signal ignored when it started: python3
        // restores the default dispositions and mask, then runs the launcher in its place.
        let restoreSignals =
            "import os, signal, sys; [signal.signal(s, signal.SIG_DFL) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)]; "
            + "signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp(sys.argv[1], sys.argv[1:])"
        let launcher = try ChildProcess(
            "/usr/bin/env",
            [
                "-u", "TFNSW_API_KEY", "LAUNCH_BIN=\(bin)", "python3", "-c", restoreSignals,
                Repository.path("Services/launch"), "--state", state.path, "--port", "\(port)", "--replicas",
                "static=3,gateway=2", "--clock", "2026-11-23T08:00:00+11:00",
            ])
        defer {
            // Whatever failed: no launcher or service outlives the test.
            let family = Self.descendants(of: launcher.process.processIdentifier)
            launcher.signal(SIGKILL)
            for pid in family where Self.alive(pid) { kill(pid, SIGKILL) }
        }
        let ready = await eventually(timeout: .seconds(60), interval: .milliseconds(100)) {
            launcher.stdout.contains("Ready.") || !launcher.process.isRunning
        }
        try #require(ready && launcher.process.isRunning, "\(launcher.stdout)\(launcher.stderr)")
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

        // SIGTERM: the launcher stops every supervisor and service, and nothing is left.
        let family = Self.descendants(of: launcher.process.processIdentifier)
        #expect(family.count >= 6, "supervisors and services: \(family)")
        let stopping = ContinuousClock.now
        launcher.signal(SIGTERM)
        let status = try await launcher.waitForExit(timeout: .seconds(20))
        #expect(status == 0, "\(launcher.stdout.suffix(500))")
        try await Task.sleep(for: .milliseconds(200))
        let left = family.filter(Self.alive)
        #expect(left.isEmpty, "processes left after SIGTERM: \(left)")
        print(
            "launcher --replicas static=3,gateway=2: ready after \(readyAfter), stopped in \(ContinuousClock.now - stopping)"
        )
    }
}
