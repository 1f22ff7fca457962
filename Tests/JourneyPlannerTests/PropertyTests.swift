import Testing
import TransitCore
import TransitTesting

@testable import JourneyPlanner

/// The planner against the reference on random feeds: the Pareto sets agree for sampled queries (depart-at,
/// arrive-by and ranges), on the schedule and with a random live state laid over it.
@Suite struct PropertyTests {
    static func randomQuery(_ feed: RandomFeed, _ rng: inout SplitMix64) -> PlanQuery? {
        let from = RandomFeed.place(feed, &rng)
        let to = RandomFeed.place(feed, &rng)
        if from == to { return nil }
        // A station and one of its own stops: refused (`RuleTests.aStationAndOneOfItsOwnStopsAreTheSamePlace`).
        if case .stops(let a) = from, case .stops(let b) = to,
            a.contains(where: { s in b.contains { feed.source.stops[$0].station == s } })
                || b.contains(where: { s in a.contains { feed.source.stops[$0].station == s } })
        {
            return nil
        }
        let base = RandomFeed.firstReference + 86_400
        let at = base + Int64(Int.random(in: 3 * 3600...25 * 3600, using: &rng))
        let kind = Int.random(in: 0..<10, using: &rng)
        var q = PlanQuery(from: from, to: to, time: kind < 3 ? .arriveBy(at) : .departAt(at))
        if kind >= 8 { q.window = Int.random(in: 600...7200, using: &rng) }
        q.maxTransfers = Int.random(in: 0...4, using: &rng)
        q.transferSlack = [0, 60, 120, 300].randomElement(using: &rng)!
        q.walkRadius = [0, 200, 400, 800, 2000].randomElement(using: &rng)!
        q.walkSpeed = [0.8, 1.2, 2.0].randomElement(using: &rng)!
        q.accessRadius = [300, 600, 1200].randomElement(using: &rng)!
        q.limit = Int.random(in: 1...6, using: &rng)
        if Int.random(in: 0..<6, using: &rng) == 0 { q.wheelchair = true }
        if Int.random(in: 0..<6, using: &rng) == 0 { q.modes = [.bus, .tram] }
        return q
    }

    /// Plans `count` random queries on the schedule of random feed `feedSeed` and compares each with the reference;
    /// `adjust` may change a query, or skip it (false). Returns the number of journeys compared.
    @discardableResult
    static func checkSchedule(
        feed feedSeed: UInt64, queries querySeed: UInt64, count: Int, workspace: PlannerWorkspace = PlannerWorkspace(),
        _ name: String, adjust: (inout PlanQuery, inout SplitMix64) -> Bool = { _, _ in true }
    ) throws -> Int {
        let feed = RandomFeed(seed: feedSeed)
        let check = PlannerCheck(
            timetable: Timetable(feed.source), reference: ReferencePlanner(feed.source), workspace: workspace)
        var rng = SplitMix64(seed: querySeed)
        var compared = 0
        for i in 0..<count {
            guard var q = randomQuery(feed, &rng), adjust(&q, &rng) else { continue }
            compared += try check.check(q, "\(name) query \(i) \(q.from)→\(q.to) \(q.time) window \(q.window)")
        }
        return compared
    }

    @Test(arguments: 0..<24)
    func scheduleMatchesReference(seed: Int) throws {
        let compared = try Self.checkSchedule(
            feed: UInt64(seed) &* 7919 &+ 1, queries: UInt64(seed) &+ 1000, count: 30, "seed \(seed)")
        #expect(compared >= 5, "too few journeys to compare: the feed or the queries connect too little")
    }

    /// Queries that walk the stored walks at their speed with one to three trips at most: the time bounds with one or
    /// two trips more (`RideBounds`) then prune from the first rounds on, walk labels included.
    @Test(arguments: 0..<12)
    func scheduleMatchesReferenceWithFewTripsLeft(seed: Int) throws {
        let compared = try Self.checkSchedule(
            feed: UInt64(seed) &* 4099 &+ 3, queries: UInt64(seed) &+ 5000, count: 40, "seed \(seed)"
        ) { q, rng in
            (q.walkRadius, q.walkSpeed, q.wheelchair, q.modes) = (400, 1.2, false, [])
            q.maxTransfers = Int.random(in: 0...2, using: &rng)
            return true
        }
        #expect(compared >= 5, "too few journeys to compare: the feed or the queries connect too little")
    }

    /// The trip bounds cut short by their work budget (levels found: none beyond the first up to all): a count
    /// still unknown must prune nothing it should not.
    @Test(arguments: 0..<12)
    func scheduleMatchesReferenceWithShallowTripBounds(seed: Int) throws {
        let budget = [0, 1, 10, 40, 150, 600][seed % 6]
        try Self.checkSchedule(
            feed: UInt64(seed) &* 7919 &+ 1, queries: UInt64(seed) &+ 3000, count: 30,
            workspace: PlannerWorkspace(tripsLeftBudget: budget), "budget \(budget) seed \(seed)")
    }

    /// Range queries paged one journey at a time: journeys of one departure (one per number of transfers) must not
    /// be split across pages, or the next page would start at the same departure and repeat itself.
    @Test(arguments: 0..<12)
    func rangePagesOfOneJourneyCoverTheReference(seed: Int) throws {
        try Self.checkSchedule(
            feed: UInt64(seed) &* 6007 &+ 3, queries: UInt64(seed) &+ 9000, count: 20, "paged seed \(seed)"
        ) { q, rng in
            guard case .departAt = q.time else { return false }
            q.window = Int.random(in: 1800...7200, using: &rng)
            q.limit = 1
            q.maxTransfers = 4
            return true
        }
    }

    /// With `refreshed`, the live timetable's landmarks are first found again over its live rides
    /// (`Timetable.refreshingLandmarks`): it has no deficit then, and the second state's is measured against them.
    @Test(arguments: 0..<16, [false, true])
    func liveMatchesReference(seed: Int, refreshed: Bool) throws {
        let feed = RandomFeed(seed: UInt64(seed) &* 104_729 &+ 7)
        var rng = SplitMix64(seed: UInt64(seed) &+ 5000)
        let scheduled = Timetable(feed.source)
        let state = RandomFeed.live(feed, scheduled, &rng)
        var (timetable, problems) = scheduled.applying(state)
        #expect(problems.isEmpty)
        if refreshed {
            timetable = timetable.refreshingLandmarks()
            #expect(timetable.liveDeficit == 0)
        }
        let check = PlannerCheck(timetable: timetable, reference: ReferencePlanner(feed.source, live: state))
        var compared = 0
        for i in 0..<25 {
            guard let q = Self.randomQuery(feed, &rng) else { continue }
            compared += try check.check(
                q, "live seed \(seed) query \(i) \(q.from)→\(q.to) \(q.time) window \(q.window)")
        }
        #expect(compared >= 1, "no journey to compare")
        // Laying a second state over the first gives what laying it over the schedule gives.
        let second = RandomFeed.live(feed, scheduled, &rng)
        let again = timetable.applying(second).timetable
        let check2 = PlannerCheck(timetable: again, reference: ReferencePlanner(feed.source, live: second))
        for i in 0..<10 {
            guard let q = Self.randomQuery(feed, &rng) else { continue }
            try check2.check(q, "second live seed \(seed) query \(i)")
        }
    }

    /// One workspace carried across feeds of different sizes and queries of different rounds and directions
    /// answers exactly what a fresh search answers.
    @Test func aReusedWorkspaceAnswersAsAFreshSearch() throws {
        let workspace = PlannerWorkspace()
        var rng = SplitMix64(seed: 99)
        for seed in 0..<6 {
            let feed = RandomFeed(seed: UInt64(seed) &+ 4242)
            let timetable = Timetable(feed.source)
            for _ in 0..<20 {
                guard var q = Self.randomQuery(feed, &rng) else { continue }
                q.maxTransfers = Int.random(in: 0...8, using: &rng)
                let reused = try JourneyPlanner.plan(q, on: timetable, workspace: workspace)
                let fresh = try JourneyPlanner.plan(q, on: timetable)
                #expect(reused == fresh, "feed \(seed): \(q.from) → \(q.to) \(q.time)")
            }
        }
    }

    /// A workspace writes its change times again only for other change times or another slack, and tags the bounds
    /// on the time left each query computes instead of clearing them. Across more queries than there are tags (so
    /// that they wrap), two timetables of the same stops with other change times and queries of other slacks, it
    /// answers exactly what a fresh search answers.
    @Test func aWorkspaceKeepingItsChangeTimesAndBoundsAnswersAsAFreshSearch() throws {
        let feed = RandomFeed(seed: 4711)
        var slower = feed.source
        for s in slower.stops.indices where s % 2 == 0 {
            slower.transfers.append(.init(from: s, to: s, type: 2, minTime: 900))
        }
        let timetables = [Timetable(feed.source), Timetable(slower)]
        let workspace = PlannerWorkspace()
        var rng = SplitMix64(seed: 7)
        var planned = 0, differ = 0, journeys = 0
        while planned < 2_300 {
            guard let q = Self.randomQuery(feed, &rng) else { continue }
            // A run of queries on each timetable, so that a worker's next query mostly finds its change times.
            let timetable = timetables[planned / 40 % 2]
            let reused = try JourneyPlanner.plan(q, on: timetable, workspace: workspace)
            let fresh = try JourneyPlanner.plan(q, on: timetable)
            if reused != fresh { differ += 1 }
            journeys += fresh.journeys.count
            planned += 1
        }
        #expect(differ == 0, "\(differ) of \(planned) plans differ from a fresh search's")
        #expect(journeys > 1_000, "too few journeys to compare")
    }

    /// The bounds a query computed stay in the workspace under its tag; when the tags wrap, a query reusing a tag
    /// must not read an old query's bounds as its own. Each cycle: a range plan computing bounds toward its
    /// destination at many stops, as many plans computing none (they walk faster than the landmarks' graph) as
    /// there are tags, then the reverse plan under the first plan's tag.
    @Test(arguments: 0..<4)
    func aWorkspaceClearsItsBoundsWhenTheirTagsWrap(seed: Int) throws {
        let feed = RandomFeed(seed: UInt64(seed) &+ 4712)
        let timetable = Timetable(feed.source)
        let workspace = PlannerWorkspace()
        var rng = SplitMix64(seed: UInt64(seed) &+ 11)
        var cycles = 0, journeys = 0
        while cycles < 8 {
            guard var q = Self.randomQuery(feed, &rng) else { continue }
            q.time = .departAt(RandomFeed.firstReference + 86_400 + 6 * 3600)
            (q.walkRadius, q.walkSpeed, q.wheelchair, q.modes, q.maxTransfers) = (400, 1.2, false, [], 4)
            q.window = 3 * 3600
            let first = try JourneyPlanner.plan(q, on: timetable, workspace: workspace)
            guard !first.journeys.isEmpty else { continue }
            var filler = q
            (filler.walkSpeed, filler.maxTransfers, filler.window) = (2.0, 0, 0)
            for _ in 0..<Int(Labels.lastEpoch) - 1 {
                _ = try JourneyPlanner.plan(filler, on: timetable, workspace: workspace)
            }
            var back = q
            (back.from, back.to, back.window) = (q.to, q.from, 0)
            let reused = try JourneyPlanner.plan(back, on: timetable, workspace: workspace)
            let fresh = try JourneyPlanner.plan(back, on: timetable)
            #expect(reused == fresh, "cycle \(cycles): \(back.from) → \(back.to)")
            journeys += fresh.journeys.count
            cycles += 1
        }
        #expect(journeys > 0, "no journey to compare")
    }
}
