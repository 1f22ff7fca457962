import Testing

@testable import TransitStore

/// The import's warning for a feed that does not cover the clock's date (the feed imports anyway).
@Suite struct ImportValidityTests {
    static func feed(info: (Int?, Int?)?, service: (Int?, Int?)?) -> ImportSummary.FeedStats {
        ImportSummary.FeedStats(
            name: "buses", prefix: "", path: "buses.zip", version: nil, startDate: info?.0, endDate: info?.1,
            serviceStartDate: service?.0, serviceEndDate: service?.1, timezone: "Australia/Sydney")
    }

    // 2025-03-12 08:05 in Sydney; 2025-03-11 21:05 UTC (the feed's local date counts, not UTC's).
    static let wednesday: Int64 = 1_741_727_100

    @Test func aFeedCoveringTheDateHasNoWarning() {
        let feed = Self.feed(info: (20250310, 20250316), service: (20250312, 20250312))
        #expect(feed.validityWarning(atUnix: Self.wednesday) == nil)
        #expect(Self.feed(info: nil, service: nil).validityWarning(atUnix: Self.wednesday) == nil)
    }

    @Test func anExpiredFeedNamesItsDates() throws {
        let feed = Self.feed(info: (20250101, 20250228), service: (20250105, 20250227))
        let warning = try #require(feed.validityWarning(atUnix: Self.wednesday))
        #expect(
            warning == "feed buses does not cover 20250312 (Australia/Sydney): feed_info.txt says it is valid "
                + "from 20250101 to 20250228; its calendar runs services from 20250105 to 20250227; imported anyway "
                + "(boards around now will be empty: pick a --clock inside its dates)")
    }

    @Test func eachRangeIsCheckedOnItsOwn() throws {
        // feed_info still valid, but the calendar starts tomorrow (local date 20250312, not UTC's 20250311).
        let future = Self.feed(info: (20250301, 20250331), service: (20250313, 20250331))
        let warning = try #require(future.validityWarning(atUnix: Self.wednesday))
        #expect(warning.contains("its calendar runs services from 20250313 to 20250331"))
        #expect(!warning.contains("feed_info"))
        // An open end: valid from a date on.
        let open = Self.feed(info: (20250320, nil), service: nil)
        #expect(try #require(open.validityWarning(atUnix: Self.wednesday)).contains("valid from 20250320; imported"))
        #expect(Self.feed(info: (20250312, 20250312), service: nil).validityWarning(atUnix: Self.wednesday) == nil)
    }
}
