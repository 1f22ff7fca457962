import Foundation
import Testing
import TransitCore
import TransitStore
import TransitTesting

@testable import JourneyPlanner

/// The stored walks plus those generated on demand beyond the stored radius are, for every query radius, the walks
/// the former graph (every walk within 2 km stored) gave: same stops, same distances to the bit, same times; and
/// plans on a timetable storing 400 m equal plans on one storing everything.
@Suite struct WalkTests {
    /// One walk as a query sees it.
    struct Walk: Hashable, Comparable {
        var stop: Int
        var distance: Double
        var seconds: Int32
        static func < (l: Walk, r: Walk) -> Bool { (l.stop, l.distance, l.seconds) < (r.stop, r.distance, r.seconds) }
    }

    /// The former construction (before walks were generated on demand), kept as the oracle: every walk within
    /// `maxRadius` stored, both ways.
    struct AllStoredWalks {
        struct Edge: Equatable {
            var stop: Int
            var distance: Double
            var fixedTime: Int32
            var always: Bool
        }
        var outgoing: [[Edge]]
        var incoming: [[Edge]]

        init(stops: [TimetableSource.Stop], served: [Bool], rules: TransferRules, maxRadius: Double) {
            let n = stops.count
            func distance(_ a: Int, _ b: Int) -> Double {
                guard let la = stops[a].lat, let lo = stops[a].lon, let lb = stops[b].lat, let lob = stops[b].lon
                else { return 0 }
                return Walking.distance(lat1: la, lon1: lo, lat2: lb, lon2: lob)
            }
            var platforms: [Int: [Int]] = [:]
            for s in 0..<n where served[s] { if let st = stops[s].station { platforms[st, default: []].append(s) } }
            var entriesFrom: [Int: [TimetableSource.Transfer]] = [:]
            for e in rules.entries.values where e.from != e.to { entriesFrom[e.from, default: []].append(e) }
            func expand(_ s: Int) -> [Int] { served[s] ? [s] : (platforms[s] ?? []) }
            let located = (0..<n).filter { served[$0] && stops[$0].lat != nil && stops[$0].lon != nil }
            outgoing = Array(repeating: [], count: n)
            incoming = Array(repeating: [], count: n)
            for a in 0..<n where served[a] {
                var edges: [Int: Edge] = [:]
                func add(_ b: Int, generated: Bool) {
                    guard b != a else { return }
                    let d = distance(a, b)
                    if let e = rules.entry(from: a, to: b) {
                        if e.type == 3 { return }
                        edges[b] = Edge(
                            stop: b, distance: d, fixedTime: e.minTime.map { Int32(max(0, $0)) } ?? -1, always: true)
                    } else {
                        let sameStation = stops[a].station != nil && stops[a].station == stops[b].station
                        if !sameStation && !generated { return }
                        edges[b] = Edge(stop: b, distance: d, fixedTime: -1, always: sameStation)
                    }
                }
                // Every located pair checked (the former graph found them through a grid; the set is the same).
                if maxRadius > 0, stops[a].lat != nil, stops[a].lon != nil {
                    for b in located where b != a && distance(a, b) <= maxRadius { add(b, generated: true) }
                }
                if let st = stops[a].station { for b in platforms[st] ?? [] { add(b, generated: false) } }
                for from in [a] + (stops[a].station.map { [$0] } ?? []) {
                    for e in entriesFrom[from] ?? [] { for b in expand(e.to) { add(b, generated: false) } }
                }
                for e in edges.values {
                    outgoing[a].append(e)
                    incoming[e.stop].append(
                        Edge(stop: a, distance: e.distance, fixedTime: e.fixedTime, always: e.always))
                }
            }
        }

        func walks(_ a: Int, incoming into: Bool, radius: Double, speed: Double) -> [Walk] {
            (into ? incoming[a] : outgoing[a]).compactMap { e -> Walk? in
                if !e.always && (radius <= 0 || e.distance > radius) { return nil }
                let t = e.fixedTime >= 0 ? e.fixedTime : Int32(Walking.seconds(metres: e.distance, speed: speed))
                return Walk(stop: e.stop, distance: e.distance, seconds: t)
            }.sorted()
        }
    }

    /// A random feed with more transfers.txt rows between nearby and distant stops: forbidden (type 3), timed
    /// (type 2), untimed (types 0 and 1), at stop and station level, so that some fall beyond the stored radius.
    static func feed(seed: Int) -> (source: TimetableSource, served: [Bool], rules: TransferRules) {
        var source = RandomFeed(seed: UInt64(seed) &* 31 &+ 5).source
        var rng = SplitMix64(seed: UInt64(seed) &+ 77)
        let n = source.stops.count
        for _ in 0..<Int.random(in: 5...30, using: &rng) {
            let a = Int.random(in: 0..<n, using: &rng), b = Int.random(in: 0..<n, using: &rng)
            let type = Int.random(in: 0...3, using: &rng)
            let time = Bool.random(using: &rng) ? Int.random(in: 0...600, using: &rng) : nil
            source.transfers.append(.init(from: a, to: b, type: type, minTime: time))
        }
        var served = [Bool](repeating: false, count: n)
        for trip in source.trips { for st in trip.stopTimes { served[st.stop] = true } }
        let stations = source.stops.map { $0.station }
        return (source, served, TransferRules(transfers: source.transfers, stations: stations))
    }

    /// What a query with `radius` walks from (or to) `a`: the stored walks it admits and the generated ones.
    static func walks(_ graph: FootpathGraph, _ a: Int, incoming: Bool, radius: Double, speed: Double) -> [Walk] {
        var generated: [FootpathGraph.Edge] = []
        graph.generate(a, incoming: incoming, radius: radius, into: &generated)
        let stored = incoming ? graph.incoming(a) : graph.outgoing(a)
        return (Array(stored) + generated).compactMap { e -> Walk? in
            FootpathGraph.time(e, radius: radius, speed: speed).map {
                Walk(stop: Int(e.stop), distance: e.distance, seconds: $0)
            }
        }.sorted()
    }

    @Test(arguments: 0..<16)
    func storedAndGeneratedWalksAreTheFormerGraphs(seed: Int) throws {
        let (source, served, rules) = Self.feed(seed: seed)
        let oracle = AllStoredWalks(stops: source.stops, served: served, rules: rules, maxRadius: 2000)
        // Radii around the stored one, and exactly at (and a bit either side of) the distance of some pairs.
        var rng = SplitMix64(seed: UInt64(seed) &+ 900)
        let pairDistances = (0..<4).compactMap { _ -> Double? in
            let a = source.stops.randomElement(using: &rng)!, b = source.stops.randomElement(using: &rng)!
            let d = Walking.distance(lat1: a.lat!, lon1: a.lon!, lat2: b.lat!, lon2: b.lon!)
            return d > 0 && d <= 2000 ? d : nil
        }
        var radii: [Double] = [0, 250, 400, 400.0.nextUp, 401, 1000, 2000]
        for d in pairDistances { radii += [d.nextDown, d, d.nextUp].filter { $0 <= 2000 } }
        var compared = 0
        for storedRadius in [0, 250, 400] + pairDistances.prefix(2) {
            let graph = FootpathGraph(stops: source.stops, served: served, rules: rules, storedRadius: storedRadius)
            #expect(graph.outgoing(0).allSatisfy { $0.always || $0.distance <= storedRadius })
            for radius in radii {
                for speed in [0.8, 1.2] {
                    for a in source.stops.indices {
                        for incoming in [false, true] {
                            let got = Self.walks(graph, a, incoming: incoming, radius: radius, speed: speed)
                            let want = oracle.walks(a, incoming: incoming, radius: radius, speed: speed)
                            #expect(
                                got == want,
                                "seed \(seed) stored \(storedRadius) radius \(radius) stop \(a) incoming \(incoming)")
                            #expect(Set(got.map(\.stop)).count == got.count, "a pair twice")
                            compared += got.count
                        }
                    }
                }
            }
        }
        #expect(compared > 1000, "too few walks compared")
    }

    /// The distance split into parts (the grid keeps each stop's cosine) is the former formula to the bit, and the
    /// haversine bound never drops a stop within the radius.
    @Test func theDistanceIsTheFormerFormulaToTheBit() {
        func former(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
            let rad = Double.pi / 180
            let dLat = (lat2 - lat1) * rad
            let dLon = (lon2 - lon1) * rad
            let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
            return 2 * Walking.earthRadiusMetres * asin(min(1, sqrt(a)))
        }
        var rng = SplitMix64(seed: 4)
        for i in 0..<100_000 {
            let spread = i % 2 == 0 ? 0.03 : 90.0
            let lat1 = Double.random(in: -89...89, using: &rng), lon1 = Double.random(in: -180...180, using: &rng)
            let lat2 = min(89.9, max(-89.9, lat1 + Double.random(in: -spread...spread, using: &rng)))
            let lon2 = lon1 + Double.random(in: -spread...spread, using: &rng)
            let d = Walking.distance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
            #expect(d.bitPattern == former(lat1, lon1, lat2, lon2).bitPattern, "(\(lat1), \(lon1)) (\(lat2), \(lon2))")
            let h = Walking.haversine(
                lat1: lat1, lon1: lon1, cosLat1: Walking.cosine(lat1), lat2: lat2, lon2: lon2,
                cosLat2: Walking.cosine(lat2))
            #expect(h <= Walking.haversineBound(metres: d), "the bound of a stop's own distance must keep it")
        }
    }

    /// One value worked by hand (the test above shares `earthRadiusMetres`): a degree of longitude on the equator
    /// with R = 6,371 km is 111,194.93 m, walked at 1.2 m/s in ceil(92,662.44) s.
    @Test func aDegreeOnTheEquatorIsTheDocumentedDistance() {
        let d = Walking.distance(lat1: 0, lon1: 0, lat2: 0, lon2: 1)
        #expect(abs(d - 111_194.93) < 0.01, "\(d)")
        #expect(Walking.seconds(metres: d, speed: 1.2) == 92_663)
    }

    /// The stored walks are the walks within the stored radius and the always walks, nothing else.
    @Test func storedWalksAreThoseWithinTheStoredRadiusAndTheAlwaysOnes() {
        for seed in 0..<8 {
            let (source, served, rules) = Self.feed(seed: seed)
            let oracle = AllStoredWalks(stops: source.stops, served: served, rules: rules, maxRadius: 400)
            let graph = FootpathGraph(stops: source.stops, served: served, rules: rules, storedRadius: 400)
            for a in source.stops.indices {
                for incoming in [false, true] {
                    let stored = (incoming ? graph.incoming(a) : graph.outgoing(a)).map {
                        AllStoredWalks.Edge(
                            stop: Int($0.stop), distance: $0.distance, fixedTime: $0.fixedTime, always: $0.always)
                    }
                    let want = (incoming ? oracle.incoming[a] : oracle.outgoing[a]).sorted {
                        ($0.distance, $0.stop) < ($1.distance, $1.stop)
                    }
                    #expect(stored == want, "seed \(seed) stop \(a) incoming \(incoming)")
                }
            }
        }
        #expect(MemoryLayout<FootpathGraph.Edge>.stride == 16)
    }

    /// A query's generated walks are made once per stop and kept: asked again, the same walks.
    @Test func aQuerysGeneratedWalksAreKept() {
        let (source, served, rules) = Self.feed(seed: 3)
        let graph = FootpathGraph(stops: source.stops, served: served, rules: rules, storedRadius: 400)
        var cache = GeneratedWalks()
        for radius in [1000.0, 2000, 600] {
            for incoming in [false, true] {
                cache.reset(stopCount: source.stops.count, radius: radius, incoming: incoming)
                for a in source.stops.indices + source.stops.indices.reversed() {
                    var want: [FootpathGraph.Edge] = []
                    graph.generate(a, incoming: incoming, radius: radius, into: &want)
                    let got = cache.walks(a, graph: graph)
                    #expect(got.map(\.stop) == want.map(\.stop) && got.map(\.distance) == want.map(\.distance))
                }
            }
        }
    }

    /// Plans on a timetable storing the walks within 400 m equal plans on one storing every walk within 2 km, for
    /// every radius, through one reused workspace.
    @Test(arguments: 0..<6)
    func plansEqualThoseOnATimetableStoringEveryWalk(seed: Int) throws {
        let feed = RandomFeed(seed: UInt64(seed) &* 613 &+ 11)
        let stored = Timetable(feed.source)
        let everything = Timetable(feed.source, storedWalkRadius: 2000)
        #expect(stored.footpathCount <= everything.footpathCount)
        let workspace = PlannerWorkspace()
        var rng = SplitMix64(seed: UInt64(seed) &+ 31)
        var journeys = 0
        for radius in [0.0, 250, 400, 401, 1000, 2000] {
            for _ in 0..<8 {
                guard var q = PropertyTests.randomQuery(feed, &rng) else { continue }
                q.walkRadius = radius
                let got = try JourneyPlanner.plan(q, on: stored, workspace: workspace)
                let want = try JourneyPlanner.plan(q, on: everything)
                #expect(got == want, "seed \(seed) radius \(radius): \(q.from) → \(q.to) \(q.time)")
                journeys += got.journeys.count
            }
        }
        #expect(journeys > 0)
    }

    /// On the real Vilnius feed: the stored and generated walks are the former graph's for radii around 400 m and
    /// up to 2 km, and plans asking walks beyond the stored radius agree with the reference.
    @Test(
        .enabled(
            if: RealFeedTests.available,
            "../shared/realdata/vilnius-2015-static is absent: the real-feed test is skipped"
        ))
    func vilniusWalksBeyondTheStoredRadius() async throws {
        try await onOwnThread { try Self.vilnius() }
    }

    static func vilnius() throws {
        let folder = try TemporaryFolder("planner-walks-vilnius")
        let db = folder.path("vilnius.db")
        try runImport([.init(path: RealCaptures.path(RealFeedTests.feed), name: "vilnius")], into: db)
        let store = try StaticStore(path: db, connections: 1)
        let day = GTFSDate(yyyymmdd: 20_150_908)!
        let source = try store.plannerInput(dates: day.adding(days: -1)...day).source
        var served = [Bool](repeating: false, count: source.stops.count)
        for trip in source.trips { for st in trip.stopTimes { served[st.stop] = true } }
        let rules = TransferRules(
            transfers: source.transfers,
            stations: source.stops.map { s in s.station.flatMap { source.stops.indices.contains($0) ? $0 : nil } })
        let oracle = AllStoredWalks(stops: source.stops, served: served, rules: rules, maxRadius: 2000)
        let graph = FootpathGraph(stops: source.stops, served: served, rules: rules, storedRadius: 400)
        var walks = 0
        for radius in [0, 400, 401, 1000, 2000.0] {
            for a in source.stops.indices where served[a] {
                for incoming in [false, true] {
                    let got = Self.walks(graph, a, incoming: incoming, radius: radius, speed: 1.2)
                    #expect(
                        got == oracle.walks(a, incoming: incoming, radius: radius, speed: 1.2), "stop \(a) \(radius)")
                    walks += got.count
                }
            }
        }
        #expect(walks > 100_000)

        let timetable = Timetable(source)
        let check = PlannerCheck(timetable: timetable, reference: ReferencePlanner(source))
        let ids = source.stops.indices.filter { served[$0] }
        guard let reference0 = source.days.first(where: { $0.date == day })?.referenceUnix else {
            Issue.record("no service on \(day)")
            return
        }
        var rng = SplitMix64(seed: 2715)
        var compared = 0
        for i in 0..<30 {
            let from = ids.randomElement(using: &rng)!
            var to = ids.randomElement(using: &rng)!
            while to == from { to = ids.randomElement(using: &rng)! }
            let at = reference0 + Int64(Int.random(in: 6 * 3600...22 * 3600, using: &rng))
            var q = PlanQuery(from: .stops([from]), to: .stops([to]), time: i % 3 == 2 ? .arriveBy(at) : .departAt(at))
            q.walkRadius = 1500
            compared += try check.check(q, "Vilnius walk radius 1500 query \(i): \(from) → \(to) \(q.time)")
        }
        #expect(compared > 30)
    }
}
