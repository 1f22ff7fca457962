import Foundation
import JourneyPlanner
import Testing
import TransitCore
import TransitModel
import TransitStore
import TransitTesting

@testable import StaticService

/// The planner's host finds the landmarks again over the live rides when live data rides faster than them
/// (`JourneyPlanning.refreshLandmarksIfWeak`).
@Suite struct PlannerLandmarksTests {
    static let day0: Int64 = 1_741_698_000  // 2025-03-12's reference instant in Sydney (noon minus 12 h)

    static func stop(_ id: String, _ seq: UInt32, scheduled secs: Int, predicted: Int) -> LiveStop {
        LiveStop(
            stopId: id, stopSequence: seq, scheduledArrival: day0 + Int64(secs), scheduledDeparture: day0 + Int64(secs),
            predictedArrival: day0 + Int64(predicted), predictedDeparture: day0 + Int64(predicted), status: .predicted)
    }

    /// Trip TA (STA1 08:05 → MID 08:10 → END 08:20) predicted at MID at `mid` seconds of the day, on time elsewhere.
    static func ta(predictedAtMid mid: Int) -> LiveTrip {
        LiveTrip(
            instance: TripInstanceKey(tripId: "TA", serviceDate: 20_250_312, startSecs: nil), relationship: .scheduled,
            stops: [
                stop("STA1", 1, scheduled: 29_100, predicted: 29_100),
                stop("MID", 2, scheduled: 29_400, predicted: mid),
                stop("END", 3, scheduled: 30_000, predicted: 30_000),
            ], source: "tu")
    }

    /// Polls `condition` for up to 10 s.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test func liveRidesFasterThanTheLandmarksGetThemFoundAgain() throws {
        let folder = try TemporaryFolder("plm")
        let db = folder.path("static.db")
        try importFeed(TestFeed(), folder: folder, into: db)
        let store = try StaticStore(path: db, connections: 2)
        let log = LogRecorder()
        let planning = JourneyPlanning(
            maxConcurrent: 1, logger: log.logger, landmarksDeficit: 60, landmarksInterval: .zero,
            now: { Self.day0 + 8 * 3600 })
        planning.refresh(store)
        #expect(Self.eventually { planning.timetableVersion != nil }, "the timetable was not built")
        // TA runs STA1 08:05 → MID 08:10 in 5 min; predicted there at 08:06: 4 min faster than the schedule.
        let fast = Self.ta(predictedAtMid: 29_160)
        planning.updateLive([fast.instance: fast], staleSources: [])
        #expect(
            Self.eventually { planning.liveTimetable?.liveDeficit == 0 },
            "deficit still \(planning.liveTimetable?.liveDeficit ?? -1)")
        #expect(
            Self.eventually {
                log.all.contains {
                    $0.message.contains("landmarks found again") && $0.metadata["deficit_before_s"] == "240"
                }
            })
        // A state within the deficit threshold leaves the landmarks as they are (decided when it is laid over).
        let slight = Self.ta(predictedAtMid: 29_130)
        planning.updateLive([slight.instance: slight], staleSources: [])
        #expect(planning.liveTimetable?.liveDeficit == 30, "measured against the refreshed landmarks' 60-s ride")
        #expect(log.all.filter { $0.message.contains("landmarks found again") }.count == 1)
        // The report (served as metrics) counts them: two states laid over, and the one laid over the refreshed
        // landmarks again; one live run; one refresh.
        let counts = planning.report.counts
        #expect(counts.liveUpdates == 3 && counts.liveRuns == 1 && counts.landmarkRefreshes == 1, "\(counts)")
        #expect(counts.lastLiveUpdateSeconds != nil)
    }
}
