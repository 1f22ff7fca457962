// The timetable match of a source (protocol/README.md flow 7): counted over each applied update against the
// sample database, judged against --min-match-rate and the source's own median of the last hour, on an injected
// clock.
import Foundation
import GTFSRealtime
import Synchronization
import Testing
import TransitModel
import TransitTesting

@testable import RealtimeService

@Suite struct TimetableMatchTests {
    /// 2025-12-22 08:00 in Sydney: the sample feed's weekday trips run.
    static let start = SampleTimes.mondayMorning

    /// The sample feed's weekday trip ids (read from its trips.txt).
    static let weekdayTrips: [String] = {
        let text = (try? String(contentsOfFile: SampleDatabase.feedPath + "/trips.txt", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return fields.count > 2 && fields[1] == "WKD" ? String(fields[2]) : nil
        }
    }()

    /// A trip-update feed: `known` weekday trips of the sample feed and `unknown` trips no timetable has, each
    /// 1 minute late; plus `added` ADDED trips (not counted) and one trip whose schedule relationship is
    /// UNSCHEDULED (not counted either).
    static func feed(
        known: Int, unknown: Int, added: Int = 2, at time: Int64, feedVersion: String? = nil
    ) -> [UInt8] {
        var entities: [FeedEntity] = []
        func update(_ id: String, _ relationship: TripScheduleRelationship? = nil) -> TripUpdate {
            TripUpdate(
                trip: TripDescriptor(tripId: id, startDate: SampleTimes.mondayDate, scheduleRelationship: relationship),
                timestamp: UInt64(time), delay: 60)
        }
        for id in weekdayTrips.prefix(known) { entities.append(FeedEntity(id: "k-" + id, tripUpdate: update(id))) }
        for n in 0..<unknown { entities.append(FeedEntity(id: "u-\(n)", tripUpdate: update("NEWTIMETABLE.\(n)"))) }
        for n in 0..<added {
            var trip = update("EXTRA.\(n)", .added)
            trip.trip.routeId = "ST_T1"
            trip.trip.startTime = "09:00:00"
            entities.append(FeedEntity(id: "a-\(n)", tripUpdate: trip))
        }
        entities.append(FeedEntity(id: "x", tripUpdate: update("UNSCHED.1", .unscheduled)))
        let header = FeedHeader(incrementality: .fullDataset, timestamp: UInt64(time), feedVersion: feedVersion)
        return GTFSRealtimeCodec.encode(FeedMessage(header: header, entities: entities))
    }

    /// The engine's clock, set by the test.
    final class ManualClock: Sendable {
        private let value: Mutex<Int64>
        init(_ start: Int64) { value = Mutex(start) }
        var now: Int64 { value.withLock { $0 } }
        func set(_ time: Int64) { value.withLock { $0 = time } }
    }

    struct Harness {
        let engine: RealtimeEngine
        let clock: ManualClock

        init(minMatchPermille: UInt32 = SourceSettings.defaultMinMatchPermille) throws {
            let clock = ManualClock(TimetableMatchTests.start)
            self.clock = clock
            var settings = SourceSettings(name: "sydneytrains", kind: .tripUpdates, timeZone: SampleDatabase.timeZone)
            settings.minMatchPermille = minMatchPermille
            engine = try RealtimeEngine(
                sources: [settings], hub: RealtimeHub(sink: RecordingSink()),
                schedules: StoreSchedules(store: SampleDatabase.store), timeZone: SampleDatabase.timeZone,
                logger: quietLogger, clock: { [clock] in clock.now })
        }

        /// Moves the clock to `time` and applies a feed made then.
        func apply(known: Int, unknown: Int, at time: Int64, feedVersion: String? = nil) async throws
            -> LiveSourceStatus
        {
            clock.set(time)
            let bytes = TimetableMatchTests.feed(known: known, unknown: unknown, at: time, feedVersion: feedVersion)
            await engine.handle(.fetched(source: "sydneytrains", bytes: bytes, at: time))
            let status = try #require(await engine.statuses().first)
            #expect(status.errors == 0, "\(status.lastError ?? "")")
            return status
        }
    }

    @Test func mostlyUnknownTripsAreAMismatchAndAFittingTimetableRecovers() async throws {
        #expect(Self.weekdayTrips.count >= 20)
        let harness = try Harness()
        var status = try await harness.apply(known: 4, unknown: 16, at: Self.start, feedVersion: "rt-2")
        var match = try #require(status.match)
        // ADDED and UNSCHEDULED trips are not counted; 4 of the 20 scheduled ones match.
        #expect(match.tripUpdates == LiveMatchCount(considered: 20, matched: 4))
        #expect(match.vehicles == LiveMatchCount())
        #expect(match.ratePermille == 200)
        #expect(match.medianPermille == nil && match.samples == 0)
        #expect(match.minPermille == 500)
        #expect(match.mismatch)
        #expect(match.mismatchSinceUnix == Self.start)
        #expect(status.feedVersion == "rt-2")
        #expect((status.drops["unknown_trip"] ?? 0) >= 16, "\(status.drops)")

        // Still mismatching a minute later: the mismatch keeps the time it began.
        status = try await harness.apply(known: 5, unknown: 15, at: Self.start + 60)
        match = try #require(status.match)
        #expect(match.ratePermille == 250 && match.mismatch)
        #expect(match.mismatchSinceUnix == Self.start)
        #expect(match.medianPermille == 200 && match.samples == 1)
        #expect(status.feedVersion == nil)

        // The feed matches again (as after importing the producer's new timetable): no mismatch.
        status = try await harness.apply(known: 20, unknown: 0, at: Self.start + 120)
        match = try #require(status.match)
        #expect(match.tripUpdates == LiveMatchCount(considered: 20, matched: 20))
        #expect(match.ratePermille == 1000)
        #expect(!match.mismatch)
        #expect(match.mismatchSinceUnix == nil)
    }

    @Test func aDropOfMoreThan30PointsBelowTheHoursMedianIsAMismatchUntilItIsTheNorm() async throws {
        let harness = try Harness()
        // An hour of full matches, one a minute... (ten here, the median does not need sixty)
        for minute in 0..<10 {
            let status = try await harness.apply(known: 20, unknown: 0, at: Self.start + Int64(minute) * 60)
            #expect(status.match?.mismatch == false)
        }
        // 60 %: above the minimum of 50 %, but 40 points below the median of 100 %.
        var status = try await harness.apply(known: 12, unknown: 8, at: Self.start + 600)
        var match = try #require(status.match)
        #expect(match.ratePermille == 600)
        #expect(match.medianPermille == 1000 && match.samples == 10)
        #expect(match.mismatch)
        // 75 %: 25 points below the median, not a mismatch.
        status = try await harness.apply(known: 15, unknown: 5, at: Self.start + 660)
        match = try #require(status.match)
        #expect(match.ratePermille == 750 && !match.mismatch)

        // Two hours later the full matches have left the window: 60 % against a median of the last hour only.
        status = try await harness.apply(known: 12, unknown: 8, at: Self.start + 600 + 7200)
        match = try #require(status.match)
        #expect(match.medianPermille == nil && match.samples == 0)
        #expect(!match.mismatch)
        status = try await harness.apply(known: 12, unknown: 8, at: Self.start + 660 + 7200)
        match = try #require(status.match)
        #expect(match.medianPermille == 600 && match.samples == 1 && !match.mismatch)
    }

    @Test func theMinimumIsTheServicesSetting() async throws {
        let harness = try Harness(minMatchPermille: 900)
        let status = try await harness.apply(known: 17, unknown: 3, at: Self.start)
        let match = try #require(status.match)
        #expect(match.ratePermille == 850 && match.minPermille == 900 && match.mismatch)
    }

    @Test func theMedianAndTheVerdictArePure() {
        var history = MatchHistory()
        #expect(history.median(before: 100) == nil)
        history.record(900, at: 100)
        history.record(1000, at: 200)
        history.record(800, at: 300)
        #expect(history.median(before: 300)?.permille == 900)
        #expect(history.median(before: 300)?.samples == 3)
        history.record(700, at: 400)
        #expect(history.median(before: 400)?.permille == 850)  // even count: the mean of the middle two
        // An hour after 100 that sample has left the window.
        #expect(history.median(before: 3700)?.samples == 3)
        #expect(MatchHistory.isMismatch(499, median: nil, minimum: 500))
        #expect(!MatchHistory.isMismatch(500, median: nil, minimum: 500))
        #expect(!MatchHistory.isMismatch(700, median: 1000, minimum: 500))  // exactly 30 points below
        #expect(MatchHistory.isMismatch(699, median: 1000, minimum: 500))
    }
}

/// Transport for NSW's real Sydney Trains trip updates against the sample timetable (whose trip ids are not
/// TfNSW's): almost nothing matches, and the source is judged a mismatch. Skipped when ../shared/realdata/ is absent.
@Suite(.enabled(if: RealCaptures.available, RealCaptures.absent))
struct RealCaptureTimetableMatchTests {
    @Test func sydneyTrainsAgainstTheSampleTimetableIsAMismatch() async throws {
        let bytes = try RealCaptures.bytes("tfnsw-sydney-2026-06-11-rtonly/tripupdates_sydneytrains.pb")
        let feed = try GTFSRealtimeCodec.decode(bytes)
        let header = Int64(clamping: try #require(feed.header.timestamp))
        let engine = try RealtimeEngine(
            sources: [SourceSettings(name: "sydneytrains", kind: .tripUpdates, timeZone: "Australia/Sydney")],
            hub: RealtimeHub(sink: RecordingSink()), schedules: StoreSchedules(store: SampleDatabase.store),
            timeZone: "Australia/Sydney", logger: quietLogger, clock: { header })
        await engine.handle(.fetched(source: "sydneytrains", bytes: bytes, at: header))
        let status = try #require(await engine.statuses().first)
        let match = try #require(status.match)
        let scheduled = feed.entities.compactMap(\.tripUpdate).filter {
            ![.added, .new, .duplicated, .unscheduled].contains($0.trip.scheduleRelationship ?? .scheduled)
        }
        #expect(match.tripUpdates.considered == UInt64(scheduled.count), "\(match)")
        #expect(match.tripUpdates.considered > 400)
        #expect(try #require(match.ratePermille) < 100, "\(match)")
        #expect(match.mismatch)
    }
}
