import Foundation
import Synchronization
import Testing
import TransitModel
import TransitStore
import TransitTesting

@testable import StaticService

/// A new database's timetable is built while the old one answers (protocol/README.md flow 8, "no pause"): with
/// the build held at its start for as long as the test likes, plans are answered meanwhile, on the old version.
@Suite struct PlannerRebuildTests {
    /// Holds the build of one database version until released.
    final class Gate: Sendable {
        let held = Mutex<String?>(nil)
        let release = DispatchSemaphore(value: 0)
        let reached = DispatchSemaphore(value: 0)

        func starting(_ version: String) {
            guard held.withLock({ $0 }) == version else { return }
            reached.signal()
            // At most 10 s: a planner that waited for its build then answers on the new version (the test fails)
            // instead of hanging.
            _ = release.wait(timeout: .now() + 10)
        }
    }

    @Test func plansAreAnsweredOnTheOldTimetableWhileTheNewOneIsBuilt() throws {
        let folder = try TemporaryFolder("prebuild")
        try importFeed(TestFeed(), folder: folder, into: folder.path("old.db"))
        try importFeed(TestFeed(), folder: folder, into: folder.path("new.db"))
        let old = try StaticStore(path: folder.path("old.db"), connections: 2)
        let new = try StaticStore(path: folder.path("new.db"), connections: 2)
        #expect(old.databaseVersion != new.databaseVersion)
        let gate = Gate()
        gate.held.withLock { $0 = new.databaseVersion }
        let planning = JourneyPlanning(
            maxConcurrent: 1, logger: LogRecorder().logger, buildStarting: { version, _ in gate.starting(version) },
            now: { PlannerDatesTests.now })
        planning.refresh(old)
        #expect(PlannerLandmarksTests.eventually { planning.timetableVersion == old.databaseVersion })

        let request = PlanRequest(from: .stop("STA1"), to: .stop("END"), at: PlannerDatesTests.now)
        planning.refresh(new)
        #expect(gate.reached.wait(timeout: .now() + 10) == .success, "the new build did not start")
        // The new timetable's build is held: every plan is answered now, on the old database.
        for _ in 0..<3 {
            let (result, version) = planning.answer(request, servedStore: new)
            #expect(version == old.databaseVersion)
            guard case .success(.plan(let answer)) = result else {
                Issue.record("no plan while the new timetable is built: \(result)")
                break
            }
            #expect(answer.journeys.count == 1)
        }
        gate.release.signal()
        #expect(PlannerLandmarksTests.eventually { planning.timetableVersion == new.databaseVersion })
        #expect(planning.answer(request, servedStore: new).1 == new.databaseVersion)
    }
}
