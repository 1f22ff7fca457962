import JourneyPlanner
import Testing
import TransitCore
import TransitTesting

/// The planner against the reference on random feeds: the Pareto sets agree for sampled queries (depart-at,
/// arrive-by and ranges), on the schedule and with a random live state laid over it.
@Suite struct PropertyTests {
    static func randomQuery(_ feed: RandomFeed, _ rng: inout SplitMix64) -> PlanQuery? {
        let from = RandomFeed.place(feed, &rng)
        let to = RandomFeed.place(feed, &rng)
        if from == to { return nil }
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

    @Test(arguments: 0..<24)
    func scheduleMatchesReference(seed: Int) throws {
        let feed = RandomFeed(seed: UInt64(seed) &* 7919 &+ 1)
        let timetable = Timetable(feed.source)
        let check = PlannerCheck(timetable: timetable, reference: ReferencePlanner(feed.source))
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        var compared = 0
        for i in 0..<30 {
            guard let q = Self.randomQuery(feed, &rng) else { continue }
            compared += try check.check(q, "seed \(seed) query \(i) \(q.from)→\(q.to) \(q.time) window \(q.window)")
        }
        #expect(compared >= 5, "too few journeys to compare: the feed or the queries connect too little")
    }

    /// The trip bounds cut short by their work budget (levels found: none beyond the first up to all): a count
    /// still unknown must prune nothing it should not.
    @Test(arguments: 0..<12)
    func scheduleMatchesReferenceWithShallowTripBounds(seed: Int) throws {
        let feed = RandomFeed(seed: UInt64(seed) &* 7919 &+ 1)
        let timetable = Timetable(feed.source)
        let budget = [0, 1, 10, 40, 150, 600][seed % 6]
        let check = PlannerCheck(
            timetable: timetable, reference: ReferencePlanner(feed.source),
            workspace: PlannerWorkspace(tripsLeftBudget: budget))
        var rng = SplitMix64(seed: UInt64(seed) &+ 3000)
        for i in 0..<30 {
            guard let q = Self.randomQuery(feed, &rng) else { continue }
            try check.check(q, "budget \(budget) seed \(seed) query \(i) \(q.from)→\(q.to) \(q.time)")
        }
    }

    /// Range queries paged one journey at a time: journeys of one departure (one per number of transfers) must not
    /// be split across pages, or the next page would start at the same departure and repeat itself.
    @Test(arguments: 0..<12)
    func rangePagesOfOneJourneyCoverTheReference(seed: Int) throws {
        let feed = RandomFeed(seed: UInt64(seed) &* 6007 &+ 3)
        let timetable = Timetable(feed.source)
        let check = PlannerCheck(timetable: timetable, reference: ReferencePlanner(feed.source))
        var rng = SplitMix64(seed: UInt64(seed) &+ 9000)
        for i in 0..<20 {
            guard var q = Self.randomQuery(feed, &rng) else { continue }
            guard case .departAt = q.time else { continue }
            q.window = Int.random(in: 1800...7200, using: &rng)
            q.limit = 1
            q.maxTransfers = 4
            try check.check(q, "paged seed \(seed) query \(i) \(q.from)→\(q.to) \(q.time) window \(q.window)")
        }
    }

    @Test(arguments: 0..<16)
    func liveMatchesReference(seed: Int) throws {
        let feed = RandomFeed(seed: UInt64(seed) &* 104_729 &+ 7)
        var rng = SplitMix64(seed: UInt64(seed) &+ 5000)
        let scheduled = Timetable(feed.source)
        let state = RandomFeed.live(feed, scheduled, &rng)
        let (timetable, problems) = scheduled.applying(state)
        #expect(problems.isEmpty)
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
}
