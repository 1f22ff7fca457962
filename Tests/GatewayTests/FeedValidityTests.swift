import Testing
import TransitModel

@testable import Gateway

/// Which dates the feeds cover (GATEWAY.md §2 `meta.note`): a date is covered when one feed's feed_info dates
/// hold it (an open end holds everything on its side); feeds that state no dates say nothing.
@Suite struct FeedValidityTests {
    static func feed(_ name: String, _ start: ServiceDate?, _ end: ServiceDate?) -> FeedSummary {
        FeedSummary(
            name: name, startDate: start, endDate: end, timezone: "Australia/Sydney", importedAt: 0, stops: 0,
            routes: 0, trips: 0, stopTimes: 0)
    }

    @Test func aDateOutsideEveryFeedNamesTheirDates() {
        let feeds = [Self.feed("trains", 20250101, 20251231), Self.feed("buses", 20260101, nil)]
        #expect(FeedValidity.uncovered(20250101, feeds: feeds) == nil)
        #expect(FeedValidity.uncovered(20251231, feeds: feeds) == nil)
        #expect(FeedValidity.uncovered(20990101, feeds: feeds) == nil, "buses has no end")
        #expect(FeedValidity.uncovered(20241231, feeds: feeds) == "trains 20250101–20251231, buses 20260101–…")
        #expect(FeedValidity.uncovered(20241231, feeds: [Self.feed("undated", nil, nil)]) == nil)
        #expect(FeedValidity.uncovered(20241231, feeds: []) == nil)
    }

    @Test func aBoardsDateIsItsAtsLocalDate() {
        let feeds = [Self.feed("sample", 20250101, 20301231)]
        // 2030-12-31T13:30:00Z is 2031-01-01 00:30 in Sydney: outside; an hour earlier it is still inside.
        let note = FeedValidity.note(at: 1_924_954_200, timezone: "Australia/Sydney", feeds: feeds)
        #expect(note == "20310101 is outside the feed's dates: sample 20250101–20301231; pick an at inside them")
        #expect(FeedValidity.note(at: 1_924_950_600, timezone: "Australia/Sydney", feeds: feeds) == nil)
    }
}
