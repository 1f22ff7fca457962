/// RAPTOR (Delling, Pajor, Werneck: "Round-Based Public Transit Routing", 2012) over one direction's routes,
/// in that direction's frame of time: the forward search in the timetable's seconds, the reverse (arrive-by)
/// search over the reversed routes in negated seconds, so that one algorithm answers both.
///
/// Labels are kept per round k (at most k trips) and are monotone in k ("≤ k" semantics: an improvement in round
/// k is copied up to the later rounds, marked as inherited), which keeps them valid across the iterations of the
/// range variant (rRAPTOR), where labels of later departures are kept while earlier ones are searched.
/// Per stop and round there are two labels: arriving by a trip (`alight`; the next trip may be boarded after the
/// stop's change time, or a walk may follow) and arriving by a walk (`walk`; only a trip may follow). The sources'
/// labels live in round 0 only and are boarded from in round 1 only (boarding from them later is the same journey).
/// Besides RAPTOR's target pruning, a label at a stop that needs more trips to the destination than the rounds left
/// is not written (`TripsLeft`), and the last round neither walks nor marks. Within a round, the scans bound their
/// labels by the target's arrival as they find it, and the routes that can reach the destination are scanned first.
/// Once a target is known, a label whose time plus a lower bound on the time left (`Landmarks`) reaches it is not
/// written, and a stop whose boarding time plus that bound reaches it is not boarded from. A label that needs j more
/// trips (`TripsLeft`) must beat the target with j more trips, which may be earlier: after each round's scans, a
/// look-ahead finds the best arrival with one trip more from the stops the scans improved (`ceiling`), before the
/// round's walks, which it then prunes. In the last two rounds a label may take at most one or two trips more: then it
/// must also beat its goal with the least time to the destination with that many trips and no waits (`RideBounds`),
/// which the landmarks' bound (any number of trips) is far below.
final class RaptorSearch {
    struct Endpoint {
        var stop: Int32
        /// Walk seconds between the endpoint and the stop (0 when the endpoint is the stop).
        var offset: Int32
        /// The stop walked to or from (the query's stop), or −1 for the query's coordinate; equal to `stop`
        /// when there is no walk.
        var via: Int32
        var distance: Double
    }
    struct Options {
        var maxTrips: Int
        var slack: Int32
        var walkRadius: Double
        var walkSpeed: Double
        var modeMask: UInt8
        var wheelchair: Bool
        /// Latest arrival (in the frame) a label may have.
        var limit: Int32
        /// Latest departure from the origin (frame seconds) a journey may have: the end of a range query's window
        /// (a first trip boarded later would be a journey outside the window).
        var latestDeparture: Int32 = RaptorSearch.infinity
        var deadline: ContinuousClock.Instant?
    }
    enum FrameLeg {
        case transit(route: Int32, trip: Int32, board: Int32, alight: Int32)
        case walk(from: Int32, to: Int32, distance: Double, duration: Int32)
    }

    static let infinity = Int32.max
    private(set) var set: RouteSet
    private(set) var timetable: Timetable
    private(set) var reverse: Bool
    private(set) var options: Options
    private(set) var rounds = 0
    /// The runs of this query so far (a range query makes one per departure).
    private var runs = 0
    /// The labels and per-stop state, in raw memory kept between queries (`Labels`).
    private var storage: LabelStorage
    private var labels: Labels { storage.labels }
    /// The fewest trips from each stop to this query's destination, found at its first run (`tripsFound`).
    private var tripsLeft: TripsLeft
    private var tripsFound = false
    /// The change times and slack the labels' change times were written from (nil: not written).
    private var changeSource: (times: [Int32], slack: Int32)?
    /// The landmarks' lower bounds on the time left to this query's targets, found with `tripsLeft`.
    private var timeLeft = LandmarkBounds.none
    /// The work `TripsLeft` may spend per query on its levels (visits, route positions, walks looked at).
    let tripsLeftBudget: Int
    /// Whether `timeLeft` is found (`PlannerWorkspace.landmarkBounds`).
    let landmarkBounds: Bool

    var target: [Int32] = []
    /// Per round k: one past the arrival of a journey of at most k trips that the look-ahead found (`lookAhead`).
    /// Only a bound to prune with: the search still finds that journey itself (it arrives before the ceiling), and
    /// records it in `target`.
    private var ceiling: [Int32] = []
    var targetStop: [Int32] = []  // −1: inherited

    var sources: [Endpoint] = []
    var targetEndpoint: [Int32: Endpoint] = [:]
    var sourceEndpoint: [Int32: Endpoint] = [:]

    private(set) var cut = false
    /// The walks beyond the timetable's stored radius this query generated (when its radius is larger).
    private var generated = GeneratedWalks()
    private var generates = false
    /// The shortest time of a generated walk (all are longer than the stored radius): a stop reached later than the
    /// target minus this needs none generated.
    private var shortestGenerated: Int32 = 0
    /// Stops whose generated walks were relaxed since the budget was last looked at: generating is slow enough that
    /// a round of it can outlast the budget, so the budget is also looked at within a round.
    private var generatedSinceCheck = 0

    init(timetable: Timetable, reverse: Bool, options: Options, tripsLeftBudget: Int, landmarkBounds: Bool) {
        self.tripsLeftBudget = tripsLeftBudget
        self.landmarkBounds = landmarkBounds
        self.timetable = timetable
        self.reverse = reverse
        self.options = options
        set = reverse ? timetable.backward : timetable.forward
        storage = LabelStorage(stops: timetable.stopCount, rows: options.maxTrips + 1, routes: set.routes.count)
        tripsLeft = TripsLeft(
            stops: timetable.stopCount, routes: set.routes.count, levels: options.maxTrips + 1,
            cells: timetable.walkCells.count)
        prepare(timetable: timetable, reverse: reverse, options: options)
    }

    /// Readies the search for another query: the memory is kept (allocated again only for more stops, rounds or
    /// routes) and only the labels the previous query wrote are reset, so a worker's queries do not allocate and
    /// clear rounds × stops arrays each time.
    func prepare(timetable: Timetable, reverse: Bool, options: Options) {
        self.timetable = timetable
        self.reverse = reverse
        self.options = options
        set = reverse ? timetable.backward : timetable.forward
        precondition(set.flat, "the timetable's route visits are not flattened")
        rounds = options.maxTrips
        let stops = timetable.stopCount
        var labels = self.labels
        if stops != labels.n || rounds + 1 > labels.rows || set.routes.count > labels.routeCapacity {
            storage = LabelStorage(
                stops: stops, rows: max(rounds + 1, labels.n == stops ? labels.rows : 0),
                routes: max(set.routes.count, labels.routeCapacity))
            changeSource = nil
        } else {
            labels.reset()
            storage.labels = labels
            for s in sourceEndpoint.keys { labels.sourceCap[Int(s)] = Self.infinity }
            for t in targetEndpoint.keys { labels.egress[Int(t)] = Self.infinity }
        }
        let cells = timetable.walkCells.count
        if !tripsLeft.fits(stops: stops, routes: set.routes.count, levels: rounds + 1, cells: cells) {
            tripsLeft = TripsLeft(stops: stops, routes: set.routes.count, levels: rounds + 1, cells: cells)
        }
        tripsFound = false
        runs = 0
        timeLeft = .none
        labels = self.labels
        // A new tag for this query's bounds on the time left; when the tags wrap, the old ones are cleared.
        if labels.epoch >= Labels.lastEpoch {
            labels.epoch = 1
            for p in 0..<stops { labels.timeLeft[labels.slot(p, 0)] = 0 }
        } else {
            labels.epoch += 1
        }
        // This query's change time at each stop, beside the stop's labels: written again only for another
        // timetable's change times or another slack. Writing them touches a cache line per stop (0.8 ms at NSW
        // scale), and a worker's queries mostly share both. `changeSource` keeps the array it wrote alive, so that
        // the same buffer means the same times.
        if changeSource?.slack != options.slack || changeSource?.times != timetable.changeTime {
            timetable.changeTime.withUnsafeBufferPointer { changeTime in
                for p in 0..<stops {
                    let c = changeTime[p]
                    labels.change[labels.slot(p, 0)] =
                        c == ChangeTime.defaultSlack ? options.slack : (c == ChangeTime.forbidden ? Self.infinity : c)
                }
            }
            changeSource = (timetable.changeTime, options.slack)
        }
        storage.labels = labels
        target = Array(repeating: Self.infinity, count: rounds + 1)
        targetStop = Array(repeating: -1, count: rounds + 1)
        ceiling = Array(repeating: Self.infinity, count: rounds + 1)
        sources = []
        sourceEndpoint.removeAll(keepingCapacity: true)
        targetEndpoint.removeAll(keepingCapacity: true)
        cut = false
        generates = timetable.footpaths.needsGenerated(radius: options.walkRadius)
        if generates {
            generated.reset(stopCount: stops, radius: options.walkRadius, incoming: reverse)
            shortestGenerated = Int32(
                Walking.seconds(metres: timetable.footpaths.storedRadius, speed: options.walkSpeed))
        }
    }

    func setEndpoints(sources: [Endpoint], targets: [Endpoint]) {
        let labels = self.labels
        for s in sources where s.offset < (sourceEndpoint[s.stop]?.offset ?? Self.infinity) {
            sourceEndpoint[s.stop] = s
        }
        self.sources = Array(sourceEndpoint.values).sorted { $0.stop < $1.stop }
        if options.latestDeparture != Self.infinity {
            for s in self.sources { labels.sourceCap[Int(s.stop)] = options.latestDeparture &+ s.offset }
        }
        for t in targets where t.offset < labels.egress[Int(t.stop)] {
            labels.egress[Int(t.stop)] = t.offset
            targetEndpoint[t.stop] = t
        }
    }

    /// Where each stop's stored walks leaving it in this frame start in `walksOut`'s lists and in `timedWalks`.
    var walkOffsets: [Int32] { reverse ? timetable.footpaths.inOffsets : timetable.footpaths.outOffsets }

    /// The stored walks leaving each stop in this frame sorted by time (at `walkOffsets`), when the query walks at
    /// their speed and at least their radius (`FootpathGraph.timed`); nil otherwise.
    var timedWalks: [FootpathGraph.TimedEdge]? {
        let footpaths = timetable.footpaths
        guard footpaths.timed(radius: options.walkRadius, speed: options.walkSpeed) else { return nil }
        return reverse ? footpaths.inTimed : footpaths.outTimed
    }

    /// The stored footpaths leaving a stop in this frame (the reverse frame walks the forward walks backwards).
    @inline(__always)
    func walksOut(_ stop: Int) -> ArraySlice<FootpathGraph.Edge> {
        reverse ? timetable.footpaths.incoming(stop) : timetable.footpaths.outgoing(stop)
    }

    /// The generated footpaths leaving a stop in this frame beyond the stored radius (none when the query's
    /// radius is within it).
    @inline(__always)
    func generatedWalksOut(_ stop: Int) -> ArraySlice<FootpathGraph.Edge> {
        generates ? generated.walks(stop, graph: timetable.footpaths) : []
    }

    @inline(__always)
    func usable(_ stop: Int) -> Bool { !options.wheelchair || timetable.stops[stop].accessible }

    @inline(__always)
    func routeAllowed(_ r: RouteView) -> Bool {
        r.tripCount > 0 && (options.modeMask & r.modeBit) != 0 && (!options.wheelchair || r.accessible)
    }

    /// Departure times (frame) at which the sources can board a trip within `range`, latest first.
    func departureTimes(in range: ClosedRange<Int32>) -> [Int32] {
        var times = Set<Int32>()
        for s in sources where usable(Int(s.stop)) {
            for v in set.visits(Int(s.stop)) {
                let r = set.views[Int(v.route)]
                let i = Int(v.position)
                guard routeAllowed(r), r.flags[i] & 1 != 0 else { continue }
                for t in 0..<r.tripCount {
                    let dep = r.departure(t * r.stopCount + i)
                    let start = dep &- s.offset
                    if range.contains(start) { times.insert(start) }
                }
            }
        }
        return times.sorted(by: >)
    }

    /// Counts the trips left from each stop to the targets (`TripsLeft`). Not when the query's radius generates
    /// walks beyond the stored ones: the counts follow the stored walks only, and would not be lower bounds then.
    private func findTripsLeft() {
        tripsFound = true
        // The landmarks' graph walks the stored walks at their speed: a query walking faster, or farther, is not
        // bounded by it, nor by the time bounds with one or two trips more (`RideBounds`).
        let bounded = landmarkBounds && !generates && options.walkSpeed <= FootpathGraph.timedSpeed
        if bounded {
            timeLeft = LandmarkBounds(
                timetable.landmarks, targets: targetEndpoint.values.map { ($0.stop, $0.offset) }, reverse: reverse,
                deficit: timetable.liveDeficit, maxTrips: rounds)
        }
        guard !generates else {
            tripsLeft.reset()
            return
        }
        let footpaths = timetable.footpaths
        let start = reverse ? footpaths.outOffsets : footpaths.inOffsets
        let into = reverse ? footpaths.outTimed : footpaths.inTimed
        start.withUnsafeBufferPointer { start in
            into.withUnsafeBufferPointer { into in
                tripsLeft.find(
                    egress: Array(targetEndpoint.keys), set: set, walkStart: start, walkInto: into,
                    maxLevel: rounds - 1, budget: tripsLeftBudget, cells: bounded ? timetable.walkCells : nil,
                    egressWalk: labels.egress, reverse: reverse)
            }
        }
    }

    /// What a round's loops read, taken once per round into locals: the class's stored properties would cost an
    /// exclusivity check at each access.
    private struct Round {
        let labels: Labels
        let k: Int
        let rounds: Int
        let limit: Int32
        let wheelchair: Bool
        let modeMask: UInt8
        let stops: [Timetable.StopPoint]
        /// The most trips a label of this round may still need (`rounds − k`) after alighting and when boarding,
        /// where `TripsLeft` knows that level, else `TripsLeft.unknown`: then every count passes.
        let alightAllowed: UInt8
        let boardingAllowed: UInt8
        let afterAlight: UnsafeMutablePointer<UInt8>
        let boarding: UnsafeMutablePointer<UInt8>
        /// `TripsLeft.reach` at this round's level (nil when unknown): where a route's useful alightings end.
        let reach: UnsafeMutablePointer<Int32>?
        let levels: Int
        let timeLeft: LandmarkBounds
        /// The bounds with one or two trips more (`RideBounds`): `ridesLeft` is the most trips a label of this round
        /// may still take (rounds − k), `ridesBoarding` the most from a stop boarded in it, that trip included (rounds −
        /// k + 1), each where the bounds know that level (1 or 2), else 0 (then they pass every label).
        let rides: RideBounds
        let ridesLeft: Int
        let ridesBoarding: Int
        /// Whether this is the query's first run (`Labels.readySoFar` is then `ready(k, ·)`).
        let firstRun: Bool
        /// Per round j: the best arrival known with at most j trips (the target or the ceiling, the lower), as the
        /// round starts (`Labels.roundBounds`, written by `round(_:)`).
        let bounds: UnsafeMutablePointer<Int32>

        /// What this round's labels must beat as it starts: the target with at most k trips, or the look-ahead's
        /// ceiling when lower.
        var target: Int32 { bounds[k] }

        /// The arrival a label of round k that needs `need` more trips must beat: with `bound` (this round's), the
        /// best known with k + need trips, which is never later (a journey needs at least that many; `unknown`:
        /// more than `TripsLeft` found, then only `bound`).
        @inline(__always)
        func goal(_ k: Int, _ need: UInt8, _ bound: Int32) -> Int32 {
            guard need != TripsLeft.unknown, k &+ Int(need) <= rounds else { return bound }
            return min(bound, bounds[k &+ Int(need)])
        }

        /// Whether a label at `stop` at time t can still lead to an arrival before `target` (infinity: no target
        /// yet): the landmarks' bound on the time left, kept per stop for the query beside its labels.
        @inline(__always)
        func promising(_ t: Int32, _ stop: Int, before target: Int32) -> Bool {
            guard target != RaptorSearch.infinity, timeLeft.enabled else { return true }
            let i = labels.slot(stop, 0)
            let cached = labels.timeLeft[i]
            let left: Int32
            if cached >> Labels.epochShift == labels.epoch {
                left = cached & Labels.timeLeftMask
            } else {
                // Clamped into the tag's low bits: a smaller bound (or 0 for a negative one) is still a bound.
                left = min(max(timeLeft.bound(stop), 0), Labels.timeLeftMask)
                labels.timeLeft[i] = labels.epoch << Labels.epochShift | left
            }
            return t &+ left < target
        }

        /// Whether a label reached by a trip at `stop` at time t can still arrive before `goal` with the trips left.
        @inline(__always)
        func ridesAlight(_ t: Int32, _ stop: Int, before goal: Int32) -> Bool {
            ridesLeft == 0 || t &+ rides.alight(ridesLeft, stop) < goal
        }

        /// Whether a label reached by a walk at `stop` at time t can (a trip boarded there must follow).
        @inline(__always)
        func ridesAfterWalk(_ t: Int32, _ stop: Int, before goal: Int32) -> Bool {
            ridesLeft == 0 || t &+ rides.boarding(ridesLeft, stop) < goal
        }

        /// Whether boarding this round's trip at `stop` at time t or later can.
        @inline(__always)
        func ridesBoard(_ t: Int32, _ stop: Int, before goal: Int32) -> Bool {
            ridesBoarding == 0 || t &+ rides.boarding(ridesBoarding, stop) < goal
        }

        /// One past the last position of route r worth alighting at in this round.
        @inline(__always)
        func end(_ r: Int, _ route: RouteView) -> Int {
            guard let reach else { return route.stopCount }
            return Int(reach[r &* levels])
        }

        /// The change time at a stop for this query (infinity: no change there).
        @inline(__always)
        func change(_ stop: Int) -> Int32 { labels.change[labels.slot(stop, 0)] }

        @inline(__always)
        func usable(_ stop: Int) -> Bool { !wheelchair || stops[stop].accessible }

        @inline(__always)
        func allowed(_ r: RouteView) -> Bool {
            r.tripCount > 0 && (modeMask & r.modeBit) != 0 && (!wheelchair || r.accessible)
        }

        /// Earliest time a trip may be boarded at `stop` with at most `round` trips before.
        @inline(__always)
        func ready(_ round: Int, _ stop: Int) -> Int32 {
            let i = labels.slot(stop, round)
            let a = labels.alight[i]
            let c = labels.change[i &- 2 &* round]
            let viaTrip = (a == RaptorSearch.infinity || c == RaptorSearch.infinity) ? RaptorSearch.infinity : a &+ c
            return min(viaTrip, labels.walk[i])
        }
    }

    /// Round k's view of the search. Its `bounds` are written here into the labels' memory, so a round's loops use
    /// only the latest `Round` made.
    private func round(_ k: Int) -> Round {
        let left = rounds - k
        let labels = self.labels
        for j in 0...rounds { labels.roundBounds[j] = min(target[j], ceiling[j]) }
        return Round(
            labels: labels, k: k, rounds: rounds, limit: options.limit,
            wheelchair: options.wheelchair, modeMask: options.modeMask, stops: timetable.stops,
            alightAllowed: left <= tripsLeft.alightDepth ? UInt8(left) : TripsLeft.unknown,
            boardingAllowed: left <= tripsLeft.boardingDepth ? UInt8(left) : TripsLeft.unknown,
            afterAlight: tripsLeft.afterAlight,
            boarding: tripsLeft.boarding, reach: left <= tripsLeft.reachDepth ? tripsLeft.reach + left : nil,
            levels: tripsLeft.levels, timeLeft: timeLeft, rides: tripsLeft.rides,
            ridesLeft: (1...2).contains(left) && left <= tripsLeft.rides.depth ? left : 0,
            ridesBoarding: (1...2).contains(left + 1) && left + 1 <= tripsLeft.rides.depth ? left + 1 : 0,
            firstRun: runs == 1,
            bounds: labels.roundBounds)
    }

    /// One RAPTOR run from the sources at `departure` (frame seconds), keeping the labels of earlier runs.
    /// Returns the rounds whose target label this run improved into a new Pareto point.
    func run(departure: Int32) -> [Int] {
        if !tripsFound { findTripsLeft() }
        runs += 1
        let before = target
        var labels = self.labels
        for s in sources {
            let value = departure &+ s.offset
            let i = Int(s.stop)
            guard value <= options.limit, value < labels.walk[labels.slot(i, 0)] else { continue }
            labels.walk[labels.slot(i, 0)] = value
            labels.walkFrom[labels.index(i, 0)] = -1
            labels.touch(i)
            labels.mark(i)
        }
        storage.labels = labels
        withRunArrays { arrays in
            for k in 1...rounds {
                if self.labels.markedCount == 0 { break }
                scanRoutes(round: k, arrays)
                if k < rounds { lookAhead(round: k, arrays) }
                relax(round: k, arrays)
                if cut { break }
                if let deadline = options.deadline, ContinuousClock.now >= deadline {
                    cut = true
                    break
                }
            }
        }
        labels = self.labels
        labels.clearMarked()
        storage.labels = labels
        var found: [Int] = []
        for k in 1...rounds {
            if target[k] < before[k] && target[k] < target[k - 1] { found.append(k) }
        }
        return found
    }

    /// The arrays a run's loops read, as buffer pointers: an array's subscript checks its index at every read (a
    /// buffer pointer's only in debug builds). With the overflow checks of the loops' index arithmetic, that was
    /// 5–10 % of a plan (BENCHMARKS.md, session 32).
    private struct RunArrays {
        let views: UnsafeBufferPointer<RouteView>
        let visitStart: UnsafeBufferPointer<Int32>
        let visitList: UnsafeBufferPointer<RouteSet.Visit>
        /// `walkOffsets` and `timedWalks` (nil when the query does not walk the timed walks).
        let walkOffsets: UnsafeBufferPointer<Int32>
        let timedWalks: UnsafeBufferPointer<FootpathGraph.TimedEdge>?
    }

    private func withRunArrays<R>(_ body: (RunArrays) -> R) -> R {
        let offsets = walkOffsets
        let timed = timedWalks
        return set.views.withUnsafeBufferPointer { views in
            set.visitStart.withUnsafeBufferPointer { visitStart in
                set.visitList.withUnsafeBufferPointer { visitList in
                    offsets.withUnsafeBufferPointer { offsets in
                        (timed ?? []).withUnsafeBufferPointer { edges in
                            body(
                                RunArrays(
                                    views: views, visitStart: visitStart, visitList: visitList, walkOffsets: offsets,
                                    timedWalks: timed == nil ? nil : edges))
                        }
                    }
                }
            }
        }
    }

    private func scanRoutes(round k: Int, _ arrays: RunArrays) {
        let scope = round(k)
        var labels = scope.labels
        let views = arrays.views
        let visitStart = arrays.visitStart, visitList = arrays.visitList
        let queue = labels.queue
        // The target's arrival with at most k trips as this round's scans find it (a label alighting at one of its
        // stops), so that the routes scanned later in the round write no label that arrives after it; `relax`
        // records it (`target[k]`) from the same labels.
        var bound = scope.target
        // Two passes over the marked stops. The first queues only the routes that can alight at the destination
        // after a marked stop (`TripsLeft.reach` at level 0) and scans them: the target they find then bounds the
        // second pass, which drops the marked stops that cannot beat it before queueing the other routes. Most
        // plans first reach the destination in round 3, when a few routes do and most marked stops then cannot.
        let reach = tripsLeft.reachDepth >= 0 ? tripsLeft.reach : nil
        let levels = tripsLeft.levels
        var kept = 0
        var queued = 0
        labels.sortMarked()
        for m in 0..<labels.markedCount {
            let s = Int(labels.marked[m])
            labels.flags[s] &= ~Labels.markedFlag
            // Marked before the round's target was known: boarding there cannot beat it.
            let ready = scope.ready(k - 1, s), goal = scope.goal(k - 1, scope.boarding[s], bound)
            if !scope.ridesBoard(ready, s, before: goal) || !scope.promising(ready, s, before: goal) { continue }
            labels.marked[kept] = Int32(s)
            kept += 1
            guard let reach else { continue }
            for x in Int(visitStart[s])..<Int(visitStart[s &+ 1]) {
                let v = visitList[x]
                let r = Int(v.route)
                guard Int(reach[r &* levels]) > Int(v.position) &+ 1 else { continue }
                Self.enqueue(v, queue, views, scope, &labels, &queued)
            }
        }
        labels.markedCount = 0
        let first = queued
        scanQueued(0..<first, views, scope, &bound, &labels, done: Self.scannedInRound)
        for m in 0..<kept {
            let s = Int(labels.marked[m])
            if reach != nil {
                let ready = scope.ready(k - 1, s), goal = scope.goal(k - 1, scope.boarding[s], bound)
                if !scope.ridesBoard(ready, s, before: goal) || !scope.promising(ready, s, before: goal) { continue }
            }
            for x in Int(visitStart[s])..<Int(visitStart[s &+ 1]) {
                let v = visitList[x]
                if queue[Int(v.route)] != Self.scannedInRound {
                    Self.enqueue(v, queue, views, scope, &labels, &queued)
                }
            }
        }
        scanQueued(first..<queued, views, scope, &bound, &labels, done: -1)
        for q in 0..<first { queue[Int(labels.queued[q])] = -1 }
        storage.labels = labels
    }

    /// `Labels.queue`'s mark of a route scanned in the round's first pass (the second skips it).
    private static let scannedInRound: Int32 = -2

    /// Queues visit v's route from its position (or moves its first position back to it, or its last on).
    @inline(__always)
    private static func enqueue(
        _ v: RouteSet.Visit, _ queue: UnsafeMutablePointer<Int32>, _ views: UnsafeBufferPointer<RouteView>,
        _ scope: Round,
        _ labels: inout Labels, _ queued: inout Int
    ) {
        let r = Int(v.route)
        if queue[r] < 0 {
            guard scope.allowed(views[r]) else { return }
            labels.queued[queued] = v.route
            queued += 1
            queue[r] = v.position
            labels.queueLast[r] = v.position
        } else if v.position < queue[r] {
            queue[r] = v.position
        } else if v.position > labels.queueLast[r] {
            labels.queueLast[r] = v.position
        }
    }

    /// Scans the queued routes `range` from their first marked positions, leaving `done` as their queue mark.
    private func scanQueued(
        _ range: Range<Int>, _ views: UnsafeBufferPointer<RouteView>, _ scope: Round, _ bound: inout Int32,
        _ labels: inout Labels, done: Int32
    ) {
        let queue = labels.queue
        for q in range {
            let r = Int(labels.queued[q])
            let view = views[r]
            let end = scope.end(r, view)
            // Boarding needs a later position to alight at.
            if Int(queue[r]) &+ 1 < end {
                // The first pass queues a route from the visits before its last useful one only (`TripsLeft.reach`
                // at level 0), and scans on to `end`, boarding at the marked stops between: no last position then.
                let first = Int(queue[r]), last = done == Self.scannedInRound ? end : Int(labels.queueLast[r])
                if reverse {
                    scan(view, r, from: first, last: last, to: end, scope, &bound, &labels, MirroredTimes.self)
                } else {
                    scan(view, r, from: first, last: last, to: end, scope, &bound, &labels, ForwardTimes.self)
                }
            }
            queue[r] = done
        }
    }

    @inline(__always)
    private func scan<T: RouteTimes>(
        _ route: RouteView, _ r: Int, from first: Int, last: Int, to end: Int, _ scope: Round, _ bound: inout Int32,
        _ labels: inout Labels, _: T.Type
    ) {
        let count = route.stopCount
        let k = scope.k
        var trip = -1
        var board = -1
        for i in first..<end {
            // After the last marked position nothing boards that an earlier round did not board already (a stop not
            // marked has the labels it had when it was, and the route was scanned from it then): with no trip on
            // board, or one arriving after what a label must beat (a run's times never decrease: `Timetable.rising`),
            // the scan is done.
            if i > last && trip < 0 { break }
            let p = Int(route.stops[i])
            let ok = scope.usable(p)
            let f = route.flags[i]
            if trip >= 0 && f & 2 != 0 && ok && scope.afterAlight[p] <= scope.alightAllowed {
                let arr = T.arrival(route, trip &* count &+ i)
                if i > last && (arr >= bound || arr > scope.limit) { break }
                let li = labels.slot(p, k)
                // The ride bound before the stop's labels: its arrays are dense (4 bytes a stop), while the labels'
                // line mostly misses the caches, and in the last two rounds it rejects most alightings. (The same
                // order, for the same reason, wherever both bounds are checked.)
                if arr <= scope.limit && arr < bound,
                    case let goal = scope.goal(k, scope.afterAlight[p], bound),
                    scope.ridesAlight(arr, p, before: goal), arr < labels.alight[li],
                    scope.promising(arr, p, before: goal)
                {
                    labels.touch(p)
                    let ii = labels.index(p, k)
                    labels.alight[li] = arr
                    let c = scope.change(p)
                    if c != Self.infinity { labels.readySoFar[p] = min(labels.readySoFar[p], arr &+ c) }
                    labels.alightRoute[ii] = Int32(truncatingIfNeeded: r)
                    labels.alightTrip[ii] = Int32(truncatingIfNeeded: trip)
                    labels.alightBoard[ii] = Int32(truncatingIfNeeded: board)
                    labels.alightPosition[ii] = Int32(truncatingIfNeeded: i)
                    var j = 1
                    while k &+ j <= scope.rounds && arr < labels.alight[li &+ 2 &* j] {
                        labels.alight[li &+ 2 &* j] = arr
                        labels.alightRoute[ii &+ j] = -1
                        j &+= 1
                    }
                    labels.improve(p)
                    let egress = labels.egress[p]
                    if egress != Self.infinity && arr &+ egress <= scope.limit && arr &+ egress < bound {
                        bound = arr &+ egress
                    }
                }
            }
            if f & 1 != 0 && ok {
                let r0 = scope.ready(k - 1, p)
                if r0 != Self.infinity && (trip < 0 || r0 <= T.departure(route, trip &* count &+ i)),
                    case let goal = scope.goal(k - 1, scope.boarding[p], bound),
                    scope.ridesBoard(r0, p, before: goal), scope.promising(r0, p, before: goal)
                {
                    // With a trip on board (which departs at or after r0 here) the earliest catchable is at most it,
                    // and usually near it: searched back from it.
                    let found =
                        trip < 0
                        ? route.earliestTrip(at: i, notBefore: r0, below: route.tripCount, T.self)
                        : route.earliestTrip(at: i, notBefore: r0, atOrBefore: trip, T.self)
                    if let t = found, t != trip,
                        k > 1 || T.departure(route, t &* count &+ i) <= labels.sourceCap[p]
                    {
                        trip = t
                        board = i
                    }
                }
            }
        }
    }

    private func relax(round k: Int, _ arrays: RunArrays) {
        let scope = round(k)
        var labels = scope.labels
        let offsets = arrays.walkOffsets
        let edges = reverse ? timetable.footpaths.inEdges : timetable.footpaths.outEdges
        let radius = options.walkRadius, speed = options.walkSpeed
        let timedEdges = arrays.timedWalks
        var targetK = target[k]
        // What the walks must beat (lowered as this round's target improves below).
        var bound = scope.target
        var stopped = cut
        defer { cut = stopped }
        labels.sortImproved()
        for m in 0..<labels.improvedCount {
            let p32 = labels.improved[m]
            let p = Int(p32)
            labels.flags[p] &= ~Labels.improvedFlag
            if stopped { continue }  // out of budget in this round: the labels so far stand, as after a round
            let a = labels.alight[labels.slot(p, k)]
            if labels.egress[p] != Self.infinity {
                let t = a &+ labels.egress[p]
                if t <= scope.limit && t < targetK {
                    targetK = t
                    bound = min(bound, t)
                    target[k] = t
                    targetStop[k] = p32
                    var j = k + 1
                    while j <= rounds && t < target[j] {
                        target[j] = t
                        targetStop[j] = -1
                        j += 1
                    }
                }
            }
            // After the last round's trip only the destination counts: no boarding or walk follows.
            if k == rounds { continue }
            // Reached before this round's target was known (or before it improved): a label that cannot beat it
            // leads nowhere, by trip or by walk (the bounds hold across the walks).
            let goal = scope.goal(k, scope.afterAlight[p], bound)
            if !scope.ridesAlight(a, p, before: goal) || !scope.promising(a, p, before: goal) { continue }
            if scope.change(p) != Self.infinity && scope.boarding[p] <= scope.boardingAllowed { labels.mark(p) }
            if let timedEdges {
                // A stop's timed walks are sorted by time: once one arrives too late (at what a journey with a trip
                // more must beat, as a trip follows every walk, or past the limit) every later one does too, and the
                // rest are not read.
                let late = scope.goal(k, 1, bound)
                for x in Int(offsets[p])..<Int(offsets[p &+ 1]) {
                    let e = timedEdges[x]
                    let t = a &+ e.seconds
                    if t >= late || t > scope.limit { break }
                    relax(to: Int(e.stop), t, from: p32, target: bound, scope, &labels)
                }
            } else {
                for x in Int(offsets[p])..<Int(offsets[p &+ 1]) {
                    let e = edges[x]
                    guard let w = FootpathGraph.time(e, radius: radius, speed: speed) else { continue }
                    relax(to: Int(e.stop), a &+ w, from: p32, target: bound, scope, &labels)
                }
            }
            if generates && a &+ shortestGenerated < bound && a &+ shortestGenerated <= scope.limit {
                generatedSinceCheck += 1
                if generatedSinceCheck >= 16, let deadline = options.deadline {
                    generatedSinceCheck = 0
                    if ContinuousClock.now >= deadline {
                        stopped = true
                        continue
                    }
                }
                for e in generatedWalksOut(p) {
                    guard let w = FootpathGraph.time(e, radius: radius, speed: speed) else { continue }
                    relax(to: Int(e.stop), a &+ w, from: p32, target: bound, scope, &labels)
                }
            }
        }
        labels.improvedCount = 0
        storage.labels = labels
    }

    /// The look-ahead after round k's scans: the earliest arrival at the destination with one trip more, boarding
    /// from the stops the scans improved that need one trip more (`TripsLeft`), there or after one of their timed
    /// walks, on the routes that reach the destination. It is a real journey, so one past its arrival bounds the
    /// target of round k + 1 and later (`ceiling`) before round k's walks: a label needing j more trips must beat the
    /// target with j more (`Round.goal`). Without that, those targets are known only in their rounds, while most of
    /// a plan's work is in the walks and scans before them (a probe, BENCHMARKS.md session 30: the walks looked at
    /// per plan 533 k → 396 k). It writes no label: round k + 1 finds the journey again.
    private func lookAhead(round k: Int, _ arrays: RunArrays) {
        guard tripsLeft.reachDepth >= 0, tripsLeft.alightDepth >= 1, tripsLeft.boardingDepth >= 1 else { return }
        var best = min(target[k + 1], ceiling[k + 1])
        if reverse {
            lookAhead(round: k, arrays, &best, MirroredTimes.self)
        } else {
            lookAhead(round: k, arrays, &best, ForwardTimes.self)
        }
        for j in (k + 1)...rounds where best < ceiling[j] { ceiling[j] = best }
    }

    private func lookAhead<T: RouteTimes>(round k: Int, _ arrays: RunArrays, _ best: inout Int32, _: T.Type) {
        let scope = round(k)
        let labels = scope.labels
        let offsets = arrays.walkOffsets
        let timedEdges = arrays.timedWalks
        for m in 0..<labels.improvedCount {
            let p = Int(labels.improved[m])
            guard scope.afterAlight[p] == 1 else { continue }
            let a = labels.alight[labels.slot(p, k)]
            let c = scope.change(p)
            if c != Self.infinity && scope.boarding[p] == 1 {
                finish(from: p, ready: a &+ c, arrays, scope, &best, T.self)
            }
            // Only the timed walks (the query's speed and radius are the stored ones'): the look-ahead may miss
            // journeys, as it only bounds.
            guard let timedEdges else { continue }
            for x in Int(offsets[p])..<Int(offsets[p &+ 1]) {
                let e = timedEdges[x]
                let t = a &+ e.seconds
                if t >= best || t > scope.limit { break }
                if scope.boarding[Int(e.stop)] == 1 {
                    finish(from: Int(e.stop), ready: t, arrays, scope, &best, T.self)
                }
            }
        }
    }

    /// The earliest arrival at the destination (its final walk included) by one trip boarded at stop p at or after
    /// `ready`, when it is earlier than `best` − 1: then `best` becomes one past it.
    @inline(__always)
    private func finish<T: RouteTimes>(
        from p: Int, ready: Int32, _ arrays: RunArrays, _ scope: Round, _ best: inout Int32, _: T.Type
    ) {
        guard scope.usable(p), scope.promising(ready, p, before: best) else { return }
        let labels = scope.labels
        let views = arrays.views
        let reach = tripsLeft.reach, levels = tripsLeft.levels
        for x in Int(arrays.visitStart[p])..<Int(arrays.visitStart[p &+ 1]) {
            let v = arrays.visitList[x]
            let r = Int(v.route)
            let end = Int(reach[r &* levels])
            let i = Int(v.position)
            guard end > i &+ 1 else { continue }
            let route = views[r]
            guard scope.allowed(route), route.flags[i] & 1 != 0,
                let trip = route.earliestTrip(at: i, notBefore: ready, below: route.tripCount, T.self)
            else { continue }
            let row = trip &* route.stopCount
            for j in (i + 1)..<end {
                let q = Int(route.stops[j])
                let egress = labels.egress[q]
                guard egress != Self.infinity, route.flags[j] & 2 != 0, scope.usable(q) else { continue }
                let u = T.arrival(route, row &+ j) &+ egress
                if u <= scope.limit && u &+ 1 < best { best = u &+ 1 }
            }
        }
    }

    /// A walk from `p` (reached by a trip in round k) reaching stop b at t.
    @inline(__always)
    private func relax(
        to b: Int, _ t: Int32, from p32: Int32, target: Int32, _ scope: Round, _ labels: inout Labels
    ) {
        let k = scope.k
        guard scope.boarding[b] <= scope.boardingAllowed, t <= scope.limit, t < target,
            scope.firstRun ? t < labels.readySoFar[b] : t < scope.ready(k, b),
            case let goal = scope.goal(k, scope.boarding[b], target),
            scope.ridesAfterWalk(t, b, before: goal), scope.promising(t, b, before: goal)
        else {
            return
        }
        labels.touch(b)
        let li = labels.slot(b, k), ii = labels.index(b, k)
        labels.walk[li] = t
        labels.readySoFar[b] = min(labels.readySoFar[b], t)
        labels.walkFrom[ii] = p32
        var j = 1
        while k &+ j <= scope.rounds && t < labels.walk[li &+ 2 &* j] {
            labels.walk[li &+ 2 &* j] = t
            labels.walkFrom[ii &+ j] = -2
            j &+= 1
        }
        labels.mark(b)
    }

    /// The journey of round k's target label, legs in frame order (source first).
    func reconstruct(round k: Int) -> [FrameLeg] {
        var j = k
        while j > 0 && targetStop[j] < 0 { j -= 1 }
        guard j > 0 else { return [] }
        var legs: [FrameLeg] = []
        var stop = Int(targetStop[j])
        if let t = targetEndpoint[Int32(stop)], t.via != t.stop {
            legs.append(.walk(from: Int32(stop), to: t.via, distance: t.distance, duration: t.offset))
        }
        let labels = self.labels
        var round = j
        while round > 0 {
            while round > 0 && labels.alightRoute[labels.index(stop, round)] < 0 { round -= 1 }
            guard round > 0 else { break }
            let i = labels.index(stop, round)
            let r = labels.alightRoute[i], trip = labels.alightTrip[i], board = labels.alightBoard[i]
            legs.append(.transit(route: r, trip: trip, board: board, alight: labels.alightPosition[i]))
            let route = set.routes[Int(r)]
            let b = Int(route.stops[Int(board)])
            let dep = route.departure(Int(trip) * route.stopCount + Int(board))
            let previous = round - 1
            if labels.walk[labels.slot(b, previous)] <= dep {
                var q = previous
                while q > 0 && labels.walkFrom[labels.index(b, q)] == -2 { q -= 1 }
                let from = labels.walkFrom[labels.index(b, q)]
                if from == -1 {
                    if let s = sourceEndpoint[Int32(b)], s.via != s.stop {
                        legs.append(.walk(from: s.via, to: Int32(b), distance: s.distance, duration: s.offset))
                    }
                    break
                }
                let edge =
                    walksOut(Int(from)).first { $0.stop == Int32(b) }
                    ?? generatedWalksOut(Int(from)).first { $0.stop == Int32(b) }
                let duration = edge.flatMap {
                    FootpathGraph.time($0, radius: options.walkRadius, speed: options.walkSpeed)
                }
                legs.append(.walk(from: from, to: Int32(b), distance: edge?.distance ?? 0, duration: duration ?? 0))
                stop = Int(from)
                round = q
            } else {
                stop = b
                round = previous
            }
        }
        return legs.reversed()
    }
}

/// A search's labels and per-stop state in raw memory: plain pointers, so that the loops that write them pay no
/// exclusivity or copy-on-write check. Stop-major (`index(stop, round)`): a stop's rounds are adjacent, as the scans
/// read round k−1 and write k to `rounds` of one stop together. Owned by a `LabelStorage`, which frees it.
struct Labels {
    static let touchedFlag: UInt8 = 1
    static let markedFlag: UInt8 = 2
    static let improvedFlag: UInt8 = 4

    let n: Int
    /// Rounds 0…rows−1 per stop.
    let rows: Int
    let routeCapacity: Int
    /// Int32s per stop in `times`: the change time, the bound on the time left, then alight and walk of each round
    /// (64 bytes for up to 7 rounds, so that one cache line holds what a scan or a walk reads of a stop).
    let stride: Int
    /// The start of the times; `change`, `alight` and `walk` index it by `slot(stop, round)`.
    let times: UnsafeMutablePointer<Int32>
    /// The query's change time at a stop (infinity: no change there), at `slot(stop, 0)`.
    var change: UnsafeMutablePointer<Int32> { times }
    /// The query's bound on the time left from a stop (`LandmarkBounds`), at `slot(stop, 0)`: in the pad beside the
    /// change time, on the cache line a scan or a walk reads anyway. Once a query computed it there, it is the
    /// query's `epoch` shifted by `epochShift` plus the bound (clamped to 0…`timeLeftMask`); another epoch there
    /// means not computed yet, so that a query need not clear every stop's bound first.
    var timeLeft: UnsafeMutablePointer<Int32> { times + 1 }
    static let epochShift: Int32 = 20
    static let timeLeftMask: Int32 = 1 << epochShift - 1
    /// The tag of this query's bounds: 1…`lastEpoch` (the memory starts as `Int32.max`, of tag 2047, and a wrap
    /// clears it to 0).
    var epoch: Int32 = 0
    static let lastEpoch: Int32 = Int32.max >> epochShift - 1
    /// Arrival by a trip with at most k trips, at `slot(stop, k)`.
    var alight: UnsafeMutablePointer<Int32> { times + 2 }
    /// Arrival by a walk (or at a source) with at most k trips, at `slot(stop, k)`.
    var walk: UnsafeMutablePointer<Int32> { times + 3 }
    /// Per (stop, round) at `index(stop, round)`: how the alight and walk labels were reached.
    let alightRoute: UnsafeMutablePointer<Int32>  // −1: inherited from the round below
    let alightTrip: UnsafeMutablePointer<Int32>
    let alightBoard: UnsafeMutablePointer<Int32>
    let alightPosition: UnsafeMutablePointer<Int32>
    let walkFrom: UnsafeMutablePointer<Int32>  // −1: a source, −2: inherited
    let egress: UnsafeMutablePointer<Int32>
    /// Latest departure from each source stop (`latestDeparture` plus the walk to it).
    let sourceCap: UnsafeMutablePointer<Int32>
    /// Per stop: the earliest time a trip may be boarded there by the labels of rounds 1 and later written so far
    /// (the least alight label plus the change time, or walk label). In a query's first run that is `ready(k, stop)`
    /// in round k, as a label is copied up to the later rounds (not the sources' labels of round 0, which are not),
    /// in 4 bytes per stop instead of the stop's cache line of labels: most of the walks looked at end on this check,
    /// and this array (400 KiB at NSW scale) stays in the caches better than the labels (6 MiB). A range query's
    /// later runs keep the earlier runs' labels: they check the labels.
    let readySoFar: UnsafeMutablePointer<Int32>
    let flags: UnsafeMutablePointer<UInt8>
    /// Stops whose labels this search wrote (the next query resets only those), marked and improved stops.
    let touched: UnsafeMutablePointer<Int32>
    var touchedCount = 0
    let marked: UnsafeMutablePointer<Int32>
    var markedCount = 0
    let improved: UnsafeMutablePointer<Int32>
    var improvedCount = 0
    /// Per route: the first marked position in this round, −1 when not queued; `queued` lists the queued routes.
    let queue: UnsafeMutablePointer<Int32>
    let queued: UnsafeMutablePointer<Int32>
    /// Per queued route: the last marked position in this round.
    let queueLast: UnsafeMutablePointer<Int32>
    /// `rows` words for `RaptorSearch.Round.bounds`.
    let roundBounds: UnsafeMutablePointer<Int32>

    @inline(__always)
    func index(_ stop: Int, _ round: Int) -> Int { stop &* rows &+ round }

    @inline(__always)
    func slot(_ stop: Int, _ round: Int) -> Int { stop &* stride &+ 2 &* round }

    @inline(__always)
    mutating func touch(_ stop: Int) { Self.list(stop, Self.touchedFlag, flags, touched, &touchedCount) }

    @inline(__always)
    mutating func mark(_ stop: Int) { Self.list(stop, Self.markedFlag, flags, marked, &markedCount) }

    @inline(__always)
    mutating func improve(_ stop: Int) { Self.list(stop, Self.improvedFlag, flags, improved, &improvedCount) }

    /// Appends `stop` to one of the stop lists unless its flag says it is there already.
    @inline(__always)
    private static func list(
        _ stop: Int, _ flag: UInt8, _ flags: UnsafeMutablePointer<UInt8>, _ list: UnsafeMutablePointer<Int32>,
        _ count: inout Int
    ) {
        if flags[stop] & flag == 0 {
            flags[stop] |= flag
            list[count] = Int32(truncatingIfNeeded: stop)
            count += 1
        }
    }

    /// Lists the marked (improved) stops in the order of their numbers when they are many (more than 1/32 of the
    /// stops: then one pass over the stops' flags costs little beside the reads it orders). Their labels, bounds,
    /// visits and walks are then read in address order, and the stops are numbered along the lines, instead of in the
    /// order the stops were listed (BENCHMARKS.md session 30: the slowest plans' p95 −13 %).
    func sortMarked() { Self.sort(Self.markedFlag, flags, n, marked, markedCount) }
    func sortImproved() { Self.sort(Self.improvedFlag, flags, n, improved, improvedCount) }

    private static func sort(
        _ flag: UInt8, _ flags: UnsafeMutablePointer<UInt8>, _ n: Int, _ list: UnsafeMutablePointer<Int32>,
        _ count: Int
    ) {
        guard count > n / 32 else { return }
        var m = 0
        for p in 0..<n where flags[p] & flag != 0 {
            list[m] = Int32(truncatingIfNeeded: p)
            m += 1
        }
    }

    mutating func clearMarked() {
        for m in 0..<markedCount { flags[Int(marked[m])] &= ~Self.markedFlag }
        markedCount = 0
    }

    /// Every time label the previous query wrote back to infinity. How a label was reached (`alightRoute`, …) is
    /// not reset: it is read only where this query's time label is finite, and a query writes it with every finite
    /// label, real or inherited (labels only improve, and an inherited one has a finite one below it).
    mutating func reset() {
        for t in 0..<touchedCount {
            let p = Int(touched[t])
            let t = slot(p, 0)
            for k in 0..<rows {
                alight[t + 2 * k] = RaptorSearch.infinity
                walk[t + 2 * k] = RaptorSearch.infinity
            }
            readySoFar[p] = RaptorSearch.infinity
            flags[p] &= ~Self.touchedFlag
        }
        touchedCount = 0
    }
}

/// The owner of a search's `Labels` memory: allocated initialised for `stops` × `rows`, freed in deinit.
final class LabelStorage {
    var labels: Labels
    /// The raw memory of `labels.times` (64-byte aligned).
    private let timesMemory: UnsafeMutableRawPointer

    init(stops n: Int, rows: Int, routes: Int) {
        let size = max(1, n * rows)
        func array(_ count: Int, _ value: Int32) -> UnsafeMutablePointer<Int32> {
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, count))
            p.initialize(repeating: value, count: max(1, count))
            return p
        }
        let stride = (2 + 2 * rows + 15) / 16 * 16
        let count = max(1, n * stride)
        timesMemory = UnsafeMutableRawPointer.allocate(byteCount: count * 4, alignment: 64)
        let times = timesMemory.initializeMemory(as: Int32.self, repeating: RaptorSearch.infinity, count: count)
        let flags = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, n))
        flags.initialize(repeating: 0, count: max(1, n))
        labels = Labels(
            n: n, rows: rows, routeCapacity: routes, stride: stride, times: times, alightRoute: array(size, -1),
            alightTrip: array(size, -1), alightBoard: array(size, -1), alightPosition: array(size, -1),
            walkFrom: array(size, -2), egress: array(n, RaptorSearch.infinity),
            sourceCap: array(n, RaptorSearch.infinity), readySoFar: array(n, RaptorSearch.infinity), flags: flags,
            touched: array(n, 0), marked: array(n, 0),
            improved: array(n, 0), queue: array(routes, -1), queued: array(routes, 0), queueLast: array(routes, 0),
            roundBounds: array(rows, RaptorSearch.infinity))
    }

    deinit {
        let labels = self.labels
        for p in [
            labels.alightRoute, labels.alightTrip, labels.alightBoard, labels.alightPosition, labels.walkFrom,
            labels.egress, labels.sourceCap, labels.readySoFar, labels.touched, labels.marked, labels.improved,
            labels.queue,
            labels.queued, labels.queueLast, labels.roundBounds,
        ] { p.deallocate() }
        labels.flags.deallocate()
        timesMemory.deallocate()
    }
}
