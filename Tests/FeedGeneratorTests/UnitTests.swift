import Testing
import TransitTesting

@testable import FeedGenerator

@Suite("FeedScale")
struct FeedScaleTests {
    @Test func parsesNamesAndFactors() {
        #expect(FeedScale(argument: "nsw") == .nsw)
        #expect(FeedScale(argument: "SMALL") == .small)
        #expect(FeedScale(argument: "0.5")?.stopTimes == 5_000_000)
        #expect(FeedScale(argument: "2")?.stops == 200_000)
        #expect(FeedScale.nsw.stops >= 100_000 && FeedScale.nsw.stopTimes >= 10_000_000)
        #expect(FeedScale.nsw.routes >= 1_000 && FeedScale.nsw.trips >= 200_000)
    }

    @Test(arguments: ["", "abc", "0", "-1", "nan", "inf", "1e9"])
    func rejectsBadArguments(_ text: String) {
        #expect(FeedScale(argument: text) == nil)
    }

    @Test func tinyFactorsKeepEveryCountPositive() {
        let s = FeedScale.factor(1e-9)
        #expect(s.stops == 1 && s.routes == 1 && s.trips == 1 && s.stopTimes == 1)
    }
}

@Suite("Calendar arithmetic")
struct CalendarTests {
    @Test func civilDateRoundTripsAndWeekdays() {
        #expect(CivilDate(1970, 1, 1).daysSinceEpoch == 0)
        #expect(CivilDate(2025, 1, 1).weekday == 2)  // Wednesday
        #expect(CivilDate(2025, 12, 25).weekday == 3)  // Thursday
        #expect(CivilDate(2024, 2, 29).adding(days: 1) == CivilDate(2024, 3, 1))
        #expect(CivilDate(2025, 12, 31).adding(days: 1) == CivilDate(2026, 1, 1))
        for days in stride(from: -800_000, to: 800_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
    }

    @Test func easter() {
        #expect(NSWHolidays.easterSunday(2025) == CivilDate(2025, 4, 20))
        #expect(NSWHolidays.easterSunday(2026) == CivilDate(2026, 4, 5))
        #expect(NSWHolidays.easterSunday(2030) == CivilDate(2030, 4, 21))
    }

    @Test func weekendHolidaysGetWeekdaySubstitutes() {
        let y2027 = NSWHolidays.holidays(in: 2027)
        // Christmas 2027 is a Saturday: Monday 27 and Tuesday 28 are holidays
        #expect(y2027.contains(CivilDate(2027, 12, 27)) && y2027.contains(CivilDate(2027, 12, 28)))
        // New Year's Day 2028 is a Saturday: Monday 3 January
        #expect(NSWHolidays.holidays(in: 2028).contains(CivilDate(2028, 1, 3)))
        // Australia Day 2025 is a Sunday: Monday 27 January
        #expect(NSWHolidays.holidays(in: 2025).contains(CivilDate(2025, 1, 27)))
        let weekdays = NSWHolidays.weekdayHolidays(from: CivilDate(2026, 1, 1), through: CivilDate(2026, 12, 31))
        #expect(weekdays.allSatisfy { $0.isWeekday })
        #expect(weekdays.contains(CivilDate(2026, 1, 26)) && weekdays.contains(CivilDate(2026, 12, 25)))
        #expect(!weekdays.contains(CivilDate(2026, 4, 25)))  // Anzac Day 2026 is a Saturday
    }
}

@Suite("Timetable")
struct TimetableTests {
    @Test(arguments: [1, 7, 60, 333])
    func departuresAreSortedAndInsideTheServiceDay(_ n: Int) {
        let times = Timetable.departures(n, service: .weekday, mode: .bus, direction: 0, phaseMinutes: 3)
        #expect(times.count == n)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(times.allSatisfy { $0 >= 4 * 3600 && $0 < 25 * 3600 + 600 && $0 % 60 == 0 })
    }

    @Test func weekdayPeaksAreBusierThanMidday() {
        let times = Timetable.departures(1_000, service: .weekday, mode: .bus, direction: 0, phaseMinutes: 0)
        let peak = times.filter { (8 * 3600)..<(9 * 3600) ~= $0 }.count
        let midday = times.filter { (12 * 3600)..<(13 * 3600) ~= $0 }.count
        #expect(peak > midday * 3 / 2)
    }

    @Test func nightBusesRunAfterMidnight() {
        let times = Timetable.departures(5, service: .saturday, mode: .nightBus, direction: 1, phaseMinutes: 0)
        #expect(times.allSatisfy { $0 >= 24 * 3600 && $0 < 29 * 3600 })
    }

    @Test func assignmentKeepsCountsAndSpreadsPatterns() {
        let order = Timetable.assign([6, 3, 1])
        #expect(order.count == 10)
        #expect(order.filter { $0 == 0 }.count == 6 && order.filter { $0 == 1 }.count == 3)
        #expect(order.filter { $0 == 2 }.count == 1)
        // the second pattern is not bunched at one end of the day
        let positions = order.indices.filter { order[$0] == 1 }
        #expect(positions.first! < 4 && positions.last! > 5)
    }
}

@Suite("ByteFileWriter")
struct ByteFileWriterTests {
    @Test func formatsTimesCoordinatesAndFields() throws {
        let dir = try TemporaryFolder("feedgen")
        let w = try ByteFileWriter(path: dir.path + "/out.txt", capacity: 16)  // tiny buffer: many flushes
        try w.reserve(16); w.putTime(5 * 3600 + 7 * 60)
        try w.writeByte(59)
        try w.reserve(16); w.putTime(25 * 3600 + 59 * 60 + 9)
        try w.writeByte(59)
        try w.reserve(16); w.putMicrodegrees(-33_870_005)
        try w.writeByte(59)
        try w.reserve(16); w.putMicrodegrees(151_000_120)
        try w.writeByte(59)
        try w.writeField("Central Station, Platform 16")
        try w.writeByte(59)
        try w.writeField("say \"hi\"")
        try w.writeByte(59)
        try w.writeField("plain")
        try w.writeByte(59)
        try w.writeDecimal(0)
        try w.writeByte(59)
        try w.writeDecimal(-1_234_567_890)
        try w.close()
        let text = String(decoding: try dir.contents("out.txt"), as: UTF8.self)
        #expect(
            text
                == "05:07:00;25:59:09;-33.870005;151.000120;\"Central Station, Platform 16\";\"say \"\"hi\"\"\";plain;0;-1234567890"
        )
        #expect(w.bytesWritten == text.utf8.count)
    }

    @Test func unwritableDirectoryIsAClearError() {
        #expect(throws: FeedGeneratorError.self) {
            _ = try FeedGenerator(scale: .small).write(to: "/proc/feedgen-cannot-exist")
        }
    }
}
