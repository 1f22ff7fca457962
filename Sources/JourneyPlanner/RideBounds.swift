/// Lower bounds on the time left from a stop to the query's destination when at most one or two more trips may be
/// taken, found per query with `TripsLeft`'s counts: the search prunes its last rounds with them, where the landmarks'
/// bound (any number of trips) is weak. With `max_transfers` 4 at NSW scale, most of round 3's labels that pass the
/// landmarks cannot reach the destination in time with the two trips left (BENCHMARKS.md, session 33).
///
/// Waits, change times, modes and wheelchair access are left out, and a ride counts its route's fastest
/// (`RaptorRoute.fastest`): each only makes the bounds lower. In the search frame, from the destination's stops (the
/// frame's egress, whose bound after alighting is their egress walk):
/// - `boarding1[p]`: boarding at p, one trip to a stop with an egress, then its walk;
/// - `alight1[q]`: after alighting at q, at most one more trip: the egress walk at q, boarding at q, or a walk to a
///   stop p and `boarding1[p]`;
/// - `boarding2[p]`: boarding at p, one trip, then `alight1` where it alights;
/// - `alight(2, q)`: `alight1[q]`, `boarding2[q]`, and for a walk to a stop p, the least `boarding2` in the walk grid's
///   cells around q (`WalkCells`; the walk counts 0 s), or, for a stop without a cell, over its walks one by one.
/// `unreachable`: no such way. Plain pointers into `TripsLeft`'s memory, valid until its next query.
struct RideBounds: @unchecked Sendable {
    /// No such way: the landmarks' distance of an unreachable pair (far beyond any journey; sums of two do not
    /// overflow).
    static let unreachable = Landmarks.unreachable

    /// The levels known: 0 none (nothing is read), 1 (`boarding1`, `alight1`), 2 (and `boarding2`, `alight(2, _)`).
    let depth: Int
    let alight1: UnsafeMutablePointer<Int32>?
    let boarding1: UnsafeMutablePointer<Int32>?
    let boarding2: UnsafeMutablePointer<Int32>?
    /// Per walk-grid cell: the least `boarding2` of the stops in the cells around it.
    let around: UnsafeMutablePointer<Int32>?
    let cell: UnsafeMutablePointer<Int32>?
    /// The frame's walks out of the stops without a cell (`WalkCells.farOut`, `farIn`).
    let walkStart: UnsafeMutablePointer<Int32>?
    let walks: UnsafeMutablePointer<FootpathGraph.TimedEdge>?

    static let none = RideBounds(
        depth: 0, alight1: nil, boarding1: nil, boarding2: nil, around: nil, cell: nil, walkStart: nil, walks: nil)

    /// The bound after alighting at q (or a walk there) with at most `level` more trips (1 or 2, at most `depth`).
    @inline(__always)
    func alight(_ level: Int, _ q: Int) -> Int32 {
        level == 1 ? alight1.unsafelyUnwrapped[q] : alight2(q)
    }

    /// The bound when boarding at p with at most `level` trips, that one included (1 or 2, at most `depth`).
    @inline(__always)
    func boarding(_ level: Int, _ p: Int) -> Int32 {
        level == 1 ? boarding1.unsafelyUnwrapped[p] : boarding2.unsafelyUnwrapped[p]
    }

    @inline(__always)
    private func alight2(_ q: Int) -> Int32 {
        let boarding2 = self.boarding2.unsafelyUnwrapped
        let own = min(alight1.unsafelyUnwrapped[q], boarding2[q])
        let c = cell.unsafelyUnwrapped[q]
        if c >= 0 { return min(own, around.unsafelyUnwrapped[Int(c)]) }
        var least = own
        let start = walkStart.unsafelyUnwrapped, edges = walks.unsafelyUnwrapped
        for x in Int(start[q])..<Int(start[q &+ 1]) {
            let e = edges[x]
            least = min(least, e.seconds &+ boarding2[Int(e.stop)])
        }
        return least
    }

    /// Rides back a route from frame position `end` − 1: each earlier position where boarding is allowed gets, in
    /// `into`, the least over the later positions with a drop-off of the ride there (`fastest`) plus `bound`, when
    /// lower; `wrote` is told each stop whose value it lowered from `unreachable`.
    @inline(__always)
    static func ride(
        _ view: RouteView, end: Int, bound: UnsafeMutablePointer<Int32>, into: UnsafeMutablePointer<Int32>,
        _ wrote: (Int32) -> Void
    ) {
        var best = unreachable  // the least ride from position j to a later alighting, plus its bound
        var j = end &- 1
        while j >= 1 {
            if view.flags[j] & 2 != 0 { best = min(best, bound[Int(view.stops[j])]) }
            best = min(unreachable, best &+ view.fastest[j &- 1])
            let i = j &- 1
            let p = Int(view.stops[i])
            if view.flags[i] & 1 != 0 && best < into[p] {
                if into[p] == unreachable { wrote(Int32(truncatingIfNeeded: p)) }
                into[p] = best
            }
            j = i
        }
    }
}

/// The walk grid the two-trip bound reads (`RideBounds.alight(2, _)`): each stop's cell of `FootpathGraph.grid` when
/// every stored walk from or to it ends in that cell or one next to it (−1 otherwise, or with no cell: its walks are
/// then read one by one, from a copy of those stops' timed walks), and for each cell the cells around it (itself
/// included) that have stops. Built once per timetable; immutable.
final class WalkCells: @unchecked Sendable {
    /// Per stop: its cell, or −1 (no cell, or a walk beyond the cells around it). Immutable after the build.
    let cell: UnsafeMutablePointer<Int32>
    let stopCount: Int
    /// The timed walks out of (into) each stop whose `cell` is −1, at `farOutStart[s]..<farOutStart[s + 1]`
    /// (`farInStart`); none for the others.
    let farOutStart: UnsafeMutablePointer<Int32>
    let farOut: UnsafeMutablePointer<FootpathGraph.TimedEdge>
    let farInStart: UnsafeMutablePointer<Int32>
    let farIn: UnsafeMutablePointer<FootpathGraph.TimedEdge>
    /// Per stop: its cell, or −1 (no cell).
    let home: [Int32]
    /// The cells around cell c are `aroundList[aroundStart[c]..<aroundStart[c + 1]]`.
    let aroundStart: [Int32]
    let aroundList: [Int32]
    var count: Int { aroundStart.count - 1 }

    init(_ footpaths: FootpathGraph) {
        let grid = footpaths.grid
        let n = footpaths.outOffsets.count - 1
        var coordinates = [StopGrid.Cell](repeating: StopGrid.Cell(x: 0, y: 0), count: grid.cells.count)
        for (c, id) in grid.cells { coordinates[Int(id)] = c }
        var home = [Int32](repeating: -1, count: n)
        for c in 0..<grid.cells.count {
            for s in grid.members[Int(grid.starts[c])..<Int(grid.starts[c + 1])] { home[Int(s)] = Int32(c) }
        }
        var cell = home
        func near(_ a: Int, _ b: Int) -> Bool {
            let ca = home[a], cb = home[b]
            guard ca >= 0, cb >= 0 else { return false }
            let p = coordinates[Int(ca)], q = coordinates[Int(cb)]
            return abs(Int(p.x) - Int(q.x)) <= 1 && abs(Int(p.y) - Int(q.y)) <= 1
        }
        for a in 0..<n {
            for e in footpaths.outgoing(a) where !near(a, Int(e.stop)) {
                cell[a] = -1
                cell[Int(e.stop)] = -1
            }
        }
        var start: [Int32] = [0]
        var list: [Int32] = []
        for c in coordinates {
            for dy in -1...1 {
                for dx in -1...1 {
                    if let d = grid.cells[StopGrid.Cell(x: c.x + Int32(dx), y: c.y + Int32(dy))] { list.append(d) }
                }
            }
            start.append(Int32(list.count))
        }
        stopCount = n
        self.cell = .allocate(capacity: max(1, n))
        self.cell.initialize(from: cell, count: n)
        func far(_ offsets: [Int32], _ timed: [FootpathGraph.TimedEdge]) -> (
            UnsafeMutablePointer<Int32>, UnsafeMutablePointer<FootpathGraph.TimedEdge>
        ) {
            var start: [Int32] = [0]
            var edges: [FootpathGraph.TimedEdge] = []
            for s in 0..<n {
                if cell[s] < 0 { edges.append(contentsOf: timed[Int(offsets[s])..<Int(offsets[s + 1])]) }
                start.append(Int32(edges.count))
            }
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: start.count)
            p.initialize(from: start, count: start.count)
            let e = UnsafeMutablePointer<FootpathGraph.TimedEdge>.allocate(capacity: max(1, edges.count))
            e.initialize(from: edges, count: edges.count)
            return (p, e)
        }
        (farOutStart, farOut) = far(footpaths.outOffsets, footpaths.outTimed)
        (farInStart, farIn) = far(footpaths.inOffsets, footpaths.inTimed)
        self.home = home
        aroundStart = start
        aroundList = list
    }

    deinit {
        cell.deallocate()
        farOutStart.deallocate()
        farOut.deallocate()
        farInStart.deallocate()
        farIn.deallocate()
    }

    var bytes: Int {
        (3 * stopCount + home.capacity + aroundStart.capacity + aroundList.capacity) * 4
            + (Int(farOutStart[stopCount]) + Int(farInStart[stopCount])) * 8
    }
}
