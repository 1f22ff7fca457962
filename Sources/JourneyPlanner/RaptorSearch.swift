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
    private(set) var n = 0
    private(set) var rounds = 0
    /// Rounds the label arrays have room for (rows 0…capacity).
    private var capacity = -1
    /// Stops whose labels this search wrote: the next search resets only those.
    private var touched: [Int32] = []
    private var touchedFlag: [Bool] = []

    var alight: [Int32]
    var alightRoute: [Int32]  // −1: inherited from the round below
    var alightTrip: [Int32]
    var alightBoard: [Int32]
    var alightPosition: [Int32]
    var walk: [Int32]
    var walkFrom: [Int32]  // −1: a source, −2: inherited
    var target: [Int32]
    var targetStop: [Int32]  // −1: inherited

    var sources: [Endpoint] = []
    var egress: [Int32]
    /// Latest departure from each source stop (`latestDeparture` plus the walk to it).
    var sourceCap: [Int32]
    var targetEndpoint: [Int32: Endpoint] = [:]
    var sourceEndpoint: [Int32: Endpoint] = [:]

    private var marked: [Bool]
    private var markedList: [Int32] = []
    private var improved: [Bool]
    private var improvedList: [Int32] = []
    private var queue: [Int32]
    private var queued: [Int32] = []
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

    init(timetable: Timetable, reverse: Bool, options: Options) {
        self.timetable = timetable
        self.reverse = reverse
        self.options = options
        set = reverse ? timetable.backward : timetable.forward
        alight = []
        alightRoute = []
        alightTrip = []
        alightBoard = []
        alightPosition = []
        walk = []
        walkFrom = []
        target = []
        targetStop = []
        egress = []
        sourceCap = []
        marked = []
        improved = []
        queue = []
        prepare(timetable: timetable, reverse: reverse, options: options)
    }

    /// Readies the search for another query: the arrays are kept (allocated again only for more stops or rounds)
    /// and only the labels the previous query wrote are reset, so a worker's queries do not allocate and clear
    /// rounds × stops arrays each time.
    func prepare(timetable: Timetable, reverse: Bool, options: Options) {
        self.timetable = timetable
        self.reverse = reverse
        self.options = options
        set = reverse ? timetable.backward : timetable.forward
        rounds = options.maxTrips
        let stops = timetable.stopCount
        if stops != n || rounds > capacity {
            n = stops
            capacity = max(rounds, capacity)
            let size = (capacity + 1) * n
            alight = Array(repeating: Self.infinity, count: size)
            alightRoute = Array(repeating: -1, count: size)
            alightTrip = Array(repeating: -1, count: size)
            alightBoard = Array(repeating: -1, count: size)
            alightPosition = Array(repeating: -1, count: size)
            walk = Array(repeating: Self.infinity, count: size)
            walkFrom = Array(repeating: -2, count: size)
            egress = Array(repeating: Self.infinity, count: n)
            sourceCap = Array(repeating: Self.infinity, count: n)
            marked = Array(repeating: false, count: n)
            improved = Array(repeating: false, count: n)
            touchedFlag = Array(repeating: false, count: n)
            touched = []
        } else {
            for p32 in touched {
                let p = Int(p32)
                for k in 0...capacity {
                    let i = k * n + p
                    alight[i] = Self.infinity
                    alightRoute[i] = -1
                    walk[i] = Self.infinity
                    walkFrom[i] = -2
                }
                touchedFlag[p] = false
            }
            touched.removeAll(keepingCapacity: true)
            for s in sourceEndpoint.keys { sourceCap[Int(s)] = Self.infinity }
            for t in targetEndpoint.keys { egress[Int(t)] = Self.infinity }
        }
        target = Array(repeating: Self.infinity, count: rounds + 1)
        targetStop = Array(repeating: -1, count: rounds + 1)
        sources = []
        sourceEndpoint.removeAll(keepingCapacity: true)
        targetEndpoint.removeAll(keepingCapacity: true)
        if queue.count != set.routes.count { queue = Array(repeating: -1, count: set.routes.count) }
        cut = false
        generates = timetable.footpaths.needsGenerated(radius: options.walkRadius)
        if generates {
            generated.reset(stopCount: stops, radius: options.walkRadius, incoming: reverse)
            shortestGenerated = Int32(
                Walking.seconds(metres: timetable.footpaths.storedRadius, speed: options.walkSpeed))
        }
    }

    @inline(__always)
    private func touch(_ stop: Int) {
        if !touchedFlag[stop] {
            touchedFlag[stop] = true
            touched.append(Int32(stop))
        }
    }

    func setEndpoints(sources: [Endpoint], targets: [Endpoint]) {
        for s in sources where s.offset < (sourceEndpoint[s.stop]?.offset ?? Self.infinity) {
            sourceEndpoint[s.stop] = s
        }
        self.sources = Array(sourceEndpoint.values).sorted { $0.stop < $1.stop }
        if options.latestDeparture != Self.infinity {
            for s in self.sources { sourceCap[Int(s.stop)] = options.latestDeparture &+ s.offset }
        }
        for t in targets where t.offset < egress[Int(t.stop)] {
            egress[Int(t.stop)] = t.offset
            targetEndpoint[t.stop] = t
        }
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
    func changeTime(_ stop: Int) -> Int32 {
        let c = timetable.changeTime[stop]
        return c == ChangeTime.defaultSlack ? options.slack : (c == ChangeTime.forbidden ? Self.infinity : c)
    }

    /// Earliest time a trip may be boarded at `stop` with at most `round` trips before.
    @inline(__always)
    func ready(_ round: Int, _ stop: Int) -> Int32 {
        let i = round * n + stop
        let a = alight[i]
        let c = changeTime(stop)
        let viaTrip = (a == Self.infinity || c == Self.infinity) ? Self.infinity : a &+ c
        return min(viaTrip, walk[i])
    }

    @inline(__always)
    func usable(_ stop: Int) -> Bool { !options.wheelchair || timetable.stops[stop].accessible }

    @inline(__always)
    func routeAllowed(_ r: RaptorRoute) -> Bool {
        r.tripCount > 0 && (options.modeMask & r.modeBit) != 0 && (!options.wheelchair || r.accessible)
    }

    /// Departure times (frame) at which the sources can board a trip within `range`, latest first.
    func departureTimes(in range: ClosedRange<Int32>) -> [Int32] {
        var times = Set<Int32>()
        for s in sources where usable(Int(s.stop)) {
            for v in set.visits[Int(s.stop)] {
                let r = set.routes[Int(v.route)]
                guard routeAllowed(r), r.pickup[Int(v.position)] else { continue }
                for t in 0..<r.tripCount {
                    let dep = r.departures[t * r.stopCount + Int(v.position)]
                    let start = dep &- s.offset
                    if range.contains(start) { times.insert(start) }
                }
            }
        }
        return times.sorted(by: >)
    }

    /// One RAPTOR run from the sources at `departure` (frame seconds), keeping the labels of earlier runs.
    /// Returns the rounds whose target label this run improved into a new Pareto point.
    func run(departure: Int32) -> [Int] {
        let before = target
        for s in sources {
            let value = departure &+ s.offset
            let i = Int(s.stop)
            guard value <= options.limit, value < walk[i] else { continue }
            walk[i] = value
            walkFrom[i] = -1
            touch(i)
            mark(i)
        }
        for k in 1...rounds {
            if markedList.isEmpty { break }
            scanRoutes(round: k)
            relax(round: k)
            if cut { break }
            if let deadline = options.deadline, ContinuousClock.now >= deadline {
                cut = true
                break
            }
        }
        for s in markedList { marked[Int(s)] = false }
        markedList.removeAll(keepingCapacity: true)
        var found: [Int] = []
        for k in 1...rounds {
            if target[k] < before[k] && target[k] < target[k - 1] { found.append(k) }
        }
        return found
    }

    private func mark(_ stop: Int) {
        if !marked[stop] {
            marked[stop] = true
            markedList.append(Int32(stop))
        }
    }

    private func scanRoutes(round k: Int) {
        for s in markedList {
            marked[Int(s)] = false
            for v in set.visits[Int(s)] {
                let r = Int(v.route)
                if queue[r] < 0 {
                    guard routeAllowed(set.routes[r]) else { continue }
                    queued.append(v.route)
                    queue[r] = v.position
                } else if v.position < queue[r] {
                    queue[r] = v.position
                }
            }
        }
        markedList.removeAll(keepingCapacity: true)
        for r in queued {
            scan(route: Int(r), from: Int(queue[Int(r)]), round: k)
            queue[Int(r)] = -1
        }
        queued.removeAll(keepingCapacity: true)
    }

    private func scan(route r: Int, from first: Int, round k: Int) {
        let route = set.routes[r]
        let count = route.stopCount
        let base = k * n
        var trip = -1
        var board = -1
        for i in first..<count {
            let p = Int(route.stops[i])
            let ok = usable(p)
            if trip >= 0 && route.dropOff[i] && ok {
                let arr = route.arrivals[trip * count + i]
                if arr <= options.limit && arr < alight[base + p] && arr < target[k] {
                    touch(p)
                    alight[base + p] = arr
                    alightRoute[base + p] = Int32(r)
                    alightTrip[base + p] = Int32(trip)
                    alightBoard[base + p] = Int32(board)
                    alightPosition[base + p] = Int32(i)
                    var j = k + 1
                    while j <= rounds && arr < alight[j * n + p] {
                        alight[j * n + p] = arr
                        alightRoute[j * n + p] = -1
                        j += 1
                    }
                    if !improved[p] {
                        improved[p] = true
                        improvedList.append(Int32(p))
                    }
                }
            }
            if route.pickup[i] && ok {
                let r0 = ready(k - 1, p)
                if r0 != Self.infinity && (trip < 0 || r0 <= route.departures[trip * count + i]) {
                    let upper = trip < 0 ? route.tripCount : trip + 1
                    if let t = route.earliestTrip(at: i, notBefore: r0, below: upper), t != trip,
                        k > 1 || route.departures[t * count + i] <= sourceCap[p]
                    {
                        trip = t
                        board = i
                    }
                }
            }
        }
    }

    private func relax(round k: Int) {
        let base = k * n
        for p32 in improvedList {
            let p = Int(p32)
            improved[p] = false
            if cut { continue }  // out of budget in this round: the labels so far stand, as after a round
            let a = alight[base + p]
            if egress[p] != Self.infinity {
                let t = a &+ egress[p]
                if t <= options.limit && t < target[k] {
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
            if changeTime(p) != Self.infinity { mark(p) }
            for e in walksOut(p) { relax(e, from: p32, arrival: a, round: k) }
            if generates && a &+ shortestGenerated < target[k] && a &+ shortestGenerated <= options.limit {
                generatedSinceCheck += 1
                if generatedSinceCheck >= 16, let deadline = options.deadline {
                    generatedSinceCheck = 0
                    if ContinuousClock.now >= deadline {
                        cut = true
                        continue
                    }
                }
                for e in generatedWalksOut(p) { relax(e, from: p32, arrival: a, round: k) }
            }
        }
        improvedList.removeAll(keepingCapacity: true)
    }

    /// Walks `e` from `p`, reached by a trip at `a` in round k.
    @inline(__always)
    private func relax(_ e: FootpathGraph.Edge, from p32: Int32, arrival a: Int32, round k: Int) {
        guard let w = FootpathGraph.time(e, radius: options.walkRadius, speed: options.walkSpeed) else { return }
        let b = Int(e.stop)
        let t = a &+ w
        guard t <= options.limit, t < target[k], t < ready(k, b) else { return }
        touch(b)
        walk[k * n + b] = t
        walkFrom[k * n + b] = p32
        propagateWalk(k, b, t)
        mark(b)
    }

    private func propagateWalk(_ k: Int, _ stop: Int, _ value: Int32) {
        var j = k + 1
        while j <= rounds && value < walk[j * n + stop] {
            walk[j * n + stop] = value
            walkFrom[j * n + stop] = -2
            j += 1
        }
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
        var round = j
        while round > 0 {
            while round > 0 && alightRoute[round * n + stop] < 0 { round -= 1 }
            guard round > 0 else { break }
            let i = round * n + stop
            let r = alightRoute[i], trip = alightTrip[i], board = alightBoard[i]
            legs.append(.transit(route: r, trip: trip, board: board, alight: alightPosition[i]))
            let route = set.routes[Int(r)]
            let b = Int(route.stops[Int(board)])
            let dep = route.departures[Int(trip) * route.stopCount + Int(board)]
            let previous = round - 1
            if walk[previous * n + b] <= dep {
                var q = previous
                while q > 0 && walkFrom[q * n + b] == -2 { q -= 1 }
                let from = walkFrom[q * n + b]
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
