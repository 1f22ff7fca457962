import Testing
import TransitCore
import TransitTesting

@testable import JourneyPlanner

/// The routes a chain of live updates leaves (each update places only the live runs among the schedule's FIFO
/// groups) against what they must be: every route FIFO, every run in exactly one route with its current times, the
/// reverse routes the forward ones backwards, and the same groups as laying the last state over the schedule.
@Suite struct LiveRoutesTests {
    /// Each run's trips in a route and the times it carries there, by run.
    static func routedRuns(_ t: Timetable) -> [Int32: (arrivals: [Int32], departures: [Int32])] {
        var found: [Int32: (arrivals: [Int32], departures: [Int32])] = [:]
        for route in t.forward.routes {
            let n = route.stopCount
            for trip in 0..<route.tripCount {
                let run = route.runs[trip]
                #expect(found[run] == nil, "run \(run) in two routes")
                found[run] = (
                    (0..<n).map { route.arrivals[trip * n + $0] }, (0..<n).map { route.departures[trip * n + $0] }
                )
            }
        }
        return found
    }

    static func checkRoutes(_ t: Timetable, _ label: String) {
        for (slot, route) in t.forward.routes.enumerated() {
            let n = route.stopCount
            for trip in 1..<max(1, route.tripCount) {
                for i in 0..<n {
                    #expect(
                        route.arrivals[(trip - 1) * n + i] <= route.arrivals[trip * n + i]
                            && route.departures[(trip - 1) * n + i] <= route.departures[trip * n + i],
                        "\(label): route \(slot) overtakes at trip \(trip) position \(i)")
                }
            }
            let back = t.backward.routes[slot]
            #expect(back.stopCount == n && back.tripCount == route.tripCount)
            for trip in 0..<route.tripCount {
                let r = route.tripCount - 1 - trip
                #expect(back.runs[r] == route.runs[trip])
                for i in 0..<n {
                    #expect(back.departure(r * n + (n - 1 - i)) == -route.arrivals[trip * n + i])
                    #expect(back.arrival(r * n + (n - 1 - i)) == -route.departures[trip * n + i])
                }
            }
        }
        // Each stop's visits: every position of every route at that stop, in the order of the routes' slots (the
        // order they were added), however many updates merged new routes in.
        for set in [t.forward, t.backward] {
            #expect(set.flat, "\(label): visits not merged")
            var expected = [[String]](repeating: [], count: t.stopCount)
            for (slot, route) in set.routes.enumerated() {
                for i in 0..<route.stopCount { expected[Int(route.stops[i])].append("\(slot)@\(i)") }
            }
            for s in 0..<t.stopCount {
                let got = set.visits(s).map { "\($0.route)@\($0.position)" }
                #expect(got == expected[s], "\(label): the visits at stop \(s)")
            }
        }
        // Every run in the routes once, with its current times; cancelled ones in none.
        let routed = routedRuns(t)
        for run in 0..<t.runCount {
            if t.liveTimes.pattern(ofRun: Int32(run)) == -1 {
                #expect(routed[Int32(run)] == nil, "\(label): cancelled run \(run) is routed")
                continue
            }
            let times = t.times(ofRun: Int32(run))
            guard let got = routed[Int32(run)] else {
                Issue.record("\(label): run \(run) is in no route")
                continue
            }
            #expect(got.arrivals == Array(times.arrivals) && got.departures == Array(times.departures), "\(label)")
        }
    }

    /// The routes as lists of trip instances in order, whatever their slots (an added trip's run number depends on
    /// the order it was first seen in).
    static func groups(_ t: Timetable) -> Set<[String]> {
        Set(
            t.forward.routes.filter { $0.tripCount > 0 }.map { r in
                (0..<r.tripCount).map { trip in
                    let id = t.runIdentity(Int(r.runs[trip]))
                    return id.addedId ?? id.key.map { "\($0.trip) \($0.date) \($0.start)" } ?? "?"
                }
            })
    }

    @Test(arguments: 0..<12)
    func aChainOfUpdatesLeavesTheRoutesOfItsLastState(seed: Int) {
        let feed = RandomFeed(seed: UInt64(seed) &* 7919 &+ 11)
        var rng = SplitMix64(seed: UInt64(seed) &+ 777)
        let scheduled = Timetable(feed.source)
        Self.checkRoutes(scheduled, "seed \(seed) schedule")
        var timetable = scheduled
        for step in 0..<4 {
            // The last step goes back to the schedule.
            let state = step == 3 ? LiveTrips() : RandomFeed.live(feed, scheduled, &rng)
            timetable = timetable.applying(state).timetable
            Self.checkRoutes(timetable, "seed \(seed) step \(step)")
            let direct = scheduled.applying(state).timetable
            #expect(Self.groups(timetable) == Self.groups(direct), "seed \(seed) step \(step)")
        }
        #expect(Self.groups(timetable) == Self.groups(scheduled))
    }

    /// Live runs that do not fit (times for another number of stops, an added trip naming a stop the timetable does
    /// not have) are reported, each naming itself, and left out; the rest of the state is laid over, and the bad run
    /// keeps its scheduled times.
    @Test func aLiveStateThatDoesNotFitIsReportedAndTheRestLaidOver() {
        var feed = TinyFeed()
        let s = feed.line(3, spacing: 0.05)
        feed.trip([(s[0], "08:00"), (s[1], "08:10"), (s[2], "08:20")])
        feed.trip([(s[0], "08:30"), (s[1], "08:40"), (s[2], "08:50")])
        let scheduled = feed.timetable
        let date = feed.days[0].date
        func stop(_ t: String) -> LiveStopTime { LiveStopTime(arrival: TinyFeed.at(t), departure: TinyFeed.at(t)) }
        let state = LiveTrips(
            runs: [
                RunKey(trip: 0, date: date): .times([stop("08:05"), stop("08:15"), stop("08:25")]),
                RunKey(trip: 1, date: date): .times([stop("08:35"), stop("08:45")]),
            ],
            added: [
                "X": AddedTrip(
                    mode: .bus, stops: [s[0], 9_999], arrivals: [TinyFeed.at("09:00"), TinyFeed.at("09:10")],
                    departures: [TinyFeed.at("09:00"), TinyFeed.at("09:10")])
            ])
        let (timetable, problems) = scheduled.applying(state)
        #expect(
            problems.map(\.description).sorted() == [
                "added trip X: stops and times do not match", "trip 1 of \(date): 2 live stops for 3",
            ])
        let delayed = timetable.run(RunKey(trip: 0, date: date))!, bad = timetable.run(RunKey(trip: 1, date: date))!
        #expect(timetable.isLive(run: delayed))
        #expect(!timetable.isLive(run: bad))
        #expect(
            Array(timetable.times(ofRun: Int32(bad)).departures)
                == ["08:30", "08:40", "08:50"].map {
                    Int32(TinyFeed.at($0) - timetable.epoch)
                })
        Self.checkRoutes(timetable, "bad input")
    }
}
