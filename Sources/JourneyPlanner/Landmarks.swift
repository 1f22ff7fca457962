import Foundation

/// Lower bounds on the time left from any stop to a query's destination, for the search's target pruning: a label
/// whose time plus the bound reaches the target's arrival can never become a better journey, so it is not written.
/// ALT (Goldberg, Harrelson: "Computing the shortest path: A* search meets graph theory", 2005) over a graph that
/// can only be faster than the timetable: an edge per consecutive pair of stops of every scheduled pattern, timed by
/// the pattern's fastest scheduled ride between them, and the stored walks at `FootpathGraph.timedSpeed`. Waits,
/// change times, pickup/drop-off rules, modes and the one-walk rule are left out: each only adds time or removes
/// ways. For every stop the exact distances to and from `count` landmarks are kept; by the triangle inequality,
/// d(p, t) ≥ d(p, L) − d(t, L) and d(p, t) ≥ d(L, t) − d(L, p) for each landmark L.
///
/// Live data can ride faster than the schedule. A live run's ride between two stops is compared with its pattern's
/// fastest scheduled one (the graph's edge is at most that); each pattern keeps the sum over its segments of the
/// largest shortfall of its live runs (`deficit`), and a journey of k trips is at most k times the largest pattern
/// deficit faster than the graph allows: the search subtracts that (`RaptorSearch`). A live segment the graph has
/// no edge for (an added trip between stops no pattern or walk links) makes the deficit infinite: no pruning then.
/// Queries walking faster than `timedSpeed` or beyond the stored radius are not bounded by this graph either.
///
/// Built once per timetable from its schedule (the distances: 2 × `count` Dijkstra searches, on every core);
/// immutable afterwards and shared by the timetable's live versions.
final class Landmarks: @unchecked Sendable {
    /// Landmarks per stop: one SIMD vector of distances each way.
    static let count = 16
    typealias Vector = SIMD16<Int32>
    /// The distance of an unreachable pair: far beyond any journey, and small enough that sums of two do not
    /// overflow. Keeping it finite keeps the triangle inequality true for every reachable pair.
    static let unreachable: Int32 = 1 << 28
    /// A deficit that disables the bounds (a live segment with no edge in the graph).
    static let unbounded: Int32 = .max

    let stopCount: Int
    /// The landmarks' stops (repeated when the feed has fewer places than `count`).
    let stops: [Int32]
    /// Per stop, 2 × `count` Int32 (128 bytes, 64-aligned): d(stop → landmark l) at l, d(landmark l → stop) at
    /// `count` + l.
    let distances: UnsafeMutablePointer<Int32>
    private let memory: UnsafeMutableRawPointer
    /// Per scheduled pattern p: its fastest scheduled ride from position i to i + 1 at `rideStart[p] + i`
    /// (`unreachable` when it has no scheduled run).
    let rides: [Int32]
    let rideStart: [Int32]
    /// The ride edges out of each stop (CSR: `rideOutStart`, targets and times), for live segments of patterns the
    /// schedule does not have.
    private let rideOutStart: [Int32]
    private let rideOutStop: [Int32]
    private let rideOutTime: [Int32]

    /// `patterns`: each pattern's stops, and where its scheduled times (runs × stops, run-major) start in
    /// `arrivals`/`departures`, and how many runs it has. `liveStarts`, when given for a pattern: where its live runs'
    /// arrivals start in `liveTimes` (their departures a stop count later), whose rides the graph's edges are at most
    /// too (`Timetable.refreshingLandmarks`).
    init(
        stops stopPoints: [Timetable.StopPoint], patterns: [(stops: [Int32], times: Int, runs: Int)],
        arrivals: [Int32], departures: [Int32], footpaths: FootpathGraph, liveTimes: [Int32] = [],
        liveStarts: [[Int]] = []
    ) {
        let n = stopPoints.count
        stopCount = n
        // The fastest scheduled (and live) ride of each pattern's segments.
        let perPattern: [[Int32]] = arrivals.withUnsafeBufferPointer { a in
            departures.withUnsafeBufferPointer { d in
                liveTimes.withUnsafeBufferPointer { live in
                    ParallelMap.map(patterns.count) { p in
                        let (stops, start, runs) = patterns[p]
                        let m = stops.count
                        // A ride backwards in time counts 0 (`RaptorRoute.lower`): a negative edge would break the
                        // shortest paths; the deficit counts such a live ride instead.
                        var best = [Int32](repeating: Self.unreachable, count: max(0, m - 1))
                        guard m >= 2 else { return best }
                        best.withUnsafeMutableBufferPointer { best in
                            RaptorRoute.lower(
                                best, toRidesOf: Swift.stride(from: start, to: start + runs * m, by: m),
                                arrivals: a.baseAddress, departures: d.baseAddress)
                            if p < liveStarts.count, let times = live.baseAddress {
                                RaptorRoute.lower(
                                    best, toRidesOf: liveStarts[p], arrivals: times, departures: times + m)
                            }
                        }
                        return best
                    }
                }
            }
        }
        var rideStart = [Int32](repeating: 0, count: patterns.count + 1)
        var rides: [Int32] = []
        for (p, best) in perPattern.enumerated() {
            rides.append(contentsOf: best)
            rideStart[p + 1] = Int32(rides.count)
        }
        self.rides = rides
        self.rideStart = rideStart
        // The ride edges (one per stop pair, its fastest ride), out of each stop and into it.
        var fastest: [Int64: Int32] = [:]
        for (p, pattern) in patterns.enumerated() {
            for i in 0..<max(0, pattern.stops.count - 1) {
                let ride = rides[Int(rideStart[p]) + i]
                guard ride < Self.unreachable else { continue }
                let key = Int64(pattern.stops[i]) << 32 | Int64(pattern.stops[i + 1])
                if ride < fastest[key, default: .max] { fastest[key] = ride }
            }
        }
        let edges = fastest.map { (from: Int32($0.key >> 32), to: Int32(truncatingIfNeeded: $0.key), time: $0.value) }
        func csr(_ key: (Int32, Int32) -> Int32, _ other: (Int32, Int32) -> Int32) -> ([Int32], [Int32], [Int32]) {
            var start = [Int32](repeating: 0, count: n + 1)
            for e in edges { start[Int(key(e.from, e.to)) + 1] += 1 }
            for i in 0..<n { start[i + 1] += start[i] }
            var fill = start
            var stop = [Int32](repeating: 0, count: edges.count), time = [Int32](repeating: 0, count: edges.count)
            for e in edges {
                let s = Int(key(e.from, e.to))
                let x = Int(fill[s])
                stop[x] = other(e.from, e.to)
                time[x] = e.time
                fill[s] += 1
            }
            return (start, stop, time)
        }
        (rideOutStart, rideOutStop, rideOutTime) = csr({ a, _ in a }, { _, b in b })
        let (rideInStart, rideInStop, rideInTime) = csr({ _, b in b }, { a, _ in a })

        // The landmarks: around the served stops' centre, the farthest stop of each of `count` equal angles
        // ("planar" selection: landmarks behind the places, seen from each other).
        let served = stopPoints.indices.filter { stopPoints[$0].served && stopPoints[$0].lat != nil }
        var chosen: [Int32] = []
        if !served.isEmpty {
            let lat0 = served.map { stopPoints[$0].lat! }.reduce(0, +) / Double(served.count)
            let lon0 = served.map { stopPoints[$0].lon! }.reduce(0, +) / Double(served.count)
            let scale = Walking.cosine(lat0)
            var far = [(stop: Int, d: Double)](repeating: (-1, -1), count: Self.count)
            for s in served {
                let y = stopPoints[s].lat! - lat0, x = (stopPoints[s].lon! - lon0) * scale
                let angle = atan2(y, x) + Double.pi  // 0…2π
                let sector = min(Self.count - 1, Int(angle / (2 * Double.pi) * Double(Self.count)))
                let d = x * x + y * y
                if d > far[sector].d { far[sector] = (s, d) }
            }
            chosen = far.filter { $0.stop >= 0 }.map { Int32($0.stop) }
        }
        if chosen.isEmpty, let any = stopPoints.indices.first(where: { stopPoints[$0].served }) {
            chosen = [Int32(any)]
        }
        if chosen.isEmpty { chosen = [0] }
        while chosen.count < Self.count { chosen.append(chosen[0]) }
        self.stops = chosen

        // Distances: from each landmark over the edges out of stops (d(L → p)), and over the edges into them
        // (d(p → L)).
        let stride = 2 * Self.count
        memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, n) * stride * 4, alignment: 64)
        distances = memory.initializeMemory(as: Int32.self, repeating: Self.unreachable, count: max(1, n) * stride)
        let graphs = (
            out: Graph(
                rideStart: rideOutStart, rideStop: rideOutStop, rideTime: rideOutTime, walkStart: footpaths.outOffsets,
                walks: footpaths.outTimed),
            into: Graph(
                rideStart: rideInStart, rideStop: rideInStop, rideTime: rideInTime, walkStart: footpaths.inOffsets,
                walks: footpaths.inTimed)
        )
        let distances = self.distances
        _ = ParallelMap.map(2 * Self.count) { job in
            let l = job % Self.count
            // Jobs below `count` search backwards (into stops): distances to the landmark.
            Self.dijkstra(
                from: Int(chosen[l]), over: job < Self.count ? graphs.into : graphs.out, stops: n,
                into: distances + job, stride: stride)
        }
    }

    deinit { memory.deallocate() }

    var bytes: Int { stopCount * 2 * Self.count * 4 + (rides.count + rideStart.count + 3 * rideOutStop.count) * 4 }

    /// A graph for the searches: ride edges and the stored walks (timed at `FootpathGraph.timedSpeed`).
    private struct Graph {
        let rideStart: [Int32]
        let rideStop: [Int32]
        let rideTime: [Int32]
        let walkStart: [Int32]
        let walks: [FootpathGraph.TimedEdge]
    }

    /// Dijkstra's shortest times from `source` over `graph` (`unreachable` where none), written to `out[p × stride]`.
    /// An indexed binary heap (a stop at most once, its key lowered in place): its memory is the stops', allocated
    /// once, where a heap of every improvement would grow to the edges' count (millions at NSW scale).
    private static func dijkstra(
        from source: Int, over graph: Graph, stops n: Int, into out: UnsafeMutablePointer<Int32>, stride: Int
    ) {
        guard source < n else { return }
        let dist = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        dist.initialize(repeating: unreachable, count: n)
        let heap = UnsafeMutablePointer<Int32>.allocate(capacity: n)  // stops, ordered by dist
        let position = UnsafeMutablePointer<Int32>.allocate(capacity: n)  // in heap; −1: not in it
        position.initialize(repeating: -1, count: n)
        defer {
            for p in 0..<n { out[p &* stride] = dist[p] }
            dist.deallocate()
            heap.deallocate()
            position.deallocate()
        }
        var count = 0
        func place(_ q: Int32, at start: Int) {
            var i = start
            let key = dist[Int(q)]
            while i > 0 {
                let parent = (i &- 1) >> 1
                if dist[Int(heap[parent])] <= key { break }
                heap[i] = heap[parent]
                position[Int(heap[i])] = Int32(i)
                i = parent
            }
            heap[i] = q
            position[Int(q)] = Int32(i)
        }
        dist[source] = 0
        place(Int32(source), at: 0)
        count = 1
        graph.rideStart.withUnsafeBufferPointer { rideStart in
            graph.rideStop.withUnsafeBufferPointer { rideStop in
                graph.rideTime.withUnsafeBufferPointer { rideTime in
                    graph.walkStart.withUnsafeBufferPointer { walkStart in
                        graph.walks.withUnsafeBufferPointer { walks in
                            while count > 0 {
                                let p = Int(heap[0])
                                position[p] = -2  // settled
                                count -= 1
                                if count > 0 {
                                    // The last stop sifted down from the root.
                                    let last = heap[count]
                                    let key = dist[Int(last)]
                                    var i = 0
                                    while true {
                                        var child = 2 &* i &+ 1
                                        if child >= count { break }
                                        if child &+ 1 < count && dist[Int(heap[child &+ 1])] < dist[Int(heap[child])] {
                                            child &+= 1
                                        }
                                        if dist[Int(heap[child])] >= key { break }
                                        heap[i] = heap[child]
                                        position[Int(heap[i])] = Int32(i)
                                        i = child
                                    }
                                    heap[i] = last
                                    position[Int(last)] = Int32(i)
                                }
                                let d = dist[p]
                                func reach(_ q: Int32, _ w: Int32) {
                                    let t = min(unreachable - 1, d &+ max(0, w))
                                    guard t < dist[Int(q)] else { return }
                                    dist[Int(q)] = t
                                    let at = Int(position[Int(q)])
                                    if at >= 0 {
                                        place(q, at: at)
                                    } else {
                                        place(q, at: count)
                                        count += 1
                                    }
                                }
                                for x in Int(rideStart[p])..<Int(rideStart[p + 1]) { reach(rideStop[x], rideTime[x]) }
                                for x in Int(walkStart[p])..<Int(walkStart[p + 1]) {
                                    reach(walks[x].stop, walks[x].seconds)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The graph's time from stop a to stop b by one edge (a ride or a stored walk), `unreachable` when none.
    func edge(from a: Int32, to b: Int32, footpaths: FootpathGraph) -> Int32 {
        var best = Self.unreachable
        let s = Int(a)
        guard s < stopCount else { return best }
        for x in Int(rideOutStart[s])..<Int(rideOutStart[s + 1]) where rideOutStop[x] == b {
            best = min(best, rideOutTime[x])
        }
        for x in Int(footpaths.outOffsets[s])..<Int(footpaths.outOffsets[s + 1]) where footpaths.outTimed[x].stop == b {
            best = min(best, footpaths.outTimed[x].seconds)
        }
        return best
    }

    /// How much faster than the graph the live runs of one pattern may carry a rider: per segment, the largest
    /// shortfall of a live ride against the pattern's fastest scheduled ride (or the graph's edge, for a pattern the
    /// schedule does not have), summed over the segments; `unbounded` when a segment has no edge. The live runs'
    /// arrivals start at `times + starts[r]`, their departures `stops.count` later.
    func deficit(
        pattern p: Int, stops: [Int32], times: UnsafePointer<Int32>?, starts: [Int], footpaths: FootpathGraph
    ) -> Int32 {
        let m = stops.count
        guard let times, !starts.isEmpty, m >= 2 else { return 0 }
        var shortfall = [Int32](repeating: 0, count: m - 1)
        // The graph's edge for each segment: the pattern's own fastest ride when the schedule has it.
        let scheduled = p + 1 < rideStart.count
        let bounds: [Int32] = (0..<(m - 1)).map { i in
            let own = scheduled ? rides[Int(rideStart[p]) + i] : Self.unreachable
            return own < Self.unreachable ? own : edge(from: stops[i], to: stops[i + 1], footpaths: footpaths)
        }
        for start in starts {
            let a = times + start, d = times + start + m
            for i in 0..<(m - 1) {
                let ride = a[i + 1] &- d[i]
                // A ride not faster than the graph's edge adds nothing.
                if ride >= bounds[i] { continue }
                if bounds[i] >= Self.unreachable { return Self.unbounded }
                shortfall[i] = max(shortfall[i], bounds[i] &- ride)
            }
        }
        let total = shortfall.reduce(Int64(0)) { $0 + Int64($1) }
        return Int32(clamping: min(total, Int64(Self.unbounded)))
    }
}

/// One query's bounds from the landmarks in its search frame: a lower bound on the time from a stop to the frame's
/// targets (the destination's stops forward, the origin's in an arrive-by search), the targets' walks included.
/// With d(p, t) ≥ d(p, L) − d(t, L) and d(p, t) ≥ d(L, t) − d(L, p), the least over the targets t of d(p, t) + walk(t)
/// is at least `toward[p] − far` and `near − from[p]` per landmark, where `far` is the largest d(t, L) − walk(t)
/// and `near` the least d(L, t) + walk(t). In the reverse frame "to" and "from" swap. Less the live deficit.
struct LandmarkBounds: @unchecked Sendable {
    let distances: UnsafeMutablePointer<Int32>?
    /// Offsets of the frame's "to the landmark" and "from it" vectors in a stop's distances.
    let toward: Int
    let from: Int
    let far: Landmarks.Vector
    let near: Landmarks.Vector
    let deficit: Int32

    /// No bounds (`enabled` false).
    static let none = LandmarkBounds(distances: nil, toward: 0, from: 0, far: .zero, near: .zero, deficit: 0)

    var enabled: Bool { distances != nil }

    /// The bound at a stop (only when `enabled`).
    @inline(__always)
    func bound(_ stop: Int) -> Int32 {
        let base = UnsafeRawPointer(distances! + stop &* (2 &* Landmarks.count))
        let a = base.load(fromByteOffset: toward &* 4, as: Landmarks.Vector.self)
        let b = base.load(fromByteOffset: from &* 4, as: Landmarks.Vector.self)
        return pointwiseMax(a &- far, near &- b).max() &- deficit
    }
}

extension LandmarkBounds {
    /// The bounds of a search toward `targets` (stop, walk seconds after it) in the forward frame or the reverse,
    /// for journeys of up to `maxTrips` trips with the timetable's live deficit.
    init(_ landmarks: Landmarks, targets: [(stop: Int32, walk: Int32)], reverse: Bool, deficit: Int32, maxTrips: Int) {
        let toward = reverse ? Landmarks.count : 0, from = reverse ? 0 : Landmarks.count
        var far = Landmarks.Vector(repeating: -Landmarks.unreachable)
        var near = Landmarks.Vector(repeating: 2 * Landmarks.unreachable)
        for (t, walk) in targets {
            let base = UnsafeRawPointer(landmarks.distances + Int(t) * 2 * Landmarks.count)
            let w = Landmarks.Vector(repeating: min(walk, Landmarks.unreachable))
            far = pointwiseMax(far, base.load(fromByteOffset: toward * 4, as: Landmarks.Vector.self) &- w)
            near = pointwiseMin(near, base.load(fromByteOffset: from * 4, as: Landmarks.Vector.self) &+ w)
        }
        // A deficit beyond any journey's length leaves nothing to prune: no bounds then (and no overflow).
        let total = Int64(deficit) * Int64(maxTrips)
        let useful = !targets.isEmpty && total < Int64(Landmarks.unreachable)
        self.init(
            distances: useful ? landmarks.distances : nil, toward: toward, from: from, far: far, near: near,
            deficit: useful ? Int32(total) : 0)
    }
}
