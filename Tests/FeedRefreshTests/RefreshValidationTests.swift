import FeedRefresh
import Testing
import TransitModel

@Suite struct RefreshValidationTests {
    let sydney = FeedProfile.Coordinate(lat: -33.88, lon: 151.2)

    func profile(
        _ trips: [String: Int], at centre: FeedProfile.Coordinate? = nil, dates: ClosedRange<Int> = 20260101...20261231
    )
        -> FeedProfile
    {
        FeedProfile(
            name: "f", trips: trips.values.reduce(0, +), tripsByMode: trips, centroid: centre ?? sydney,
            serviceStartDate: dates.lowerBound, serviceEndDate: dates.upperBound, timezone: "Australia/Sydney")
    }

    func refusals(_ new: FeedProfile, _ old: FeedProfile?, maxShrink: Double = 0.5) -> [Refusal] {
        RefreshValidation.refusals(
            candidate: ["f": new], serving: old.map { ["f": $0] }, checked: ["f"], today: { _ in 20260302 },
            limits: RefreshLimits(maxShrink: maxShrink))
    }

    @Test func aSimilarVersionIsAccepted() {
        #expect(refusals(profile(["bus": 90, "train": 20]), profile(["bus": 100, "train": 20])).isEmpty)
        #expect(refusals(profile(["bus": 1]), nil).isEmpty)  // nothing serves yet: no comparison
    }

    @Test func losingMoreThanTheMaxShrinkIsRefused() {
        #expect(
            refusals(profile(["bus": 49]), profile(["bus": 100])) == [
                .shrank(feed: "f", from: 100, to: 49, maxShrink: 0.5)
            ])
        #expect(refusals(profile(["bus": 50]), profile(["bus": 100])).isEmpty)
        #expect(refusals(profile(["bus": 80]), profile(["bus": 100]), maxShrink: 0.1).count == 1)
        let text = refusals(profile(["bus": 40]), profile(["bus": 100]))[0].description
        #expect(
            text
                == "f: the new version has 40 trips, the serving one 100: it lost 60 %, more than --gtfs-max-shrink 50 %"
        )
    }

    @Test func removingEveryTripOfAModeIsRefused() {
        #expect(
            refusals(profile(["bus": 100]), profile(["bus": 95, "ferry": 5]))
                == [.modeRemoved(feed: "f", mode: "ferry", trips: 5)])
    }

    @Test func aVersionThatDoesNotCoverTodayIsRefused() {
        let result = refusals(profile(["bus": 10], dates: 20260401...20261231), nil)
        #expect(result == [.doesNotCoverToday(feed: "f", today: 20260302, start: 20260401, end: 20261231)])
    }

    @Test func anotherRegionIsRefused() {
        let melbourne = FeedProfile.Coordinate(lat: -37.81, lon: 144.96)
        let result = refusals(profile(["bus": 100], at: melbourne), profile(["bus": 100]))
        guard case .movedAway(_, let km, _)? = result.first else {
            Issue.record("\(result)")
            return
        }
        #expect(km > 700 && km < 750)
    }

    @Test func noTripsAndMissingFeedsAreRefused() {
        #expect(refusals(profile([:]), profile(["bus": 3])) == [.noTrips(feed: "f")])
        let missing = RefreshValidation.refusals(
            candidate: [:], serving: nil, checked: ["f"], today: { _ in 20260302 }, limits: RefreshLimits())
        #expect(missing == [.missingFeed(feed: "f")])
    }

    @Test func onlyAZipIsTakenForAFeed() {
        #expect(RefreshValidation.notZip([0x50, 0x4B, 0x03, 0x04, 1, 2]) == nil)
        #expect(RefreshValidation.notZip(Array("<!DOCTYPE html><html><body>Login".utf8)) == "an HTML page")
        #expect(RefreshValidation.notZip(Array("  <html>".utf8)) == "an HTML page")
        #expect(RefreshValidation.notZip(Array("{\"error\":\"quota\"}".utf8)) == "JSON")
        #expect(RefreshValidation.notZip([]) == "nothing: an empty answer")
    }
}

@Suite struct RefreshScheduleTests {
    let schedule = RefreshSchedule(interval: .seconds(6 * 3600))

    @Test func aSuccessWaitsTheIntervalAndFailuresBackOff() {
        var generator = SystemRandomNumberGenerator()
        #expect(schedule.next(after: 1000, failures: 0, using: &generator) == 1000 + 21600)
        for failures in 1...12 {
            let next = schedule.next(after: 0, failures: failures, using: &generator)
            #expect(next >= 300 && next <= 21600, "\(failures): \(next)")
        }
        // The first failure retries within 5-10 minutes, long runs settle at half the interval to the interval.
        #expect(schedule.backoff.bounds(afterFailures: 1) == .seconds(300) ... .seconds(600))
        #expect(schedule.backoff.bounds(afterFailures: 20) == .seconds(10800) ... .seconds(21600))
    }

    @Test func clockJumpsNeverWedgeACheck() {
        // Planned in the past (the clock jumped forward, or a restart after days): due now.
        #expect(schedule.wait(until: 100, now: 5000) == .zero)
        // Planned years ahead (the clock was stepped back): waits one interval at most.
        #expect(schedule.wait(until: 4_000_000_000, now: 1000) == .seconds(21600))
        #expect(schedule.wait(until: 1600, now: 1000) == .seconds(600))
        #expect(schedule.wait(until: nil, now: 1000) == .zero)
    }

    @Test func durationsParse() {
        #expect(RefreshSchedule.parseDuration("6h") == .seconds(21600))
        #expect(RefreshSchedule.parseDuration("1h30m") == .seconds(5400))
        #expect(RefreshSchedule.parseDuration("90s") == .seconds(90))
        #expect(RefreshSchedule.parseDuration("2d") == .seconds(172_800))
        #expect(RefreshSchedule.parseDuration("45") == .seconds(45))
        #expect(RefreshSchedule.parseDuration("6 hours") == nil)
        #expect(RefreshSchedule.parseDuration("h") == nil)
        #expect(RefreshSchedule.parseDuration("5x") == nil)
    }
}

@Suite struct RemoteFeedTests {
    @Test func namesComeFromThePathOrTheArgument() throws {
        let plain = try RemoteFeed(
            argument: "https://api.example.com/v1/gtfs/schedule/sydneytrains?x=1", headers: [], environment: [:])
        #expect(
            plain.name == "sydneytrains" && plain.redactedURL == "https://api.example.com/v1/gtfs/schedule/sydneytrains"
        )
        let named = try RemoteFeed(argument: "buses=https://h/feeds/all.zip", headers: [], environment: [:])
        #expect(named.name == "buses" && named.url == "https://h/feeds/all.zip")
        #expect(try RemoteFeed(argument: "https://h/feeds/all.zip", headers: [], environment: [:]).name == "all")
        #expect(
            RemoteFeed.isURL("x=http://h/a") && RemoteFeed.isURL("HTTPS://h/a") && !RemoteFeed.isURL("data/feed.zip"))
    }

    @Test func variablesExpandInTheURLAndHeadersAndAnUnsetOneIsNamed() throws {
        let env = ["TFNSW_API_KEY": "secret"]
        let feed = try RemoteFeed(
            argument: "https://api.example.com/gtfs?api_key=$TFNSW_API_KEY",
            headers: ["Authorization: apikey ${TFNSW_API_KEY}"], environment: env)
        #expect(feed.url == "https://api.example.com/gtfs?api_key=secret")
        #expect(feed.redactedURL == "https://api.example.com/gtfs")
        #expect(feed.headers.map(\.name) == ["Authorization"] && feed.headers.map(\.value) == ["apikey secret"])
        #expect(throws: RemoteFeedError("environment variable NOPE is not set (header Authorization)")) {
            try RemoteFeed(argument: "https://h/f.zip", headers: ["Authorization: $NOPE"], environment: env)
        }
        #expect(throws: RemoteFeedError("environment variable KEY is not set (in --gtfs https://h/f.zip)")) {
            try RemoteFeed(argument: "https://h/f.zip?k=$KEY", headers: [], environment: env)
        }
    }

    @Test func secretsGoOverHTTPSOrToLocalhostOnly() throws {
        let env = ["K": "v"]
        #expect(throws: RemoteFeedError.self) {
            try RemoteFeed(argument: "http://example.com/f.zip", headers: ["X-Key: $K"], environment: env)
        }
        _ = try RemoteFeed(argument: "http://127.0.0.1:8080/f.zip", headers: ["X-Key: $K"], environment: env)
        _ = try RemoteFeed(argument: "http://example.com/f.zip", headers: ["X-Plain: yes"], environment: env)
        #expect(throws: RemoteFeedError.self) {
            try RemoteFeed(argument: "https://h/f.zip", headers: ["no colon"], environment: env)
        }
    }

    @Test func feedArgumentsMixPathsAndURLs() throws {
        let feeds = try RefreshConfiguration.feeds(
            arguments: ["data/sample-gtfs", "trains=https://h/t.zip"], headers: [], prefixes: ["trains=T:"],
            environment: [:])
        #expect(feeds.map(\.name) == ["sample-gtfs", "trains"] && feeds.map(\.prefix) == [nil, "T:"])
        #expect(throws: (any Error).self) {
            try RefreshConfiguration.feeds(
                arguments: ["https://h/a/t.zip", "https://g/b/t.zip"], headers: [], prefixes: [], environment: [:])
        }
    }
}

@Suite struct MismatchSignalTests {
    func source(prefix: String = "", mismatchSince: Int64? = nil, feedVersion: String? = nil) -> LiveSourceStatus {
        var status = LiveSourceStatus(name: "sydneytrains", kind: .tripUpdates)
        status.idPrefix = prefix
        status.feedVersion = feedVersion
        if let mismatchSince {
            status.match = LiveTimetableMatch(
                tripUpdates: .init(considered: 560, matched: 101), ratePermille: 180, medianPermille: 970,
                samples: 58, minPermille: 500, mismatch: true, mismatchSinceUnix: mismatchSince)
        }
        return status
    }

    @Test func aMismatchChecksItsFeedOnceAndAtMostEveryFifteenMinutes() {
        var signal = MismatchSignal()
        let feeds = [
            (name: "trains", prefix: "", version: Optional("v1")), (name: "buses", prefix: "B:", version: nil),
        ]
        #expect(signal.feedsToCheck(sources: [source()], feeds: feeds, now: 1000).isEmpty)
        #expect(signal.feedsToCheck(sources: [source(mismatchSince: 990)], feeds: feeds, now: 1000) == ["trains"])
        // The same episode is not acted on again.
        #expect(signal.feedsToCheck(sources: [source(mismatchSince: 990)], feeds: feeds, now: 5000).isEmpty)
        // A new episode within 15 minutes waits; after them it checks.
        #expect(signal.feedsToCheck(sources: [source(mismatchSince: 1500)], feeds: feeds, now: 1600).isEmpty)
        #expect(signal.feedsToCheck(sources: [source(mismatchSince: 1500)], feeds: feeds, now: 1901) == ["trains"])
        // Sources map to feeds by id prefix.
        #expect(
            signal.feedsToCheck(sources: [source(prefix: "B:", mismatchSince: 3)], feeds: feeds, now: 2000) == ["buses"]
        )
    }

    @Test func anotherFeedVersionChecksToo() {
        var signal = MismatchSignal()
        let feeds = [(name: "trains", prefix: "", version: Optional("v1"))]
        #expect(signal.feedsToCheck(sources: [source(feedVersion: "v1")], feeds: feeds, now: 10).isEmpty)
        #expect(signal.feedsToCheck(sources: [source(feedVersion: "v2")], feeds: feeds, now: 10) == ["trains"])
    }
}
