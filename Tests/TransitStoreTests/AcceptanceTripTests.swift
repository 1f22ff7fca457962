import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// The trip query on the `ny` feed: with a date the trip must run that day; without one, the instance
/// running nearest to `at`, the previous service day's run past midnight included.
@Suite struct AcceptanceTripTests {
    func db() throws -> AcceptanceDB { try AcceptanceFeeds.db() }

    @Test func withoutDateThePreviousServiceDaysRunPastMidnight() throws {
        // L2530 of 06-09 runs 06-10 05:30Z → 05:40Z (01:30–01:40 EDT on the 10th).
        let running = try db().store.trip(id: "L2530", at: utc(2026, 6, 10, 5, 35))
        #expect(running.serviceDate == 20260609)
        #expect(running.stops.map(\.departureUnix) == [utc(2026, 6, 10, 5, 30), utc(2026, 6, 10, 5, 40)])
        #expect(running.stops.map(\.departureSecs) == [secs(25, 30), secs(25, 40)])
        #expect(running.startTime == "25:30:00")
        // Midnight on the 10th: 06-09's run is 1.5 h ahead, 06-10's a day later.
        #expect(try db().store.trip(id: "L2530", at: utc(2026, 6, 10, 4)).serviceDate == 20260609)
        // 16:00 EDT on the 10th: 06-10's run (9.5 h ahead) is nearer than 06-09's (over 14 h ago).
        #expect(try db().store.trip(id: "L2530", at: utc(2026, 6, 10, 20)).serviceDate == 20260610)
    }

    @Test func withADateOnWhichItDoesNotRun() throws {
        let store = try db().store
        #expect(throws: StoreError.self) {
            try store.trip(id: "E0800", serviceDate: 20250610, at: utc(2026, 6, 10, 12))
        }
        #expect(throws: StoreError.self) {
            try store.trip(id: "WK_0900", serviceDate: 20260525, at: utc(2026, 6, 10, 12))
        }
        #expect(throws: StoreError.self) {
            try store.trip(id: "WK_0900", serviceDate: 20260613, at: utc(2026, 6, 10, 12))
        }
        #expect(throws: StoreError.notFound("trip NOPE")) { try store.trip(id: "NOPE", at: utc(2026, 6, 10, 12)) }
    }

    @Test func loopTripListsEveryVisit() throws {
        let t = try db().store.trip(id: "LOOPT", serviceDate: 20260610, at: utc(2026, 6, 10, 19))
        #expect(t.stops.map(\.stopId) == ["L1", "L2", "L1", "L3"])
        #expect(t.stops.map(\.stopSequence) == [10, 20, 30, 40])
        #expect(t.startTime == "15:00:00")
    }

    @Test func pickupTypesAreReported() throws {
        let t = try db().store.trip(id: "PUT", serviceDate: 20260610, at: utc(2026, 6, 10, 18))
        #expect(t.stops.map(\.pickupType) == [1, 0, 0])
        #expect(t.stops.map(\.stopName) == ["Hudson Yards", "Herald Sq", "Chelsea"])
    }
}
