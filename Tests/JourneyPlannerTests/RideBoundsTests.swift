import Testing
import TransitCore
import TransitTesting

@testable import JourneyPlanner

/// The time bounds with one or two trips more (`RideBounds`, found by `TripsLeft`) against their definitions, found
/// here by looking at every pair of positions of every route and every walk; the search's answers with them are the
/// property tests' (`PropertyTests`, against the reference planner).
@Suite struct RideBoundsTests {
    @Test(arguments: 0..<8)
    func boundsAreTheirDefinitionsAndTheTwoTripBoundIsLower(seed: Int) {
        let feed = RandomFeed(seed: UInt64(seed) &* 131 &+ 7)
        let timetable = Timetable(feed.source)
        let n = timetable.stopCount
        let unreachable = RideBounds.unreachable
        var rng = SplitMix64(seed: UInt64(seed))
        var finiteTwoTrip = 0
        for reverse in [false, true] {
            let set = reverse ? timetable.backward : timetable.forward
            let walks = timetable.footpaths
            // The frame's walks out of a stop and into it.
            let outStart = reverse ? walks.inOffsets : walks.outOffsets, out = reverse ? walks.inTimed : walks.outTimed
            let inStart = reverse ? walks.outOffsets : walks.inOffsets, into = reverse ? walks.outTimed : walks.inTimed
            // `fastest`: each route's least ride between consecutive positions.
            for route in set.routes where route.tripCount > 0 {
                for i in 0..<(route.stopCount - 1) {
                    let least = (0..<route.tripCount).map { t in
                        max(0, route.arrival(t * route.stopCount + i + 1) - route.departure(t * route.stopCount + i))
                    }.min()!
                    #expect(route.fastest[i] == least, "route fastest ride at \(i)")
                }
            }
            for _ in 0..<4 {
                // A destination stop and the stops walking to it, with their walks.
                let t = Int.random(in: 0..<n, using: &rng)
                var egress = [Int32](repeating: RaptorSearch.infinity, count: n)
                egress[t] = 0
                for x in Int(inStart[t])..<Int(inStart[t + 1]) { egress[Int(into[x].stop)] = into[x].seconds }
                let stops = (0..<n).filter { egress[$0] != RaptorSearch.infinity }.map { Int32($0) }
                let trips = TripsLeft(stops: n, routes: set.routes.count, levels: 6, cells: timetable.walkCells.count)
                egress.withUnsafeMutableBufferPointer { egressWalk in
                    inStart.withUnsafeBufferPointer { start in
                        into.withUnsafeBufferPointer { into in
                            trips.find(
                                egress: stops, set: set, walkStart: start, walkInto: into, maxLevel: 5,
                                budget: 10_000_000, cells: timetable.walkCells, egressWalk: egressWalk.baseAddress,
                                reverse: reverse)
                        }
                    }
                }
                let rides = trips.rides
                #expect(rides.depth == 2)
                // Boarding with one trip more from `bound` after alighting, by every pair of positions.
                func boarding(after bound: [Int32]) -> [Int32] {
                    var result = [Int32](repeating: unreachable, count: n)
                    for route in set.routes where route.tripCount > 0 {
                        for i in 0..<route.stopCount where route.flags[i] & 1 != 0 {
                            var ride: Int32 = 0
                            for j in (i + 1)..<route.stopCount {
                                ride += route.fastest[j - 1]
                                let s = Int(route.stops[j])
                                guard route.flags[j] & 2 != 0, bound[s] < unreachable else { continue }
                                let p = Int(route.stops[i])
                                result[p] = min(result[p], ride + bound[s])
                            }
                        }
                    }
                    return result
                }
                // After alighting: the bound there, boarding there, or a walk and boarding.
                func alight(_ own: [Int32], _ board: [Int32]) -> [Int32] {
                    (0..<n).map { q in
                        var best = min(own[q], board[q])
                        for x in Int(outStart[q])..<Int(outStart[q + 1]) {
                            best = min(best, out[x].seconds + board[Int(out[x].stop)])
                        }
                        return min(best, unreachable)
                    }
                }
                let alight0 = egress.map { min($0, unreachable) }
                let boarding1 = boarding(after: alight0)
                let alight1 = alight(alight0, boarding1)
                let boarding2 = boarding(after: alight1)
                let alight2 = alight(alight1, boarding2)
                for p in 0..<n {
                    #expect(rides.boarding(1, p) == boarding1[p], "boarding with one trip at \(p)")
                    #expect(rides.alight(1, p) == alight1[p], "after alighting, one trip more, at \(p)")
                    #expect(rides.boarding(2, p) == boarding2[p], "boarding with two trips at \(p)")
                    #expect(rides.alight(2, p) <= alight2[p], "after alighting, two trips more, at \(p)")
                    #expect(rides.alight(2, p) >= min(alight1[p], boarding2.min()!), "two-trip bound at \(p)")
                    if alight2[p] > 0 && alight2[p] < unreachable { finiteTwoTrip += 1 }
                }
            }
        }
        #expect(finiteTwoTrip > 0, "no stop with a positive two-trip bound: the test would check nothing")
    }
}
