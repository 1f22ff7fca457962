import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// calendar.txt / calendar_dates.txt per the reference: a service runs on the days of its weekday flags
/// between start_date and end_date, both included; exception_type 1 adds a date (also outside that range, and
/// for services that exist only in calendar_dates), 2 removes it.
/// Stop C of the `ny` feed: WK_0900, SU_1000, OLD_1100, EDGE_1200, EXTRA_1300 (see `AcceptanceFeeds`).
@Suite struct AcceptanceCalendarTests {
    func tripsAtC(_ y: Int, _ m: Int, _ d: Int) throws -> [String] {
        // 04:00Z is 00:00 EDT / 23:00 EST the evening before: before every departure of the date.
        try AcceptanceFeeds.db().trips(at: "C", on: UInt32(y * 10000 + m * 100 + d), from: utc(y, m, d, 4))
    }

    @Test func holidayRemovesTheWeekdayServiceAndAddsTheSundayOne() throws {
        #expect(try tripsAtC(2026, 5, 25) == ["SU_1000"])  // Memorial Day, a Monday
        #expect(try tripsAtC(2026, 5, 26) == ["WK_0900"])  // the Tuesday after
        #expect(try tripsAtC(2026, 5, 24) == ["SU_1000"])  // the Sunday before
        #expect(try tripsAtC(2026, 5, 23) == [])  // Saturday: nothing at C
    }

    @Test func additionOutsideTheCalendarRange() throws {
        #expect(try tripsAtC(2027, 1, 5) == ["WK_0900"])  // added, after end_date 20261231
        #expect(try tripsAtC(2027, 1, 12) == [])  // an ordinary Tuesday after the range
        let t = try AcceptanceFeeds.db().store.trip(id: "WK_0900", serviceDate: 20270105, at: utc(2027, 1, 5, 14))
        #expect(t.stops.first?.departureUnix == utc(2027, 1, 5, 14))  // 09:00 EST
    }

    @Test func removalOnADayThePatternWouldRun() throws {
        #expect(try tripsAtC(2026, 7, 15) == [])  // a Wednesday, removed
        #expect(try tripsAtC(2026, 7, 8) == ["WK_0900"])
        #expect(throws: StoreError.self) {
            try AcceptanceFeeds.db().store.trip(id: "WK_0900", serviceDate: 20260715, at: utc(2026, 7, 15, 13))
        }
    }

    @Test func serviceOnlyInCalendarDates() throws {
        #expect(try tripsAtC(2026, 7, 4) == ["EXTRA_1300"])  // a Saturday
        #expect(try tripsAtC(2026, 7, 11) == [])
    }

    @Test func dateRangeEndsAreIncluded() throws {
        #expect(try tripsAtC(2026, 6, 3) == ["WK_0900", "EDGE_1200"])  // start_date, a Wednesday
        #expect(try tripsAtC(2026, 6, 10) == ["WK_0900", "EDGE_1200"])
        #expect(try tripsAtC(2026, 6, 17) == ["WK_0900", "EDGE_1200"])  // end_date, a Wednesday
        #expect(try tripsAtC(2026, 5, 27) == ["WK_0900"])  // the Wednesday before
        #expect(try tripsAtC(2026, 6, 24) == ["WK_0900"])  // the Wednesday after
        #expect(try tripsAtC(2026, 6, 2) == ["WK_0900"])  // in range, but a Tuesday
    }

    @Test func serviceThatEndedLongAgoHasNoDepartures() throws {
        for (y, m, d) in [(2026, 6, 10), (2026, 6, 13), (2026, 6, 14)] {
            #expect(try !tripsAtC(y, m, d).contains("OLD_1100"))
        }
        // Without a date, the trip is looked for around `at`: it ran only in 2020.
        #expect(throws: StoreError.self) {
            try AcceptanceFeeds.db().store.trip(id: "OLD_1100", at: utc(2026, 6, 10, 12))
        }
        // In 2020 it did run (a Wednesday, 11:00 EDT = 15:00Z).
        let t = try AcceptanceFeeds.db().store.trip(id: "OLD_1100", serviceDate: 20200610, at: utc(2020, 6, 10, 12))
        #expect(t.stops.first?.departureUnix == utc(2020, 6, 10, 15))
    }

    @Test func feedServiceRangeCoversAdditionsOutsideTheCalendar() throws {
        let info = try AcceptanceFeeds.db().store.feedInfo()
        let ny = try #require(info.feeds.first { $0.name == "ny" })
        // No feed_info.txt: validity comes from the services, 2020 (OLD) to the 2027-01-05 addition.
        #expect(ny.startDate == 20200101)
        #expect(ny.endDate == 20270105)
        #expect(ny.timezone == "America/New_York")
    }
}
