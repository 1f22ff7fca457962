import ArgumentParser
import Dispatch
import Foundation
import NNGKit
import Synchronization
import TransitModel
import TransitProto

/// Query latency of the static-data service over nng, from one client and from N concurrent clients,
/// next to an nng echo round trip to a separate process measured in the same run (machines are noisy:
/// compare the ratios). The bulk schedules are measured cold (no known patterns: the number BENCHMARKS.md holds
/// against the target) and warm (known_pattern_ids), with their average answer sizes printed below the table.
struct StaticBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "static", abstract: "Static service query latency.")

    @Option(help: "the static service's nng URL") var connect: String
    @Option(help: "the database it serves (read to pick realistic stops and trips)") var db: String
    @Option(help: "requests per query kind and client count") var requests: Int = 4000
    @Option(help: "concurrent clients of the second round") var clients: Int = 16
    @Option(help: "unix time the departures and trips are asked for (default: now)") var at: Int64?
    @Option(help: "timezone for the service date of trip_schedules") var timezone: String = "Australia/Sydney"

    func run() throws {
        let at = self.at ?? Int64(Date().timeIntervalSince1970)
        let serviceDate = Self.serviceDate(at: at, timezone: timezone)
        let workload = try Workload(databasePath: db)
        print("database \(db) (version \(workload.databaseVersion)), at \(at), service date \(serviceDate)")

        let echoURL = "ipc:///tmp/transit-bench-echo-\(getpid()).sock"
        let echo = try Self.startEchoServer(url: echoURL)
        defer { echo.terminate(); echo.waitUntilExit() }
        let echoClient = try NNGRequester(dialing: echoURL, defaultTimeout: .seconds(5))
        let client = try NNGRequester(dialing: connect, defaultTimeout: .seconds(10))
        try Self.waitUntilAnswering(echoClient, [UInt8](repeating: 0, count: 8))
        try Self.waitUntilAnswering(client, StaticCodec.encode(StaticRequest(requestId: 0, query: .feedInfo)))

        var table = ResultTable()
        var notes: [String] = []
        let echoPayload = [UInt8](repeating: 0x5A, count: 64)
        for clientCount in [1, clients] {
            let echoRun = try measure(clients: clientCount, total: requests) { _ in
                _ = try echoClient.request(echoPayload)
            }
            table.add("nng echo 64 B", clients: clientCount, echoRun)
            for kind in QueryKind.allCases {
                let n = kind.isBulk ? max(requests / 40, 20) : requests
                let failures = FailureCounter()
                // The warm client's pattern cache, filled by its own answers (from the warm-up on).
                let known = KnownPatterns()
                let replyBytes = ByteTally()
                let run = try measure(clients: clientCount, total: n) { i in
                    var query = workload.query(kind, i, at: at, serviceDate: serviceDate)
                    if kind == .tripSchedules1000Warm, case .tripSchedules(var q) = query {
                        q.knownPatternIds = known.ids
                        q.knownDatabaseVersion = workload.databaseVersion
                        query = .tripSchedules(q)
                    }
                    let bytes = StaticCodec.encode(StaticRequest(requestId: UInt64(i), query: query))
                    let start = monotonicNanos()
                    let reply = try client.request(bytes)
                    let elapsed = monotonicNanos() - start
                    // Checked outside the timed span: a fast error is not a fast answer.
                    switch try StaticCodec.decodeResponse(reply).result {
                    case .failure(let e):
                        if e.status != .notFound { failures.record(e) }
                    case .success(.tripSchedules(let r)):
                        if kind == .tripSchedules1000Warm {
                            guard r.databaseVersion == workload.databaseVersion else {
                                throw BenchError(
                                    "served database \(r.databaseVersion) is not \(workload.databaseVersion)")
                            }
                            known.add(r.patterns.map(\.patternId))
                        }
                        replyBytes.add(UInt64(reply.count))
                    case .success:
                        break
                    }
                    return elapsed
                }
                if let first = failures.first {
                    throw BenchError("\(kind.rawValue): \(failures.count) failed, e.g. \(first)")
                }
                table.add(kind.rawValue, clients: clientCount, run)
                if kind.isBulk, clientCount == 1 {
                    notes.append(
                        "\(kind.rawValue): answers of \(replyBytes.average) bytes on average"
                            + (kind == .tripSchedules1000Warm ? " (client holds \(known.ids.count) patterns)" : ""))
                }
            }
        }
        print(table.render())
        for note in notes { print(note) }
    }

    /// Runs `total` calls of `body` split over `clients` threads; `body` returns the nanoseconds to record
    /// (or the whole call is timed when it returns nothing).
    private func measure(clients: Int, total: Int, _ body: @escaping @Sendable (Int) throws -> UInt64) throws
        -> LatencySummary
    {
        // Warm-up: caches, connections, page faults.
        for i in 0..<min(200, total) { _ = try body(i) }
        let perClient = max(total / clients, 1)
        let results = SampleSink()
        let startWall = monotonicNanos()
        DispatchQueue.concurrentPerform(iterations: clients) { c in
            var local = LatencySamples()
            local.reserve(perClient)
            do {
                for k in 0..<perClient { local.add(try body(c * perClient + k)) }
            } catch {
                results.fail(error)
            }
            results.add(local)
        }
        let wall = Double(monotonicNanos() - startWall) / 1e9
        if let error = results.error { throw error }
        return results.samples.summary(wallSeconds: wall)
    }

    private func measure(clients: Int, total: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws
        -> LatencySummary
    {
        try measure(clients: clients, total: total) { i -> UInt64 in
            let start = monotonicNanos()
            try body(i)
            return monotonicNanos() - start
        }
    }

    static func startEchoServer(url: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: p.executableURL!.path) {
            p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        }
        p.arguments = ["echo-server", "--listen", url]
        try p.run()
        return p
    }

    static func waitUntilAnswering(_ client: NNGRequester, _ bytes: [UInt8]) throws {
        var lastError: Error?
        for _ in 0..<100 {
            do { _ = try client.request(bytes, timeout: .milliseconds(200)); return } catch { lastError = error }
        }
        throw BenchError("no answer: \(lastError.map { "\($0)" } ?? "?")")
    }

    static func serviceDate(at: Int64, timezone: String) -> ServiceDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timezone) ?? .gmt
        let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(at)))
        return ServiceDate(c.year! * 10000 + c.month! * 100 + c.day!)
    }
}

/// Collects per-thread samples and the first error, across concurrentPerform's threads.
final class SampleSink: Sendable {
    private let state = Mutex<(merged: LatencySamples, firstError: (any Error)?)>((LatencySamples(), nil))
    func add(_ s: LatencySamples) { state.withLock { $0.merged.merge(s) } }
    func fail(_ e: Error) { state.withLock { if $0.firstError == nil { $0.firstError = e } } }
    var samples: LatencySamples { state.withLock { $0.merged } }
    var error: Error? { state.withLock { $0.firstError } }
}

/// Average answer size of one query kind, across threads.
final class ByteTally: Sendable {
    private let state = Mutex<(total: UInt64, count: UInt64)>((0, 0))
    func add(_ bytes: UInt64) {
        state.withLock {
            $0.total += bytes; $0.count += 1
        }
    }
    var average: UInt64 { state.withLock { $0.count == 0 ? 0 : $0.total / $0.count } }
}

/// Pattern ids a warm client has received, shared by its threads (like the realtime service's cache).
final class KnownPatterns: Sendable {
    private let state = Mutex<(set: Set<UInt32>, sorted: [UInt32])>(([], []))
    func add(_ ids: [UInt32]) {
        state.withLock { state in
            let before = state.set.count
            state.set.formUnion(ids)
            if state.set.count != before { state.sorted = state.set.sorted() }
        }
    }
    var ids: [UInt32] { state.withLock { $0.sorted } }
}

final class FailureCounter: Sendable {
    private let state = Mutex<(count: Int, first: ServiceError?)>((0, nil))
    func record(_ e: ServiceError) {
        state.withLock {
            $0.count += 1; if $0.first == nil { $0.first = e }
        }
    }
    var count: Int { state.withLock { $0.count } }
    var first: ServiceError? { state.withLock { $0.first } }
}
