import Foundation

/// Distances and walk times as the plan op defines them: straight lines on a sphere of radius 6,371 km, walked
/// at a constant speed, rounded up to whole seconds.
public enum Walking {
    public static let earthRadiusMetres = 6_371_000.0

    /// Great-circle (haversine) distance in metres.
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        distance(
            haversine(lat1: lat1, lon1: lon1, cosLat1: cosine(lat1), lat2: lat2, lon2: lon2, cosLat2: cosine(lat2)))
    }

    /// The parts of `distance`, for callers that keep the cosines of their latitudes (the same operations in the
    /// same order, so the same bits).
    @inline(__always)
    static func cosine(_ lat: Double) -> Double { cos(lat * (Double.pi / 180)) }

    @inline(__always)
    static func haversine(
        lat1: Double, lon1: Double, cosLat1: Double, lat2: Double, lon2: Double, cosLat2: Double
    ) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad
        let dLon = (lon2 - lon1) * rad
        return sin(dLat / 2) * sin(dLat / 2) + cosLat1 * cosLat2 * sin(dLon / 2) * sin(dLon / 2)
    }

    @inline(__always)
    static func distance(_ haversine: Double) -> Double { 2 * earthRadiusMetres * asin(min(1, sqrt(haversine))) }

    /// A haversine above this is a distance above `metres` (with a margin far above the rounding of `distance`).
    static func haversineBound(metres: Double) -> Double {
        let h = sin(metres / (2 * earthRadiusMetres))
        return h * h * (1 + 1e-6)
    }

    /// Seconds to walk `metres` at `speed` m/s: ceil(distance / speed).
    public static func seconds(metres: Double, speed: Double) -> Int {
        Int((metres / speed).rounded(.up))
    }
}

/// How a change from one stop to another may be made, after transfers.txt and the stations are applied:
/// the walks of the footpath graph and the change time at the same stop.
///
/// Rules (GTFS leaves them open; protocol/GATEWAY.md `plan` states them):
/// - a transfers.txt entry for an ordered pair replaces the generated or same-station walk for that pair: type 3
///   forbids it (even within the radius or inside a station), types 0 and 2 allow it whatever the distance, and
///   their `min_transfer_time` replaces the distance-based time; type 1 between different stops counts as type 0;
/// - the entry for a pair is looked up stop to stop first, then stop to station, station to stop, and station to
///   station (a station-level entry applies to its platforms; a stop-level one wins);
/// - at the same stop, an entry of type 2 with a time sets the change time, type 3 forbids changing there, and any
///   other entry (type 0, 1, or 2 without a time) means the query's default slack;
/// - without an entry, stops of one station are linked whatever the distance, others when within the radius
///   (inclusive); `walk_radius_m` 0 keeps only the entries and the stations' walks.
struct TransferRules {
    struct Pair: Hashable {
        var from: Int
        var to: Int
    }
    let entries: [Pair: TimetableSource.Transfer]
    let stations: [Int?]

    init(transfers: [TimetableSource.Transfer], stations: [Int?]) {
        var entries: [Pair: TimetableSource.Transfer] = [:]
        for t in transfers where stations.indices.contains(t.from) && stations.indices.contains(t.to) {
            entries[Pair(from: t.from, to: t.to)] = t  // a repeated pair: the last row wins
        }
        self.entries = entries
        self.stations = stations
    }

    /// The entry that governs the ordered pair, by the precedence above.
    func entry(from a: Int, to b: Int) -> TimetableSource.Transfer? {
        if entries.isEmpty { return nil }
        if let e = entries[Pair(from: a, to: b)] { return e }
        let sa = stations[a], sb = stations[b]
        if let sb, let e = entries[Pair(from: a, to: sb)] { return e }
        if let sa, let e = entries[Pair(from: sa, to: b)] { return e }
        if let sa, let sb, let e = entries[Pair(from: sa, to: sb)] { return e }
        return nil
    }

    /// The same-stop change time: `ChangeTime.defaultSlack`, `.forbidden`, or seconds.
    func sameStop(_ a: Int) -> Int32 {
        guard let e = entry(from: a, to: a) else { return ChangeTime.defaultSlack }
        if e.type == 3 { return ChangeTime.forbidden }
        if e.type == 2, let time = e.minTime { return Int32(max(0, time)) }
        return ChangeTime.defaultSlack
    }
}

/// Values of `Timetable.changeTime` besides a number of seconds.
enum ChangeTime {
    static let defaultSlack: Int32 = -1
    static let forbidden: Int32 = -2
}

/// The walks between stops, both ways (out of a stop and into it), each list sorted by distance: the stored ones,
/// and the generated ones beyond the stored radius made on demand (`generate`).
///
/// Stored: every generated walk within `storedRadius` (the default `walk_radius_m`, 400 m) and every `always` walk
/// (transfers.txt entries of type 0/1/2 and the stops of one station, whatever the distance). A query asking a
/// larger radius gets the generated walks beyond `storedRadius` from the grid of the served stops, by the same
/// rules (`TransferRules`), so that together they are the walks within its radius. Storing every walk within the
/// largest radius a query may ask (2 km) made the NSW-scale timetable 4.1 GB (protocol/README.md flow 8).
struct FootpathGraph: Sendable {
    /// One walk. `fixedTime` ≥ 0 replaces the distance-based time; `always` walks (transfers.txt entries and
    /// stations) ignore the radius. 16 bytes: the distance stays a Double (a Float would move some walks across a
    /// radius or a whole second: ceil(distance / speed) and "within" must see the exact distance), and `always`
    /// is folded into the time code.
    struct Edge: Sendable {
        var distance: Double
        var stop: Int32
        /// ≥ 0: a fixed time (an always walk); `generatedCode`: a generated walk; `alwaysCode`: an always walk timed
        /// by its distance.
        private var code: Int32
        private static let generatedCode: Int32 = -1
        private static let alwaysCode: Int32 = -2

        init(stop: Int32, distance: Double, fixedTime: Int32, always: Bool) {
            precondition(fixedTime < 0 || always, "a fixed time belongs to an always walk")
            self.distance = distance
            self.stop = stop
            code = fixedTime >= 0 ? fixedTime : (always ? Self.alwaysCode : Self.generatedCode)
        }

        var fixedTime: Int32 { code >= 0 ? code : -1 }
        var always: Bool { code != Self.generatedCode }

        /// The same walk seen from its other end.
        func reversed(to stop: Int32) -> Edge {
            var e = self
            e.stop = stop
            return e
        }
    }
    /// Generated walks are stored within this radius (inclusive; none when it is 0).
    let storedRadius: Double
    var outOffsets: [Int32]
    var outEdges: [Edge]
    var inOffsets: [Int32]
    var inEdges: [Edge]
    /// What generating the walks beyond `storedRadius` needs: the served stops' places, the rules, the stations.
    let grid: StopGrid
    let rules: TransferRules
    /// Whether a transfers.txt entry may govern walks out of (into) each stop: one names it or its station. Most
    /// pairs have none, and these spare their lookups.
    let entryFrom: [Bool]
    let entryTo: [Bool]
    /// Each stop's station as the feed gives it (−1 for none).
    let station: [Int32]

    /// The stored walks with their times at `timedSpeed` (8 bytes a walk, the same stops' ranges as `outEdges` and
    /// `inEdges`, each stop's sorted by time): what a query at that speed and a radius of at least `storedRadius`
    /// reads, half the memory of the edges.
    struct TimedEdge: Sendable {
        var stop: Int32
        var seconds: Int32
    }
    static let timedSpeed = 1.2
    var outTimed: [TimedEdge]
    var inTimed: [TimedEdge]

    /// Whether a query walks the stored walks as `outTimed`/`inTimed` time them.
    func timed(radius: Double, speed: Double) -> Bool { speed == Self.timedSpeed && radius >= storedRadius }

    func outgoing(_ stop: Int) -> ArraySlice<Edge> { outEdges[Int(outOffsets[stop])..<Int(outOffsets[stop + 1])] }
    func incoming(_ stop: Int) -> ArraySlice<Edge> { inEdges[Int(inOffsets[stop])..<Int(inOffsets[stop + 1])] }

    /// The walk time of an edge for a query, nil when the query's radius excludes it.
    @inline(__always)
    static func time(_ e: Edge, radius: Double, speed: Double) -> Int32? {
        if !e.always && (radius <= 0 || e.distance > radius) { return nil }
        if e.fixedTime >= 0 { return e.fixedTime }
        // ceil(distance / speed) as `Walking.seconds` computes it, without a call to ceil or an overflow trap on
        // the search's path: for 0 ≤ q < 2^31 truncation is the floor, and the ceiling is one more unless q is whole.
        let q = e.distance / speed
        guard q >= 0 && q < 2_147_483_647 else { return Int32(Walking.seconds(metres: e.distance, speed: speed)) }
        let whole = Int32(q)
        return Double(whole) < q ? whole &+ 1 : whole
    }

    /// Whether a query with `radius` has walks besides the stored ones.
    func needsGenerated(radius: Double) -> Bool { radius > storedRadius }

    /// Appends the generated walks out of `a` (into it with `incoming`) longer than the stored radius and within
    /// `radius` (inclusive): the walks of a query with that radius besides the stored ones. Pairs with a
    /// transfers.txt entry (forbidden, or stored as always walks) and pairs of one station (stored) are not
    /// generated.
    func generate(_ a: Int, incoming: Bool, radius: Double, into edges: inout [Edge]) {
        guard needsGenerated(radius: radius), radius > 0 else { return }
        let stored = storedRadius > 0
        var near: [StopGrid.Near] = []
        grid.stops(near: a, within: radius, into: incoming, &near)
        for n in near {
            let b = Int(n.stop), d = n.distance
            if stored && d <= storedRadius { continue }
            let from = incoming ? b : a, to = incoming ? a : b
            if entryFrom[from] && entryTo[to] && rules.entry(from: from, to: to) != nil { continue }
            if station[a] >= 0 && station[a] == station[b] { continue }
            edges.append(Edge(stop: n.stop, distance: d, fixedTime: -1, always: false))
        }
    }

    /// Bytes of the arrays (both directions and the grid).
    var bytes: Int {
        func bytes<T>(_ a: [T]) -> Int { a.capacity * MemoryLayout<T>.stride }
        let edges =
            bytes(outEdges) + bytes(inEdges) + bytes(outOffsets) + bytes(inOffsets) + bytes(outTimed) + bytes(inTimed)
        return edges + bytes(station) + bytes(entryFrom) + bytes(entryTo) + grid.bytes
    }

    /// Builds the graph over `served` stops: generated walks within `storedRadius`, the stations' walks, and the
    /// transfers.txt entries, by the rules of `TransferRules`. One stop at a time, so the only map is that stop's.
    init(stops: [TimetableSource.Stop], served: [Bool], rules: TransferRules, storedRadius: Double) {
        let n = stops.count
        func distance(_ a: Int, _ b: Int) -> Double {
            guard let la = stops[a].lat, let lo = stops[a].lon, let lb = stops[b].lat, let lob = stops[b].lon
            else { return 0 }
            return Walking.distance(lat1: la, lon1: lo, lat2: lb, lon2: lob)
        }
        // Served platforms of each station, and the entries by the stop or station they leave from.
        var platforms: [Int: [Int]] = [:]
        for s in 0..<n where served[s] { if let st = stops[s].station { platforms[st, default: []].append(s) } }
        var entriesFrom: [Int: [TimetableSource.Transfer]] = [:]
        for e in rules.entries.values where e.from != e.to { entriesFrom[e.from, default: []].append(e) }
        func expand(_ s: Int) -> [Int] { served[s] ? [s] : (platforms[s] ?? []) }
        let grid = StopGrid(stops: stops, served: served, cellMetres: max(storedRadius, StopGrid.smallestCell))

        var outOffsets = [Int32](repeating: 0, count: n + 1)
        var outEdges: [Edge] = []
        var edges: [Int: Edge] = [:]
        var near: [StopGrid.Near] = []
        for a in 0..<n {
            defer { outOffsets[a + 1] = Int32(outEdges.count) }
            guard served[a] else { continue }
            edges.removeAll(keepingCapacity: true)
            func add(_ b: Int, generated: Bool) {
                guard b != a else { return }
                let d = distance(a, b)
                if let e = rules.entry(from: a, to: b) {
                    if e.type == 3 { return }
                    edges[b] = Edge(
                        stop: Int32(b), distance: d, fixedTime: e.minTime.map { Int32(max(0, $0)) } ?? -1, always: true)
                } else {
                    let sameStation = stops[a].station != nil && stops[a].station == stops[b].station
                    if !sameStation && !generated { return }
                    edges[b] = Edge(stop: Int32(b), distance: d, fixedTime: -1, always: sameStation)
                }
            }
            if storedRadius > 0 {
                near.removeAll(keepingCapacity: true)
                grid.stops(near: a, within: storedRadius, into: false, &near)
                for b in near { add(Int(b.stop), generated: true) }
            }
            if let st = stops[a].station { for b in platforms[st] ?? [] { add(b, generated: false) } }
            for from in [a] + (stops[a].station.map { [$0] } ?? []) {
                for e in entriesFrom[from] ?? [] { for b in expand(e.to) { add(b, generated: false) } }
            }
            outEdges.append(contentsOf: edges.values.sorted { ($0.distance, $0.stop) < ($1.distance, $1.stop) })
        }
        // The same walks by the stop they lead to: counted, placed, then each list sorted.
        var inOffsets = [Int32](repeating: 0, count: n + 1)
        for e in outEdges { inOffsets[Int(e.stop) + 1] += 1 }
        for b in 0..<n { inOffsets[b + 1] += inOffsets[b] }
        var next = inOffsets
        var inEdges = outEdges
        for a in 0..<n {
            for e in outEdges[Int(outOffsets[a])..<Int(outOffsets[a + 1])] {
                inEdges[Int(next[Int(e.stop)])] = e.reversed(to: Int32(a))
                next[Int(e.stop)] += 1
            }
        }
        for b in 0..<n {
            inEdges[Int(inOffsets[b])..<Int(inOffsets[b + 1])].sort { ($0.distance, $0.stop) < ($1.distance, $1.stop) }
        }
        self.storedRadius = storedRadius
        self.outOffsets = outOffsets
        self.outEdges = outEdges
        self.inOffsets = inOffsets
        self.inEdges = inEdges
        func timed(_ e: Edge) -> TimedEdge {
            TimedEdge(stop: e.stop, seconds: Self.time(e, radius: .infinity, speed: Self.timedSpeed) ?? 0)
        }
        // Each stop's timed walks sorted by time (a transfers.txt time can make a far walk quick or a near one slow):
        // the search stops reading a stop's walks at the first that arrives too late.
        func timedByTime(_ edges: [Edge], _ offsets: [Int32]) -> [TimedEdge] {
            var list = edges.map(timed)
            for s in 0..<offsets.count - 1 where offsets[s + 1] - offsets[s] > 1 {
                list[Int(offsets[s])..<Int(offsets[s + 1])].sort { ($0.seconds, $0.stop) < ($1.seconds, $1.stop) }
            }
            return list
        }
        outTimed = timedByTime(outEdges, outOffsets)
        inTimed = timedByTime(inEdges, inOffsets)
        self.grid = grid
        self.rules = rules
        station = stops.map { Int32(clamping: $0.station ?? -1) }
        // `TransferRules.entry` looks a pair up by each end and its station: an entry from x governs x's walks and
        // those of x's platforms.
        let froms = Set(rules.entries.keys.map(\.from)), tos = Set(rules.entries.keys.map(\.to))
        func named(_ s: Int, _ set: Set<Int>) -> Bool {
            set.contains(s) || rules.stations[s].map(set.contains) ?? false
        }
        entryFrom = (0..<n).map { named($0, froms) }
        entryTo = (0..<n).map { named($0, tos) }
    }
}

/// The served stops with coordinates in square cells of a grid (at least `cellMetres` wide everywhere), to find
/// the stops within a radius of one.
struct StopGrid: Sendable {
    /// Cells narrower than this would make a large radius visit too many of them.
    static let smallestCell = 200.0
    struct Cell: Hashable, Sendable {
        var x: Int32
        var y: Int32
    }
    let cellMetres: Double
    /// Cell sides in degrees: 110 km to a degree of latitude (a degree is 111.2 km on the planner's sphere, so a
    /// cell is more than `cellMetres` high), and the longitude side widened for the most poleward stop.
    let latCell: Double
    let lonCell: Double
    /// Each stop's coordinates and the cosine of its latitude; NaN when it is not served or has none.
    let lat: [Double]
    let lon: [Double]
    let cosLat: [Double]
    /// The stops of cell `cells[c]` are `members[starts[c]..<starts[c + 1]]`.
    let cells: [Cell: Int32]
    let starts: [Int32]
    let members: [Int32]

    init(stops: [TimetableSource.Stop], served: [Bool], cellMetres: Double) {
        self.cellMetres = cellMetres
        var lat = [Double](repeating: .nan, count: stops.count)
        var lon = lat
        for (s, stop) in stops.enumerated() where served[s] {
            guard let la = stop.lat, let lo = stop.lon else { continue }
            lat[s] = la
            lon[s] = lo
        }
        let located = stops.indices.filter { !lat[$0].isNaN }
        let maxLat = located.map { abs(lat[$0]) }.max() ?? 0
        let latCell = cellMetres / 110_000
        let lonCell = latCell / max(cos(min(89, maxLat) * Double.pi / 180), 0.01)
        self.latCell = latCell
        self.lonCell = lonCell
        self.lat = lat
        self.lon = lon
        cosLat = lat.map { Walking.cosine($0) }
        func cell(_ s: Int) -> Cell {
            Cell(x: Int32((lon[s] / lonCell).rounded(.down)), y: Int32((lat[s] / latCell).rounded(.down)))
        }
        let keyed = located.map { (cell: cell($0), stop: Int32($0)) }.sorted {
            ($0.cell.y, $0.cell.x, $0.stop) < ($1.cell.y, $1.cell.x, $1.stop)
        }
        var cells: [Cell: Int32] = [:]
        var starts: [Int32] = []
        for (i, k) in keyed.enumerated() where i == 0 || keyed[i - 1].cell != k.cell {
            cells[k.cell] = Int32(starts.count)
            starts.append(Int32(i))
        }
        starts.append(Int32(keyed.count))
        self.cells = cells
        self.starts = starts
        members = keyed.map(\.stop)
    }

    struct Near {
        var stop: Int32
        var distance: Double
    }

    /// Appends every other located stop within `radius` (inclusive) of `a` with its distance from a (to a with
    /// `into`, so that it is the walk's distance to the last bit).
    func stops(near a: Int, within radius: Double, into: Bool, _ result: inout [Near]) {
        guard lat.indices.contains(a), !lat[a].isNaN else { return }
        // A stop within the radius is at most this many cells away on either axis.
        let rings = Int32((radius / cellMetres).rounded(.up))
        let cx = Int32((lon[a] / lonCell).rounded(.down)), cy = Int32((lat[a] / latCell).rounded(.down))
        let bound = Walking.haversineBound(metres: radius)
        for y in (cy - rings)...(cy + rings) {
            for x in (cx - rings)...(cx + rings) {
                guard let c = cells[Cell(x: x, y: y)] else { continue }
                for b32 in members[Int(starts[Int(c)])..<Int(starts[Int(c) + 1])] {
                    let b = Int(b32)
                    guard b != a else { continue }
                    let h =
                        into
                        ? Walking.haversine(
                            lat1: lat[b], lon1: lon[b], cosLat1: cosLat[b], lat2: lat[a], lon2: lon[a],
                            cosLat2: cosLat[a])
                        : Walking.haversine(
                            lat1: lat[a], lon1: lon[a], cosLat1: cosLat[a], lat2: lat[b], lon2: lon[b],
                            cosLat2: cosLat[b])
                    guard h <= bound else { continue }
                    let d = Walking.distance(h)
                    if d <= radius { result.append(Near(stop: b32, distance: d)) }
                }
            }
        }
    }

    var bytes: Int {
        func bytes<T>(_ a: [T]) -> Int { a.capacity * MemoryLayout<T>.stride }
        return bytes(lat) + bytes(lon) + bytes(cosLat) + bytes(starts) + bytes(members)
    }
}

/// The generated walks one query needs besides the stored ones, made on a stop's first use and kept for the rest
/// of the query (a range query's runs included): each stop's once per query, not once per round. Kept by a search
/// between queries so that its arrays are allocated once; past `cachedLimit` walks a query generates the walks of
/// further stops afresh each time instead of keeping them, so that one query with a large radius over a dense
/// network does not hold hundreds of MiB.
struct GeneratedWalks {
    static let cachedLimit = 2_000_000
    private(set) var radius = 0.0
    private(set) var incoming = false
    private var first: [Int32] = []  // per stop: −1 until generated
    private var end: [Int32] = []
    private var edges: [FootpathGraph.Edge] = []
    private var scratch: [FootpathGraph.Edge] = []
    private var done: [Int32] = []

    /// Readies the cache for a query: nothing generated yet.
    mutating func reset(stopCount: Int, radius: Double, incoming: Bool) {
        if first.count != stopCount {
            first = Array(repeating: -1, count: stopCount)
            end = first
        } else {
            for s in done { first[Int(s)] = -1 }
        }
        done.removeAll(keepingCapacity: true)
        edges.removeAll(keepingCapacity: edges.capacity <= Self.cachedLimit / 8)
        self.radius = radius
        self.incoming = incoming
    }

    /// The generated walks out of (into, for `incoming`) a stop for this query's radius.
    mutating func walks(_ stop: Int, graph: FootpathGraph) -> ArraySlice<FootpathGraph.Edge> {
        if first[stop] < 0 {
            if edges.count >= Self.cachedLimit {
                scratch.removeAll(keepingCapacity: true)
                graph.generate(stop, incoming: incoming, radius: radius, into: &scratch)
                return scratch[...]
            }
            first[stop] = Int32(edges.count)
            graph.generate(stop, incoming: incoming, radius: radius, into: &edges)
            end[stop] = Int32(edges.count)
            done.append(Int32(stop))
        }
        return edges[Int(first[stop])..<Int(end[stop])]
    }
}
