import Foundation
import JourneyPlanner
import Testing
import TransitCore
import TransitStore
import TransitTesting

/// The planner on a real feed (Vilnius buses and trolleybuses, 2015: real geography, 445,217 stop_times),
/// imported with the real importer and loaded through `StaticStore.plannerInput`: it agrees with the reference
/// on 200 sampled queries.
@Suite struct RealFeedTests {
    static let feed = "vilnius-2015-static/gtfs.zip"
    static var available: Bool { FileManager.default.fileExists(atPath: RealCaptures.path(feed)) }

    @Test(.enabled(if: available, "../shared/realdata/vilnius-2015-static is absent: the real-feed test is skipped"))
    func vilniusAgreesWithTheReference() async throws {
        // Half a minute of CPU: off the concurrency pool (`onOwnThread`).
        try await onOwnThread { try Self.compareOnVilnius() }
    }

    static func compareOnVilnius() throws {
        let folder = try TemporaryFolder("planner-vilnius")
        let db = folder.path("vilnius.db")
        let clock = ContinuousClock()
        let importStart = clock.now
        try runImport([.init(path: RealCaptures.path(feed), name: "vilnius")], into: db)
        print("Vilnius import: \(clock.now - importStart)")
        let store = try StaticStore(path: db, connections: 1)
        let day = GTFSDate(yyyymmdd: 20_150_908)!  // a Tuesday
        let started = clock.now
        // The day before brings the trips running past midnight; the planner and the reference see the same
        // timetable, so the day after is left out to keep the reference fast.
        let input = try store.plannerInput(dates: day.adding(days: -1)...day)
        let loaded = clock.now
        let timetable = Timetable(input.source)
        let built = clock.now
        print(
            "Vilnius timetable (debug build): load \(loaded - started), build \(built - loaded); \(timetable.runCount) runs,"
                + " \(timetable.runStopCount) run stops, \(timetable.footpathCount) walks,"
                + " \(timetable.routeCount) routes; timetable arrays \(timetable.memoryEstimate >> 20) MiB,"
                + " process resident \(Self.residentBytes() >> 20) MiB")
        #expect(timetable.runCount > 10_000)

        let reference = ReferencePlanner(input.source)
        let check = PlannerCheck(timetable: timetable, reference: reference)
        let served = Array(reference.served).sorted()
        guard let reference0 = input.source.days.first(where: { $0.date == day })?.referenceUnix else {
            Issue.record("no service on \(day)")
            return
        }
        var rng = SplitMix64(seed: 27)
        var compared = 0
        let checkStart = clock.now
        for i in 0..<200 {
            let from = served.randomElement(using: &rng)!
            var to = served.randomElement(using: &rng)!
            while to == from { to = served.randomElement(using: &rng)! }
            let at = reference0 + Int64(Int.random(in: 6 * 3600...22 * 3600, using: &rng))
            let q = PlanQuery(from: .stops([from]), to: .stops([to]), time: i % 4 == 3 ? .arriveBy(at) : .departAt(at))
            compared += try check.check(
                q, "Vilnius query \(i): \(input.stopIds[from]) → \(input.stopIds[to]) \(q.time)")
        }
        print(
            "Vilnius: \(compared) journeys compared over 200 queries in \(clock.now - checkStart); planner \(check.clock.planner / 200)"
                + " per query (debug)")
        #expect(compared > 200)
    }

    /// The process's resident set size (Linux; 0 elsewhere).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
