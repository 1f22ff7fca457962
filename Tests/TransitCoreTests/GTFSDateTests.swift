import Testing

@testable import TransitCore

@Suite struct ServiceDateTests {
    @Test func parsesAndFormats() throws {
        let d = try #require(GTFSDate("20251005"))
        #expect(d.year == 2025 && d.month == 10 && d.day == 5)
        #expect(d.yyyymmdd == 20251005)
        #expect(d.description == "20251005")
        #expect(GTFSDate(yyyymmdd: 20251005) == d)
        #expect(GTFSDate(" 20251005 ") == d)
    }

    @Test func epochAndKnownDayNumbers() {
        #expect(GTFSDate(yyyymmdd: 19700101)?.dayNumber == 0)
        #expect(GTFSDate(yyyymmdd: 19691231)?.dayNumber == -1)
        #expect(GTFSDate(yyyymmdd: 20000301)?.dayNumber == 11017)
    }

    @Test(arguments: [
        "2025105", "202510050", "20251305", "20250230", "20230229", "2025-10-05", "", "abcdefgh",
        "00000101",
    ])
    func rejectsInvalid(_ text: String) {
        #expect(GTFSDate(text) == nil)
    }

    @Test func leapYears() {
        #expect(GTFSDate(yyyymmdd: 20240229) != nil)
        #expect(GTFSDate(yyyymmdd: 20000229) != nil)
        #expect(GTFSDate(yyyymmdd: 19000229) == nil)
    }

    @Test func weekdays() {
        // 2025-10-05 is a Sunday, 2025-10-06 a Monday, 1970-01-01 a Thursday.
        #expect(GTFSDate(yyyymmdd: 20251005)?.weekday == 7)
        #expect(GTFSDate(yyyymmdd: 20251006)?.weekday == 1)
        #expect(GTFSDate(yyyymmdd: 19700101)?.weekday == 4)
        #expect(GTFSDate(yyyymmdd: 19691231)?.weekday == 3)
    }

    @Test func arithmeticAcrossMonthAndYearEnds() {
        let d = GTFSDate(yyyymmdd: 20251231)!
        #expect(d.adding(days: 1).yyyymmdd == 20260101)
        #expect(GTFSDate(yyyymmdd: 20240301)!.adding(days: -1).yyyymmdd == 20240229)
        #expect(GTFSDate(yyyymmdd: 20250101)! < GTFSDate(yyyymmdd: 20250102)!)
    }

    @Test func roundTripsEveryDayOfSeveralYears() {
        var d = GTFSDate(yyyymmdd: 19990101)!
        let end = GTFSDate(yyyymmdd: 20310101)!
        while d < end {
            #expect(GTFSDate(yyyymmdd: d.yyyymmdd) == d)
            d = d.adding(days: 1)
        }
    }
}
