import ArgumentParser
import Foundation
import LoadGenerator
import NIOCore
import NIOPosix
import SQLiteKit
import Synchronization

/// The load generator: many connections, closed or open loop, answers checked, HdrHistogram percentiles,
/// CPU per answer of the services. README.md "Load-testing a deployment" shows the commands.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load the gateway (or a floor, or the static service) over many connections.",
        discussion: """
            Closed loop by default (--connections N, --depth D requests in flight per connection); --rate R for an \
            open loop (R requests/s; latency counted from each request's due time); --ramp START:STEP:MAX for \
            open-loop steps until p99 passes --knee-p99. Modes: gateway and line-echo (TCP host:port), static \
            and nng-echo (nng URL). Ids come from --db (the served database) or --ids (a file: lines \
            `station ID [WEIGHT]`, `trip ID`, `stop ID`, `search TERM`, `shape ID`, `shape_trip ID`, \
            `route ID [WEIGHT]`, `reliability_stop ID [WEIGHT]`, `bbox MIN_LAT MIN_LON MAX_LAT MAX_LON [MODE]`; \
            --write-ids makes one from --db). Ops: departures, trip, alerts, search, stop (the default mix), and \
            shape, route, stops_in_bbox, reliability by name or weight (--mix route, --mix departures=90,shape=10).
            """)

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case gateway
        /// The gateway's HTTP port (`--http`): the same requests as keep-alive POST /v1/<op>.
        case gatewayHTTP = "gateway-http"
        case lineEcho = "line-echo"
        case `static`
        case nngEcho = "nng-echo"
    }

    @Option(help: "gateway | gateway-http | line-echo (TCP host:port) | static | nng-echo (nng URL)")
    var mode: Mode = .gateway
    @Option(help: "host:port (gateway, line-echo) or nng URL (static, nng-echo)") var connect: String?
    @Option(help: "connections") var connections: Int = 8
    @Option(help: "closed loop: requests in flight per connection") var depth: Int = 1
    @Option(help: "open loop: offered requests per second over all connections") var rate: Double?
    @Option(help: "ramp: open-loop steps START:STEP:MAX req/s, each --duration long") var ramp: String?
    @Option(help: "ramp: stop at the first step whose p99 exceeds this (ms)") var kneeP99: Double = 10
    @Option(help: "measured time (10s, 500ms, 2m)") var duration: String = "10s"
    @Option(help: "warm-up before it, answered but not recorded") var warmup: String = "2s"
    @Option(help: "how long unanswered requests are waited for after the run") var drain: String = "5s"
    @Option(help: "the served database, read for ids") var db: String?
    @Option(help: "an ids file instead of --db (for a gateway whose database is elsewhere)") var ids: String?
    @Option(help: "write the ids read from --db to this file and exit") var writeIds: String?
    @Option(help: "a workload JSON file (mix, window, date, timezone, limit, seed, busiest); flags win")
    var workload: String?
    @Option(help: "op mix, e.g. departures=60,trip=15,alerts=10,search=10,stop=5 (the default)") var mix: String?
    @Option(help: "when `at` is drawn from: HH:MM-HH:MM on --date in the feed's timezone, or now±N minutes")
    var window: String?
    @Option(help: "service date of --window (YYYYMMDD or YYYY-MM-DD; default today)") var date: String?
    @Option(help: "timezone of --window (default: the database's first feed's, else UTC)") var timezone: String?
    @Option(help: "limit of departures and search") var limit: Int?
    @Option(help: "busiest stations drawn for departures (weighted by their trips)") var busiest: Int?
    @Option(help: "seed of the request draws") var seed: UInt64?
    @Option(help: "parse every n-th answer whole (every answer's envelope and rows are checked)")
    var checkEvery: Int = 64
    @Option(help: "event loop threads of the generator") var threads: Int = 1
    @Option(
        help:
            "services to meter: NAME=PID,… or `auto` (transit-static, transit-realtime, transit-gateway by process name)"
    )
    var pids: String?
    @Option(name: .customLong("target"), help: "a bound to meet, e.g. p95=150ms or departures.p99=3ms (repeatable)")
    var targets: [String] = []
    @Option(help: "write the report as JSON") var json: String?
    @Option(help: "write the per-second timeline as CSV") var timeline: String?
    @Option(help: "write the timeline as an SVG plot") var svg: String?
    @Option(help: "a label for the report (default: the mode and address)") var label: String?
    @Option(
        name: .customLong("tag"),
        help: "KEY=VALUE stored in the JSON report (repeatable; load-summary groups by feed and layer)")
    var tags: [String] = []

    func run() async throws {
        let file = try workload.map { path -> WorkloadFile in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("--workload \(path): cannot read the file")
            }
            return try WorkloadFile(parsing: Array(data), source: path)
        }
        let seed = self.seed ?? file?.seed ?? 1
        let opMix =
            try mix.map { try OpMix(parsing: $0) } ?? file?.mix ?? (isEcho ? try OpMix(parsing: "echo") : .standard)
        let targets = try self.targets.map { try LatencyTarget(parsing: $0) }
        let tz = try timeZone(file: file)
        let window = try TimeWindow(
            parsing: self.window ?? file?.window ?? "now±30", date: date ?? file?.date, timeZone: tz,
            now: Int64(Date().timeIntervalSince1970))
        let pool = try idPool(window: window, file: file, seed: seed)
        if let writeIds {
            try pool.idsFile.write(toFile: writeIds, atomically: true, encoding: .utf8)
            print(
                "wrote \(pool.stations.count) stations, \(pool.trips.count) trips, \(pool.stops.count) stops, \(pool.searchTerms.count) search terms, "
                    + "\(pool.shapes.count) shapes, \(pool.shapeTrips.count) trips with shapes, \(pool.routes.count) routes, "
                    + "\(pool.reliabilityStops.count) reliability stops, \(pool.boxes.count) map views to \(writeIds)"
            )
            return
        }
        if mode == .static, opMix.ops.contains(.reliability) {
            throw ValidationError("--mode static: reliability is answered by the realtime service, not the static one")
        }
        let lines = try LineWorkload(mix: opMix, pool: pool, window: window, limit: limit ?? file?.limit ?? 10)
        guard let connect else { throw ValidationError("--connect is required") }
        var plan = LoadPlan(
            connections: connections, pacing: rate.map { .open(rate: $0) } ?? .closed(depth: depth),
            warmup: try DurationText.parse(warmup, flag: "--warmup"),
            duration: try DurationText.parse(duration, flag: "--duration"))
        plan.drain = try DurationText.parse(drain, flag: "--drain")
        plan.fullCheckEvery = checkEvery
        plan.seed = seed
        let services = try meteredServices()
        var description =
            "\(opMix.description); at \(Self.isoRange(window)); limit \(lines.limit); \(pool.stations.count) stations, \(pool.trips.count) trips"
        if !Set(opMix.ops).isDisjoint(with: [.shape, .route, .stopsInBBox, .reliability]) {
            description +=
                "; \(pool.shapes.count) shapes, \(pool.shapeTrips.count) trips with shapes, \(pool.routes.count) routes, "
                + "\(pool.boxes.count) map views, \(pool.reliabilityStops.count) reliability stops"
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(threads, 1))
        do {
            try await measure(
                plan: plan, lines: lines, group: group, connect: connect, services: services, description: description,
                opMix: opMix, targets: targets)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try? await group.shutdownGracefully()
    }

    private func measure(
        plan: LoadPlan, lines: LineWorkload, group: MultiThreadedEventLoopGroup, connect: String,
        services: [(name: String, pid: Int32)], description: String, opMix: OpMix, targets: [LatencyTarget]
    ) async throws {

        if let ramp {
            try await runRamp(RampPlan(parsing: ramp), plan: plan, lines: lines, group: group, connect: connect)
            return
        }
        let (recorder, meter) = try await runOnce(
            plan: plan, lines: lines, group: group, connect: connect, services: services)
        var report = LoadReport(
            target: label ?? "\(mode.rawValue) \(connect)", mode: rate == nil ? "closed loop" : "open loop", plan: plan,
            workload: description, recorder: recorder, cpu: meter, targets: targets)
        for tag in tags {
            let p = tag.split(separator: "=", maxSplits: 1).map(String.init)
            guard p.count == 2 else { throw ValidationError("--tag \(tag): expected KEY=VALUE") }
            report.tags[p[0]] = p[1]
        }
        print(report.text())
        if let json { try report.json().write(to: URL(fileURLWithPath: json)) }
        if let timeline { try report.timelineCSV().write(toFile: timeline, atomically: true, encoding: .utf8) }
        if let svg { try report.timelineSVG().write(toFile: svg, atomically: true, encoding: .utf8) }
        if report.overall.count == 0 { throw ExitCode(2) }
        if !report.targetsMet { throw ExitCode(1) }
    }

    private var isEcho: Bool { mode == .lineEcho || mode == .nngEcho }

    private func runOnce(
        plan: LoadPlan, lines: LineWorkload, group: MultiThreadedEventLoopGroup, connect: String,
        services: [(name: String, pid: Int32)]
    ) async throws -> (LoadRecorder, CPUMeter) {
        let meter = MeterBox(CPUMeter(services: services))
        let onWindow: @Sendable (Bool) -> Void = { starting in
            let now = NIODeadline.now().uptimeNanoseconds
            meter.update { starting ? $0.start(now: now) : $0.stop(now: now) }
        }
        let recorder: LoadRecorder
        switch mode {
        case .gateway, .gatewayHTTP, .lineEcho:
            guard let colon = connect.lastIndex(of: ":"), let port = Int(connect[connect.index(after: colon)...]) else {
                throw ValidationError("--connect must be host:port for mode \(mode.rawValue)")
            }
            recorder = try await LineLoad.run(
                host: String(connect[..<colon]), port: port, plan: plan, workload: lines, group: group,
                overHTTP: mode == .gatewayHTTP, onWindow: onWindow)
        case .static:
            recorder = try NNGLoad.run(
                url: connect, plan: plan, workload: StaticLoadWorkload(lines: lines), onWindow: onWindow)
        case .nngEcho:
            recorder = try NNGLoad.run(url: connect, plan: plan, workload: NNGEchoWorkload(), onWindow: onWindow)
        }
        return (recorder, meter.value)
    }

    private func runRamp(
        _ ramp: RampPlan, plan: LoadPlan, lines: LineWorkload, group: MultiThreadedEventLoopGroup, connect: String
    ) async throws {
        var steps: [RampStep] = []
        print("| offered req/s | achieved req/s | p50 ms | p99 ms | max ms | errors |")
        print("|---|---|---|---|---|---|")
        for offered in ramp.rates {
            var stepPlan = plan
            stepPlan.pacing = .open(rate: offered)
            let (recorder, _) = try await runOnce(
                plan: stepPlan, lines: lines, group: group, connect: connect, services: [])
            let all = recorder.overall
            let seconds = Double(plan.duration.nanos) / 1e9
            let answers = Double(all.latency.count)
            let step = RampStep(
                offered: offered, achieved: answers / seconds, p99Millis: all.latency.millis(atPercentile: 99),
                errorRate: answers + Double(all.errorCount) > 0
                    ? Double(all.errorCount) / (answers + Double(all.errorCount)) : 1)
            steps.append(step)
            print(
                String(
                    format: "| %.0f | %.0f | %.3f | %.3f | %.3f | %d |", offered, step.achieved,
                    all.latency.millis(atPercentile: 50), step.p99Millis, all.latency.maxMillis, all.errorCount))
            if !step.holds(p99Bound: kneeP99) { break }
        }
        if let knee = RampAnalysis.knee(steps, p99Bound: kneeP99) {
            print(
                "knee: \(Int(knee)) req/s (the highest offered rate with p99 ≤ \(kneeP99) ms, all answered, no errors)")
        } else {
            print("knee: below \(Int(ramp.start)) req/s (the first step already missed p99 ≤ \(kneeP99) ms)")
        }
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            struct RampReport: Codable {
                var steps: [RampStep]
                var kneeP99Millis: Double
                var knee: Double?
            }
            try encoder.encode(
                RampReport(steps: steps, kneeP99Millis: kneeP99, knee: RampAnalysis.knee(steps, p99Bound: kneeP99))
            )
            .write(to: URL(fileURLWithPath: json))
        }
    }

    private func meteredServices() throws -> [(name: String, pid: Int32)] {
        guard let pids else { return [] }
        if pids == "auto" {
            let found = ProcessCPU.discover(["transit-static", "transit-realtime", "transit-gateway"])
            if found.isEmpty {
                throw ValidationError("--pids auto: no transit-static/-realtime/-gateway process found")
            }
            return found.map { (String($0.name.dropFirst("transit-".count)), $0.pid) }
        }
        return try ProcessCPU.parsePids(pids)
    }

    private func timeZone(file: WorkloadFile?) throws -> TimeZone {
        if let name = timezone ?? file?.timezone {
            guard let tz = TimeZone(identifier: name) else { throw ValidationError("--timezone \(name): unknown") }
            return tz
        }
        if let db, let database = try? Database(path: db, mode: .readOnly),
            let name = try? database.scalarText("SELECT timezone FROM feeds ORDER BY feed_pk LIMIT 1"),
            let tz = TimeZone(identifier: name)
        {
            return tz
        }
        return .gmt
    }

    private func idPool(window: TimeWindow, file: WorkloadFile?, seed: UInt64) throws -> IdPool {
        if let ids {
            guard let data = FileManager.default.contents(atPath: ids) else {
                throw ValidationError("--ids \(ids): cannot read the file")
            }
            return try IdPool(idsFile: String(decoding: data, as: UTF8.self), source: ids)
        }
        if let db {
            return try IdPool(databasePath: db, window: window, busiest: busiest ?? file?.busiest ?? 200, seed: seed)
        }
        if isEcho { return IdPool() }
        throw ValidationError("give --db (the served database) or --ids (an ids file) to pick stops and trips")
    }

    static func isoRange(_ w: TimeWindow) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = w.timeZone
        return
            "\(f.string(from: Date(timeIntervalSince1970: Double(w.start)))) – \(f.string(from: Date(timeIntervalSince1970: Double(w.end))))"
    }
}

/// The CPU meter, updated from the event loop at the window's edges and read after the run.
final class MeterBox: Sendable {
    private let state: Mutex<CPUMeter>
    init(_ meter: CPUMeter) { state = Mutex(meter) }
    func update(_ body: (inout CPUMeter) -> Void) { state.withLock { body(&$0) } }
    var value: CPUMeter { state.withLock { $0 } }
}
