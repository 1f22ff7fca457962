import Testing
import TransitCore
import TransitTesting

@testable import JourneyPlanner

/// The landmarks' bounds on the time left (`Landmarks`, `LandmarkBounds`) against shortest times found here by a
/// plain Dijkstra over the same graph (each trip's rides between consecutive stops, the stored walks), and the
/// search's answers where live data rides faster than the schedule.
@Suite struct LandmarkTests {
    /// Shortest times from every stop to every stop over the rides of the trips that run in the window and the stored
    /// walks (forward time).
    static func shortestTimes(_ source: TimetableSource, _ timetable: Timetable) -> [[Int]] {
        let n = timetable.stopCount
        var edges = [[(to: Int, time: Int)]](repeating: [], count: n)
        for trip in source.trips where source.days.contains(where: { $0.services.contains(trip.service) }) {
            let calls = trip.stopTimes.filter { $0.stop >= 0 && $0.stop < n }
            guard calls.count >= 2 else { continue }
            for i in 0..<(calls.count - 1) {
                edges[calls[i].stop].append((calls[i + 1].stop, max(0, calls[i + 1].arrival - calls[i].departure)))
            }
        }
        let walks = timetable.footpaths
        for a in 0..<n {
            for x in Int(walks.outOffsets[a])..<Int(walks.outOffsets[a + 1]) {
                edges[a].append((Int(walks.outTimed[x].stop), Int(walks.outTimed[x].seconds)))
            }
        }
        return (0..<n).map { source in
            var dist = [Int](repeating: .max, count: n)
            var done = [Bool](repeating: false, count: n)
            dist[source] = 0
            while let p = (0..<n).filter({ !done[$0] && dist[$0] < .max }).min(by: { dist[$0] < dist[$1] }) {
                done[p] = true
                for e in edges[p] where dist[p] + e.time < dist[e.to] { dist[e.to] = dist[p] + e.time }
            }
            return dist
        }
    }

    @Test(arguments: 0..<8)
    func boundsNeverExceedTheShortestTimeAndMeetItAtALandmark(seed: Int) {
        let feed = RandomFeed(seed: UInt64(seed) &* 31 &+ 17)
        let timetable = Timetable(feed.source)
        let landmarks = timetable.landmarks
        let d = Self.shortestTimes(feed.source, timetable)
        let n = timetable.stopCount
        var rng = SplitMix64(seed: UInt64(seed))
        var positive = 0
        // Toward a landmark (no walk after it) the bound is the shortest time itself.
        for l in Set(landmarks.stops.map(Int.init)) {
            let bounds = LandmarkBounds(landmarks, targets: [(Int32(l), 0)], reverse: false, deficit: 0, maxTrips: 3)
            for p in 0..<n {
                if d[p][l] == .max {
                    #expect(bounds.bound(p) >= Landmarks.unreachable / 2, "stop \(p) cannot reach landmark \(l)")
                } else {
                    #expect(Int(bounds.bound(p)) == d[p][l], "stop \(p) to landmark \(l)")
                }
            }
        }
        // Toward any stops with walks after them, both ways: never above the least time.
        for _ in 0..<20 {
            let targets = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                (stop: Int32(Int.random(in: 0..<n, using: &rng)), walk: Int32(Int.random(in: 0...300, using: &rng)))
            }
            for reverse in [false, true] {
                let bounds = LandmarkBounds(landmarks, targets: targets, reverse: reverse, deficit: 0, maxTrips: 3)
                for p in 0..<n {
                    let least = targets.map { t in
                        let time = reverse ? d[Int(t.stop)][p] : d[p][Int(t.stop)]
                        return time == .max ? Int.max : time + Int(t.walk)
                    }.min()!
                    let b = Int(bounds.bound(p))
                    if least < .max {
                        #expect(b <= least, "stop \(p) reverse \(reverse): bound \(b) above \(least)")
                        if b > 0 { positive += 1 }
                    }
                }
            }
        }
        #expect(positive > 0, "no bound above 0: the bounds prune nothing")
    }

    /// The direct trip arrives at 09:00 first; the journey changing at C is faster only because its second trip runs
    /// 40 minutes early. Bounded by the schedule, C's label (08:20 + 45 min ≥ 09:00) would be pruned; the live
    /// deficit keeps it.
    @Test func aLiveRideFasterThanTheScheduleIsStillFound() throws {
        var feed = TinyFeed()
        let a = feed.stop(lat: 0, lon: 0), x = feed.stop(lat: 0.05, lon: 0.05), e = feed.stop(lat: 0, lon: 0.1)
        let b = feed.stop(lat: -0.02, lon: 0.02), c = feed.stop(lat: -0.03, lon: 0.05)
        feed.trip([(a, "08:00"), (x, "08:30"), (e, "09:00")])  // trip 0: direct
        feed.trip([(a, "08:05"), (b, "08:12"), (c, "08:20")])  // trip 1
        feed.trip([(c, "08:25"), (e, "09:10")])  // trip 2: 45 min scheduled
        var q = PlanQuery(from: .stops([a]), to: .stops([e]), time: .departAt(TinyFeed.at("07:55")))
        q.walkRadius = 0
        #expect(try feed.arrivals(q) == [0: TinyFeed.at("09:00")])
        let early = LiveTrips(runs: [
            RunKey(trip: 2, date: feed.days[0].date): .times([
                LiveStopTime(arrival: TinyFeed.at("08:25"), departure: TinyFeed.at("08:25")),
                LiveStopTime(arrival: TinyFeed.at("08:30"), departure: TinyFeed.at("08:30")),
            ])
        ])
        let live = feed.timetable.applying(early).timetable
        #expect(live.liveDeficit == 40 * 60)
        #expect(try feed.arrivals(q, live: early) == [0: TinyFeed.at("09:00"), 1: TinyFeed.at("08:30")])
        // Landmarks found again over the live rides: no deficit, and the early ride is still found.
        let refreshed = live.refreshingLandmarks()
        #expect(refreshed.liveDeficit == 0)
        var found: [Int: Int64] = [:]
        for j in try JourneyPlanner.plan(q, on: refreshed).journeys { found[j.transfers] = j.arrival }
        #expect(found == [0: TinyFeed.at("09:00"), 1: TinyFeed.at("08:30")])
        // A later state riding faster still is measured against the refreshed graph.
        var earlier = early
        earlier.runs[RunKey(trip: 2, date: feed.days[0].date)] = .times([
            LiveStopTime(arrival: TinyFeed.at("08:25"), departure: TinyFeed.at("08:25")),
            LiveStopTime(arrival: TinyFeed.at("08:27"), departure: TinyFeed.at("08:27")),
        ])
        #expect(refreshed.applying(earlier).timetable.liveDeficit == 3 * 60)
    }

    /// An added trip between stops that no pattern or walk links: the graph bounds nothing then.
    @Test func anAddedTripOnANewLinkTurnsTheBoundsOff() throws {
        var feed = TinyFeed()
        let a = feed.stop(lat: 0, lon: 0), x = feed.stop(lat: 0.05, lon: 0.05), e = feed.stop(lat: 0, lon: 0.1)
        feed.trip([(a, "08:00"), (x, "08:30"), (e, "09:00")])
        let added = LiveTrips(added: [
            "shuttle": AddedTrip(
                mode: .bus, stops: [a, e], arrivals: [TinyFeed.at("08:05"), TinyFeed.at("08:15")],
                departures: [TinyFeed.at("08:05"), TinyFeed.at("08:15")])
        ])
        #expect(feed.timetable.applying(added).timetable.liveDeficit == Landmarks.unbounded)
        var q = PlanQuery(from: .stops([a]), to: .stops([e]), time: .departAt(TinyFeed.at("07:55")))
        q.walkRadius = 0
        #expect(try feed.arrivals(q, live: added) == [0: TinyFeed.at("08:15")])
        // Landmarks found again have the added trip's link: bounded again.
        let refreshed = feed.timetable.applying(added).timetable.refreshingLandmarks()
        #expect(refreshed.liveDeficit == 0)
        #expect(try JourneyPlanner.plan(q, on: refreshed).journeys.map(\.arrival) == [TinyFeed.at("08:15")])
    }
}
