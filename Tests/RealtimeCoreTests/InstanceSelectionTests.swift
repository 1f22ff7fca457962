import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// Which trip instance an update names: start_date (given or inferred), frequency start_time, and
/// service-day times on DST days.
@Suite struct InstanceSelectionTests {
    typealias F = Fixture

    /// T-LATE leaves at 24:30:00 (00:30 the next calendar day) and runs on the 13th and the 14th.
    static let late = F.index([F.trip("T-LATE", start: 88_200, dates: [20250313, 20250314])], [F.pattern(4)])

    @Test func startDateInferredAcrossMidnightFromAnAbsoluteTime() throws {
        // 00:41 on the 14th: the 13th's 24:30:00 instance (00:30 on the 14th), one minute late — not
        // the 14th's (00:30 on the 15th).
        let now = F.dayUnix + 2_400
        let update = F.update("T-LATE", startDate: nil, [F.stu(seq: 10, departureTime: F.dayUnix + 1_800 + 60)])
        let trip = try #require(F.resolve(update, Self.late, now: now).resolvedTrip)
        #expect(trip.key == TripInstanceKey(tripId: "T-LATE", serviceDate: 20250313))
        #expect(trip.stops[0].scheduledDeparture == F.dayUnix + 1_800)
        #expect(trip.stops[0].departureDelay == 60)
    }

    @Test func startDateInferredAcrossMidnightFromTheTimestamp() throws {
        // Delay only; measured at 00:35 on the 14th: the 13th's instance is running.
        let update = F.update(
            "T-LATE", startDate: nil, timestamp: UInt64(F.dayUnix + 2_100), [F.stu(seq: 20, arrivalDelay: 120)])
        let trip = try #require(F.resolve(update, Self.late, now: F.dayUnix + 2_110).resolvedTrip)
        #expect(trip.key.serviceDate == 20250313)
        #expect(trip.stops[1].predictedArrival == F.dayUnix + 1_800 + 300 + 120)
    }

    @Test func startDateInferredForTodaysInstanceLateInTheEvening() throws {
        // 23:50 on the 14th, 40 min before the 14th's 24:30:00 instance; the 13th's ran a day ago.
        let now = F.dayUnix + 86_400 - 600
        let trip = try #require(
            F.resolve(F.update("T-LATE", startDate: nil, delay: 0), Self.late, now: now).resolvedTrip)
        #expect(trip.key.serviceDate == 20250314)
    }

    @Test func inferenceOnlyConsidersDatesTheTripRuns() throws {
        // At 00:41 on the 14th but the trip only runs on the 14th: its instance is a day away.
        let only14 = F.index([F.trip("T-LATE", start: 88_200, dates: [20250314])], [F.pattern(4)])
        let update = F.update("T-LATE", startDate: nil, [F.stu(seq: 10, departureTime: F.dayUnix + 1_860)])
        let result = F.resolve(update, only14, now: F.dayUnix + 2_400)
        #expect(result.drop?.reason == .noMatchingInstance)
    }

    @Test func inferenceWithoutAnyRunningDateIsNoMatch() {
        let never = F.index([F.trip("T1", dates: [20250320])], [F.pattern(6)])
        #expect(F.resolve(F.update("T1", startDate: nil, delay: 30), never).drop?.reason == .noMatchingInstance)
    }

    @Test func inferenceIsAmbiguousForATripLongerThanADayRunningDaily() {
        // A 30-hour trip every day: at 12:00 on the 14th both the 13th's and the 14th's are under way.
        let long = Pattern(
            patternId: 5,
            stops: [
                PatternStop(stopId: "A", stopSequence: 1, arrivalOffset: 0, departureOffset: 0),
                PatternStop(stopId: "B", stopSequence: 2, arrivalOffset: 108_000, departureOffset: 108_000),
            ])
        let schedules = F.index([F.trip("LONG", pattern: 5, start: 6 * 3600, dates: [20250313, 20250314])], [long])
        let update = F.update("LONG", startDate: nil, delay: 0)
        let result = F.resolve(update, schedules, now: F.dayUnix + 12 * 3600)
        #expect(result.drop?.reason == .ambiguousInstance)
        // A start_date settles it.
        let dated = F.resolve(F.update("LONG", startDate: "20250313", delay: 0), schedules, now: F.dayUnix + 12 * 3600)
        #expect(dated.resolvedTrip?.key.serviceDate == 20250313)
    }

    @Test func givenStartDateMustBeAServiceDateOfTheTrip() {
        let result = F.resolve(F.update("T1", startDate: "20250315", delay: 0))
        #expect(result.drop?.reason == .noMatchingInstance)
    }

    @Test func malformedStartDateOrTimeIsDropped() {
        #expect(F.resolve(F.update("T1", startDate: "2025-03-14")).drop?.reason == .malformed)
        #expect(F.resolve(F.update("T1", startDate: "20250231")).drop?.reason == .malformed)
        let frequency = F.index(
            [
                F.trip(
                    "F1",
                    frequencies: [
                        FrequencyWindow(startSecs: 21_600, endSecs: 36_000, headwaySecs: 600, exactTimes: true)
                    ])
            ],
            [F.pattern(3)])
        #expect(F.resolve(F.update("F1", startTime: "7:1:00"), frequency).drop?.reason == .malformed)
    }

    static let exact = F.index(
        [
            F.trip(
                "F1", start: 0,
                frequencies: [
                    FrequencyWindow(startSecs: 21_600, endSecs: 28_800, headwaySecs: 600, exactTimes: true),
                    FrequencyWindow(startSecs: 28_800, endSecs: 36_000, headwaySecs: 900, exactTimes: true),
                ])
        ],
        [F.pattern(3)])

    @Test func exactTimesFrequencyPicksTheInstanceOnTheGrid() throws {
        let trip = try #require(
            F.resolve(F.update("F1", startTime: "06:20:00", [F.stu(seq: 20, arrivalDelay: 60)]), Self.exact)
                .resolvedTrip)
        #expect(trip.key == TripInstanceKey(tripId: "F1", serviceDate: F.day, startSecs: 22_800))
        #expect(trip.stops.map(\.scheduledArrival) == [F.dayUnix + 22_800, F.dayUnix + 23_100, F.dayUnix + 23_400])
        #expect(trip.stops[1].predictedArrival == F.dayUnix + 23_160)
        // Second window, every 15 min from 08:00.
        let second = try #require(F.resolve(F.update("F1", startTime: "08:45:00"), Self.exact).resolvedTrip)
        #expect(second.key.startSecs == 31_500)
    }

    @Test func exactTimesFrequencyRejectsStartsOffTheGrid() {
        #expect(F.resolve(F.update("F1", startTime: "06:25:00"), Self.exact).drop?.reason == .noMatchingInstance)
        #expect(F.resolve(F.update("F1", startTime: "08:10:00"), Self.exact).drop?.reason == .noMatchingInstance)
        #expect(F.resolve(F.update("F1", startTime: "10:00:00"), Self.exact).drop?.reason == .noMatchingInstance)
        #expect(F.resolve(F.update("F1", startTime: "05:50:00"), Self.exact).drop?.reason == .noMatchingInstance)
    }

    @Test func frequencyTripWithoutStartTimeIsAmbiguous() {
        #expect(F.resolve(F.update("F1", startTime: nil), Self.exact).drop?.reason == .ambiguousInstance)
    }

    @Test func headwayFrequencyAcceptsAnyStartInItsWindow() throws {
        let headway = F.index(
            [
                F.trip(
                    "H1",
                    frequencies: [
                        FrequencyWindow(startSecs: 21_600, endSecs: 28_800, headwaySecs: 600, exactTimes: false)
                    ])
            ],
            [F.pattern(3)])
        let trip = try #require(F.resolve(F.update("H1", startTime: "06:27:13"), headway).resolvedTrip)
        #expect(trip.key.startSecs == 23_233)
        #expect(trip.stops[0].scheduledDeparture == F.dayUnix + 23_233)
        #expect(F.resolve(F.update("H1", startTime: "08:00:01"), headway).drop?.reason == .noMatchingInstance)
    }

    @Test func nonFrequencyTripIgnoresAStartTime() throws {
        let trip = try #require(F.resolve(F.update("T1", startTime: "08:01:00", delay: 0)).resolvedTrip)
        #expect(trip.key == TripInstanceKey(tripId: "T1", serviceDate: F.day))
    }

    // MARK: DST (Australia/Sydney): times count from noon minus 12 h, not from midnight.

    /// Reference of 2025-10-05: 2025-10-04 13:00 UTC.
    static let spring: Int64 = 1_759_582_800
    /// Reference of 2026-04-05: 2026-04-04 14:00 UTC.
    static let fall: Int64 = 1_775_311_200

    @Test func springForwardDayTimesCountFromNoonMinus12h() throws {
        // 2025-10-05, 02:00 AEST → 03:00 AEDT. Reference: 2025-10-04 13:00 UTC (1759582800).
        let schedules = F.index(
            [
                F.trip("D1", start: 5_400, dates: [20251005], timezone: "Australia/Sydney"),
                F.trip("D2", pattern: 2, start: 28_800, dates: [20251005], timezone: "Australia/Sydney"),
            ],
            [F.pattern(2), F.pattern(2, id: 2)])
        var resolver = F.resolver(timeZone: "Australia/Sydney")
        let early = try #require(
            resolver.resolve(F.update("D1", startDate: "20251005", delay: 0), schedules: schedules, now: 1_759_600_000)
                .resolvedTrip)
        #expect(early.stops[0].scheduledDeparture == Self.spring + 5_400)  // 14:30 UTC = 00:30 AEST
        let morning = try #require(
            resolver.resolve(F.update("D2", startDate: "20251005", delay: 0), schedules: schedules, now: 1_759_600_000)
                .resolvedTrip)
        #expect(morning.stops[0].scheduledDeparture == Self.spring + 28_800)  // 21:00 UTC = 08:00 AEDT
    }

    @Test func fallBackDayTimesCountFromNoonMinus12h() throws {
        // 2026-04-05, 03:00 AEDT → 02:00 AEST. Reference: 2026-04-04 14:00 UTC (1775311200).
        let schedules = F.index(
            [F.trip("D3", start: 28_800, dates: [20260405], timezone: "Australia/Sydney")], [F.pattern(2)])
        var resolver = F.resolver(timeZone: "Australia/Sydney")
        let trip = try #require(
            resolver.resolve(F.update("D3", startDate: "20260405", delay: 0), schedules: schedules, now: 1_775_340_000)
                .resolvedTrip)
        #expect(trip.stops[0].scheduledDeparture == Self.fall + 28_800)  // 22:00 UTC = 08:00 AEST
        #expect(trip.stops[1].scheduledArrival == Self.fall + 29_100)
    }

    @Test func inferenceOnADSTDayUsesThatDaysReference() throws {
        // No start_date, an absolute time at 08:02 AEDT on 2025-10-05 (21:02 UTC on the 4th).
        let schedules = F.index(
            [F.trip("D4", start: 28_800, dates: [20251004, 20251005], timezone: "Australia/Sydney")], [F.pattern(2)])
        var resolver = F.resolver(timeZone: "Australia/Sydney")
        let time: Int64 = 1_759_582_800 + 28_800 + 120
        let update = F.update("D4", startDate: nil, [F.stu(seq: 10, departureTime: time)])
        let trip = try #require(resolver.resolve(update, schedules: schedules, now: time).resolvedTrip)
        #expect(trip.key.serviceDate == 20251005)
        #expect(trip.stops[0].departureDelay == 120)
    }
}
