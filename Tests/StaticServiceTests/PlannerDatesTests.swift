import Foundation
import Synchronization
import Testing
import TransitCore
import TransitModel
import TransitStore
import TransitTesting

@testable import StaticService

/// A plan is answered for any time inside the feed's service dates, not only inside the window of days the
/// planner's timetable holds around the service clock's today: the dates the plan needs are searched on a far
/// timetable of just those dates (`JourneyPlanning.timetable(for:window:)`). TestFeed runs TA (STA1 08:05 → END
/// 08:20, Sydney) every day of 2025–2030; the clock is 2025-03-12 08:00, so the window is 11 to 14 March.
@Suite struct PlannerDatesTests {
    static let zone = try! ServiceTimeZone(identifier: "Australia/Sydney")
    static func reference(_ yyyymmdd: Int) -> Int64 { zone.referenceUnix(of: GTFSDate(yyyymmdd: yyyymmdd)!) }
    static let now = reference(20_250_312) + 8 * 3600

    /// A planning host on TestFeed with its window built.
    static func planning(
        farIdle: Duration = .seconds(600), farBuildShare: Double = 1, farRetryInterval: Duration = .zero,
        buildStarting: @escaping @Sendable (String, ClosedRange<GTFSDate>) throws -> Void = { _, _ in }
    ) throws -> (JourneyPlanning, StaticStore, TemporaryFolder) {
        let folder = try TemporaryFolder("pdates")
        let db = folder.path("static.db")
        try importFeed(TestFeed(), folder: folder, into: db)
        let store = try StaticStore(path: db, connections: 2)
        let planning = JourneyPlanning(
            maxConcurrent: 1, logger: LogRecorder().logger, farIdle: farIdle, farBuildShare: farBuildShare,
            farRetryInterval: farRetryInterval,
            buildStarting: buildStarting,
            now: { Self.now })
        planning.refresh(store)
        #expect(PlannerLandmarksTests.eventually { planning.timetableVersion != nil }, "the window was not built")
        return (planning, store, folder)
    }

    /// STA1 → END at `at` (or arriving by `arriveBy`), with a budget ample for a far build on a loaded machine.
    static func answer(
        _ planning: JourneyPlanning, _ store: StaticStore, at: Int64? = nil, arriveBy: Int64? = nil
    ) throws -> PlanAnswer {
        let request = PlanRequest(
            from: .stop("STA1"), to: .stop("END"), at: at, arriveBy: arriveBy, budgetMilliseconds: 10_000)
        let (result, _) = planning.answer(request, servedStore: store)
        let answer = try result.get()
        guard case .plan(let plan) = answer else {
            Issue.record("not a plan answer: \(answer)")
            return PlanAnswer(journeys: [], cut: false, reason: "not a plan", laterAt: nil, realtimeUsed: false)
        }
        return plan
    }

    @Test func aLaterDateIsPlannedOnATimetableOfItsDates() throws {
        let (planning, store, _) = try Self.planning()
        let answer = try Self.answer(planning, store, at: Self.reference(20_250_322) + 7 * 3600)
        #expect(answer.reason == nil)
        #expect(answer.journeys.first?.departureUnix == Self.reference(20_250_322) + 29_100, "TA of 22 March")
        #expect(planning.farDates?.contains(GTFSDate(yyyymmdd: 20_250_322)!) == true)
    }

    @Test func aRangeWithNothingInItsWindowSaysWhenTheNextJourneyGoes() throws {
        // 06:00 to 07:00 on 12 March: TA leaves at 08:05, after the window; not "nothing connects within 24 h".
        let (planning, store, _) = try Self.planning()
        let request = PlanRequest(
            from: .stop("STA1"), to: .stop("END"), at: Self.reference(20_250_312) + 6 * 3600, windowSeconds: 3600,
            budgetMilliseconds: 10_000)
        guard case .plan(let answer) = try planning.answer(request, servedStore: store).0.get() else {
            Issue.record("not a plan answer")
            return
        }
        #expect(answer.journeys.isEmpty)
        #expect(
            answer.reason
                == "no journey departs within window_s 3600 s of at (06:00 to 07:00 on 2025-03-12, Australia/Sydney); "
                + "the earliest journey from at on departs at 08:05 and arrives at 08:20 on 2025-03-12")
    }

    /// `report` (served as metrics): the timetables held and built, and the far plans refused while one builds.
    @Test func theReportSaysWhatThePlannerHoldsAndDid() throws {
        let gate = Mutex(false)
        let (planning, store, _) = try Self.planning(farBuildShare: 1) { _, dates in
            // The far build of 20 March waits while the gate is closed.
            while dates.contains(GTFSDate(yyyymmdd: 20_250_320)!) && gate.withLock({ !$0 }) {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        var report = planning.report
        #expect(report.window?.dates.contains(GTFSDate(yyyymmdd: 20_250_312)!) == true && report.far == nil)
        #expect((report.window?.bytes ?? 0) > 0 && (report.window?.runs ?? 0) > 0)
        #expect(report.counts.windowBuilds == 1 && report.counts.lastWindowBuildSeconds != nil)
        #expect(report.counts.farBuilds == 0 && report.counts.refusedFar == 0)
        // A plan on 20 March while its timetable is held back: refused (its budget is short), and counted.
        let request = PlanRequest(
            from: .stop("STA1"), to: .stop("END"), at: Self.reference(20_250_320) + 7 * 3600, budgetMilliseconds: 50)
        if case .success = planning.answer(request, servedStore: store).0 { Issue.record("answered while building") }
        #expect(planning.report.counts.refusedFar == 1)
        gate.withLock { $0 = true }
        #expect(PlannerLandmarksTests.eventually { planning.report.far != nil }, "the far build did not finish")
        report = planning.report
        #expect(report.far?.dates.contains(GTFSDate(yyyymmdd: 20_250_320)!) == true)
        #expect(report.counts.farBuilds == 1 && report.counts.farBuildFailures == 0)
        #expect(report.counts.lastFarBuildSeconds != nil && report.counts.cutPlans == 0)
    }

    @Test func theWindowsLastEveningReachesTheNextDay() throws {
        // 14 March 23:00 is inside the window, but its next TA (15 March 08:05) is not.
        let (planning, store, _) = try Self.planning()
        let answer = try Self.answer(planning, store, at: Self.reference(20_250_314) + 23 * 3600)
        #expect(answer.journeys.first?.departureUnix == Self.reference(20_250_315) + 29_100, "\(answer)")
    }

    @Test func arrivingBeforeTheWindowIsPlannedBackwardsOnItsDates() throws {
        // Arriving by 11 March 07:00 (the window's first morning): TA of 10 March, the day before the window.
        let (planning, store, _) = try Self.planning()
        let answer = try Self.answer(planning, store, arriveBy: Self.reference(20_250_311) + 7 * 3600)
        #expect(answer.journeys.first?.arrivalUnix == Self.reference(20_250_310) + 30_000, "\(answer)")
    }

    @Test func plansAroundNowStayOnTheWindow() throws {
        let (planning, store, _) = try Self.planning()
        let depart = try Self.answer(planning, store, at: Self.now)
        let arrive = try Self.answer(planning, store, arriveBy: Self.now + 3600)
        #expect(depart.journeys.first?.departureUnix == Self.reference(20_250_312) + 29_100)
        #expect(arrive.journeys.first?.arrivalUnix == Self.reference(20_250_311) + 30_000 + 86_400)
        #expect(planning.farDates == nil, "no far timetable for the window's own dates")
    }

    @Test func aTimeOutsideTheFeedsDatesIsAnEmptyAnswerWithAReason() throws {
        let (planning, store, _) = try Self.planning()
        let answer = try Self.answer(planning, store, at: Self.reference(20_310_105) + 7 * 3600)
        #expect(answer.journeys.isEmpty)
        #expect(answer.reason == "the time is outside the feed's service dates (20250101 to 20301231)")
        #expect(planning.farDates == nil)
    }

    /// The UNAVAILABLE error `request` is refused with (an issue recorded when it is answered otherwise).
    static func refusal(_ planning: JourneyPlanning, _ request: PlanRequest, _ store: StaticStore) -> ServiceError? {
        let (result, _) = planning.answer(request, servedStore: store)
        guard case .failure(let error) = result, error.status == .unavailable else {
            Issue.record("not refused with UNAVAILABLE: \(result)")
            return nil
        }
        return error
    }

    @Test func aPlanThatCannotWaitForTheFarBuildIsToldToTryAgain() throws {
        // The far build held at its start until the refusal is seen (at most 10 s, so a failure cannot hang).
        let release = DispatchSemaphore(value: 0)
        let (planning, store, _) = try Self.planning(buildStarting: { _, dates in
            if dates.contains(GTFSDate(yyyymmdd: 20_250_405)!) { _ = release.wait(timeout: .now() + 10) }
        })
        let at = Self.reference(20_250_405) + 7 * 3600
        let hasty = PlanRequest(from: .stop("STA1"), to: .stop("END"), at: at, budgetMilliseconds: 100)
        let refusal = Self.refusal(planning, hasty, store)
        release.signal()
        guard let error = refusal else { return }
        #expect(error.message.hasPrefix("the planner is building the timetable of 20250405 to 20250406"), "\(error)")
        #expect(error.message.hasSuffix("try again in a few seconds"))
        #expect(try Self.answer(planning, store, at: at).journeys.count == 1, "answered once built")
    }

    @Test func anotherDateReplacesTheFarTimetable() throws {
        let (planning, store, _) = try Self.planning()
        for date in [20_250_322, 20_250_501, 20_250_322] {
            let answer = try Self.answer(planning, store, at: Self.reference(date) + 7 * 3600)
            #expect(answer.journeys.first?.departureUnix == Self.reference(date) + 29_100, "\(date)")
            #expect(planning.farDates?.contains(GTFSDate(yyyymmdd: date)!) == true, "one far timetable, of \(date)")
        }
    }

    @Test func farBuildsAreSpacedSoThatPlansOnEverOtherDatesCannotKeepACoreBuilding() throws {
        // A far build held 400 ms; at most a quarter of a core: the next may start 1.2 s after it ended.
        let (planning, store, _) = try Self.planning(farBuildShare: 0.25) { _, dates in
            if dates.contains(GTFSDate(yyyymmdd: 20_250_322)!) { Thread.sleep(forTimeInterval: 0.4) }
        }
        #expect(try Self.answer(planning, store, at: Self.reference(20_250_322) + 7 * 3600).journeys.count == 1)
        let built = ContinuousClock.now
        let other = PlanRequest(
            from: .stop("STA1"), to: .stop("END"), at: Self.reference(20_250_501) + 7 * 3600, budgetMilliseconds: 200)
        guard let error = Self.refusal(planning, other, store) else { return }
        #expect(
            error.message.hasPrefix(
                "the planner spends at most 25 % of a core on timetables of other dates and may start the next in "),
            "\(error)")
        #expect(
            error.message.hasSuffix(
                "; this time needs 20250501 to 20250502 (it holds 20250311 to 20250314 ready); try again in a few seconds"
            ),
            "the suffix clients wait on (GATEWAY.md plan): \(error)")
        #expect(planning.farDates?.contains(GTFSDate(yyyymmdd: 20_250_322)!) == true, "the first one kept")
        // Once the spacing has passed, the other date is built and answered.
        let left = built + .milliseconds(1300) - .now
        if left > .zero { Thread.sleep(forTimeInterval: Double(left / .milliseconds(1)) / 1000) }
        let answer = try Self.answer(planning, store, at: Self.reference(20_250_501) + 7 * 3600)
        #expect(answer.journeys.first?.departureUnix == Self.reference(20_250_501) + 29_100, "\(answer)")
    }

    @Test func aSmallFeedsFarBuildsHardlyWait() throws {
        // The default share (a fifth of a core): TestFeed's far timetables take milliseconds, so plans on three
        // dates in a row are each answered within their budget of 5 s (the 10-s spacing of before refused the
        // second), even where a loaded machine makes a build take a second.
        let (planning, store, _) = try Self.planning(farBuildShare: 0.2)
        for date in [20_250_322, 20_250_501, 20_250_610] {
            let request = PlanRequest(
                from: .stop("STA1"), to: .stop("END"), at: Self.reference(date) + 7 * 3600, budgetMilliseconds: 5_000)
            let (result, _) = planning.answer(request, servedStore: store)
            guard case .success(.plan(let plan)) = result else {
                Issue.record("\(date): \(result)")
                continue
            }
            #expect(plan.journeys.first?.departureUnix == Self.reference(date) + 29_100, "\(date)")
        }
    }

    @Test func aRidersNextPlansOnTheFarDatesAreSearchedOnTheSameFarTimetable() throws {
        // Departing on 22 March, later that morning, then arriving by the next morning: one far build, 22 to 23
        // March (TestFeed's times end before 24:00, so no day before is needed).
        let builds = Mutex<[ClosedRange<GTFSDate>]>([])
        let (planning, store, _) = try Self.planning { _, dates in builds.withLock { $0.append(dates) } }
        let morning = try Self.answer(planning, store, at: Self.reference(20_250_322) + 7 * 3600)
        let later = try Self.answer(planning, store, at: Self.reference(20_250_322) + 9 * 3600)
        let arriving = try Self.answer(planning, store, arriveBy: Self.reference(20_250_323) + 9 * 3600)
        #expect(morning.journeys.first?.departureUnix == Self.reference(20_250_322) + 29_100)
        #expect(later.journeys.first?.departureUnix == Self.reference(20_250_323) + 29_100)
        #expect(arriving.journeys.first?.arrivalUnix == Self.reference(20_250_323) + 30_000)
        let window = GTFSDate(yyyymmdd: 20_250_311)!...GTFSDate(yyyymmdd: 20_250_314)!
        let far = builds.withLock { $0 }.filter { $0 != window }
        #expect(far == [GTFSDate(yyyymmdd: 20_250_322)!...GTFSDate(yyyymmdd: 20_250_323)!], "\(far)")
    }

    @Test func aFailedFarBuildIsReportedAtOnceAndTriedAgainLater() throws {
        // The first far build fails (as one reading a database gone bad would); the later ones do not.
        struct Unreadable: Error, CustomStringConvertible { var description: String { "disk I/O error" } }
        let failures = Mutex(1)
        let (planning, store, _) = try Self.planning(farRetryInterval: .seconds(2)) { _, dates in
            guard dates.contains(GTFSDate(yyyymmdd: 20_250_322)!) else { return }
            let fail = failures.withLock { n in
                n -= 1
                return n >= 0
            }
            if fail { throw Unreadable() }
        }
        let at = Self.reference(20_250_322) + 7 * 3600
        let request = PlanRequest(from: .stop("STA1"), to: .stop("END"), at: at, budgetMilliseconds: 10_000)
        // Refused with the failure, not after the budget with the message of a build still under way.
        guard let error = Self.refusal(planning, request, store) else { return }
        #expect(
            error.message.hasPrefix(
                "the planner could not build the timetable of 20250322 to 20250323 for this time (disk I/O error)"),
            "\(error)")
        #expect(error.message.contains("tries again at most every 2 s"))
        #expect(planning.farDates == nil)
        #expect(try Self.answer(planning, store, at: Self.now).journeys.count == 1, "the window still answers")
        // After the spacing, the next plan for those dates builds again.
        Thread.sleep(forTimeInterval: 2)
        let answer = try Self.answer(planning, store, at: at)
        #expect(answer.journeys.first?.departureUnix == Self.reference(20_250_322) + 29_100, "\(answer)")
    }

    @Test func theFarTimetableIsDroppedOnceUnused() throws {
        let (planning, store, _) = try Self.planning(farIdle: .milliseconds(200))
        let answer = try Self.answer(planning, store, at: Self.reference(20_250_401) + 7 * 3600)
        #expect(answer.journeys.count == 1)
        #expect(PlannerLandmarksTests.eventually { planning.farDates == nil }, "still held: \(planning.farDates!)")
        // Asked again, it is built again.
        let again = try Self.answer(planning, store, at: Self.reference(20_250_401) + 7 * 3600)
        #expect(again.journeys.map(\.departureUnix) == answer.journeys.map(\.departureUnix))
    }
}
