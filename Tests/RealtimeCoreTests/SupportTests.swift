import Testing
import TransitCore
import TransitModel

@testable import RealtimeCore

@Suite struct GTFSTimeTextTests {
    @Test(arguments: [
        ("08:15:30", Int32(29_730)), ("8:15:30", 29_730), ("00:00:00", 0), ("24:30:00", 88_200), ("47:59:59", 172_799),
        ("100:00:00", 360_000),
    ])
    func parsesTimes(text: String, secs: Int32) {
        #expect(GTFSTimeText.parseTime(text) == secs)
    }

    @Test(arguments: [
        "", "8:15", "08:60:00", "08:15:60", "08:1:00", "08:15:0", "08-15-00", "168:00:00", "08:15:00:00", "1000:00:00",
        ":15:00",
    ])
    func rejectsBadTimes(text: String) {
        #expect(GTFSTimeText.parseTime(text) == nil)
    }

    @Test func formatsTimes() {
        #expect(GTFSTimeText.format(88_200) == "24:30:00")
        #expect(GTFSTimeText.format(3_661) == "01:01:01")
        #expect(GTFSTimeText.format(-60) == "-00:01:00")
    }

    @Test(arguments: [("20250314", ServiceDate(20250314)), ("20240229", 20240229), ("20001231", 20001231)])
    func parsesDates(text: String, date: ServiceDate) {
        #expect(GTFSTimeText.parseDate(text) == date)
    }

    @Test(arguments: ["2025031", "202503140", "20250230", "20230229", "20251301", "20250300", "2025-3-14", ""])
    func rejectsBadDates(text: String) {
        #expect(GTFSTimeText.parseDate(text) == nil)
    }

    @Test func keyDescription() {
        #expect(TripInstanceKey(tripId: "T", serviceDate: 20250314).description == "T@20250314")
        #expect(
            TripInstanceKey(tripId: "T", serviceDate: 20250314, startSecs: 88_200).description == "T@20250314+24:30:00")
    }
}

@Suite struct ServiceDayClockTests {
    @Test func referenceIsNoonMinus12h() {
        var clock = ServiceDayClock()
        let utc = clock.zone("UTC")!
        #expect(clock.referenceUnix(zone: utc, date: GTFSDate(yyyymmdd: 20250314)!) == 1_741_910_400)
        let sydney = clock.zone("Australia/Sydney")!
        #expect(clock.zone("Australia/Sydney") == sydney)
        #expect(sydney != utc)
        // Ordinary day (AEDT, +11): local midnight.
        #expect(clock.referenceUnix(zone: sydney, date: GTFSDate(yyyymmdd: 20250314)!) == 1_741_870_800)
        // DST days: an hour off local midnight.
        #expect(clock.referenceUnix(zone: sydney, date: GTFSDate(yyyymmdd: 20251005)!) == 1_759_582_800)
        #expect(clock.referenceUnix(zone: sydney, date: GTFSDate(yyyymmdd: 20260405)!) == 1_775_311_200)
        #expect(clock.zone("Nowhere/Land") == nil)
        #expect(clock.zone("") == nil)
    }

    @Test func localDate() {
        var clock = ServiceDayClock()
        let sydney = clock.zone("Australia/Sydney")!
        // 2025-03-13T13:30Z is 00:30 on the 14th in Sydney (+11).
        #expect(clock.localDate(zone: sydney, unix: 1_741_872_600).serviceDate == 20250314)
        #expect(clock.localDate(zone: sydney, unix: 1_741_868_000).serviceDate == 20250313)
    }
}

@Suite struct StartDateInferenceTests {
    typealias C = StartDateInference.Candidate
    let day: Int64 = 86_400

    @Test func closestTimeWins() {
        let candidates = [
            C(serviceDate: 1, baseUnix: 0), C(serviceDate: 2, baseUnix: day), C(serviceDate: 3, baseUnix: 2 * day),
        ]
        let choice = StartDateInference.choose(candidates, evidence: .stopTime(offset: 600, time: day + 900))
        #expect(choice == .chosen(2))
    }

    @Test func tooFarIsNoMatch() {
        let choice = StartDateInference.choose(
            [C(serviceDate: 1, baseUnix: 0)], evidence: .stopTime(offset: 0, time: 13 * 3600))
        #expect(choice == .noMatch(distance: 13 * 3600))
        #expect(StartDateInference.choose([], evidence: .stopTime(offset: 0, time: 0)) == .noMatch(distance: nil))
    }

    @Test func measuredInsideTheShiftedSpanIsDistanceZero() {
        // Span 08:00–09:00 plus 30 min delay; measured at 09:20 (inside) vs the next day's instance.
        let candidates = [C(serviceDate: 1, baseUnix: 0), C(serviceDate: 2, baseUnix: day)]
        let evidence = StartDateInference.Evidence.measuredAt(
            unix: 33_600, delay: 1_800, firstOffset: 28_800, lastOffset: 32_400)
        #expect(StartDateInference.distance(candidates[0], evidence) == 0)
        #expect(StartDateInference.choose(candidates, evidence: evidence) == .chosen(1))
    }

    @Test func equallyCloseCandidatesAreAmbiguous() {
        // A one-hour trip at 08:00 and a moment at 20:30: 11.5 h after one instance, 11.5 h before the next.
        let candidates = [C(serviceDate: 1, baseUnix: 0), C(serviceDate: 2, baseUnix: day)]
        let evidence = StartDateInference.Evidence.measuredAt(
            unix: 73_800, delay: 0, firstOffset: 28_800, lastOffset: 32_400)
        #expect(StartDateInference.choose(candidates, evidence: evidence) == .ambiguous(1, 2))
        // With a smaller acceptance distance neither fits.
        #expect(
            StartDateInference.choose(candidates, evidence: evidence, maxDistance: 3600) == .noMatch(distance: 41_400))
    }
}

@Suite struct ScheduleSupportTests {
    @Test func serviceDatesAroundNow() {
        // 2025-03-01T00:30Z is 11:30 on 2025-03-01 in Sydney, 2025-02-28 19:30 in New York.
        #expect(
            TripUpdateResolver.serviceDates(around: 1_740_789_000, timeZone: "Australia/Sydney") == 20250227...20250302)
        #expect(
            TripUpdateResolver.serviceDates(around: 1_740_789_000, timeZone: "America/New_York") == 20250226...20250301)
        #expect(TripUpdateResolver.serviceDates(around: 0, timeZone: "Bad/Zone") == nil)
    }

    @Test func indexHoldsTheBulkAnswer() {
        let schedules = TripSchedules(
            databaseVersion: "v1", patterns: [Fixture.pattern(2, id: 4)],
            trips: [Fixture.trip("A", pattern: 4), Fixture.trip("B", pattern: 4)], unknownTripIds: ["C"])
        let index = TripScheduleIndex(schedules)
        #expect(index.schedule(tripId: "A")?.patternId == 4)
        #expect(index.schedule(tripId: "C") == nil)
        #expect(index.pattern(id: 4)?.stops.count == 2)
        #expect(index.pattern(id: 5) == nil)
    }
}
