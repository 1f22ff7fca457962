import Foundation
import GatewayHTTP
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import StaticService
import Synchronization
import Testing
import TransitTesting

@testable import Gateway
@testable import LoadGenerator

/// Runs over real sockets: the open loop's timing against a slow server, checks of wrong answers, and a short
/// closed- and open-loop run against a real gateway on the sample database (the CI smoke run).
@Suite(.serialized) struct LoadRunTests {
    static let echoWorkload = try! LineWorkload(
        mix: OpMix(parsing: "echo"), pool: IdPool(), window: TimeWindow(start: 0, end: 0, timeZone: .gmt))

    @Test func anOpenLoopCountsLatencyFromTheDueTimeSoAServersQueueShows() async throws {
        // One line at a time, 4 ms each: at most 250 answers/s.
        let server = try await LineEchoServer.start(host: "127.0.0.1", port: 0, delay: .milliseconds(4))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { Task { try? await group.shutdownGracefully() } }
        func run(rate: Double) async throws -> LoadRecorder {
            var plan = LoadPlan(connections: 1, pacing: .open(rate: rate), warmup: .zero, duration: .seconds(1))
            plan.drain = .seconds(5)
            return try await LineLoad.run(
                host: "127.0.0.1", port: server.port, plan: plan, workload: Self.echoWorkload, group: group)
        }
        // Under capacity: every answer takes the server's 4 ms, a little more.
        let light = try await run(rate: 50)
        let lightAll = light.overall
        #expect(lightAll.errorCount == 0)
        #expect((48...52).contains(lightAll.latency.count))
        #expect(lightAll.latency.millis(atPercentile: 50) >= 3.9)
        #expect(lightAll.latency.millis(atPercentile: 50) < 40)
        // Twice its capacity: requests queue, so the last ones wait about half a second. A closed loop (or an
        // open loop timing from the actual send) would still see ~4 ms.
        let heavy = try await run(rate: 500)
        let heavyAll = heavy.overall
        #expect(heavyAll.errorCount == 0)
        #expect((495...505).contains(heavyAll.latency.count))
        #expect(heavyAll.latency.millis(atPercentile: 99) > 500)
        #expect(heavyAll.latency.millis(atPercentile: 50) > 100)
        // The wait was the server's: the requests left the generator far nearer their due time.
        #expect(heavy.sendLag.count == heavyAll.latency.count)
        #expect(heavy.sendLag.millis(atPercentile: 99) < heavyAll.latency.millis(atPercentile: 99) / 2)
        await server.stop()
    }

    @Test func anOpenLoopReportsHowLateTheGeneratorItselfSent() async throws {
        let server = try await LineEchoServer.start(host: "127.0.0.1", port: 0)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { Task { try? await group.shutdownGracefully() } }
        var plan = LoadPlan(connections: 2, pacing: .open(rate: 200), warmup: .zero, duration: .seconds(1))
        plan.drain = .seconds(5)
        // The generator's only loop is blocked for 150 ms every 400 ms (whenever the run starts after
        // connecting): the requests due meanwhile leave late, and the lag says so (and is part of their latency).
        let blocker = group.next().scheduleRepeatedTask(initialDelay: .milliseconds(50), delay: .milliseconds(400)) {
            _ in usleep(150_000)
        }
        let r = try await LineLoad.run(
            host: "127.0.0.1", port: server.port, plan: plan, workload: Self.echoWorkload, group: group)
        blocker.cancel()
        #expect(r.overall.errorCount == 0)
        #expect(r.sendLag.count == r.overall.latency.count)
        #expect(r.sendLag.maxMillis >= 100)
        #expect(r.overall.latency.maxMillis >= r.sendLag.maxMillis)
        let report = LoadReport(
            target: "echo", mode: "open loop", plan: plan, workload: "echo", recorder: r, cpu: nil, targets: [])
        #expect(try #require(report.sendLag).max >= 100)
        #expect(report.text().contains("generator send lag"))
        await server.stop()
    }

    @Test func aRunEndsAfterItsWindowSoItsEndSnapshotIsTaken() async throws {
        // At 40/s over 4 connections the last answer is in about 100 ms before the window ends, and every
        // connection closes then: the run must still wait for the window's end (the CPU meter's stop).
        let server = try await LineEchoServer.start(host: "127.0.0.1", port: 0)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { Task { try? await group.shutdownGracefully() } }
        var plan = LoadPlan(connections: 4, pacing: .open(rate: 40), warmup: .zero, duration: .milliseconds(500))
        plan.drain = .seconds(5)
        let calls = Mutex<[Bool]>([])
        let r = try await LineLoad.run(
            host: "127.0.0.1", port: server.port, plan: plan, workload: Self.echoWorkload, group: group
        ) { starting in calls.withLock { $0.append(starting) } }
        #expect(r.overall.errorCount == 0)
        #expect(r.overall.latency.count == 20)
        #expect(calls.withLock { $0 } == [true, false])
        await server.stop()
    }

    @Test func fastWrongAnswersAreErrorsNotSuccesses() async throws {
        // An echo answers a departures request with the request itself: fast, and not an answer.
        let server = try await LineEchoServer.start(host: "127.0.0.1", port: 0)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { Task { try? await group.shutdownGracefully() } }
        var pool = IdPool()
        pool.addStation("200060", weight: 1)
        let workload = try LineWorkload(
            mix: OpMix(parsing: "departures"), pool: pool, window: TimeWindow(start: 0, end: 10, timeZone: .gmt))
        let plan = LoadPlan(connections: 2, pacing: .closed(depth: 2), warmup: .zero, duration: .milliseconds(300))
        let r = try await LineLoad.run(
            host: "127.0.0.1", port: server.port, plan: plan, workload: workload, group: group)
        #expect(r.overall.latency.count == 0)
        #expect(r.overall.errorCount > 10)
        #expect(Set(r.overall.errors.keys) == [CheckCode.badShape])

        // The same for the map ops and reliability: the request echoed is no answer of theirs.
        let mapWorkload = try LineWorkload(
            mix: OpMix(parsing: "shape,route,stops_in_bbox,reliability"), pool: MapAndReliabilityRequestTests.pool,
            window: TimeWindow(start: 0, end: 10, timeZone: .gmt))
        let m = try await LineLoad.run(
            host: "127.0.0.1", port: server.port, plan: plan, workload: mapWorkload, group: group)
        #expect(m.overall.latency.count == 0)
        #expect(Set(m.ops.keys) == [.shape, .route, .stopsInBBox, .reliability])
        #expect(m.ops.values.allSatisfy { $0.errorCount > 0 && Set($0.errors.keys) == [CheckCode.badShape] })
        await server.stop()
    }

    @Test func aShortClosedAndOpenLoopRunAgainstTheGatewayAnswersEveryRequest() async throws {
        let db = try SampleDatabase.path()
        var logger = Logger(label: "load-tests")
        logger.logLevel = .critical
        let url = UniqueURL.ipc("load-static")
        let staticServer = try StaticServer(
            configuration: .init(databasePath: db, listenURL: url, contexts: 4), logger: logger)
        defer { staticServer.stop() }
        let gateway = try await GatewayServer.start(
            config: GatewayConfiguration(host: "127.0.0.1", port: 0, staticURL: url, logger: logger))
        let sydney = TimeZone(identifier: "Australia/Sydney")!
        let window = try TimeWindow(parsing: "07:00-09:00", date: SampleTimes.mondayDate, timeZone: sydney, now: 0)
        let pool = try IdPool(databasePath: db, window: window, seed: 1)
        #expect(!pool.trips.isEmpty)
        let workload = try LineWorkload(mix: .standard, pool: pool, window: window)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

        var closed = LoadPlan(
            connections: 4, pacing: .closed(depth: 2), warmup: .milliseconds(300), duration: .seconds(2))
        closed.fullCheckEvery = 1
        let windows = WindowCalls()
        let c = try await LineLoad.run(
            host: "127.0.0.1", port: gateway.port, plan: closed, workload: workload, group: group,
            onWindow: { windows.add($0) })
        #expect(windows.calls == [true, false])
        let open = LoadPlan(connections: 4, pacing: .open(rate: 200), warmup: .milliseconds(300), duration: .seconds(2))
        let o = try await LineLoad.run(
            host: "127.0.0.1", port: gateway.port, plan: open, workload: workload, group: group)
        // The map ops, briefly, every answer parsed whole (reliability needs the realtime service: not here).
        var map = LoadPlan(
            connections: 2, pacing: .closed(depth: 2), warmup: .milliseconds(100), duration: .milliseconds(500))
        map.fullCheckEvery = 1
        let m = try await LineLoad.run(
            host: "127.0.0.1", port: gateway.port, plan: map,
            workload: LineWorkload(mix: OpMix(parsing: "shape,route,stops_in_bbox"), pool: pool, window: window),
            group: group)
        try? await group.shutdownGracefully()
        await gateway.stop()

        for (name, r) in [("closed", c), ("open", o)] {
            #expect(r.overall.errors.isEmpty, "\(name): \(r.ops.mapValues(\.errors))")
            #expect(Set(r.ops.keys) == [.departures, .trip, .alerts, .search, .stop], "\(name)")
        }
        #expect(m.overall.errors.isEmpty, "map ops: \(m.ops.mapValues(\.errors))")
        #expect(Set(m.ops.keys) == [.shape, .route, .stopsInBBox])
        #expect(m.overall.latency.count > 20)
        #expect(c.overall.latency.count > 100)
        #expect((395...405).contains(o.overall.latency.count))
        let report = LoadReport(
            target: "gateway", mode: "open loop", plan: open, workload: "standard", recorder: o, cpu: nil, targets: [])
        #expect(report.timeline.count == 2)
        #expect(report.timeline.map(\.answers).reduce(0, +) == Int(o.overall.latency.count))
        #expect(report.timelineSVG().hasPrefix("<svg"))
        #expect(try report.json().count > 100)
    }

    /// `--mode gateway-http`: the same workload as keep-alive POSTs on the HTTP port (pipelined at depth 2),
    /// every answer parsed whole, none an error.
    @Test func aShortRunOverTheHTTPPortAnswersEveryRequest() async throws {
        let db = try SampleDatabase.path()
        var logger = Logger(label: "load-tests")
        logger.logLevel = .critical
        let url = UniqueURL.ipc("load-http-static")
        let staticServer = try StaticServer(
            configuration: .init(databasePath: db, listenURL: url, contexts: 4), logger: logger)
        defer { staticServer.stop() }
        let gateway = try await GatewayServer.start(
            config: GatewayConfiguration(
                host: "127.0.0.1", port: 0, http: ListenAddress(host: "127.0.0.1", port: 0), staticURL: url,
                logger: logger))
        let http = try #require(try GatewayHTTPServer(gateway: gateway))
        let services = ServiceGroup(services: [http], gracefulShutdownSignals: [], logger: logger)
        let serving = Task { try await services.run() }
        let sydney = TimeZone(identifier: "Australia/Sydney")!
        let window = try TimeWindow(parsing: "07:00-09:00", date: SampleTimes.mondayDate, timeZone: sydney, now: 0)
        let workload = try LineWorkload(
            mix: .standard, pool: try IdPool(databasePath: db, window: window, seed: 1), window: window)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var plan = LoadPlan(
            connections: 4, pacing: .closed(depth: 2), warmup: .milliseconds(200), duration: .seconds(1))
        plan.fullCheckEvery = 1
        let recorder = try await LineLoad.run(
            host: "127.0.0.1", port: try await http.port(), plan: plan, workload: workload, group: group,
            overHTTP: true)
        try? await group.shutdownGracefully()
        await services.triggerGracefulShutdown()
        _ = await serving.result
        await gateway.stop()
        #expect(recorder.overall.errors.isEmpty, "\(recorder.ops.mapValues(\.errors))")
        #expect(Set(recorder.ops.keys) == [.departures, .trip, .alerts, .search, .stop])
        #expect(recorder.overall.latency.count > 50)
    }
}

final class WindowCalls: Sendable {
    private let state = Mutex<[Bool]>([])
    func add(_ v: Bool) { state.withLock { $0.append(v) } }
    var calls: [Bool] { state.withLock { $0 } }
}
