import Foundation
import Testing

@testable import LoadGenerator

@Suite struct HistogramTests {
    @Test func percentilesOfAUniformSpreadAreWithinTheHistogramsPrecision() {
        var h = LatencyHistogram()
        for ms in 1...1000 { h.record(nanos: UInt64(ms) * 1_000_000) }
        #expect(h.count == 1000)
        #expect(abs(h.millis(atPercentile: 50) - 500) <= 0.5)
        #expect(abs(h.millis(atPercentile: 99) - 990) <= 1)
        #expect(abs(h.millis(atPercentile: 99.9) - 999) <= 1)
        #expect(abs(h.maxMillis - 1000) <= 1)
    }

    @Test func mergingTwoHistogramsKeepsTheTailOfEither() {
        var fast = LatencyHistogram()
        var slow = LatencyHistogram()
        for _ in 0..<990 { fast.record(micros: 100) }
        for _ in 0..<10 { slow.record(micros: 50_000) }
        fast.merge(slow)
        #expect(fast.count == 1000)
        #expect(fast.millis(atPercentile: 50) == 0.1)
        #expect(fast.millis(atPercentile: 99) == 0.1)
        #expect(abs(fast.millis(atPercentile: 99.5) - 50) < 0.1)
        #expect(abs(fast.maxMillis - 50) < 0.1)
    }

    @Test func anEmptyHistogramSaysZeroAndAMinuteIsTheCeiling() {
        var h = LatencyHistogram()
        #expect(h.millis(atPercentile: 99) == 0)
        h.record(nanos: 3_600_000_000_000)
        #expect(abs(h.maxMillis - 60_000) < 60)
    }

    @Test func theRecorderKeepsErrorsOutOfTheLatenciesAndCountsThemPerSecond() {
        var r = LoadRecorder(windowStart: 1_000_000_000)
        r.success(.departures, nanos: 2_000_000, now: 1_500_000_000)
        r.error(.departures, code: "NOT_FOUND", now: 2_100_000_000)
        r.error(.trip, code: "TIMEOUT", now: 3_900_000_000)
        #expect(r.ops[.departures]?.latency.count == 1)
        #expect(r.ops[.departures]?.errors == ["NOT_FOUND": 1])
        #expect(r.overall.errorCount == 2)
        #expect(r.timeline.map(\.errors) == [0, 1, 1])
        #expect(r.timeline.map { $0.latency.count } == [1, 0, 0])
    }
}

@Suite struct AnswerCheckTests {
    func verdict(_ line: String, _ op: LoadOp, limit: Int = 10, full: Bool = true) -> AnswerVerdict {
        Array(line.utf8).withUnsafeBytes { AnswerCheck.check($0, op: op, limit: limit, full: full) }
    }

    static let departures =
        #"{"id":7,"ok":true,"data":{"stop_id":"200060","timezone":"Australia/Sydney","departures":[{"trip_id":"T1","status":"scheduled","carriages":[{"position":1}]},{"trip_id":"T2","status":"late","carriages":[]}],"page":{"direction":"future"}},"meta":{"op":"departures","elapsed_us":410,"at":1,"source":"static_only","stale":false,"feed_age_s":null}}"#

    @Test func aGoodBoardIsOkWithItsRows() {
        #expect(verdict(Self.departures, .departures) == .ok(rows: 2))
        #expect(Array(Self.departures.utf8).withUnsafeBytes { AnswerCheck.id(of: $0) } == 7)
    }

    @Test func anErrorAnswerIsAnErrorByItsCode() {
        let line = #"{"id":3,"ok":false,"error":{"code":"NOT_FOUND","message":"unknown stop_id \"x\""}}"#
        #expect(verdict(line, .departures) == .error("NOT_FOUND"))
        #expect(verdict(line, .stop) == .error("NOT_FOUND"))
    }

    @Test func anAnswerOfAnotherOpOrShapeIsBadShape() {
        let otherOp = Self.departures.replacingOccurrences(of: #""op":"departures""#, with: #""op":"trip""#)
        #expect(verdict(otherOp, .departures) == .error(CheckCode.badShape))
        #expect(verdict(#"{"id":1,"op":"departures","stop_id":"1"}"#, .departures) == .error(CheckCode.badShape))
        #expect(verdict("not json", .departures) == .error(CheckCode.badShape))
        // The byte scan passes, the full parse does not: departures is not an array of rows.
        let wrongType = Self.departures.replacingOccurrences(of: #""page":{"direction":"future"}"#, with: #""page":7"#)
        #expect(verdict(wrongType, .departures, full: false) == .ok(rows: 2))
        #expect(verdict(wrongType, .departures, full: true) == .error(CheckCode.badShape))
    }

    @Test func implausibleRowCountsAreErrors() {
        let empty =
            #"{"id":1,"ok":true,"data":{"stop_id":"1","timezone":null,"departures":[],"page":{}},"meta":{"op":"departures","elapsed_us":1}}"#
        #expect(verdict(empty, .departures) == .error(CheckCode.implausibleRows))
        #expect(verdict(Self.departures, .departures, limit: 1) == .error(CheckCode.implausibleRows))
        let search =
            #"{"id":2,"ok":true,"data":{"stops":[{"stop_id":"a"},{"stop_id":"b"}]},"meta":{"op":"search","elapsed_us":1}}"#
        #expect(verdict(search, .search) == .ok(rows: 2))
        #expect(verdict(search, .search, limit: 1) == .error(CheckCode.implausibleRows))
    }

    @Test func theByteScansFindMarkersAtTheEdgesAndNotPastTheEnd() {
        func count(_ line: String, _ marker: StaticString) -> Int {
            Array(line.utf8).withUnsafeBytes { AnswerCheck.count($0, of: marker) }
        }
        // At the very start, back to back, at the very end; a cut-off marker at the end is not one.
        #expect(count(#"{"stop_id":"a"},{"stop_id":"b"}{"stop_id":""#, #"{"stop_id":""#) == 3)
        #expect(count(#"x{"stop_id":"a"}{"stop_id""#, #"{"stop_id":""#) == 1)
        #expect(count(#"{{{{"#, #"{"stop_id":""#) == 0)
        #expect(count("", #"{"stop_id":""#) == 0)
        let line = Array(#"ab"polyline":"xy"#.utf8)
        line.withUnsafeBytes { bytes in
            #expect(AnswerCheck.firstIndex(of: #""polyline":""#, in: bytes) == 14)
            #expect(AnswerCheck.firstIndex(of: UInt8(ascii: "y"), in: bytes, from: 15) == 15)
            #expect(AnswerCheck.firstIndex(of: UInt8(ascii: "a"), in: bytes, from: 1) == nil)
            #expect(AnswerCheck.firstIndex(of: UInt8(ascii: "y"), in: bytes, from: bytes.count) == nil)
            #expect(AnswerCheck.firstIndex(of: #""polyline":"xyz"#, in: bytes) == nil)
        }
    }

    @Test func eventLinesAreNotAnswers() {
        let event = #"{"event":"departures","sub":1,"data":{},"meta":{}}"#
        #expect(Array(event.utf8).withUnsafeBytes { AnswerCheck.isEvent($0) })
        #expect(Array(event.utf8).withUnsafeBytes { AnswerCheck.id(of: $0) } == nil)
    }
}

@Suite struct WorkloadParsingTests {
    @Test func theDefaultMixIsTheIssuesAndDrawsFollowTheWeights() throws {
        let mix = OpMix.standard
        #expect(mix.description == "departures=60,trip=15,alerts=10,search=10,stop=5")
        #expect(mix.op(at: 0) == .departures)
        #expect(mix.op(at: 0.599) == .departures)
        #expect(mix.op(at: 0.61) == .trip)
        #expect(mix.op(at: 0.999) == .stop)
        #expect(try OpMix(parsing: "departures").ops == [.departures])
    }

    /// The load ops' names are the gateway ops' (from their table), plus `echo`; each round-trips.
    @Test func loadOpsAreNamedAfterTheGatewaysOps() {
        #expect(
            LoadOp.allCases.map(\.name) == [
                "departures", "trip", "alerts", "search", "stop", "shape", "route", "stops_in_bbox", "reliability",
                "echo",
            ])
        for op in LoadOp.allCases {
            #expect(LoadOp(name: op.name) == op)
            #expect(op.gatewayOp.map(\.name) ?? "echo" == op.name)
        }
        #expect(LoadOp.allCases.filter { $0.gatewayOp == nil } == [.echo])
        #expect(LoadOp.allCases.sorted() == LoadOp.allCases, "ordered as declared")
        #expect(LoadOp(name: "stopsInBBox") == nil)
    }

    @Test func badMixesSayWhy() {
        #expect(throws: WorkloadError.self) { try OpMix(parsing: "departure=60") }
        #expect(throws: WorkloadError.self) { try OpMix(parsing: "departures=x") }
        #expect(throws: WorkloadError.self) { try OpMix(parsing: "departures=0") }
        #expect(throws: WorkloadError.self) { try OpMix(parsing: "trip=1,trip=2") }
    }

    @Test func aWorkloadFileGivesEverySettingAndRejectsUnknownKeys() throws {
        let text =
            #"{"mix":{"departures":80,"search":20},"window":"07:00-09:00","date":"2025-12-22","limit":5,"seed":9}"#
        let file = try WorkloadFile(parsing: Array(text.utf8), source: "w.json")
        #expect(file.mix == (try OpMix(parsing: "departures=80,search=20")))
        #expect(file.window == "07:00-09:00")
        #expect(file.date == "2025-12-22")
        #expect(file.limit == 5)
        #expect(file.seed == 9)
        do {
            _ = try WorkloadFile(parsing: Array(#"{"windw":"07:00-09:00"}"#.utf8), source: "w.json")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.description.contains("unknown key \"windw\""))
        }
        #expect(throws: WorkloadError.self) { try WorkloadFile(parsing: Array(#"{"limit":"5"}"#.utf8), source: "w") }
    }

    @Test func aWindowIsInTheFeedsTimezoneOnTheServiceDay() throws {
        let sydney = TimeZone(identifier: "Australia/Sydney")!
        let w = try TimeWindow(parsing: "07:00-09:00", date: "20251222", timeZone: sydney, now: 0)
        #expect(w.start == 1_766_347_200)  // 07:00 AEDT
        #expect(w.end == 1_766_354_400)
        let days = w.serviceDays()
        #expect(days.contains(TimeWindow.ServiceDay(date: 20_251_222, weekday: 1, startSecs: 25200, endSecs: 32400)))
        // The day before, for its trips past midnight (07:00 is 31:00 of Sunday's service day).
        #expect(days.contains { $0.date == 20_251_221 && $0.startSecs == 25200 + 86400 })
        let around = try TimeWindow(parsing: "now±30", date: nil, timeZone: sydney, now: 1_000_000)
        #expect(around.start == 1_000_000 - 1800 && around.end == 1_000_000 + 1800)
        #expect(throws: WorkloadError.self) {
            try TimeWindow(parsing: "09:00-07:00", date: nil, timeZone: sydney, now: 0)
        }
        #expect(throws: WorkloadError.self) { try TimeWindow(parsing: "7-9", date: nil, timeZone: sydney, now: 0) }
        #expect(throws: WorkloadError.self) {
            try TimeWindow(parsing: "07:00-09:00", date: "2025-13-01", timeZone: sydney, now: 0)
        }
    }

    @Test func anIdsFileRoundTripsAndNamesTheBadLine() throws {
        var pool = IdPool()
        pool.addStation("200060", weight: 30)
        pool.addStation("200070", weight: 10)
        pool.trips = ["T1.1"]
        pool.stops = ["2000331"]
        pool.searchTerms = ["Central Sta"]
        let back = try IdPool(idsFile: pool.idsFile, source: "ids.txt")
        #expect(back == pool)
        #expect(back.station(at: 0.74) == "200060")
        #expect(back.station(at: 0.76) == "200070")
        do {
            _ = try IdPool(idsFile: "# ids\nstation 1\nline 5\n", source: "ids.txt")
            Issue.record("an unknown kind was accepted")
        } catch {
            #expect(error.description.hasPrefix("ids.txt:3: unknown kind \"line\""))
        }
        #expect(throws: WorkloadError.self) { try IdPool(idsFile: "station 1 -2\n", source: "x") }
        try pool.check(for: OpMix(parsing: "trip"))
        var noTrips = pool
        noTrips.trips = []
        #expect(throws: WorkloadError.self) { try noTrips.check(for: OpMix(parsing: "trip")) }
    }

    @Test func durationsAndPidsParse() throws {
        #expect(try DurationText.parse("500ms", flag: "--warmup") == .milliseconds(500))
        #expect(try DurationText.parse("2m", flag: "--duration") == .seconds(120))
        #expect(try DurationText.parse("3", flag: "--duration") == .seconds(3))
        #expect(throws: WorkloadError.self) { try DurationText.parse("soon", flag: "--duration") }
        let pids = try ProcessCPU.parsePids("static=12,gateway=34")
        #expect(pids.map(\.name) == ["static", "gateway"] && pids.map(\.pid) == [12, 34])
        #expect(throws: WorkloadError.self) { try ProcessCPU.parsePids("static") }
    }

    @Test func theCPUOfAProcStatLineIsUtimePlusStime() {
        let ticks = UInt64(sysconf(Int32(_SC_CLK_TCK)))
        let line = "4242 (transit gateway) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0 20 0 9 0 100 200 300\n"
        #expect(ProcessCPU.nanos(statLine: line) == 200 * 1_000_000_000 / ticks)
        #expect(ProcessCPU.nanos(pid: getpid()) != nil)
    }
}

@Suite struct TargetAndRampTests {
    @Test func targetsParseWithOpsPercentilesAndUnits() throws {
        #expect(try LatencyTarget(parsing: "p95=150ms") == LatencyTarget(op: nil, percentile: 95, limitMillis: 150))
        #expect(
            try LatencyTarget(parsing: "departures.p99=3ms")
                == LatencyTarget(op: .departures, percentile: 99, limitMillis: 3))
        #expect(try LatencyTarget(parsing: "p99.9=800us").limitMillis == 0.8)
        #expect(
            try LatencyTarget(parsing: "trip.max=1s") == LatencyTarget(op: .trip, percentile: 100, limitMillis: 1000))
        #expect(try LatencyTarget(parsing: "p50=2").limitMillis == 2)
        for bad in ["p95", "q95=1ms", "p0=1ms", "p101=1ms", "p95=-1ms", "p95=fast", "depart.p95=1ms"] {
            #expect(throws: WorkloadError.self, "\(bad)") { try LatencyTarget(parsing: bad) }
        }
    }

    @Test func aTargetIsMetOrMissedOnTheMeasuredValue() throws {
        var r = LoadRecorder(windowStart: 0)
        for _ in 0..<100 { r.success(.departures, nanos: 1_000_000, now: 1) }
        r.success(.trip, nanos: 9_000_000, now: 1)
        r.error(.trip, code: "NOT_FOUND", now: 1)
        #expect(try LatencyTarget(parsing: "departures.p99=2ms").measured(in: r)! <= 2)
        #expect(try LatencyTarget(parsing: "trip.p99=2ms").measured(in: r)! > 2)
        #expect(try LatencyTarget(parsing: "alerts.p99=2ms").measured(in: r) == nil)
        let plan = LoadPlan(connections: 1, pacing: .closed(depth: 1), warmup: .zero, duration: .seconds(1))
        let report = LoadReport(
            target: "t", mode: "closed loop", plan: plan, workload: "", recorder: r, cpu: nil,
            targets: [try LatencyTarget(parsing: "departures.p99=2ms"), try LatencyTarget(parsing: "max=5ms")])
        #expect(report.targets.map(\.met) == [true, false])
        #expect(!report.targetsMet)
        let back = try JSONDecoder().decode(LoadReport.self, from: try report.json())
        #expect(back.overall == report.overall && back.ops == report.ops)
        #expect(report.text().contains("target max=5ms: 9.0"))
        #expect(report.text().contains("ms MISSED"))
    }

    @Test func theKneeIsTheLastStepBeforeTheFirstMiss() throws {
        func step(_ offered: Double, _ p99: Double, achieved: Double? = nil, errors: Double = 0) -> RampStep {
            RampStep(offered: offered, achieved: achieved ?? offered, p99Millis: p99, errorRate: errors)
        }
        let steps = [step(1000, 1), step(2000, 1.5), step(3000, 4), step(4000, 30), step(5000, 2)]
        #expect(RampAnalysis.knee(steps, p99Bound: 10) == 3000)
        #expect(RampAnalysis.knee(steps, p99Bound: 1.2) == 1000)
        #expect(RampAnalysis.knee(steps, p99Bound: 0.5) == nil)
        // Falling behind the offered rate or erring is past the knee too, however low p99 looks.
        #expect(RampAnalysis.knee([step(1000, 1), step(2000, 1, achieved: 1500)], p99Bound: 10) == 1000)
        #expect(RampAnalysis.knee([step(1000, 1), step(2000, 1, errors: 0.05)], p99Bound: 10) == 1000)
        #expect(try RampPlan(parsing: "1000:500:3000").rates == [1000, 1500, 2000, 2500, 3000])
        #expect(throws: WorkloadError.self) { try RampPlan(parsing: "1000:0:3000") }
        #expect(throws: WorkloadError.self) { try RampPlan(parsing: "3000:500:1000") }
    }

    @Test func fullChecksAreSpreadEvenlyWhenConnectionsAnswerInStep() {
        // An open loop's connections run in step: answer k of every connection arrives before answer k+1 of
        // any. Whatever the connection, one loop's schedule gives exactly one full parse in every 64 answers in a
        // row, never a burst.
        var schedule = FullCheckSchedule(every: 64)
        var full: [Bool] = []
        for _ in 0..<200 {
            for _ in 0..<64 { full.append(schedule.next()) }
        }
        #expect(full[0])
        for start in 0...(full.count - 64) {
            #expect(full[start..<(start + 64)].filter { $0 }.count == 1)
        }
        var everyOne = FullCheckSchedule(every: 1)
        #expect((0..<5).allSatisfy { _ in everyOne.next() })
        var nonsense = FullCheckSchedule(every: 0)
        #expect(nonsense.next() && nonsense.next())
    }

    @Test func theOpenLoopScheduleSpreadsTheRateOverTheConnections() {
        // 1000 req/s over 4 connections: request k of connection c is due at (4k + c) ms.
        #expect(LoadPlan.dueOffset(connection: 0, request: 0, connections: 4, rate: 1000) == 0)
        #expect(LoadPlan.dueOffset(connection: 3, request: 0, connections: 4, rate: 1000) == 3_000_000)
        #expect(LoadPlan.dueOffset(connection: 1, request: 2, connections: 4, rate: 1000) == 9_000_000)
    }
}
