/// A RAPTOR route: trips that stop at the same stops with the same pickup/drop-off rules, mode and wheelchair
/// access, and never overtake one another: at every position each trip's arrival and departure are at or after
/// the previous trip's, so "the earliest trip catchable here" is a binary search and a trip boarded earlier is
/// never beaten by a later one. Times are seconds after the timetable's epoch, trip-major.
struct RaptorRoute: Sendable {
    var stops: [Int32]
    var pickup: [Bool]
    var dropOff: [Bool]
    var modeBit: UInt8
    var accessible: Bool
    /// The run of each trip, in trip order.
    var runs: [Int32]
    var arrivals: [Int32]
    var departures: [Int32]

    var stopCount: Int { stops.count }
    var tripCount: Int { runs.count }

    static let empty = RaptorRoute(
        stops: [], pickup: [], dropOff: [], modeBit: 0, accessible: false, runs: [], arrivals: [], departures: [])

    /// The same trips travelled backwards in negated time: the route of the reverse (arrive-by) search. Trip t
    /// becomes tripCount−1−t, position i becomes stopCount−1−i, boarding becomes alighting.
    func reversed() -> RaptorRoute {
        let n = stopCount, m = tripCount
        var arrivals = [Int32](repeating: 0, count: n * m)
        var departures = [Int32](repeating: 0, count: n * m)
        for t in 0..<m {
            for i in 0..<n {
                let from = (m - 1 - t) * n + (n - 1 - i)
                arrivals[t * n + i] = -self.departures[from]
                departures[t * n + i] = -self.arrivals[from]
            }
        }
        return RaptorRoute(
            stops: stops.reversed(), pickup: dropOff.reversed(), dropOff: pickup.reversed(), modeBit: modeBit,
            accessible: accessible, runs: runs.reversed(), arrivals: arrivals, departures: departures)
    }

    /// The first trip at or after `from` departing position `i` at or after `time`, or nil.
    @inline(__always)
    func earliestTrip(at i: Int, notBefore time: Int32, below upper: Int) -> Int? {
        var lo = 0, hi = upper
        let n = stopCount
        while lo < hi {
            let mid = (lo + hi) >> 1
            if departures[mid * n + i] >= time { hi = mid } else { lo = mid + 1 }
        }
        return lo < upper ? lo : nil
    }
}

/// One direction's routes and, for each stop, the routes (and positions in them) that serve it.
struct RouteSet: Sendable {
    struct Visit: Sendable {
        var route: Int32
        var position: Int32
    }
    var routes: [RaptorRoute]
    var visits: [[Visit]]

    init(stopCount: Int) {
        routes = []
        visits = Array(repeating: [], count: stopCount)
    }

    /// Puts `route` in slot `index` (appending when it is new) and keeps `visits` in step.
    mutating func set(_ index: Int, _ route: RaptorRoute) {
        if index == routes.count {
            routes.append(route)
        } else {
            let old = routes[index]
            if old.stops != route.stops {
                for s in Set(old.stops) { visits[Int(s)].removeAll { $0.route == Int32(index) } }
            } else {
                routes[index] = route
                return
            }
            routes[index] = route
        }
        for (i, s) in route.stops.enumerated() {
            visits[Int(s)].append(Visit(route: Int32(index), position: Int32(i)))
        }
    }
}

/// The trips of one stop pattern as FIFO groups: trips sorted by their departure from the first stop, each put
/// in the first group whose last trip it does not overtake anywhere (a scheduled pattern is one group; live
/// delays may split it).
enum FIFOSplit {
    struct Trip {
        var run: Int32
        var arrivals: ArraySlice<Int32>
        var departures: ArraySlice<Int32>
    }

    static func groups(_ trips: [Trip]) -> [[Trip]] {
        let sorted = trips.sorted { a, b in
            for (x, y) in zip(a.departures, b.departures) where x != y { return x < y }
            for (x, y) in zip(a.arrivals, b.arrivals) where x != y { return x < y }
            return a.run < b.run
        }
        var groups: [[Trip]] = []
        for trip in sorted {
            if let g = groups.firstIndex(where: { follows(trip, $0[$0.count - 1]) }) {
                groups[g].append(trip)
            } else {
                groups.append([trip])
            }
        }
        return groups
    }

    /// Whether `b` is at or after `a` at every position.
    static func follows(_ b: Trip, _ a: Trip) -> Bool {
        for (x, y) in zip(b.arrivals, a.arrivals) where x < y { return false }
        for (x, y) in zip(b.departures, a.departures) where x < y { return false }
        return true
    }
}
