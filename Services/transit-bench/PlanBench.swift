import ArgumentParser
import Foundation
import JourneyPlanner
import ProcessSupport
import Synchronization
import TransitCore
import TransitStore

/// Journey planning's figures (issue 27, BENCHMARKS.md): the timetable's build time and memory over a static
/// database, a full live update laid over it, one-to-one plans (`window_s` 0, 4 transfers) and 1-hour range
/// plans inside the planner on one thread, and, with `--gateway`, `plan` end to end through a running gateway at
/// 1 and 8 connections. Origins and destinations: stations (or stops without one) with departures in the hour
/// of `at`, drawn uniformly and, in a second row, weighted by their departures; `at` uniform over 06:00–22:00 of
/// the service clock's day (`--now`: the services' `--clock`, so that both plan the same day). Beside them, the
/// machine's memory floor (`MemoryFloor`) before the build and after the plans: compare ratios across machines.
struct PlanBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Journey planning: build, memory, live update, plans in-process and end to end.")

    @Option(help: "The static database (transit-static import).") var db: String
    @Option(help: "Unix seconds of the services' now (their --clock); default the machine's.") var now: Int64?
    @Option(help: "One-to-one plans per row.") var queries = 500
    @Option(help: "Range plans (window 3600).") var rangeQueries = 50
    @Option(help: "Full live updates applied (each delays a third of the day's trips afresh).") var updates = 10
    @Option(
        help:
            "The first updates after the build, reported apart (they fault in the memory the next ones reuse) and left out of the p50/p95 (a running service applies one every poll)."
    )
    var updateWarmup = 3
    @Option(help: "Seed of the draws.") var seed: UInt64 = 27
    @Option(help: "walk_radius_m of the in-planner plans (beyond 400 m the walks are generated per query).")
    var walkRadius = PlanQuery.defaultWalkRadius
    @Option(help: "A running gateway (host:port) for the end-to-end rows; its services on the same clock.")
    var gateway: String?
    @Option(help: "Plans per connection end to end.") var gatewayQueries = 200
    @Flag(
        help:
            "Also plan each query without the trip bounds' and the landmarks' pruning and count the answers whose (departure, arrival, transfers) differ (none may) and those that only chose another journey of equal times."
    )
    var checkUnpruned = false
    @Option(help: "The work budget of each query's trip bounds (default: the planner's).") var tripsBudget: Int?
    @Option(
        help:
            "The fraction of the delayed trips whose delay is recovered at a stop part-way, as real feeds predict (TfNSW buses: 10 % of the trips recover 9 min or more): that ride is faster than the schedule."
    )
    var recovering = 0.0
    @Flag(
        help:
            "Find the landmarks again over the last update's live rides before the plans (Timetable.refreshingLandmarks), timed."
    )
    var refreshLandmarks = false

    func run() throws {
        guard updateWarmup >= 0 else { throw BenchError("--update-warmup must be 0 or more, got \(updateWarmup)") }
        guard (0...1).contains(recovering) else { throw BenchError("--recovering must be 0…1, got \(recovering)") }
        let now = self.now ?? Int64(Date().timeIntervalSince1970)
        let floorAtStart = MemoryFloor.row("before the build")
        let store = try StaticStore(path: db, connections: 1)
        // As transit-static serve with its planner: freed memory kept by malloc (a live update's routes reuse it).
        ProcessMemory.keepFreedMemory()
        let dates = store.plannerDates(aroundUnix: now)
        let rssBefore = ProcessMemory.residentBytes() ?? 0
        var started = monotonicNanos()
        let input = try store.plannerInput(dates: dates)
        let loaded = monotonicNanos()
        var timetable = Timetable(input.source)
        let built = monotonicNanos()
        let rssAfter = ProcessMemory.residentBytes() ?? 0
        let today = dates.lowerBound.adding(days: 1)
        guard let day = input.source.days.first(where: { $0.date == today }) else {
            throw BenchError("no service on \(today) (the day of --now): nothing to plan")
        }
        print("# plan bench: \(db), day \(today), \(timetable.runCount) runs, \(timetable.runStopCount) run stops")
        print("| timetable | load s | build s | estimate MiB | RSS growth MiB | routes | footpaths |")
        print("|---|---|---|---|---|---|---|")
        print(
            String(
                format: "| %@ | %.2f | %.2f | %.0f | %.0f | %d | %d |", "\(dates.lowerBound)…\(dates.upperBound)",
                Double(loaded - started) / 1e9, Double(built - loaded) / 1e9,
                Double(timetable.memoryEstimate) / 1_048_576, Double(Int64(rssAfter) - Int64(rssBefore)) / 1_048_576,
                timetable.routeCount, timetable.footpathCount))

        // A full live update: a third of the day's trips delayed by 0–10 min (afresh each time), laid over the
        // scheduled timetable; the last one stays for the plans below ("realtime fixtures applied").
        var rng = SeededGenerator(seed: seed)
        let scheduled = timetable
        var applySamples = LatencySamples()
        var coldMillis: [Double] = []
        var liveRuns = 0
        for u in 0..<max(1, updates) {
            var state = LiveTrips()
            for (t, trip) in input.source.trips.enumerated()
            where trip.frequencies.isEmpty && day.services.contains(trip.service) && rng.unit() < 1.0 / 3 {
                let delay = Int64(rng.next() % 600)
                // Where the delay is recovered (none unless --recovering): from that stop on the trip is on time,
                // so its ride there is shorter by the delay, or 0 s when the delay is longer than the ride.
                let recoverAt =
                    recovering > 0 && rng.unit() < recovering
                    ? 1 + Int(rng.next() % UInt64(max(1, trip.stopTimes.count - 1))) : Int.max
                var times: [LiveStopTime] = []
                for (i, st) in trip.stopTimes.enumerated() {
                    let shift = i < recoverAt ? delay : 0
                    let arrival = max(day.referenceUnix + Int64(st.arrival) + shift, times.last?.departure ?? .min)
                    times.append(
                        LiveStopTime(
                            arrival: arrival, departure: max(arrival, day.referenceUnix + Int64(st.departure) + shift)))
                }
                state.runs[RunKey(trip: t, date: today)] = .times(times)
            }
            liveRuns = state.runs.count
            // The previous live timetable freed before the clock starts, so that every update is timed alike (where
            // the compiler releases a dead value is not fixed: it moved with an unrelated change to `Timetable`).
            timetable = scheduled
            started = monotonicNanos()
            timetable = scheduled.applying(state).timetable
            let elapsed = monotonicNanos() - started
            if u < updateWarmup && u < updates - 1 {
                coldMillis.append(Double(elapsed) / 1e6)
            } else {
                applySamples.add(elapsed)
            }
        }
        let apply = applySamples.summary(wallSeconds: 0)
        print("\n| live update | runs changed | first after the build ms | p50 ms | p95 ms | max ms |")
        print("|---|---|---|---|---|---|")
        print(
            String(
                format: "| full (%d updates after %d) | %d | %@ | %.1f | %.1f | %.1f |", applySamples.nanos.count,
                coldMillis.count, liveRuns, coldMillis.map { String(format: "%.1f", $0) }.joined(separator: " / "),
                apply.p50 / 1000, apply.p95 / 1000, apply.max / 1000))
        var deficit = "\(timetable.liveDeficit) s"
        if refreshLandmarks {
            let start = monotonicNanos()
            timetable = timetable.refreshingLandmarks()
            deficit += String(
                format: ", %d s after the landmarks were found again over the live rides (%.0f ms)",
                timetable.liveDeficit, Double(monotonicNanos() - start) / 1e6)
        }
        print("\nLive deficit of the last update (the bounds' correction per trip): \(deficit)")

        // Places with departures per hour of the day.
        var departuresByHour = [[Int: Int]](repeating: [:], count: 48)
        for trip in input.source.trips where day.services.contains(trip.service) {
            for st in trip.stopTimes.dropLast() where st.pickup {
                let hour = st.departure / 3600
                guard hour < 48 else { continue }
                let place = input.source.stops[st.stop].station ?? st.stop
                departuresByHour[hour][place, default: 0] += 1
            }
        }
        func draw(weighted: Bool) -> (from: Int, to: Int, at: Int64)? {
            for _ in 0..<100 {
                let secs = 6 * 3600 + Int(rng.next() % UInt64(16 * 3600))
                let places = departuresByHour[secs / 3600]
                guard places.count >= 2 else { continue }
                // Sorted: a dictionary's order changes from process to process (seeded hashing), and with it
                // the queries drawn; sorted, every run of the same --seed plans the same queries.
                let keys = places.keys.sorted()
                func pick() -> Int {
                    guard weighted else { return keys[Int(rng.next() % UInt64(keys.count))] }
                    var r = Int(rng.next() % UInt64(places.values.reduce(0, +)))
                    for k in keys {
                        r -= places[k]!
                        if r < 0 { return k }
                    }
                    return keys[0]
                }
                let a = pick(), b = pick()
                if a != b { return (a, b, day.referenceUnix + Int64(secs)) }
            }
            return nil
        }

        print("\n| in the planner (1 thread) | plans | journeys | cut | p50 ms | p95 ms | p99 ms | max ms | answers |")
        print("|---|---|---|---|---|---|---|---|---|")
        let workspace = PlannerWorkspace(tripsLeftBudget: tripsBudget ?? PlannerWorkspace.defaultTripsLeftBudget)
        let unpruned = PlannerWorkspace(tripsLeftBudget: -1, landmarkBounds: false)
        var differ = 0, ties = 0
        var drawn: [(from: Int, to: Int, at: Int64)] = []
        // Arrive-by last, so that the rows before it draw the queries they drew before it was added.
        for (label, weighted, window, count, arriveBy) in [
            ("one-to-one, uniform", false, 0, queries, false), ("one-to-one, by departures", true, 0, queries, false),
            ("range 3600 s, uniform", false, 3600, rangeQueries, false),
            ("arrive-by, uniform", false, 0, queries, true),
        ] {
            var samples = LatencySamples()
            var found = 0
            var cut = 0
            var answers = JourneyDigest()
            for _ in 0..<count {
                guard let q = draw(weighted: weighted) else { throw BenchError("no two places with departures") }
                if window == 0 && !weighted && !arriveBy { drawn.append(q) }
                var query = PlanQuery(
                    from: .stops([q.from]), to: .stops([q.to]), time: arriveBy ? .arriveBy(q.at) : .departAt(q.at))
                query.window = window
                query.walkRadius = walkRadius
                query.limit = 20
                query.budget = .seconds(10)
                let t0 = monotonicNanos()
                let result = try JourneyPlanner.plan(query, on: timetable, workspace: workspace)
                samples.add(monotonicNanos() - t0)
                found += result.journeys.isEmpty ? 0 : 1
                cut += result.cut ? 1 : 0
                answers.add(result, on: timetable)
                if checkUnpruned {
                    let plain = try JourneyPlanner.plan(query, on: timetable, workspace: unpruned)
                    func times(_ r: PlanResult) -> [[Int64]] {
                        r.journeys.map { [$0.departure, $0.arrival, Int64($0.transfers)] }
                    }
                    var a = JourneyDigest(), b = JourneyDigest()
                    a.add(result, on: timetable)
                    b.add(plain, on: timetable)
                    if times(result) != times(plain) {
                        differ += 1
                        print("differs from unpruned: \(q) \(times(result)) against \(times(plain))")
                    } else if a.value != b.value {
                        ties += 1
                    }
                }
            }
            let s = samples.summary(wallSeconds: 0)
            print(
                String(
                    format: "| %@ | %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %016llx |", label, count, found, cut,
                    s.p50 / 1000, s.p95 / 1000, s.p99 / 1000, s.max / 1000, answers.value))
        }

        print("\n\(MemoryFloor.header)\n\(floorAtStart)\n\(MemoryFloor.row("after the plans"))")
        if checkUnpruned {
            print(
                "\nAgainst the search without trip bounds: \(differ) answers differ in times, \(ties) chose another journey of equal times."
            )
        }

        guard let gateway else { return }
        let lines = drawn.map { q in
            "{\"op\":\"plan\",\"from\":{\"stop_id\":\"\(input.stopIds[q.from])\"},\"to\":{\"stop_id\":\"\(input.stopIds[q.to])\"},\"at\":\(q.at)}\n"
        }
        print("\n| end to end (\(gateway)) | connections | plans | errors | plans/s | p50 ms | p95 ms | p99 ms |")
        print("|---|---|---|---|---|---|---|---|")
        for connections in [1, 8] {
            let result = try PlanLineClients.run(
                gateway: gateway, connections: connections, lines: lines, perConnection: gatewayQueries)
            let s = result.samples.summary(wallSeconds: result.seconds)
            print(
                String(
                    format: "| plan | %d | %d | %d | %.1f | %.2f | %.2f | %.2f |", connections, s.count, result.errors,
                    s.throughput, s.p50 / 1000, s.p95 / 1000, s.p99 / 1000))
        }
    }
}

/// A hash of the journeys answered (every leg's trip instance, stops, positions and times, every walk), so that two
/// builds' rows show whether a change to the planner changed any answer (same seed and database: same digest). Trips
/// by their identity (trip, date, start, or an added trip's id), not the timetable's run numbers, which a build may
/// assign in another order.
struct JourneyDigest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    private mutating func mix(_ x: Int64) {
        var v = UInt64(bitPattern: x)
        for _ in 0..<8 {
            value = (value ^ (v & 0xff)) &* 0x100_0000_01b3
            v >>= 8
        }
    }

    mutating func add(_ result: PlanResult, on timetable: Timetable) {
        mix(Int64(result.journeys.count))
        mix(result.laterAt ?? -1)
        for j in result.journeys {
            for x in [j.departure, j.arrival, Int64(j.transfers), Int64(j.legs.count)] { mix(x) }
            for leg in j.legs {
                switch leg {
                case .transit(let t):
                    let trip = timetable.runIdentity(t.run)
                    if let key = trip.key {
                        for x in [Int(key.trip), key.date.dayNumber, Int(key.start)] { mix(Int64(x)) }
                    }
                    for byte in (trip.addedId ?? "").utf8 { mix(Int64(byte)) }
                    for x in [t.boardStop, t.alightStop, t.boardPosition, t.alightPosition] { mix(Int64(x)) }
                    mix(t.departure)
                    mix(t.arrival)
                case .walk(let w):
                    for x in [w.from ?? -1, w.to ?? -1, w.duration] { mix(Int64(x)) }
                    mix(Int64(w.distance.bitPattern))
                }
            }
        }
    }
}

/// Blocking line clients on threads of their own: each sends a plan and waits for its answer (closed loop).
enum PlanLineClients {
    struct Result {
        var samples = LatencySamples()
        var errors = 0
        var seconds = 0.0
    }

    static func run(gateway: String, connections: Int, lines: [String], perConnection: Int) throws -> Result {
        guard let colon = gateway.lastIndex(of: ":"), let port = UInt16(gateway[gateway.index(after: colon)...])
        else { throw BenchError("--gateway expects host:port, got \(gateway)") }
        let host = String(gateway[..<colon])
        let shared = Mutex<(total: Result, failure: String?)>((Result(), nil))
        let group = DispatchGroup()
        let started = monotonicNanos()
        for c in 0..<connections {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var mine = Result()
                do {
                    let fd = try connect(host: host, port: port)
                    defer { close(fd) }
                    var buffer: [UInt8] = []
                    for i in 0..<perConnection {
                        let line = lines[(c * perConnection + i) % lines.count]
                        let t0 = monotonicNanos()
                        try send(fd, line)
                        let answer = try readLine(fd, &buffer)
                        mine.samples.add(monotonicNanos() - t0)
                        if !answer.contains("\"ok\":true") { mine.errors += 1 }
                    }
                } catch {
                    shared.withLock { $0.failure = "\(error)" }
                }
                shared.withLock {
                    $0.total.samples.merge(mine.samples)
                    $0.total.errors += mine.errors
                }
            }
        }
        group.wait()
        var (total, failure) = shared.withLock { $0 }
        total.seconds = Double(monotonicNanos() - started) / 1e9
        if let failure { throw BenchError("gateway \(gateway): \(failure)") }
        return total
    }

    private static func connect(host: String, port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            close(fd)
            throw BenchError("not an IPv4 address: \(host)")
        }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard ok == 0 else {
            close(fd)
            throw BenchError("cannot connect to \(host):\(port)")
        }
        return fd
    }

    private static func send(_ fd: Int32, _ line: String) throws {
        let bytes = Array(line.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw BenchError("send failed") }
            sent += n
        }
    }

    private static func readLine(_ fd: Int32, _ buffer: inout [UInt8]) throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw BenchError("the gateway closed the connection") }
            buffer += chunk[..<n]
        }
    }
}

extension SeededGenerator {
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
