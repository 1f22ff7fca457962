import Foundation
import Synchronization
import Testing
import TransitTesting

/// Several static replicas behind one gateway, as real processes on loopback tcp (protocol/README.md
/// "Replicas"): one REQ socket dials them all, nng spreads the requests, and a replica that dies under load
/// costs no request (nng resends what it held to another replica); when it comes back it gets its share again.
@Suite(.enabled(if: BuiltExecutables.available, "build the executables first (swift build)"))
struct ReplicaTopologyTests {
    private func startReplica(name: String, url: String, db: String? = nil) async throws -> ChildProcess {
        let child = try ChildProcess(
            BuiltExecutables.path("transit-static")!,
            ["serve", "--db", try db ?? SampleDatabase.path(), "--listen", url, "--name", name, "--contexts", "2"])
        let ready = try await child.waitForStderr(timeout: .seconds(10)) { $0.contains("ready") }
        try #require(ready, "replica \(name) did not start: \(child.stderr)")
        return child
    }

    /// Answers and failures of the load, counted as they come.
    private final class Tally: Sendable {
        let counts = Mutex<(ok: Int, failed: [String])>((0, []))
        /// The load runs while this holds.
        let running = Atomic<Bool>(true)
        func record(_ line: JSONLine) {
            counts.withLock { c in
                if line.ok { c.ok += 1 } else { c.failed.append(line.text) }
            }
        }
        var ok: Int { counts.withLock { $0.ok } }
        var failed: [String] { counts.withLock { $0.failed } }
    }

    /// A gateway process dialing every one of `urls`; its port.
    private func startGateway(_ urls: [String]) async throws -> (ChildProcess, Int) {
        let gateway = try ChildProcess(
            BuiltExecutables.path("transit-gateway")!,
            [
                "serve", "--static", urls.joined(separator: ","), "--listen", "127.0.0.1:0",
                "--static-timeout", "3", "--request-timeout", "4", "--board-cache-stops", "0",
            ])
        let ready = try await gateway.waitForStderr(timeout: .seconds(10)) { $0.contains(" ready") }
        try #require(ready, "transit-gateway did not start: \(gateway.stderr)")
        let port = try #require(gateway.stderr.firstMatch(of: /port=(\d+)/).flatMap { Int($0.1) })
        return (gateway, port)
    }

    /// Four connections asking one request after another (stop, departures, search) until `running` is
    /// false (`tally.running`); every answer counted in `tally`.
    private func load(port: Int, tally: Tally) -> Task<Void, any Error> {
        let at = SampleTimes.mondayEvening
        let requests = [
            #"{"id":1,"op":"stop","stop_id":"200060"}"#,
            #"{"id":2,"op":"departures","stop_id":"200060","at":\#(at),"limit":3}"#,
            #"{"id":3,"op":"search","q":"central","limit":2}"#,
        ]
        return Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        let client = try LineClient(port: port)
                        var n = worker
                        while tally.running.load(ordering: .relaxed) {
                            tally.record(try await client.ask(requests[n % requests.count], timeout: .seconds(10)))
                            n += 1
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    private static func replicaCounts(port: Int) async throws -> [String: Int] {
        let client = try LineClient(port: port)
        let stats = try await client.ask(#"{"id":"s","op":"stats"}"#)
        let replicas = (stats.data["static"] as? [String: Any])?["replicas"] as? [String: Any] ?? [:]
        return replicas.compactMapValues { $0 as? Int }
    }

    @Test func requestsSpreadOverThreeReplicasAndAKilledOneCostsNoRequest() async throws {
        let names = ["replica-a", "replica-b", "replica-c"]
        let urls = try names.map { _ in "tcp://127.0.0.1:\(try FreePort.tcp())" }
        var replicas: [ChildProcess] = []
        for (name, url) in zip(names, urls) { replicas.append(try await startReplica(name: name, url: url)) }
        let (gateway, port) = try await startGateway(urls)
        defer {
            gateway.signal(SIGKILL)
            for replica in replicas { replica.signal(SIGKILL) }
        }
        let tally = Tally()
        let load = load(port: port, tally: tally)

        try #require(await eventually(timeout: .seconds(20)) { tally.ok >= 300 }, "load: \(tally.ok) ok")
        let spread = try await Self.replicaCounts(port: port)
        #expect(Set(spread.keys) == Set(names), "every replica answers: \(spread)")
        for name in names { #expect(spread[name, default: 0] >= 20, "\(name) got too little: \(spread)") }

        // One replica dies under load (no goodbye: SIGKILL).
        replicas[1].signal(SIGKILL)
        _ = try await replicas[1].waitForExit(timeout: .seconds(5))
        let okAtKill = tally.ok
        try #require(await eventually(timeout: .seconds(20)) { tally.ok >= okAtKill + 300 }, "after the kill")
        let whileDown = try await Self.replicaCounts(port: port)

        // It comes back on the same URL: the gateway redials and gives it its share again.
        replicas[1] = try await startReplica(name: names[1], url: urls[1])
        let answersAgain = try await eventually(timeout: .seconds(15), interval: .milliseconds(100)) {
            try await Self.replicaCounts(port: port)[names[1], default: 0] > whileDown[names[1], default: 0] + 20
        }
        tally.running.store(false, ordering: .relaxed)
        try await load.value
        let after = try await Self.replicaCounts(port: port)

        #expect(tally.failed.isEmpty, "failed requests: \(tally.failed.prefix(5))")
        for name in [names[0], names[2]] {
            #expect(whileDown[name, default: 0] > spread[name, default: 0], "\(name) took the dead one's share")
        }
        #expect(answersAgain, "the returned replica answers again: \(whileDown) → \(after)")

        // Draining at SIGTERM: the gateway process is gone within 5 s.
        let stopping = ContinuousClock.now
        gateway.signal(SIGTERM)
        let status = try await gateway.waitForExit(timeout: .seconds(8))
        #expect(status == 0, "gateway exit: \(gateway.stderr.suffix(500))")
        #expect(ContinuousClock.now - stopping < .seconds(5))
    }

    @Test func aNewImportRolledOutReplicaByReplicaUnderLoadCostsNoRequest() async throws {
        let folder = try TemporaryFolder("replicas")
        let names = ["replica-a", "replica-b"]
        let urls = try names.map { _ in "tcp://127.0.0.1:\(try FreePort.tcp())" }
        let dbs = names.map { folder.path + "/\($0).db" }
        for db in dbs { try FileManager.default.copyItem(atPath: try SampleDatabase.path(), toPath: db) }
        var replicas: [ChildProcess] = []
        for i in names.indices { replicas.append(try await startReplica(name: names[i], url: urls[i], db: dbs[i])) }
        let (gateway, port) = try await startGateway(urls)
        defer {
            gateway.signal(SIGKILL)
            for replica in replicas { replica.signal(SIGKILL) }
        }
        let before = try await Self.databaseVersion(port: port)

        let tally = Tally()
        let load = load(port: port, tally: tally)
        try #require(await eventually(timeout: .seconds(20)) { tally.ok >= 200 }, "load: \(tally.ok) ok")
        // Replica by replica: import next to the file, rename over it, SIGHUP; the load goes on.
        for i in names.indices {
            _ = try runImport([.init(path: SampleDatabase.feedPath, name: "sample")], into: dbs[i] + ".new")
            #expect(rename(dbs[i] + ".new", dbs[i]) == 0)
            replicas[i].signal(SIGHUP)
            let reopened = try await replicas[i].waitForStderr(timeout: .seconds(10)) {
                $0.contains("database reopened")
            }
            #expect(reopened, "\(names[i]): \(replicas[i].stderr.suffix(400))")
            let okAtReload = tally.ok
            try #require(await eventually(timeout: .seconds(20)) { tally.ok >= okAtReload + 200 }, "after \(names[i])")
        }
        tally.running.store(false, ordering: .relaxed)
        try await load.value
        #expect(tally.failed.isEmpty, "failed requests: \(tally.failed.prefix(5))")
        let after = try await Self.databaseVersion(port: port)
        #expect(after != before, "the gateway sees the new version: \(before) → \(after)")
    }

    private static func databaseVersion(port: Int) async throws -> String? {
        let client = try LineClient(port: port)
        let health = try await client.ask(#"{"id":"h","op":"health"}"#)
        return (health.data["static"] as? [String: Any])?["database_version"] as? String
    }
}
