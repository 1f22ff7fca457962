import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// GTFS times count from "noon minus 12 h" of the service date in the agency timezone (reference, "Field
/// Types: Time"). On the days the UTC offset changes that is not local midnight, so a "01:30:00" trip of the
/// change day and a "25:30:00" trip of the day before land at instants one can only get right by the rule.
/// Expected instants are derived by hand below each test, as UTC.
@Suite struct AcceptanceTimeZoneTests {
    func db() throws -> AcceptanceDB { try AcceptanceFeeds.db() }

    /// (trip, service date, GTFS seconds, unix) of each departure.
    func rows(_ b: DepartureBoard) -> [String] {
        b.departures.map { "\($0.tripId) \($0.serviceDate) \($0.scheduledSecs) \($0.scheduledUnix)" }
    }

    @Test func newYorkDaylightSavingStarts() throws {
        // 2026-03-07 (EST, UTC-5): noon = 17:00Z, reference = 05:00Z → 25:30:00 = 03-08 06:30Z (01:30 EST).
        // 2026-03-08 (noon is EDT, UTC-4): noon = 16:00Z, reference = 04:00Z (23:00 EST on the 7th)
        //   → 01:30:00 = 05:30Z (00:30 EST on the wall clock), 08:00:00 = 12:00Z (08:00 EDT).
        let b = try db().board("PENN1", at: utc(2026, 3, 8, 4), limit: 3)
        #expect(
            rows(b) == [
                "E0130 20260308 5400 \(utc(2026, 3, 8, 5, 30))",
                "L2530 20260307 91800 \(utc(2026, 3, 8, 6, 30))",
                "E0800 20260308 28800 \(utc(2026, 3, 8, 12))",
            ])
        #expect(b.timezone == "America/New_York")
        // Without a date, at 01:35 EST on the 8th the running L2530 is the 7th's (06:30Z → 06:40Z).
        let late = try db().store.trip(id: "L2530", at: utc(2026, 3, 8, 6, 35))
        #expect(late.serviceDate == 20260307)
        #expect(late.stops.map(\.departureUnix) == [utc(2026, 3, 8, 6, 30), utc(2026, 3, 8, 6, 40)])
        // The day before is an ordinary EST day: 08:00:00 = 13:00Z.
        let before = try db().store.trip(id: "E0800", serviceDate: 20260307, at: utc(2026, 3, 7, 12))
        #expect(before.stops.first?.departureUnix == utc(2026, 3, 7, 13))
    }

    @Test func newYorkDaylightSavingEnds() throws {
        // 2026-10-31 (EDT): reference = 04:00Z → 25:30:00 = 11-01 05:30Z (01:30 EDT, the first 01:30).
        // 2026-11-01 (noon is EST): noon = 17:00Z, reference = 05:00Z (01:00 EDT)
        //   → 01:30:00 = 06:30Z (01:30 EST, the second 01:30), 08:00:00 = 13:00Z (08:00 EST).
        let b = try db().board("PENN1", at: utc(2026, 11, 1, 4), limit: 3)
        #expect(
            rows(b) == [
                "L2530 20261031 91800 \(utc(2026, 11, 1, 5, 30))",
                "E0130 20261101 5400 \(utc(2026, 11, 1, 6, 30))",
                "E0800 20261101 28800 \(utc(2026, 11, 1, 13))",
            ])
    }

    @Test func londonSummerTimeStarts() throws {
        // 2026-03-28 (GMT): reference = 00:00Z → 25:30:00 = 03-29 01:30Z (02:30 BST, after the 01:00Z change).
        // 2026-03-29 (noon is BST, UTC+1): noon = 11:00Z, reference = 03-28 23:00Z
        //   → 01:30:00 = 00:30Z (00:30 GMT), 08:00:00 = 07:00Z (08:00 BST).
        let b = try db().board("LPAD", at: utc(2026, 3, 28, 23), limit: 3)
        #expect(
            rows(b) == [
                "LE0130 20260329 5400 \(utc(2026, 3, 29, 0, 30))",
                "LL2530 20260328 91800 \(utc(2026, 3, 29, 1, 30))",
                "LE0800 20260329 28800 \(utc(2026, 3, 29, 7))",
            ])
        #expect(b.timezone == "Europe/London")
    }

    @Test func londonSummerTimeEnds() throws {
        // 2026-10-24 (BST): reference = 10-23 23:00Z → 25:30:00 = 10-25 00:30Z (01:30 BST, the first 01:30).
        // 2026-10-25 (noon is GMT): reference = 00:00Z (01:00 BST) → 01:30:00 = 01:30Z (01:30 GMT),
        //   08:00:00 = 08:00Z.
        let b = try db().board("LPAD", at: utc(2026, 10, 24, 23), limit: 3)
        #expect(
            rows(b) == [
                "LL2530 20261024 91800 \(utc(2026, 10, 25, 0, 30))",
                "LE0130 20261025 5400 \(utc(2026, 10, 25, 1, 30))",
                "LE0800 20261025 28800 \(utc(2026, 10, 25, 8))",
            ])
    }

    @Test func santiagoDayWithoutMidnight() throws {
        // 2026-09-06: noon is -03 (15:00Z), reference = 03:00Z = 23:00 -04 on the 5th, so "00:30:00" runs at
        // 03:30Z, 23:30 on the 5th by the wall clock, and "08:00:00" at 11:00Z (08:00 -03).
        // 2026-09-05 (-04): reference = 04:00Z → 25:30:00 = 09-06 05:30Z (02:30 -03).
        let b = try db().board("STG1", at: utc(2026, 9, 6, 2), limit: 3)  // 22:00 on the 5th
        #expect(
            rows(b) == [
                "S0030 20260906 1800 \(utc(2026, 9, 6, 3, 30))",
                "S2530 20260905 91800 \(utc(2026, 9, 6, 5, 30))",
                "S0800 20260906 28800 \(utc(2026, 9, 6, 11))",
            ])
        // Without a date, at 23:35 local on the 5th the running S0030 is the 6th's.
        let t = try db().store.trip(id: "S0030", at: utc(2026, 9, 6, 3, 35))
        #expect(t.serviceDate == 20260906)
    }

    @Test func eachFeedUsesItsOwnZoneInOneDatabase() throws {
        // An ordinary summer day: 08:00:00 is 12:00Z in New York (EDT) and 07:00Z in London (BST).
        let ny = try db().store.trip(id: "E0800", serviceDate: 20260610, at: utc(2026, 6, 10, 12))
        let london = try db().store.trip(id: "LE0800", serviceDate: 20260610, at: utc(2026, 6, 10, 7))
        #expect(ny.stops.first?.departureUnix == utc(2026, 6, 10, 12))
        #expect(ny.timezone == "America/New_York")
        #expect(london.stops.first?.departureUnix == utc(2026, 6, 10, 7))
        #expect(london.timezone == "Europe/London")
    }

    @Test func tripOnTheChangeDayHasTheRuleTimes() throws {
        // The trip query uses the same rule: E0130 on 2026-11-01 runs 06:30Z → 06:40Z.
        let t = try db().store.trip(id: "E0130", serviceDate: 20261101, at: utc(2026, 11, 1, 6))
        #expect(t.stops.map(\.arrivalUnix) == [utc(2026, 11, 1, 6, 30), utc(2026, 11, 1, 6, 40)])
        #expect(t.stops.map(\.arrivalSecs) == [secs(1, 30), secs(1, 40)])
        // LL2530 of 2026-03-28 (London) runs 03-29 01:30Z → 01:40Z.
        let late = try db().store.trip(id: "LL2530", serviceDate: 20260328, at: utc(2026, 3, 29, 1))
        #expect(late.stops.map(\.departureUnix) == [utc(2026, 3, 29, 1, 30), utc(2026, 3, 29, 1, 40)])
    }
}
