/// The fewest trips that can still take a rider from each stop to the query's destination: a lower bound the
/// search prunes with, since a label reached with k trips at a stop that needs more than `rounds − k` trips more can
/// never become a journey (with `max_transfers` 4 at NSW scale, most labels of the last rounds are such).
///
/// Found per query by a breadth-first search backwards from the destination's stops (the search frame's egress
/// stops, whose count is 0): a stop boarded before a stop of count L on some route counts L + 1 when boarding
/// there, and so does every stop walking into it when alighting there. Times, modes, wheelchair access, change
/// times and walk radii are left out: each only removes ways to travel, so leaving them out keeps the counts lower
/// bounds, valid for every departure of a range query and every live state. Levels are found while a work budget
/// lasts: at NSW scale a level's walks (34 into each stop) soon cost more than the pruning saves (measured in
/// BENCHMARKS.md, session 22). Up to `alightDepth` (`boardingDepth`) the counts are exact bounds; a stop still
/// `unknown` then needs more trips than that depth.
///
/// With the counts of the first levels it finds the time bounds with one or two trips more (`RideBounds`): the
/// same stops, visits and route positions, timed.
///
/// Raw memory kept between the queries of one search, reset through the lists of what a query wrote.
final class TripsLeft {
    static let unknown = UInt8.max

    private(set) var stopCapacity: Int
    private(set) var routeCapacity: Int
    /// Levels per route in `reach` (the search's rounds + 1).
    private(set) var levels: Int
    /// Per stop: trips still needed after alighting there (0 at the destination's stops; `unknown` beyond
    /// `alightDepth`).
    let afterAlight: UnsafeMutablePointer<UInt8>
    /// Per stop: trips still needed when boarding there, the boarded trip counted (at least 1; `unknown` beyond
    /// `boardingDepth`).
    let boarding: UnsafeMutablePointer<UInt8>
    /// Per route and level L ≤ `reachDepth`, at `route × levels + L`: one past the last position where alighting
    /// leaves at most L trips to take (0: none); a route scan in a round that allows L trips more ends there.
    let reach: UnsafeMutablePointer<Int32>
    /// The levels known: alighting counts up to `alightDepth`, boarding counts up to `boardingDepth`, `reach` up to
    /// `reachDepth` (each step of a level is taken only while the budget lasts); −1 when nothing is (the search then
    /// prunes nothing by trips).
    private(set) var alightDepth = -1
    private(set) var boardingDepth = -1
    private(set) var reachDepth = -1

    // Scratch, per route: the current reach and how far its boarding positions were given a count.
    private let routeReach: UnsafeMutablePointer<Int32>
    private let routeScanned: UnsafeMutablePointer<Int32>
    /// The level + 1 at which a route last joined `grown` (0: not touched by this query).
    private let routeGrownAt: UnsafeMutablePointer<Int32>
    private let touchedRoutes: UnsafeMutablePointer<Int32>
    private var touchedRouteCount = 0
    /// `RideBounds`' per-stop bounds (`RideBounds.unreachable` where a query wrote none; a stop is written only once
    /// counted, so `touchedStops` lists it) and per-cell least `boarding2`, with the cells a query wrote.
    private let rideAlight1: UnsafeMutablePointer<Int32>
    private let rideBoarding1: UnsafeMutablePointer<Int32>
    private let rideBoarding2: UnsafeMutablePointer<Int32>
    private(set) var cellCapacity: Int
    private let cellLeast: UnsafeMutablePointer<Int32>
    private let cellAround: UnsafeMutablePointer<Int32>
    private var touchedCells: [Int32] = []
    private var rideStops: [Int32] = []
    /// This query's time bounds (`RideBounds.none` when `find` was not given the walk cells, or found no level).
    private(set) var rides = RideBounds.none
    private let touchedStops: UnsafeMutablePointer<Int32>
    private var touchedStopCount = 0
    /// The search's lists, kept for their capacity: a level's stops, the routes reaching them, the stops boarded.
    private var frontier: [Int32] = []
    private var grown: [Int32] = []
    private var boarded: [Int32] = []

    init(stops: Int, routes: Int, levels: Int, cells: Int) {
        stopCapacity = max(1, stops)
        cellCapacity = max(1, cells)
        func times(_ count: Int) -> UnsafeMutablePointer<Int32> {
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: count)
            p.initialize(repeating: RideBounds.unreachable, count: count)
            return p
        }
        rideAlight1 = times(stopCapacity)
        rideBoarding1 = times(stopCapacity)
        rideBoarding2 = times(stopCapacity)
        cellLeast = times(cellCapacity)
        cellAround = times(cellCapacity)
        routeCapacity = max(1, routes)
        self.levels = max(1, levels)
        afterAlight = .allocate(capacity: stopCapacity)
        afterAlight.initialize(repeating: Self.unknown, count: stopCapacity)
        boarding = .allocate(capacity: stopCapacity)
        boarding.initialize(repeating: Self.unknown, count: stopCapacity)
        touchedStops = .allocate(capacity: stopCapacity)  // a stop is listed once, at its first count
        reach = .allocate(capacity: routeCapacity * self.levels)
        reach.initialize(repeating: 0, count: routeCapacity * self.levels)
        routeReach = .allocate(capacity: routeCapacity)
        routeReach.initialize(repeating: 0, count: routeCapacity)
        routeScanned = .allocate(capacity: routeCapacity)
        routeScanned.initialize(repeating: 0, count: routeCapacity)
        routeGrownAt = .allocate(capacity: routeCapacity)
        routeGrownAt.initialize(repeating: 0, count: routeCapacity)
        touchedRoutes = .allocate(capacity: routeCapacity)
    }

    deinit {
        afterAlight.deallocate()
        boarding.deallocate()
        touchedStops.deallocate()
        reach.deallocate()
        routeReach.deallocate()
        routeScanned.deallocate()
        routeGrownAt.deallocate()
        touchedRoutes.deallocate()
        for p in [rideAlight1, rideBoarding1, rideBoarding2, cellLeast, cellAround] { p.deallocate() }
    }

    func fits(stops: Int, routes: Int, levels: Int, cells: Int) -> Bool {
        stops <= stopCapacity && routes <= routeCapacity && levels == self.levels && cells <= cellCapacity
    }

    /// Forgets the previous query's counts.
    func reset() {
        for i in 0..<touchedStopCount {
            let p = Int(touchedStops[i])
            afterAlight[p] = Self.unknown
            boarding[p] = Self.unknown
            rideAlight1[p] = RideBounds.unreachable
            rideBoarding1[p] = RideBounds.unreachable
            rideBoarding2[p] = RideBounds.unreachable
        }
        touchedStopCount = 0
        for c in touchedCells {
            cellLeast[Int(c)] = RideBounds.unreachable
            cellAround[Int(c)] = RideBounds.unreachable
        }
        touchedCells.removeAll(keepingCapacity: true)
        rides = .none
        for i in 0..<touchedRouteCount {
            let r = Int(touchedRoutes[i])
            (reach + r * levels).update(repeating: 0, count: levels)
            routeReach[r] = 0
            routeScanned[r] = 0
            routeGrownAt[r] = 0
        }
        touchedRouteCount = 0
        alightDepth = -1
        boardingDepth = -1
        reachDepth = -1
    }

    /// The trip counts of a query whose destination is `egress` (the stops where alighting ends a journey), over
    /// `set`'s routes and the walks into each stop (`walkStart`/`walkInto`: in the frame, the stops that walk to a
    /// stop), levels up to `maxLevel`. Each level costs its routes' positions and, for the next level's alighting
    /// counts, the walks into the stops boarded from: those walks are looked at only while `work` is below `budget`.
    /// With `cells`, also the time bounds (`rides`) of the levels found: `egressWalk` is each stop's walk to the
    /// destination (`RaptorSearch.infinity` for none), `reverse` says which frame's walks `cells` reads.
    func find(
        egress: [Int32], set: RouteSet, walkStart: UnsafeBufferPointer<Int32>,
        walkInto: UnsafeBufferPointer<FootpathGraph.TimedEdge>, maxLevel: Int, budget: Int,
        cells: WalkCells? = nil, egressWalk: UnsafePointer<Int32>? = nil, reverse: Bool = false
    ) {
        reset()
        if budget < 0 { return }  // none wanted
        // Locals for the loops (a class's stored properties would cost an exclusivity check at each access); the
        // lists go back to the class for their capacity.
        var frontier = self.frontier, grown = self.grown, boarded = self.boarded
        self.frontier = []
        self.grown = []
        self.boarded = []
        let afterAlight = self.afterAlight, boarding = self.boarding, reach = self.reach, levels = self.levels
        let routeReach = self.routeReach, routeScanned = self.routeScanned, routeGrownAt = self.routeGrownAt
        let touchedRoutes = self.touchedRoutes, touchedStops = self.touchedStops
        var touchedRouteCount = 0, touchedStopCount = 0
        let timed = cells != nil && egressWalk != nil
        let alight1 = rideAlight1, boarding1 = rideBoarding1, boarding2 = rideBoarding2
        var rideStops = self.rideStops
        self.rideStops = []
        rideStops.removeAll(keepingCapacity: true)
        var rideDepth = 0
        frontier.removeAll(keepingCapacity: true)
        for p in egress {
            Self.count(p, 0, in: afterAlight, other: boarding, touchedStops, &touchedStopCount, &frontier)
            if timed { alight1[Int(p)] = min(RideBounds.unreachable, egressWalk.unsafelyUnwrapped[Int(p)]) }
        }
        var level = 0
        var work = 0  // visits, route positions and walks looked at, against `budget`
        // Alighting at the targets needs no trip; boarding needs at least one (so "at most 0" is known of every stop).
        var alightDepth = 0, boardingDepth = 0, reachDepth = -1
        set.views.withUnsafeBufferPointer { views in
            set.visitStart.withUnsafeBufferPointer { visitStart in
                set.visitList.withUnsafeBufferPointer { visitList in
                    while true {
                        // The routes alighting at this level's stops, and how far along they do.
                        grown.removeAll(keepingCapacity: true)
                        for p in frontier {
                            let s = Int(p)
                            let lo = Int(visitStart[s]), hi = Int(visitStart[s + 1])
                            work &+= hi &- lo
                            for x in lo..<hi {
                                let v = visitList[x]
                                let r = Int(v.route), end = v.position &+ 1
                                guard end > routeReach[r] else { continue }
                                let view = views[r]
                                guard view.tripCount > 0, view.flags[Int(v.position)] & 2 != 0 else { continue }
                                if routeGrownAt[r] == 0 {
                                    touchedRoutes[touchedRouteCount] = Int32(r)
                                    touchedRouteCount += 1
                                }
                                if routeGrownAt[r] != Int32(level &+ 1) {
                                    routeGrownAt[r] = Int32(level &+ 1)
                                    grown.append(Int32(r))
                                }
                                routeReach[r] = end
                            }
                        }
                        for i in 0..<touchedRouteCount {
                            let r = Int(touchedRoutes[i])
                            reach[r &* levels &+ level] = routeReach[r]
                        }
                        reachDepth = level
                        if level >= maxLevel || work >= budget { break }
                        // Boarding before those stops: one trip more.
                        let next = UInt8(level + 1)
                        boarded.removeAll(keepingCapacity: true)
                        for r32 in grown {
                            let r = Int(r32)
                            let view = views[r]
                            let from = Int(routeScanned[r]), to = Int(routeReach[r]) &- 1
                            guard from < to else { continue }
                            work &+= to &- from
                            for i in from..<to where view.flags[i] & 1 != 0 {
                                Self.count(
                                    view.stops[i], next, in: boarding, other: afterAlight, touchedStops,
                                    &touchedStopCount, &boarded)
                            }
                            routeScanned[r] = Int32(to)
                        }
                        boardingDepth = level + 1
                        // The time bounds: boarding with one trip from the egress walks (level 0, whose routes are
                        // all in `grown`), with two from `alight1` (level 1: every route reaching a stop with a count,
                        // from its start; the ones of level 0 too, as `alight1` may be lower than their egress).
                        if timed && level == 0 {
                            for r32 in grown {
                                let r = Int(r32)
                                RideBounds.ride(
                                    views[r], end: Int(routeReach[r]), bound: alight1, into: boarding1, { _ in })
                            }
                        } else if timed && level == 1 {
                            for i in 0..<touchedRouteCount {
                                let r = Int(touchedRoutes[i])
                                RideBounds.ride(views[r], end: Int(routeReach[r]), bound: alight1, into: boarding2) {
                                    rideStops.append($0)
                                }
                            }
                            rideDepth = 2
                        }
                        if work >= budget { break }
                        // Alighting at a stop boarded from, or at one walking to it, leaves as many.
                        frontier.removeAll(keepingCapacity: true)
                        for p in boarded {
                            Self.count(
                                p, next, in: afterAlight, other: boarding, touchedStops, &touchedStopCount, &frontier)
                            let b = Int(p)
                            let lo = Int(walkStart[b]), hi = Int(walkStart[b + 1])
                            work &+= hi &- lo
                            guard timed && level == 0 else {
                                for x in lo..<hi {
                                    Self.count(
                                        walkInto[x].stop, next, in: afterAlight, other: boarding, touchedStops,
                                        &touchedStopCount, &frontier)
                                }
                                continue
                            }
                            // After alighting, one trip more: boarding there, or after a walk.
                            let ride = boarding1[b]
                            if ride < alight1[b] { alight1[b] = ride }
                            for x in lo..<hi {
                                let e = walkInto[x]
                                Self.count(
                                    e.stop, next, in: afterAlight, other: boarding, touchedStops, &touchedStopCount,
                                    &frontier)
                                let t = e.seconds &+ ride
                                if t < alight1[Int(e.stop)] { alight1[Int(e.stop)] = t }
                            }
                        }
                        if timed && level == 0 { rideDepth = 1 }
                        alightDepth = level + 1
                        level += 1
                        if work >= budget { break }
                    }
                }
            }
        }
        if rideDepth == 2, let cells { findAround(cells, rideStops) }
        if rideDepth > 0, let cells {
            rides = RideBounds(
                depth: rideDepth, alight1: alight1, boarding1: boarding1, boarding2: boarding2, around: cellAround,
                cell: cells.cell, walkStart: reverse ? cells.farInStart : cells.farOutStart,
                walks: reverse ? cells.farIn : cells.farOut)
        }
        self.rideStops = rideStops
        self.alightDepth = alightDepth
        self.boardingDepth = boardingDepth
        self.reachDepth = reachDepth
        self.touchedStopCount = touchedStopCount
        self.touchedRouteCount = touchedRouteCount
        self.frontier = frontier
        self.grown = grown
        self.boarded = boarded
    }

    /// The least `boarding2` of the stops in each walk-grid cell's surrounding cells (`RideBounds.around`), from the
    /// stops `boarding2` was written at.
    private func findAround(_ cells: WalkCells, _ stops: [Int32]) {
        let least = cellLeast, around = cellAround, boarding2 = rideBoarding2
        var touched = touchedCells
        touchedCells = []
        cells.home.withUnsafeBufferPointer { home in
            for p in stops {
                let c = Int(home[Int(p)])
                guard c >= 0 else { continue }
                let b = boarding2[Int(p)]
                if least[c] == RideBounds.unreachable {
                    if around[c] == RideBounds.unreachable { touched.append(Int32(truncatingIfNeeded: c)) }
                    least[c] = b
                } else if b < least[c] {
                    least[c] = b
                }
            }
        }
        let filled = touched.count
        cells.aroundStart.withUnsafeBufferPointer { start in
            cells.aroundList.withUnsafeBufferPointer { list in
                for i in 0..<filled {
                    let c = Int(touched[i]), b = least[c]
                    for x in Int(start[c])..<Int(start[c &+ 1]) {
                        let d = Int(list[x])
                        if b < around[d] {
                            if around[d] == RideBounds.unreachable && least[d] == RideBounds.unreachable {
                                touched.append(Int32(truncatingIfNeeded: d))
                            }
                            around[d] = b
                        }
                    }
                }
            }
        }
        touchedCells = touched
    }

    /// Gives stop p the count `value` in `counts` (and appends it to `list`) unless it has one already; lists p as
    /// touched when that is its first count of the two (`other` has none either).
    @inline(__always)
    private static func count(
        _ p: Int32, _ value: UInt8, in counts: UnsafeMutablePointer<UInt8>, other: UnsafeMutablePointer<UInt8>,
        _ touched: UnsafeMutablePointer<Int32>, _ touchedCount: inout Int, _ list: inout [Int32]
    ) {
        guard counts[Int(p)] == unknown else { return }
        if other[Int(p)] == unknown {
            touched[touchedCount] = p
            touchedCount += 1
        }
        counts[Int(p)] = value
        list.append(p)
    }
}
