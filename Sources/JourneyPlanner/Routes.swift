/// A RAPTOR route: trips that stop at the same stops with the same pickup/drop-off rules, mode and wheelchair
/// access, and never overtake one another: at every position each trip's arrival and departure are at or after
/// the previous trip's, so "the earliest trip catchable here" is a binary search and a trip boarded earlier is
/// never beaten by a later one. Times are seconds after the timetable's epoch, trip-major.
///
/// Immutable, in one raw allocation (stops, flags, runs, arrivals, departures), so that a live update shares the
/// routes it does not change and a search reads a route through a `RouteView` of plain pointers: no reference
/// counting or copy-on-write check in its loops.
///
/// The reverse (arrive-by) search's route is the forward one `mirrored()`: its own stops, flags and runs (reversed),
/// and the forward route's times read backwards and negated (`timeSign` −1), not a copy of them: a live update then
/// writes each changed route's times once, and the timetable holds them once.
final class RaptorRoute: @unchecked Sendable {
    let stopCount: Int
    let tripCount: Int
    let modeBit: UInt8
    let accessible: Bool
    let stops: UnsafeMutablePointer<Int32>
    /// Per position: bit 0 pickup, bit 1 drop-off.
    let flags: UnsafeMutablePointer<Int32>
    /// The run of each trip, in trip order.
    let runs: UnsafeMutablePointer<Int32>
    /// The times, trip-major: time k (trip × stopCount + position) is `arrivals[k]` on a forward route; on a
    /// mirrored one it is `−arrivals[−k]` (the pointers are the last time of the forward route's departures and
    /// arrivals). Read them with `arrival(_:)` and `departure(_:)`, or a `RouteTimes` in the search's loops. When no
    /// trip of the route dwells anywhere (most of a feed's trips), `departures` is `arrivals`: the times are held,
    /// copied and read once.
    let arrivals: UnsafeMutablePointer<Int32>
    let departures: UnsafeMutablePointer<Int32>
    /// Per position i below the last: the least ride of the route's trips from i to i + 1 (arrival there less
    /// departure here, at least 0), in this route's direction: what `RideBounds` adds up, a lower bound on any ride
    /// along it, live or scheduled (a live update builds its routes anew).
    let fastest: UnsafeMutablePointer<Int32>
    /// 1 for a forward route, −1 for a mirrored one.
    let timeSign: Int
    /// The forward route a mirrored one reads its times from (kept alive with it).
    private let forward: RaptorRoute?

    /// A route with its memory allocated and not yet written (the initialisers below fill it); with `dwells` false
    /// (no trip's arrival differs from its departure anywhere) the times are held once, `departures` is `arrivals`.
    private init(stopCount: Int, tripCount: Int, modeBit: UInt8, accessible: Bool, dwells: Bool) {
        self.stopCount = stopCount
        self.tripCount = tripCount
        self.modeBit = modeBit
        self.accessible = accessible
        let times = stopCount * tripCount
        let memory = UnsafeMutablePointer<Int32>.allocate(
            capacity: max(1, 3 * stopCount + tripCount + (dwells ? 2 : 1) * times))
        stops = memory
        flags = memory + stopCount
        fastest = memory + 2 * stopCount
        runs = memory + 3 * stopCount
        arrivals = runs + tripCount
        departures = dwells ? arrivals + times : arrivals
        timeSign = 1
        self.forward = nil
    }

    /// `forward` travelled backwards in negated time: trip t is forward's tripCount−1−t, position i its
    /// stopCount−1−i, boarding becomes alighting.
    private init(mirroring forward: RaptorRoute) {
        let n = forward.stopCount, m = forward.tripCount
        stopCount = n
        tripCount = m
        modeBit = forward.modeBit
        accessible = forward.accessible
        let memory = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, 3 * n + m))
        stops = memory
        flags = memory + n
        fastest = memory + 2 * n
        runs = memory + 3 * n
        for i in 0..<n {
            stops[i] = forward.stops[n - 1 - i]
            let f = forward.flags[n - 1 - i]
            flags[i] = (f & 1) << 1 | (f & 2) >> 1
            // The mirror's ride from i to i + 1 is the forward ride from n − 2 − i to n − 1 − i.
            fastest[i] = i < n - 1 ? forward.fastest[n - 2 - i] : 0
        }
        for t in 0..<m { runs[t] = forward.runs[m - 1 - t] }
        // Time k = t·n + i of the mirror is forward time (m−1−t)·n + (n−1−i) = (m·n − 1) − k.
        arrivals = forward.departures + (m * n - 1)
        departures = forward.arrivals + (m * n - 1)
        timeSign = -1
        self.forward = forward
    }

    deinit { stops.deallocate() }

    /// The route of `key`'s stops and rules with the trips `group` (indexes into `trips`), in that order. Scheduled trips
    /// whose times lie one after another are copied together, one copy per stretch: a pattern's scheduled times are
    /// laid out in the order of its groups, so a route is mostly a few long copies.
    convenience init(key: Timetable.PatternKey, group: [Int], trips: FIFOSplit.Trips) {
        let n = key.stops.count
        self.init(
            stopCount: n, tripCount: group.count, modeBit: key.modeBit, accessible: key.accessible,
            dwells: group.contains { trips.dwells[$0] })
        for i in 0..<n {
            stops[i] = key.stops[i]
            flags[i] = (key.pickup[i] ? 1 : 0) | (key.dropOff[i] ? 2 : 0)
        }
        var first = 0  // the stretch being gathered: trips first..<t of the group
        var t = 0
        while t < group.count {
            let trip = group[t]
            self.runs[t] = trips.runs[trip]
            if t > first && !trips.liesRightAfter(trip, group[t - 1]) {
                copyTimes(first..<t, from: trips, of: group)
                first = t
            }
            t += 1
        }
        if first < t { copyTimes(first..<t, from: trips, of: group) }
        findFastest()
    }

    /// Writes `fastest` from the times (`RideBounds.unreachable` for a route without trips). The least rides are
    /// gathered on the stack: a live update finds them for every route it builds, and over an array they took 6 ms
    /// more per full update at NSW scale (BENCHMARKS.md, session 33).
    private func findFastest() {
        let n = stopCount
        guard n > 0 else { return }
        fastest[n - 1] = 0
        guard n > 1 else { return }
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: n - 1) { least in
            least.initialize(repeating: tripCount > 0 ? .max : RideBounds.unreachable)
            Self.lower(
                least, toRidesOf: stride(from: 0, to: tripCount * n, by: n), arrivals: arrivals, departures: departures)
            fastest.update(from: least.baseAddress!, count: n - 1)
        }
    }

    /// Lowers `best[i]` to the ride from position i to i + 1 of each run whose times start at `starts` in `arrivals`
    /// and `departures`, a ride backwards in time counting 0: the fastest rides of a route (`fastest`) and of a
    /// pattern's runs (`Landmarks`).
    @inline(__always)
    static func lower(
        _ best: UnsafeMutableBufferPointer<Int32>, toRidesOf starts: some Sequence<Int>,
        arrivals: UnsafePointer<Int32>?, departures: UnsafePointer<Int32>?
    ) {
        guard let arrivals, let departures else { return }
        for start in starts {
            let a = arrivals + start + 1, d = departures + start
            for i in 0..<best.count { best[i] = min(best[i], max(0, a[i] &- d[i])) }
        }
    }

    /// Copies the times of `group[range]`, which lie one after another, into this route's trips `range`.
    private func copyTimes(_ range: Range<Int>, from trips: FIFOSplit.Trips, of group: [Int]) {
        let n = stopCount, count = range.count * n
        (arrivals + range.lowerBound * n).update(from: trips.arrivals(group[range.lowerBound]), count: count)
        if departures != arrivals {
            (departures + range.lowerBound * n).update(from: trips.departures(group[range.lowerBound]), count: count)
        }
    }

    @inline(__always) func pickup(_ i: Int) -> Bool { flags[i] & 1 != 0 }
    @inline(__always) func dropOff(_ i: Int) -> Bool { flags[i] & 2 != 0 }

    /// The same stops and rules without trips.
    func emptied() -> RaptorRoute {
        let e = RaptorRoute(stopCount: stopCount, tripCount: 0, modeBit: modeBit, accessible: accessible, dwells: false)
        e.stops.update(from: stops, count: stopCount)
        e.flags.update(from: flags, count: stopCount)
        e.findFastest()
        return e
    }

    func sameStops(as other: RaptorRoute) -> Bool {
        stopCount == other.stopCount && (0..<stopCount).allSatisfy { stops[$0] == other.stops[$0] }
    }

    /// The route of the reverse (arrive-by) search: the same trips travelled backwards in negated time, reading
    /// this route's times. Trip t becomes tripCount−1−t, position i becomes stopCount−1−i, boarding becomes
    /// alighting.
    func mirrored() -> RaptorRoute { RaptorRoute(mirroring: self) }

    /// Bytes of the route's own memory (a mirrored route's times are its forward route's).
    var bytes: Int {
        let times = timeSign < 0 ? 0 : (departures == arrivals ? 1 : 2) * stopCount * tripCount
        return (3 * stopCount + tripCount + times) * 4 + 64
    }

    var view: RouteView {
        RouteView(
            stops: stops, flags: flags, arrivals: arrivals, departures: departures, fastest: fastest,
            stopCount: stopCount,
            tripCount: tripCount, modeBit: modeBit, accessible: accessible, timeSign: timeSign)
    }

    /// Time k's arrival and departure (k = trip × stopCount + position).
    @inline(__always) func arrival(_ k: Int) -> Int32 { view.arrival(k) }
    @inline(__always) func departure(_ k: Int) -> Int32 { view.departure(k) }
}

/// How a search's loops read a route's times. The direction is a type, so that each direction's loops are
/// compiled apart and the forward search reads the arrays as they are, with no sign to apply.
protocol RouteTimes {
    static func arrival(_ route: RouteView, _ k: Int) -> Int32
    static func departure(_ route: RouteView, _ k: Int) -> Int32
}

/// A forward route's times.
enum ForwardTimes: RouteTimes {
    @inline(__always) static func arrival(_ route: RouteView, _ k: Int) -> Int32 { route.arrivals[k] }
    @inline(__always) static func departure(_ route: RouteView, _ k: Int) -> Int32 { route.departures[k] }
}

/// A mirrored route's times: its forward route's, backwards and negated (wrapping: `Int32.min` stays itself).
enum MirroredTimes: RouteTimes {
    @inline(__always) static func arrival(_ route: RouteView, _ k: Int) -> Int32 { 0 &- route.arrivals[-k] }
    @inline(__always) static func departure(_ route: RouteView, _ k: Int) -> Int32 { 0 &- route.departures[-k] }
}

/// A route's memory as plain pointers, for the search's loops. Valid while its `RaptorRoute` lives (the route set
/// that holds the view holds the route).
struct RouteView: @unchecked Sendable {
    let stops: UnsafeMutablePointer<Int32>
    let flags: UnsafeMutablePointer<Int32>
    let arrivals: UnsafeMutablePointer<Int32>
    let departures: UnsafeMutablePointer<Int32>
    /// As `RaptorRoute.fastest`.
    let fastest: UnsafeMutablePointer<Int32>
    let stopCount: Int
    let tripCount: Int
    let modeBit: UInt8
    let accessible: Bool
    /// As `RaptorRoute.timeSign`.
    let timeSign: Int

    /// Time k's arrival and departure, in either direction (outside the search's loops: those use `RouteTimes`).
    @inline(__always) func arrival(_ k: Int) -> Int32 {
        timeSign > 0 ? ForwardTimes.arrival(self, k) : MirroredTimes.arrival(self, k)
    }
    @inline(__always) func departure(_ k: Int) -> Int32 {
        timeSign > 0 ? ForwardTimes.departure(self, k) : MirroredTimes.departure(self, k)
    }

    /// The first trip below `upper` departing position `i` at or after `time`, or nil.
    @inline(__always)
    func earliestTrip<T: RouteTimes>(at i: Int, notBefore time: Int32, below upper: Int, _: T.Type) -> Int? {
        var lo = 0, hi = upper
        let n = stopCount
        while lo < hi {
            let mid = (lo + hi) >> 1
            if T.departure(self, mid * n + i) >= time { hi = mid } else { lo = mid + 1 }
        }
        return lo < upper ? lo : nil
    }

    /// The first trip departing position `i` at or after `time`, given that trip `known` does (FIFO: the
    /// departures at a position do not decrease with the trip): galloping back from `known`, then a binary search,
    /// so that an answer near `known` costs a few nearby reads.
    @inline(__always)
    func earliestTrip<T: RouteTimes>(at i: Int, notBefore time: Int32, atOrBefore known: Int, _: T.Type) -> Int {
        let n = stopCount
        var hi = known  // departs at or after `time`
        var step = 1
        var lo = hi - step  // below hi: the answer is above lo once lo departs before `time` (or is −1)
        while lo >= 0 && T.departure(self, lo * n + i) >= time {
            hi = lo
            step <<= 1
            lo = hi - step
        }
        var a = max(lo, -1) + 1, b = hi
        while a < b {
            let mid = (a + b) >> 1
            if T.departure(self, mid * n + i) >= time { b = mid } else { a = mid + 1 }
        }
        return a
    }
}

/// One direction's routes and, for each stop, the routes (and positions in them) that serve it.
struct RouteSet: Sendable {
    struct Visit: Sendable {
        var route: Int32
        var position: Int32
    }
    private(set) var routes: [RaptorRoute]
    /// `routes[r].view`, kept in step.
    private(set) var views: [RouteView]
    /// The routes (and positions in them) serving each stop, stop after stop (`visitStart[s]..<visitStart[s + 1]`),
    /// each stop's in the order the routes were added: one array for the search's loops, not an array per stop (a
    /// live update that adds routes then rewrites one array, not 100,000 small ones, BENCHMARKS.md session 31).
    private(set) var visitStart: [Int32]
    private(set) var visitList: [Visit] = []
    /// The visits of the routes added since the last `flattenVisits()`, in the order added.
    private var pending: [(stop: Int32, visit: Visit)] = []
    /// Whether `visitStart`/`visitList` hold every route's visits (`flattenVisits()` after adding routes).
    var flat: Bool { pending.isEmpty }

    init(stopCount: Int) {
        routes = []
        views = []
        visitStart = Array(repeating: 0, count: stopCount + 1)
    }

    /// The visits at stop s.
    func visits(_ s: Int) -> ArraySlice<Visit> { visitList[Int(visitStart[s])..<Int(visitStart[s + 1])] }

    /// Merges the visits of the routes added since the last call into `visitList`, each after its stop's earlier
    /// ones: one pass that copies the runs of stops between the stops with new visits whole.
    mutating func flattenVisits() {
        guard !pending.isEmpty else { return }
        let n = visitStart.count - 1
        // The new visits by stop, in the order added (a counting sort is stable).
        var added = [Int32](repeating: 0, count: n + 1)
        for v in pending { added[Int(v.stop) + 1] += 1 }
        for s in 0..<n { added[s + 1] += added[s] }
        var byStop = [Visit](repeating: Visit(route: 0, position: 0), count: pending.count)
        var fill = added
        for v in pending {
            byStop[Int(fill[Int(v.stop)])] = v.visit
            fill[Int(v.stop)] += 1
        }
        var list: [Visit] = []
        list.reserveCapacity(visitList.count + pending.count)
        var start = visitStart
        var copied = 0  // the old visits copied so far: those of the stops before `s`
        for s in 0..<n where added[s + 1] > added[s] {
            let end = Int(visitStart[s + 1])
            list.append(contentsOf: visitList[copied..<end])
            list.append(contentsOf: byStop[Int(added[s])..<Int(added[s + 1])])
            copied = end
        }
        list.append(contentsOf: visitList[copied...])
        for s in 0...n { start[s] += added[s] }
        visitStart = start
        visitList = list
        pending.removeAll()
    }

    /// Puts `route` in slot `index` (appending when it is new; `flattenVisits()` then lists its visits). A slot holds
    /// the routes of one pattern for the timetable's life (`Timetable.install`), so a route replacing another has its
    /// stops.
    mutating func set(_ index: Int, _ route: RaptorRoute) {
        if index < routes.count {
            assert(routes[index].sameStops(as: route), "slot \(index) taken by another pattern")
            routes[index] = route
            views[index] = route.view
            return
        }
        precondition(index == routes.count)
        routes.append(route)
        views.append(route.view)
        for i in 0..<route.stopCount {
            pending.append((route.stops[i], Visit(route: Int32(index), position: Int32(i))))
        }
    }
}

/// The trips of one stop pattern as FIFO groups: each group ordered by `before` (departures, then arrivals, then
/// runs, compared position by position), and each trip at or after the previous one at every position (a scheduled
/// pattern is one group; live delays may split it).
enum FIFOSplit {
    /// Trips given as indexes into `runs` and `offsets`: trip x's times (`stopCount` of them) start at
    /// `scheduled.arrivals + offsets[x]` (and `.departures`) when the offset is 0 or more, else at `live.arrivals +
    /// (−1 − offsets[x])`. The pointers are valid while the caller's arrays are (nil: an empty array, which no offset
    /// reaches).
    struct Trips {
        let runs: [Int32]
        let stopCount: Int
        let offsets: [Int]
        /// Whether trip x's arrival differs from its departure at some position.
        let dwells: [Bool]
        /// Trip x's departure at the first position: the comparisons below mostly end there, and reading it here
        /// (a small array, in the trips' order) instead of through `offsets` saves a cache miss per comparison.
        let firstDepartures: [Int32]
        let scheduled: (arrivals: UnsafePointer<Int32>?, departures: UnsafePointer<Int32>?)
        let live: (arrivals: UnsafePointer<Int32>?, departures: UnsafePointer<Int32>?)

        @inline(__always) func arrivals(_ x: Int) -> UnsafePointer<Int32> {
            let o = offsets[x]
            return o >= 0 ? scheduled.arrivals! + o : live.arrivals! + (-1 - o)
        }
        @inline(__always) func departures(_ x: Int) -> UnsafePointer<Int32> {
            let o = offsets[x]
            return o >= 0 ? scheduled.departures! + o : live.departures! + (-1 - o)
        }

        /// Whether trips x and y are scheduled ones whose times lie one after the other in the scheduled arrays (a
        /// live trip's departures follow its own arrivals, so live trips are copied one by one).
        @inline(__always) func liesRightAfter(_ y: Int, _ x: Int) -> Bool {
            let a = offsets[x]
            return a >= 0 && offsets[y] == a + stopCount
        }

        /// The groups' order: departures position by position, then arrivals, then the run.
        func before(_ x: Int, _ y: Int) -> Bool {
            let fx = firstDepartures[x], fy = firstDepartures[y]
            if fx != fy { return fx < fy }
            let dx = departures(x), dy = departures(y)
            for i in 0..<stopCount where dx[i] != dy[i] { return dx[i] < dy[i] }
            let ax = arrivals(x), ay = arrivals(y)
            for i in 0..<stopCount where ax[i] != ay[i] { return ax[i] < ay[i] }
            return runs[x] < runs[y]
        }

        /// Whether trip y is at or after trip x at every position.
        func follows(_ y: Int, _ x: Int) -> Bool {
            if firstDepartures[y] < firstDepartures[x] { return false }
            let ax = arrivals(x), ay = arrivals(y)
            if !dwells[x] && !dwells[y] {
                // Neither dwells: their departures are their arrivals.
                for i in 0..<stopCount where ay[i] < ax[i] { return false }
                return true
            }
            let dx = departures(x), dy = departures(y)
            for i in 0..<stopCount where ay[i] < ax[i] || dy[i] < dx[i] { return false }
            return true
        }
    }

    /// All the trips as groups: sorted by `before`, each put in the first group whose last trip it follows.
    static func groups(_ trips: Trips) -> [[Int]] {
        var groups: [[Int]] = []
        place(Array(trips.runs.indices), into: &groups, trips)
        return groups
    }

    /// Adds `extra` trips to `groups` (FIFO groups of other trips): sorted by `before`, each put in the first group
    /// where it follows the trip before its place and the trip after it follows it (then the group stays FIFO: being
    /// at or after is transitive), else into a new group. A live update places only its live runs this way: the
    /// schedule's groups are not compared again.
    static func place(_ extra: [Int], into groups: inout [[Int]], _ trips: Trips) {
        for trip in extra.sorted(by: trips.before) {
            var placed = false
            for g in groups.indices {
                // The place in the group's order: after every trip not after it.
                var lo = 0, hi = groups[g].count
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if trips.before(trip, groups[g][mid]) { hi = mid } else { lo = mid + 1 }
                }
                if lo > 0 && !trips.follows(trip, groups[g][lo - 1]) { continue }
                if lo < groups[g].count && !trips.follows(groups[g][lo], trip) { continue }
                groups[g].insert(trip, at: lo)
                placed = true
                break
            }
            if !placed { groups.append([trip]) }
        }
    }
}
