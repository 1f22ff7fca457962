import JourneyPlanner
import Testing
import TransitCore

/// Comparisons of the planner with the reference, shared by the property tests and the real-feed test.
struct PlannerCheck {
    let timetable: Timetable
    let reference: ReferencePlanner
    /// One workspace for every query of the check: a label a query leaves behind would show in the next.
    let workspace: PlannerWorkspace

    init(timetable: Timetable, reference: ReferencePlanner, workspace: PlannerWorkspace = PlannerWorkspace()) {
        self.timetable = timetable
        self.reference = reference
        self.workspace = workspace
    }
    /// Time spent in the planner's first answer to each query.
    final class Clock: @unchecked Sendable { var planner = Duration.zero }
    let clock = Clock()

    func options(_ q: PlanQuery) -> ReferencePlanner.Options {
        ReferencePlanner.Options(
            maxTransfers: q.maxTransfers, slack: q.transferSlack, walkRadius: q.walkRadius, walkSpeed: q.walkSpeed,
            accessRadius: q.accessRadius, modes: q.modes, wheelchair: q.wheelchair)
    }

    /// Checks one query; returns the number of journeys compared. `context` names the query in failures.
    @discardableResult
    func check(_ q: PlanQuery, _ context: String) throws -> Int {
        let started = ContinuousClock.now
        let result = try JourneyPlanner.plan(q, on: timetable, workspace: workspace)
        clock.planner += ContinuousClock.now - started
        #expect(!result.cut, "\(context)")
        for j in result.journeys { validate(j, q, context) }
        let o = options(q)
        switch q.time {
        case .departAt(let at) where q.window == 0:
            let expected = paretoByTransfers(
                reference.earliest(from: q.from, to: q.to, at: at, limit: at + PlanQuery.horizon, o), better: <)
            var got: [Int: Int64] = [:]
            for j in result.journeys { got[j.transfers] = j.arrival }
            #expect(got == expected, "\(context): arrivals by transfers")
            for j in result.journeys { #expect(j.departure >= at, "\(context): departs before at") }
            return got.count
        case .departAt(let at):
            var pages: [Triple] = []
            var query = q
            var result = result
            while true {
                pages += result.journeys.map {
                    Triple(departure: $0.departure, arrival: $0.arrival, transfers: $0.transfers)
                }
                guard let later = result.laterAt else { break }
                // A cursor that does not move on would page forever.
                guard case .departAt(let previous) = query.time, later > previous else {
                    Issue.record("\(context): the later cursor does not move on (\(later))")
                    break
                }
                query.time = .departAt(later)
                query.window = Int(at + Int64(q.window) - later)
                // The continuation's 24 h horizon runs from its own `at` (later than the first page's): a journey
                // arriving between the two horizons would show here and not in the reference, which would fail.
                result = try JourneyPlanner.plan(query, on: timetable, workspace: workspace)
            }
            let expected = reference.range(
                from: q.from, to: q.to, at: at, window: Int64(q.window), limit: at + PlanQuery.horizon, o)
            #expect(Array(Set(pages)).sorted() == expected, "\(context): range")
            return pages.count
        case .arriveBy(let by):
            let expected = paretoByTransfers(
                reference.latest(from: q.from, to: q.to, by: by, limit: by - PlanQuery.horizon, o), better: >)
            var got: [Int: Int64] = [:]
            for j in result.journeys { got[j.transfers] = j.departure }
            #expect(got == expected, "\(context): departures by transfers")
            for j in result.journeys { #expect(j.arrival <= by, "\(context): arrives after arrive_by") }
            return got.count
        }
    }

    /// Every leg is a real ride or an allowed walk, and every change keeps its rules.
    func validate(_ j: Journey, _ q: PlanQuery, _ context: String) {
        var previous: TransitLeg?
        var walkedFrom: (stop: Int?, duration: Int)?
        var rides = 0
        for leg in j.legs {
            switch leg {
            case .walk(let w):
                #expect(walkedFrom == nil, "\(context): two walks in a row")
                walkedFrom = (w.from, w.duration)
                if let p = previous, let to = w.to {
                    #expect(w.from == p.alightStop, "\(context): walk not from the alighting stop")
                    let expected = reference.walkTime(p.alightStop, to, radius: q.walkRadius, speed: q.walkSpeed)
                    #expect(expected.map(Int.init) == w.duration, "\(context): walk \(p.alightStop)→\(to) time")
                }
            case .transit(let t):
                rides += 1
                let (key, addedId) = timetable.runIdentity(t.run)
                if let key {
                    guard let run = reference.runByKey[key].map({ reference.runs[$0] }) else {
                        Issue.record("\(context): run \(key) is not a reference run (cancelled?)")
                        return
                    }
                    #expect(run.stops[t.boardPosition] == t.boardStop && run.stops[t.alightPosition] == t.alightStop)
                    #expect(t.boardPosition < t.alightPosition, "\(context)")
                    #expect(run.pickup[t.boardPosition] && run.dropOff[t.alightPosition], "\(context): pickup/drop-off")
                    #expect(
                        run.departures[t.boardPosition] == t.departure && run.arrivals[t.alightPosition] == t.arrival,
                        "\(context): leg times")
                } else {
                    #expect(addedId != nil)
                }
                if let p = previous {
                    if let w = walkedFrom {
                        #expect(t.departure >= p.arrival + Int64(w.duration), "\(context): walk too short")
                    } else {
                        #expect(p.alightStop == t.boardStop, "\(context): change without a walk between stops")
                        let change = reference.change(t.boardStop, slack: q.transferSlack)
                        #expect(change != nil, "\(context): change at a stop where transfers.txt forbids it")
                        if let change { #expect(t.departure >= p.arrival + change, "\(context): slack") }
                    }
                } else if case .stops = q.from {
                    #expect(walkedFrom == nil, "\(context): walk before the first trip from a stop")
                }
                previous = t
                walkedFrom = nil
            }
        }
        #expect(rides == j.transfers + 1, "\(context): transfers")
    }
}
