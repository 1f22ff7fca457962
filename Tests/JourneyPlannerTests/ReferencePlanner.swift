import Foundation
import JourneyPlanner
import TransitCore

/// A slow, simple planner over the same rules, written apart from the planner to check it: it expands the trip
/// instances from the `TimetableSource` itself, resolves every walk from the stops and transfers.txt rows on
/// demand, and runs plain rounds over every trip instance (no routes, no pruning).
final class ReferencePlanner: @unchecked Sendable {
    /// A class so the rounds' loops share it instead of copying its arrays (a debug build copies structs).
    final class Run {
        var key: RunKey?
        var stops: [Int]
        var arrivals: [Int64]
        var departures: [Int64]
        var pickup: [Bool]
        var dropOff: [Bool]
        var mode: Mode
        var accessible: Bool

        init(
            key: RunKey?, stops: [Int], arrivals: [Int64], departures: [Int64], pickup: [Bool], dropOff: [Bool],
            mode: Mode, accessible: Bool
        ) {
            self.key = key
            self.stops = stops
            self.arrivals = arrivals
            self.departures = departures
            self.pickup = pickup
            self.dropOff = dropOff
            self.mode = mode
            self.accessible = accessible
        }
    }
    let source: TimetableSource
    let runs: [Run]
    let runByKey: [RunKey: Int]
    /// The runs calling at each stop: a round only rides the runs through stops whose label the previous round
    /// changed (any other run gives what it gave before).
    let runsAt: [[Int]]
    let served: Set<Int>
    let maxWalkRadius: Double
    /// Walks out of and into each stop for one (radius, speed), computed on first use from `walkTime`.
    final class WalkCache: @unchecked Sendable {
        var key: (Double, Double)? = nil
        var out: [[(stop: Int, time: Int64)]] = []
        var into: [[(stop: Int, time: Int64)]] = []
    }
    let cache = WalkCache()

    init(_ source: TimetableSource, live: LiveTrips = LiveTrips(), maxWalkRadius: Double = 2000) {
        self.source = source
        self.maxWalkRadius = maxWalkRadius
        var runs: [Run] = []
        var seen = Set<RunKey>()
        for day in source.days {
            for (t, trip) in source.trips.enumerated() where day.services.contains(trip.service) {
                guard trip.stopTimes.count >= 2 else { continue }
                var starts: [Int?] = []
                if trip.frequencies.isEmpty {
                    starts = [nil]
                } else {
                    for period in trip.frequencies {
                        var s = period.start
                        while s < period.end {
                            starts.append(s)
                            s += period.headway
                        }
                    }
                }
                for start in starts {
                    let key = RunKey(trip: t, date: day.date, start: start ?? -1)
                    guard seen.insert(key).inserted else { continue }
                    let shift =
                        day.referenceUnix + Int64((start ?? trip.stopTimes[0].departure) - trip.stopTimes[0].departure)
                    let run = Run(
                        key: key, stops: trip.stopTimes.map(\.stop),
                        arrivals: trip.stopTimes.map { shift + Int64($0.arrival) },
                        departures: trip.stopTimes.map { shift + Int64($0.departure) },
                        pickup: trip.stopTimes.map(\.pickup), dropOff: trip.stopTimes.map(\.dropOff), mode: trip.mode,
                        accessible: trip.wheelchairAccessible == 1)
                    switch live.runs[key] {
                    case .cancelled: continue
                    case .times(let times) where times.count == run.stops.count:
                        run.arrivals = times.map(\.arrival)
                        run.departures = times.map(\.departure)
                        for (i, s) in times.enumerated() where s.skipped {
                            run.pickup[i] = false
                            run.dropOff[i] = false
                        }
                    default: break
                    }
                    runs.append(run)
                }
            }
        }
        for (_, added) in live.added.sorted(by: { $0.key < $1.key }) {
            runs.append(
                Run(
                    key: nil, stops: added.stops, arrivals: added.arrivals, departures: added.departures,
                    pickup: added.pickup, dropOff: added.dropOff, mode: added.mode,
                    accessible: added.wheelchairAccessible))
        }
        runs.sort {
            ($0.departures[0], $0.arrivals[$0.arrivals.count - 1]) < (
                $1.departures[0], $1.arrivals[$1.arrivals.count - 1]
            )
        }
        self.runs = runs
        var runsAt = Array(repeating: [Int](), count: source.stops.count)
        for (i, r) in runs.enumerated() { for s in Set(r.stops) { runsAt[s].append(i) } }
        self.runsAt = runsAt
        var runByKey: [RunKey: Int] = [:]
        for (i, r) in runs.enumerated() { if let key = r.key { runByKey[key] = i } }
        self.runByKey = runByKey
        // Walks link the stops of scheduled trips (an added trip's stop without scheduled service has none).
        served = Set(source.trips.flatMap { $0.stopTimes.map(\.stop) })
    }

    // MARK: the rules, read straight from the source

    func station(_ s: Int) -> Int? { source.stops[s].station }

    func accessible(_ s: Int) -> Bool {
        let w = source.stops[s].wheelchairBoarding
        if w == 1 { return true }
        if w == 0, let st = station(s) { return source.stops[st].wheelchairBoarding == 1 }
        return false
    }

    /// The transfers.txt row for an ordered pair: stop–stop, stop–station, station–stop, station–station; the
    /// last row of a level wins.
    func entry(_ a: Int, _ b: Int) -> TimetableSource.Transfer? {
        var levels: [(Int, Int)] = [(a, b)]
        if let sb = station(b) { levels.append((a, sb)) }
        if let sa = station(a) { levels.append((sa, b)) }
        if let sa = station(a), let sb = station(b) { levels.append((sa, sb)) }
        for (x, y) in levels {
            if let row = source.transfers.last(where: { $0.from == x && $0.to == y }) { return row }
        }
        return nil
    }

    func distance(_ a: Int, _ b: Int) -> Double? {
        let s = source.stops[a], t = source.stops[b]
        guard let la = s.lat, let lo = s.lon, let lb = t.lat, let lob = t.lon else { return nil }
        return Walking.distance(lat1: la, lon1: lo, lat2: lb, lon2: lob)
    }

    /// Seconds to walk from a to b after a trip, nil when no walk is allowed.
    func walkTime(_ a: Int, _ b: Int, radius: Double, speed: Double) -> Int64? {
        guard a != b, served.contains(a), served.contains(b) else { return nil }
        let d = distance(a, b)
        if let e = entry(a, b) {
            if e.type == 3 { return nil }
            if let t = e.minTime { return Int64(t) }
            return Int64(Walking.seconds(metres: d ?? 0, speed: speed))
        }
        if let sa = station(a), sa == station(b) { return Int64(Walking.seconds(metres: d ?? 0, speed: speed)) }
        guard let d, radius > 0, d <= radius, d <= maxWalkRadius else { return nil }
        return Int64(Walking.seconds(metres: d, speed: speed))
    }

    /// Seconds to change trips at one stop, nil when it is forbidden.
    func change(_ s: Int, slack: Int) -> Int64? {
        guard let e = entry(s, s) else { return Int64(slack) }
        if e.type == 3 { return nil }
        if e.type == 2, let t = e.minTime { return Int64(t) }
        return Int64(slack)
    }

    func walks(_ o: Options) -> (out: [[(stop: Int, time: Int64)]], into: [[(stop: Int, time: Int64)]]) {
        if let key = cache.key, key == (o.walkRadius, o.walkSpeed) { return (cache.out, cache.into) }
        var out = Array(repeating: [(stop: Int, time: Int64)](), count: source.stops.count)
        var into = out
        for a in served {
            for b in served {
                if let w = walkTime(a, b, radius: o.walkRadius, speed: o.walkSpeed) {
                    out[a].append((b, w))
                    into[b].append((a, w))
                }
            }
        }
        cache.key = (o.walkRadius, o.walkSpeed)
        cache.out = out
        cache.into = into
        return (out, into)
    }

    /// The runs calling at any of `stops`, each once, in index order.
    func runsThrough(_ stops: Set<Int>) -> [Int] {
        if runStamp.count != runs.count { runStamp = Array(repeating: 0, count: runs.count) }
        generation += 1
        var result: [Int] = []
        for p in stops {
            for r in runsAt[p] where runStamp[r] != generation {
                runStamp[r] = generation
                result.append(r)
            }
        }
        return result
    }
    private var runStamp: [Int] = []
    private var generation = 0

    // MARK: queries

    struct Options {
        var maxTransfers = 4
        var slack = 60
        var walkRadius = 400.0
        var walkSpeed = 1.2
        var accessRadius = 600.0
        var modes: Set<Mode> = []
        var wheelchair = false
    }

    func runAllowed(_ r: Run, _ o: Options) -> Bool {
        (o.modes.isEmpty || o.modes.contains(r.mode)) && (!o.wheelchair || r.accessible)
    }
    func stopAllowed(_ s: Int, _ o: Options) -> Bool { !o.wheelchair || accessible(s) }

    func stopsMeant(_ s: Int) -> [Int] {
        let children = source.stops.indices.filter { station($0) == s && served.contains($0) }
        if children.isEmpty { return [s] }
        return (served.contains(s) ? [s] : []) + children
    }

    /// The stops of a place and the walk to each.
    func places(_ place: PlanPlace, _ o: Options) -> [Int: Int64] {
        switch place {
        case .stops(let list):
            var result: [Int: Int64] = [:]
            for s in list { for m in stopsMeant(s) { result[m] = 0 } }
            return result
        case .coordinate(let lat, let lon):
            var result: [Int: Int64] = [:]
            for s in served {
                guard let slat = source.stops[s].lat, let slon = source.stops[s].lon else { continue }
                let d = Walking.distance(lat1: lat, lon1: lon, lat2: slat, lon2: slon)
                if d <= o.accessRadius { result[s] = Int64(Walking.seconds(metres: d, speed: o.walkSpeed)) }
            }
            return result
        }
    }

    /// The alighting stops from which the destination is reached, with the time from alighting to arriving.
    func egress(_ place: PlanPlace, _ o: Options) -> [Int: Int64] {
        var result = places(place, o)
        if case .stops = place {
            let into = walks(o).into
            for (d, _) in result {
                for (q, w) in into[d] where w < result[q] ?? .max { result[q] = w }
            }
        }
        return result
    }

    /// Earliest arrival with at most k+1 trips for k = 0…maxTransfers, departing the origin at `at`.
    /// `latestDeparture` (a range's end) bounds when the first trip may leave the origin (its walk included).
    func earliest(
        from: PlanPlace, to: PlanPlace, at: Int64, limit: Int64, latestDeparture: Int64 = .max, _ o: Options
    ) -> [Int64?] {
        let n = source.stops.count
        let none = Int64.max
        let usable = (0..<n).map { stopAllowed($0, o) }
        // Round 1 boards at the origin; later rounds only where a trip or a walk brought the rider.
        var origin = [Int64](repeating: none, count: n)
        var cap = [Int64](repeating: none, count: n)
        for (s, w) in places(from, o) where at + w <= limit {
            origin[s] = at + w
            cap[s] = latestDeparture == .max ? .max : latestDeparture + w
        }
        var ready = [Int64](repeating: none, count: n)
        var round = 0
        let targets = egress(to, o)
        let out = walks(o).out
        var best: Int64? = nil
        var result: [Int64?] = []
        var marked = Set((0..<n).filter { origin[$0] != none })
        for _ in 0...o.maxTransfers {
            round += 1
            let from = round == 1 ? origin : ready
            let earliestReady = from.min() ?? none
            var alight = [Int64](repeating: none, count: n)
            // A run leaving after the best arrival so far cannot lead to a better one.
            let bound = min(limit, best ?? .max)
            let candidates = runsThrough(marked)
            for r in candidates {
                let run = runs[r]
                if run.departures[0] > bound { continue }
                if run.arrivals[run.arrivals.count - 1] < earliestReady || !runAllowed(run, o) { continue }
                let (stops, arrivals, departures) = (run.stops, run.arrivals, run.departures)
                let (pickup, dropOff) = (run.pickup, run.dropOff)
                var boarded = false
                for i in 0..<stops.count {
                    let p = stops[i]
                    let allowed = usable[p]
                    if boarded && dropOff[i] && allowed && arrivals[i] <= limit {
                        alight[p] = min(alight[p], arrivals[i])
                    }
                    if !boarded && pickup[i] && allowed && from[p] <= departures[i]
                        && (round > 1 || departures[i] <= cap[p])
                    {
                        boarded = true
                    }
                }
            }
            var next = ready
            for p in 0..<n where alight[p] != none {
                let a = alight[p]
                if let c = change(p, slack: o.slack) { next[p] = min(next[p], a + c) }
                for (b, w) in out[p] where a + w <= limit { next[b] = min(next[b], a + w) }
                if let e = targets[p], a + e <= limit { best = min(best ?? .max, a + e) }
            }
            marked = Set((0..<n).filter { next[$0] < ready[$0] })
            ready = next
            result.append(best)
        }
        return result
    }

    /// Latest departure with at most k+1 trips for k = 0…maxTransfers, arriving by `by`.
    func latest(from: PlanPlace, to: PlanPlace, by: Int64, limit: Int64, _ o: Options) -> [Int64?] {
        let n = source.stops.count
        let none = Int64.min
        let usable = (0..<n).map { stopAllowed($0, o) }
        var deadline = [Int64](repeating: none, count: n)
        for (s, e) in egress(to, o) where by - e >= limit { deadline[s] = by - e }
        let origins = places(from, o)
        let into = walks(o).into
        var best: Int64? = nil
        var result: [Int64?] = []
        var marked = Set((0..<n).filter { deadline[$0] != none })
        for _ in 0...o.maxTransfers {
            let latestDeadline = deadline.max() ?? none
            var board = [Int64](repeating: none, count: n)
            let bound = max(limit, best ?? .min)
            let candidates = runsThrough(marked)
            for r in candidates {
                let run = runs[r]
                if run.arrivals[run.arrivals.count - 1] < bound { continue }
                if run.departures[0] > latestDeadline || !runAllowed(run, o) { continue }
                let (stops, arrivals, departures) = (run.stops, run.arrivals, run.departures)
                let (pickup, dropOff) = (run.pickup, run.dropOff)
                var alighted = false
                for i in stride(from: stops.count - 1, through: 0, by: -1) {
                    let p = stops[i]
                    let allowed = usable[p]
                    if alighted && pickup[i] && allowed && departures[i] >= limit {
                        board[p] = max(board[p], departures[i])
                    }
                    if !alighted && dropOff[i] && allowed && arrivals[i] <= deadline[p] {
                        alighted = true
                    }
                }
            }
            var next = deadline
            for b in 0..<n where board[b] != none {
                let d = board[b]
                if let c = change(b, slack: o.slack), d - c >= limit { next[b] = max(next[b], d - c) }
                for (q, w) in into[b] where d - w >= limit { next[q] = max(next[q], d - w) }
                if let a = origins[b], d - a >= limit { best = max(best ?? .min, d - a) }
            }
            marked = Set((0..<n).filter { next[$0] > deadline[$0] })
            deadline = next
            result.append(best)
        }
        return result
    }

    /// (departure, arrival, transfers) of every Pareto-optimal journey departing in [at, at + window].
    func range(from: PlanPlace, to: PlanPlace, at: Int64, window: Int64, limit: Int64, _ o: Options)
        -> [Triple]
    {
        var times = Set<Int64>()
        for (s, w) in places(from, o) where stopAllowed(s, o) {
            for run in runs where runAllowed(run, o) {
                for i in run.stops.indices where run.stops[i] == s && run.pickup[i] && i < run.stops.count - 1 {
                    let t = run.departures[i] - w
                    if t >= at && t <= at + window { times.insert(t) }
                }
            }
        }
        var candidates: [Triple] = []
        for t in times {
            let arrivals = earliest(from: from, to: to, at: t, limit: limit, latestDeparture: at + window, o)
            var previous: Int64? = nil
            for (k, a) in arrivals.enumerated() {
                if let a, a < previous ?? .max { candidates.append(Triple(departure: t, arrival: a, transfers: k)) }
                if let a { previous = min(previous ?? .max, a) }
            }
        }
        return paretoRange(candidates)
    }
}

struct Triple: Hashable, Comparable, CustomStringConvertible {
    var departure: Int64
    var arrival: Int64
    var transfers: Int
    static func < (a: Triple, b: Triple) -> Bool {
        (a.departure, a.transfers, a.arrival) < (b.departure, b.transfers, b.arrival)
    }
    var description: String { "dep \(departure) arr \(arrival) tr \(transfers)" }
}

/// The candidates no other candidate dominates (departing no earlier, arriving no later, with no more transfers).
func paretoRange(_ candidates: [Triple]) -> [Triple] {
    let unique = Array(Set(candidates))
    return unique.filter { c in
        !unique.contains { d in
            d != c && d.departure >= c.departure && d.arrival <= c.arrival && d.transfers <= c.transfers
        }
    }.sorted()
}

/// Per transfer count, the value when it improves on fewer transfers (the Pareto set of a one-shot query).
func paretoByTransfers(_ values: [Int64?], better: (Int64, Int64) -> Bool) -> [Int: Int64] {
    var result: [Int: Int64] = [:]
    var previous: Int64? = nil
    for (k, v) in values.enumerated() {
        guard let v else { continue }
        if previous == nil || better(v, previous!) { result[k] = v }
        previous = v
    }
    return result
}
