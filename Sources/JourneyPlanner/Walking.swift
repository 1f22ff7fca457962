import Foundation

/// Distances and walk times as the plan op defines them: straight lines on a sphere of radius 6,371 km, walked
/// at a constant speed, rounded up to whole seconds.
public enum Walking {
    public static let earthRadiusMetres = 6_371_000.0

    /// Great-circle (haversine) distance in metres.
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad
        let dLon = (lon2 - lon1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusMetres * asin(min(1, sqrt(a)))
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

/// The walks between stops, both ways (out of a stop and into it), each list sorted by distance.
struct FootpathGraph: Sendable {
    /// One walk. `fixedTime` ≥ 0 replaces the distance-based time; `always` walks (transfers.txt entries and
    /// stations) ignore the radius.
    struct Edge: Sendable {
        var stop: Int32
        var distance: Double
        var fixedTime: Int32
        var always: Bool
    }
    var outOffsets: [Int32]
    var outEdges: [Edge]
    var inOffsets: [Int32]
    var inEdges: [Edge]

    func outgoing(_ stop: Int) -> ArraySlice<Edge> { outEdges[Int(outOffsets[stop])..<Int(outOffsets[stop + 1])] }
    func incoming(_ stop: Int) -> ArraySlice<Edge> { inEdges[Int(inOffsets[stop])..<Int(inOffsets[stop + 1])] }

    /// The walk time of an edge for a query, nil when the query's radius excludes it.
    @inline(__always)
    static func time(_ e: Edge, radius: Double, speed: Double) -> Int32? {
        if !e.always && (radius <= 0 || e.distance > radius) { return nil }
        if e.fixedTime >= 0 { return e.fixedTime }
        return Int32(Walking.seconds(metres: e.distance, speed: speed))
    }

    /// Builds the graph over `served` stops: generated walks within `maxRadius`, the stations' walks, and the
    /// transfers.txt entries, by the rules of `TransferRules`. One stop at a time, so the only map is that stop's.
    init(stops: [TimetableSource.Stop], served: [Bool], rules: TransferRules, maxRadius: Double) {
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

        // A grid of cells at least `maxRadius` wide: a stop's neighbours are in the 3×3 cells around it.
        struct Cell: Hashable {
            var x: Int
            var y: Int
        }
        let located = (0..<n).filter { served[$0] && stops[$0].lat != nil && stops[$0].lon != nil }
        let maxLat = located.map { abs(stops[$0].lat!) }.max() ?? 0
        let latCell = max(maxRadius, 1) / 110_000
        let lonCell = latCell / max(cos(min(89, maxLat) * Double.pi / 180), 0.01)
        func cell(_ s: Int) -> Cell {
            Cell(x: Int((stops[s].lon! / lonCell).rounded(.down)), y: Int((stops[s].lat! / latCell).rounded(.down)))
        }
        var grid: [Cell: [Int]] = [:]
        if maxRadius > 0 { for s in located { grid[cell(s), default: []].append(s) } }

        var outOffsets = [Int32](repeating: 0, count: n + 1)
        var outEdges: [Edge] = []
        var incoming: [[Edge]] = Array(repeating: [], count: n)
        var edges: [Int: Edge] = [:]
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
            if maxRadius > 0, stops[a].lat != nil, stops[a].lon != nil {
                let c = cell(a)
                for dx in -1...1 {
                    for dy in -1...1 {
                        for b in grid[Cell(x: c.x + dx, y: c.y + dy)] ?? [] where b != a && distance(a, b) <= maxRadius
                        {
                            add(b, generated: true)
                        }
                    }
                }
            }
            if let st = stops[a].station { for b in platforms[st] ?? [] { add(b, generated: false) } }
            for from in [a] + (stops[a].station.map { [$0] } ?? []) {
                for e in entriesFrom[from] ?? [] { for b in expand(e.to) { add(b, generated: false) } }
            }
            let list = edges.values.sorted { ($0.distance, $0.stop) < ($1.distance, $1.stop) }
            outEdges.append(contentsOf: list)
            for e in list {
                incoming[Int(e.stop)].append(
                    Edge(stop: Int32(a), distance: e.distance, fixedTime: e.fixedTime, always: e.always))
            }
        }
        var inOffsets = [Int32](repeating: 0, count: n + 1)
        var inEdges: [Edge] = []
        inEdges.reserveCapacity(outEdges.count)
        for b in 0..<n {
            inEdges.append(contentsOf: incoming[b].sorted { ($0.distance, $0.stop) < ($1.distance, $1.stop) })
            inOffsets[b + 1] = Int32(inEdges.count)
        }
        self.outOffsets = outOffsets
        self.outEdges = outEdges
        self.inOffsets = inOffsets
        self.inEdges = inEdges
    }
}
