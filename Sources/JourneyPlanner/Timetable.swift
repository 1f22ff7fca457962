import TransitCore

/// One scheduled trip instance of the window: a trip on a service date (and, for a frequency-based trip, the
/// instance starting at `start`, GTFS seconds; −1 otherwise). The realtime service names trips the same way.
public struct RunKey: Hashable, Sendable {
    public var trip: Int32
    public var date: GTFSDate
    public var start: Int32

    public init(trip: Int, date: GTFSDate, start: Int = -1) {
        self.trip = Int32(trip)
        self.date = date
        self.start = Int32(start)
    }
}

/// The timetable the planner searches: every trip instance of a window of service days in absolute time,
/// grouped into RAPTOR routes both ways (the reverse set answers arrive-by), the footpath graph and the change
/// times, with the live trips laid over it (`applying(_:)`). A value: a live update returns a new timetable and
/// queries running on the old one are not disturbed.
public struct Timetable: Sendable {
    /// Times inside are seconds after this unix instant (the window's first service-day reference).
    public let epoch: Int64
    /// The window's service dates, first to last.
    public let dates: [GTFSDate]
    /// The instants the window's service days cover: from the first day's reference to 24 h after the last's.
    public let coveredUnix: Range<Int64>
    /// The bounding box of the served stops (nil when none has coordinates).
    public let bounds: (minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)?
    /// Largest walking radius the footpaths were generated for.
    public let maxWalkRadius: Double

    struct StopPoint: Sendable {
        var lat: Double?
        var lon: Double?
        var station: Int32
        var accessible: Bool
        var served: Bool
    }
    let stops: [StopPoint]
    /// Platforms of each station (served ones), for queries naming a station.
    let platforms: [Int: [Int]]
    /// Change time at the same stop (`ChangeTime` values or seconds).
    let changeTime: [Int32]
    let footpaths: FootpathGraph

    /// A trip instance. `times` indexes `staticArrivals`/`staticDepartures` (−1 for an added trip, whose id is in
    /// `addedIds`). Plain values only: the live update reads hundreds of thousands of them.
    struct Run: Sendable {
        var key: RunKey?
        var staticPattern: Int32
        var times: Int32
        /// Whether its scheduled arrival differs from its departure at some stop (a route whose trips never dwell
        /// holds their times once: `RaptorRoute`).
        var dwells: Bool
    }
    var runs: [Run]
    /// The scheduled times of every run, laid out pattern by pattern in the order of the pattern's FIFO groups, so
    /// that a route's trips mostly lie one after another here (`RaptorRoute` copies them in long stretches).
    let staticArrivals: [Int32]
    let staticDepartures: [Int32]
    /// Each scheduled run's departure at its first stop (`FIFOSplit.Trips.firstDepartures`), by run.
    let staticFirstDepartures: [Int32]
    var runIndex: RunIndex
    /// The ids of the added trips' runs: run `scheduledRunCount + i` is added trip `addedIds[i]`.
    var addedIds: [String]
    let scheduledRunCount: Int

    struct PatternKey: Hashable, Sendable {
        var stops: [Int32]
        var pickup: [Bool]
        var dropOff: [Bool]
        var modeBit: UInt8
        var accessible: Bool
    }
    struct Pattern: Sendable {
        var key: PatternKey
        /// The runs scheduled in this pattern, numbered one after another in the order of their FIFO groups (found
        /// once when the timetable is built), group g ending before `scheduledGroupEnds[g]`: a rebuild reads them in
        /// order, leaves out those with live times and places only the live runs.
        var scheduledRuns: Range<Int32>
        var scheduledGroupEnds: [Int32]
        /// Where the scheduled runs' times start in `staticArrivals`/`staticDepartures`: they lie one after another
        /// from here in the runs' order (a rebuild computes their offsets).
        var scheduledTimes: Int
        /// The runs with live times in this pattern (delayed, with skipped stops, added).
        var live: [Int32]
        var routes: [Int32]
        /// How much faster than `landmarks`' graph its live runs ride (`Landmarks.deficit`).
        var liveDeficit: Int32 = 0
    }
    var patterns: [Pattern]
    var patternIndex: [PatternKey: Int32]
    var forward: RouteSet
    var backward: RouteSet
    /// Lower bounds on the time from each stop to any other, for the search's pruning (from the schedule, or also
    /// from the live runs of a state: `refreshingLandmarks`).
    private(set) var landmarks: Landmarks
    /// The walk grid of `RideBounds`' two-trip bound.
    let walkCells: WalkCells
    /// The largest `Pattern.liveDeficit`: a journey of k trips is at most k times this faster than `landmarks` allow.
    public private(set) var liveDeficit: Int32 = 0

    /// The live state laid over the schedule, and the affected runs' current times and patterns.
    var live: LiveTrips
    var liveTimes: LiveTimesTable
    var addedRuns: [String: Int32]

    /// Builds the timetable of `source`'s days. `maxWalkRadius` bounds the generated footpaths (a query's
    /// `walk_radius_m` may not exceed it); those within `storedWalkRadius` are stored, those beyond it generated for
    /// the queries that ask for them (`FootpathGraph`).
    public init(
        _ source: TimetableSource, maxWalkRadius: Double = 2000,
        storedWalkRadius: Double = PlanQuery.defaultWalkRadius
    ) {
        self.maxWalkRadius = maxWalkRadius
        let epoch = source.days.map(\.referenceUnix).min() ?? 0
        self.epoch = epoch
        dates = Array(Set(source.days.map(\.date))).sorted()
        let lastReference = source.days.map(\.referenceUnix).max() ?? epoch
        coveredUnix = epoch..<(lastReference + 86_400)
        let n = source.stops.count
        var served = [Bool](repeating: false, count: n)
        for trip in source.trips {
            for st in trip.stopTimes where st.stop >= 0 && st.stop < n { served[st.stop] = true }
        }
        stops = source.stops.enumerated().map { index, s in
            let station = s.station.flatMap { source.stops.indices.contains($0) ? $0 : nil }
            let own = s.wheelchairBoarding
            let accessible = own == 1 || (own == 0 && station.map { source.stops[$0].wheelchairBoarding == 1 } ?? false)
            return StopPoint(
                lat: s.lat, lon: s.lon, station: Int32(station ?? -1), accessible: accessible, served: served[index])
        }
        let located = source.stops.indices.filter {
            served[$0] && source.stops[$0].lat != nil && source.stops[$0].lon != nil
        }
        let lats = located.map { source.stops[$0].lat! }, lons = located.map { source.stops[$0].lon! }
        bounds = located.isEmpty ? nil : (lats.min()!, lats.max()!, lons.min()!, lons.max()!)
        var platforms: [Int: [Int]] = [:]
        for (i, s) in stops.enumerated() where s.station >= 0 && s.served {
            platforms[Int(s.station), default: []].append(i)
        }
        self.platforms = platforms
        let stations = stops.map { $0.station >= 0 ? Int($0.station) : nil }
        let rules = TransferRules(transfers: source.transfers, stations: stations)
        changeTime = (0..<n).map { rules.sameStop($0) }
        footpaths = FootpathGraph(
            stops: source.stops, served: served, rules: rules, storedRadius: min(storedWalkRadius, maxWalkRadius))

        // Every run of the window, its times after the epoch, grouped by pattern.
        var runs: [Run] = []
        var arrivals: [Int32] = []
        var departures: [Int32] = []
        var runIndex = RunIndex(trips: source.trips.count, dates: dates)
        var patterns: [Pattern] = []
        var patternIndex: [PatternKey: Int32] = [:]
        var tripPattern = [Int32](repeating: -1, count: source.trips.count)
        var scheduledRuns: [[Int32]] = []
        for day in source.days {
            let base = day.referenceUnix - epoch
            for (t, trip) in source.trips.enumerated() where day.services.contains(trip.service) {
                let times = trip.stopTimes.filter { $0.stop >= 0 && $0.stop < n }
                guard times.count >= 2 else { continue }
                if tripPattern[t] < 0 {
                    let key = PatternKey(
                        stops: times.map { Int32($0.stop) }, pickup: times.map(\.pickup), dropOff: times.map(\.dropOff),
                        modeBit: UInt8(trip.mode.bit), accessible: trip.wheelchairAccessible == 1)
                    if let p = patternIndex[key] {
                        tripPattern[t] = p
                    } else {
                        tripPattern[t] = Int32(patterns.count)
                        patternIndex[key] = Int32(patterns.count)
                        patterns.append(
                            Pattern(
                                key: key, scheduledRuns: 0..<0, scheduledGroupEnds: [], scheduledTimes: 0, live: [],
                                routes: []))
                        scheduledRuns.append([])
                    }
                }
                let pattern = tripPattern[t]
                let starts: [Int?] =
                    trip.frequencies.isEmpty ? [nil] : TripFrequencies(trip.frequencies).startTimes.map { $0 }
                for start in starts {
                    let shift = base + Int64(start.map { $0 - times[0].departure } ?? 0)
                    let key = RunKey(trip: t, date: day.date, start: start ?? -1)
                    guard runIndex[key] == nil else { continue }
                    let run = Int32(runs.count)
                    runIndex[key] = run
                    runs.append(
                        Run(
                            key: key, staticPattern: pattern, times: Int32(arrivals.count),
                            dwells: times.contains { $0.arrival != $0.departure }))
                    var previous = Int32.min
                    for st in times {
                        let (a, d) = Self.rising(
                            arrival: Int32(clamping: shift + Int64(st.arrival)),
                            departure: Int32(clamping: shift + Int64(st.departure)), after: previous)
                        arrivals.append(a)
                        departures.append(d)
                        previous = d
                    }
                    scheduledRuns[Int(pattern)].append(run)
                }
            }
        }
        // Each pattern's FIFO groups of its scheduled times, then the times laid out again in the groups' order.
        let groups: [[[Int32]]] = arrivals.withUnsafeBufferPointer { a in
            departures.withUnsafeBufferPointer { d in
                let runs = runs
                return ParallelMap.map(scheduledRuns.count) { p in
                    let members = scheduledRuns[p]
                    let trips = FIFOSplit.Trips(
                        runs: members, stopCount: patterns[p].key.stops.count,
                        offsets: members.map { Int(runs[Int($0)].times) }, dwells: members.map { runs[Int($0)].dwells },
                        firstDepartures: members.map { d[Int(runs[Int($0)].times)] },
                        scheduled: (a.baseAddress, d.baseAddress), live: (nil, nil))
                    return FIFOSplit.groups(trips).map { $0.map { members[$0] } }
                }
            }
        }
        // The runs numbered again in that order too, so that a pattern's runs and their times are read in order.
        var laidArrivals = [Int32](), laidDepartures = [Int32]()
        laidArrivals.reserveCapacity(arrivals.count)
        laidDepartures.reserveCapacity(departures.count)
        var laidRuns: [Run] = []
        laidRuns.reserveCapacity(runs.count)
        var laidFirstDepartures: [Int32] = []
        laidFirstDepartures.reserveCapacity(runs.count)
        for (p, pattern) in groups.enumerated() {
            let first = Int32(laidRuns.count)
            patterns[p].scheduledTimes = laidArrivals.count
            let n = patterns[p].key.stops.count
            for group in pattern {
                for run in group {
                    var laid = runs[Int(run)]
                    let from = Int(laid.times)
                    laid.times = Int32(laidArrivals.count)
                    runIndex[laid.key!] = Int32(laidRuns.count)
                    laidRuns.append(laid)
                    laidFirstDepartures.append(departures[from])
                    laidArrivals.append(contentsOf: arrivals[from..<from + n])
                    laidDepartures.append(contentsOf: departures[from..<from + n])
                }
                patterns[p].scheduledGroupEnds.append(Int32(laidRuns.count))
            }
            patterns[p].scheduledRuns = first..<Int32(laidRuns.count)
        }
        precondition(laidRuns.count == runs.count, "a run in no pattern")
        runs = laidRuns
        arrivals = []
        departures = []
        self.runs = runs
        scheduledRunCount = runs.count
        staticArrivals = laidArrivals
        staticDepartures = laidDepartures
        staticFirstDepartures = laidFirstDepartures
        self.runIndex = runIndex
        self.patterns = patterns
        self.patternIndex = patternIndex
        landmarks = Self.landmarks(
            stops: stops, patterns: patterns, arrivals: laidArrivals, departures: laidDepartures,
            footpaths: footpaths)
        walkCells = WalkCells(footpaths)
        forward = RouteSet(stopCount: n)
        backward = RouteSet(stopCount: n)
        live = LiveTrips()
        liveTimes = LiveTimesTable(runCount: runs.count)
        addedRuns = [:]
        addedIds = []
        rebuildRoutes(ofPatterns: Array(patterns.indices))
        forward.flattenVisits()
        backward.flattenVisits()
    }

    /// Number of stops (the caller's indexes run below it).
    public var stopCount: Int { stops.count }
    /// Number of trip instances (scheduled and added).
    public var runCount: Int { runs.count }
    /// Number of RAPTOR routes (patterns split into FIFO groups).
    public var routeCount: Int { forward.routes.count }
    /// Number of scheduled stops of all runs (a run of 30 stops counts 30).
    public var runStopCount: Int { staticArrivals.count }
    /// Number of stored walks between stops (each direction of a pair counts; not those generated for a query).
    public var footpathCount: Int { footpaths.outEdges.count }

    /// The stops a place named by stop index means: a station's served platforms (and itself if served), else
    /// the stop.
    public func stopsMeant(by stop: Int) -> [Int] {
        guard stops.indices.contains(stop) else { return [] }
        if let members = platforms[stop] { return (stops[stop].served ? [stop] : []) + members }
        return [stop]
    }

    /// The scheduled run of a trip instance, if it is in the window.
    public func run(_ key: RunKey) -> Int? { runIndex[key].map(Int.init) }

    /// Which trip instance a run is (nil key for an added trip, which has `addedId`).
    public func runIdentity(_ run: Int) -> (key: RunKey?, addedId: String?) {
        (runs[run].key, run >= scheduledRunCount ? addedIds[run - scheduledRunCount] : nil)
    }

    /// The added trip of a run that `runIdentity` names by `addedId` (its stops, in the order its legs' positions
    /// count them, and its times), while the live state has it.
    public func addedTrip(_ addedId: String) -> AddedTrip? { live.added[addedId] }

    /// The current times of a run (live when it has them), seconds after the epoch.
    func times(ofRun run: Int32) -> (pattern: Int32, arrivals: ArraySlice<Int32>, departures: ArraySlice<Int32>) {
        if let p = liveTimes.pattern(ofRun: run) {
            let live = liveTimes.times(ofRun: run, stopCount: p >= 0 ? patterns[Int(p)].key.stops.count : 0)!
            return (p, live.arrivals, live.departures)
        }
        let r = runs[Int(run)]
        let n = patterns[Int(r.staticPattern)].key.stops.count
        let lo = Int(r.times)
        return (r.staticPattern, staticArrivals[lo..<lo + n], staticDepartures[lo..<lo + n])
    }

    /// A stop's times raised so that a run's times never decrease: its arrival to at least the previous stop's
    /// departure (`after`), its departure to at least its arrival. GTFS requires this, and feeds sometimes break it.
    /// The planner relies on it: a route scan stops once its trip arrives too late, and the landmarks' rides are
    /// lower bounds only along times that never decrease. The live times are raised alike, in the realtime
    /// conversion (`PlannerLiveFeed`) and again in `LiveTrips` (`raise`). A later stop is then never reached earlier.
    @inline(__always)
    static func rising(arrival: Int32, departure: Int32, after previous: Int32) -> (arrival: Int32, departure: Int32) {
        let a = max(arrival, previous)
        return (a, max(departure, a))
    }

    /// Raises one run's times in place where they decrease (`rising`), laid as live times are: its n arrivals from
    /// `start`, its departures the n after.
    static func raise(_ times: inout [Int32], arrivalsAt start: Int, count n: Int) {
        var previous = Int32.min
        for i in start..<start + n {
            let (a, d) = rising(arrival: times[i], departure: times[i + n], after: previous)
            times[i] = a
            times[i + n] = d
            previous = d
        }
    }

    /// Rebuilds the routes of `list`'s patterns: each pattern's routes (`routes(ofPattern:)`, reading the timetable
    /// only) and their mirrors are made on their own, on every core, then written into the pattern's slots in `list`'s
    /// order.
    mutating func rebuildRoutes(ofPatterns list: [Int]) {
        let made: [(routes: [(forward: RaptorRoute, backward: RaptorRoute)], deficit: Int32)] = {
            let timetable = self
            return ParallelMap.map(list.count) {
                (
                    timetable.routes(ofPattern: list[$0]).map { ($0, $0.mirrored()) },
                    timetable.liveDeficit(ofPattern: list[$0])
                )
            }
        }()
        for (i, p) in list.enumerated() {
            install(made[i].routes, inPattern: p)
            patterns[p].liveDeficit = made[i].deficit
        }
        var largest: Int32 = 0
        for p in patterns.indices where patterns[p].liveDeficit > largest { largest = patterns[p].liveDeficit }
        liveDeficit = largest
    }

    /// This timetable with its landmarks found again over a graph that also has its live runs' rides (and the
    /// segments of its added trips): its live deficit is 0 again, and a later live state's is measured against those
    /// rides. Real feeds' predictions often ride faster than the schedule (a delay recovered within a few stops,
    /// consecutive stops predicted at the same second), and the deficit is the largest of any pattern: one such run
    /// weakens every query's bounds by up to `maxTrips` times its shortfall. As costly as a build's landmarks
    /// (0.35 s at NSW scale, on every core): the planner's host runs it in the background (`JourneyPlanning`).
    public func refreshingLandmarks() -> Timetable {
        var copy = self
        copy.landmarks = Self.landmarks(
            stops: stops, patterns: patterns, arrivals: staticArrivals, departures: staticDepartures,
            footpaths: footpaths, liveTimes: liveTimes.times, liveStarts: patterns.indices.map(liveStarts(ofPattern:)))
        let withLive = patterns.indices.filter { !patterns[$0].live.isEmpty }
        let deficits = ParallelMap.map(withLive.count) { copy.liveDeficit(ofPattern: withLive[$0]) }
        for (i, p) in withLive.enumerated() { copy.patterns[p].liveDeficit = deficits[i] }
        copy.liveDeficit = deficits.max() ?? 0
        return copy
    }

    /// The landmarks of `patterns`' scheduled runs (and live ones, `Landmarks.init`).
    private static func landmarks(
        stops: [StopPoint], patterns: [Pattern], arrivals: [Int32], departures: [Int32], footpaths: FootpathGraph,
        liveTimes: [Int32] = [], liveStarts: [[Int]] = []
    ) -> Landmarks {
        Landmarks(
            stops: stops, patterns: patterns.map { ($0.key.stops, $0.scheduledTimes, $0.scheduledRuns.count) },
            arrivals: arrivals, departures: departures, footpaths: footpaths, liveTimes: liveTimes,
            liveStarts: liveStarts)
    }

    /// Where the live times of pattern p's live runs start in `liveTimes.times` (arrivals; departures a stop count
    /// later). Their slots are read through one buffer, not an array access per run: on every core at once, each
    /// access would retain and release the same array, one cache line shared by the cores.
    func liveStarts(ofPattern p: Int) -> [Int] {
        liveTimes.slots.withUnsafeBufferPointer { slots in
            patterns[p].live.compactMap { run in
                let slot = slots[Int(run)]
                return slot.pattern == Int32(p) ? Int(slot.start) : nil
            }
        }
    }

    /// `Landmarks.deficit` of a pattern's live runs.
    func liveDeficit(ofPattern p: Int) -> Int32 {
        let pattern = patterns[p]
        guard !pattern.live.isEmpty else { return 0 }
        let starts = liveStarts(ofPattern: p)
        return liveTimes.times.withUnsafeBufferPointer { times in
            landmarks.deficit(
                pattern: p, stops: pattern.key.stops, times: times.baseAddress, starts: starts, footpaths: footpaths)
        }
    }

    /// A pattern's current runs as FIFO groups (its scheduled groups without the runs that have live times, the live
    /// runs placed among them), one forward route each.
    func routes(ofPattern p: Int) -> [RaptorRoute] {
        let key = patterns[p].key
        let n = key.stops.count
        // The trips (indexes into `runs` below) and where each one's times are (`FIFOSplit.Trips.offsets`): its
        // static times, or its live ones in `liveTimes`.
        var runs: [Int32] = []
        var offsets: [Int] = []
        var dwells: [Bool] = []
        var firstDepartures: [Int32] = []
        var groups: [[Int]] = []
        let pattern = patterns[p]
        let most = pattern.scheduledRuns.count + pattern.live.count
        runs.reserveCapacity(most)
        offsets.reserveCapacity(most)
        dwells.reserveCapacity(most)
        firstDepartures.reserveCapacity(most)
        var offset = pattern.scheduledTimes
        var run = pattern.scheduledRuns.lowerBound
        for end in pattern.scheduledGroupEnds {
            var group: [Int] = []
            group.reserveCapacity(Int(end - run))
            while run < end {
                if !liveTimes.isLive(run) {
                    group.append(runs.count)
                    runs.append(run)
                    offsets.append(offset)
                    dwells.append(self.runs[Int(run)].dwells)
                    firstDepartures.append(staticFirstDepartures[Int(run)])
                }
                offset += n
                run += 1
            }
            if !group.isEmpty { groups.append(group) }
        }
        var placed: [Int] = []
        for run in pattern.live {
            let slot = liveTimes.slots[Int(run)]
            guard slot.pattern == Int32(p) else { continue }
            placed.append(runs.count)
            runs.append(run)
            offsets.append(-1 - Int(slot.start))
            dwells.append(slot.dwells)
            firstDepartures.append(liveTimes.times[Int(slot.start) + n])  // its departures follow its arrivals
        }
        return staticArrivals.withUnsafeBufferPointer { sa in
            staticDepartures.withUnsafeBufferPointer { sd in
                liveTimes.times.withUnsafeBufferPointer { live in
                    // A live run's arrivals start at its slot's start, its departures n later.
                    let trips = FIFOSplit.Trips(
                        runs: runs, stopCount: n, offsets: offsets, dwells: dwells, firstDepartures: firstDepartures,
                        scheduled: (sa.baseAddress, sd.baseAddress),
                        live: (live.baseAddress, live.baseAddress.map { $0 + n }))
                    FIFOSplit.place(placed, into: &groups, trips)
                    return groups.map { RaptorRoute(key: key, group: $0, trips: trips) }
                }
            }
        }
    }

    /// Writes a pattern's routes into its route slots (both directions: each route and its `mirrored()` one), taking
    /// new slots when it needs more and emptying the ones it no longer needs.
    mutating func install(_ routes: [(forward: RaptorRoute, backward: RaptorRoute)], inPattern p: Int) {
        for (g, route) in routes.enumerated() {
            let slot: Int
            if g < patterns[p].routes.count {
                slot = Int(patterns[p].routes[g])
            } else {
                slot = forward.routes.count
                patterns[p].routes.append(Int32(slot))
            }
            forward.set(slot, route.forward)
            backward.set(slot, route.backward)
        }
        for g in routes.count..<max(routes.count, patterns[p].routes.count) {
            let slot = Int(patterns[p].routes[g])
            if forward.routes[slot].tripCount > 0 {
                let emptied = forward.routes[slot].emptied()
                forward.set(slot, emptied)
                backward.set(slot, emptied.mirrored())
            }
        }
    }
}

extension Timetable {
    /// Bytes held by the timetable's arrays (element storage, both directions, footpaths, runs; not counting
    /// dictionaries' overhead or the live state): the figure a memory budget starts from.
    public var memoryEstimate: Int {
        func bytes<T>(_ a: [T]) -> Int { a.capacity * MemoryLayout<T>.stride }
        var total = bytes(stops) + bytes(changeTime) + bytes(runs) + bytes(staticArrivals) + bytes(staticDepartures)
        total += bytes(staticFirstDepartures)
        total += footpaths.bytes
        for set in [forward, backward] {
            for r in set.routes { total += r.bytes }
            total += bytes(set.routes) + bytes(set.views)
            total += bytes(set.visitStart) + bytes(set.visitList)
        }
        for p in patterns {
            total += bytes(p.key.stops) * 2 + bytes(p.scheduledGroupEnds) + bytes(p.live) + bytes(p.routes)
        }
        total += runIndex.bytes + landmarks.bytes + walkCells.bytes
        return total
    }
}
