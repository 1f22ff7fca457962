import Foundation
import Synchronization
import Testing
import TransitTesting

/// Several static replicas behind one gateway, as real processes on loopback tcp (protocol/README.md
/// "Replicas"): one REQ socket per replica, requests spread round robin, and a replica that dies under load
/// costs no request (what it held is sent to another replica); when it comes back it gets its share again.
/// A rolling re-import moves the gateway from the old version to the new one once, never alternating.
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
        let urls = try names.map { _ in try FreePort.tcpURL() }
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

    /// Versions the gateway answered `health` with, when each was asked and answered (the load's probe).
    private final class VersionLog: Sendable {
        struct Entry { var sent, received: ContinuousClock.Instant, version: String }
        let entries = Mutex<[Entry]>([])
        func record(sent: ContinuousClock.Instant, _ line: JSONLine) {
            guard let version = (line.data["static"] as? [String: Any])?["database_version"] as? String else {
                return
            }
            entries.withLock { $0.append(Entry(sent: sent, received: .now, version: version)) }
        }
    }

    /// A new import rolled out over three replicas under load (import once, copy next to each replica's file,
    /// rename over it, SIGHUP, one replica at a time): no failed request, and the gateway answers from the
    /// old version until the last replica has the new one, then only from the new one.
    @Test func aNewImportRolledOutReplicaByReplicaUnderLoadMovesOnceWithNoFailedRequest() async throws {
        let folder = try TemporaryFolder("replicas")
        let names = ["replica-a", "replica-b", "replica-c"]
        let urls = try names.map { _ in try FreePort.tcpURL() }
        let dbs = names.map { folder.path + "/\($0).db" }
        for db in dbs { try FileManager.default.copyItem(atPath: try SampleDatabase.path(), toPath: db) }
        // One import for every replica: a version is per import.
        let newDB = folder.path + "/new.db"
        let newVersion = try runImport([.init(path: SampleDatabase.feedPath, name: "sample")], into: newDB)
            .databaseVersion
        var replicas: [ChildProcess] = []
        for i in names.indices { replicas.append(try await startReplica(name: names[i], url: urls[i], db: dbs[i])) }
        let (gateway, port) = try await startGateway(urls)
        defer {
            gateway.signal(SIGKILL)
            for replica in replicas { replica.signal(SIGKILL) }
        }
        let oldVersion = try #require(try await Self.databaseVersion(port: port))
        #expect(oldVersion != newVersion)
        // A cursor from a page of the old version, used again after the move.
        let at = SampleTimes.mondayEvening
        let firstPage = try await LineClient(port: port).ask(
            #"{"id":"p","op":"departures","stop_id":"200060","at":\#(at),"limit":3}"#)
        let cursor = try #require((firstPage.data["page"] as? [String: Any])?["later_cursor"] as? String)

        let tally = Tally()
        let versions = VersionLog()
        let load = load(port: port, tally: tally)
        let probe = Task {
            let client = try LineClient(port: port)
            while tally.running.load(ordering: .relaxed) {
                let sent = ContinuousClock.now
                let line = try await client.ask(#"{"id":"h","op":"health"}"#, timeout: .seconds(10))
                tally.record(line)
                versions.record(sent: sent, line)
            }
        }
        try #require(await eventually(timeout: .seconds(20)) { tally.ok >= 200 }, "load: \(tally.ok) ok")
        var lastReload = ContinuousClock.now
        for i in names.indices {
            try FileManager.default.copyItem(atPath: newDB, toPath: dbs[i] + ".new")
            #expect(rename(dbs[i] + ".new", dbs[i]) == 0)
            lastReload = .now
            replicas[i].signal(SIGHUP)
            let reopened = try await replicas[i].waitForStderr(timeout: .seconds(10)) {
                $0.contains("database reopened")
            }
            #expect(reopened, "\(names[i]): \(replicas[i].stderr.suffix(400))")
            let okAtReload = tally.ok
            try #require(await eventually(timeout: .seconds(20)) { tally.ok >= okAtReload + 150 }, "after \(names[i])")
        }
        let moved = try await eventually(timeout: .seconds(10), interval: .milliseconds(50)) {
            try await Self.databaseVersion(port: port) == newVersion
        }
        let okAtMove = tally.ok
        try #require(await eventually(timeout: .seconds(20)) { tally.ok >= okAtMove + 100 }, "after the move")
        tally.running.store(false, ordering: .relaxed)
        try await load.value
        try await probe.value

        #expect(tally.failed.isEmpty, "failed requests: \(tally.failed.prefix(5))")
        #expect(moved, "the gateway moved to the new version")
        let log = versions.entries.withLock { $0 }
        #expect(Set(log.map(\.version)) == [oldVersion, newVersion], "versions seen: \(Set(log.map(\.version)))")
        let firstNew = try #require(log.filter { $0.version == newVersion }.map(\.received).min())
        #expect(firstNew > lastReload, "no answer from the new version before the last replica had it")
        let oldAfterMove = log.filter { $0.sent > firstNew && $0.version != newVersion }
        #expect(oldAfterMove.count == 0, "\(oldAfterMove.count) answers from the old version after the move")
        let stats = try await LineClient(port: port).ask(#"{"id":"s","op":"stats"}"#)
        let pin = try #require(stats.data["static"] as? [String: Any])
        #expect(pin["pinned_version"] as? String == newVersion)
        #expect(pin["version_moves"] as? Int == 1, "moved once: \(pin)")
        #expect(gateway.stderr.contains("static database version moved"), "the move is logged")

        // The old version's cursor pages on against the new timetable.
        let next = try await LineClient(port: port).ask(
            #"{"id":"c","op":"departures","stop_id":"200060","at":\#(at),"limit":3,"cursor":"\#(cursor)"}"#)
        #expect(next.ok, "\(next.text)")
        #expect(((next.data["departures"] as? [Any])?.count ?? 0) > 0, "\(next.text.prefix(300))")
    }

    private static func databaseVersion(port: Int) async throws -> String? {
        let client = try LineClient(port: port)
        let health = try await client.ask(#"{"id":"h","op":"health"}"#)
        return (health.data["static"] as? [String: Any])?["database_version"] as? String
    }
}
