import Testing

@testable import TransitCore

/// A crafted calendar for January 2026: weekday (Mon–Fri), Saturday and Sunday services, plus an all-week
/// night service; Monday 26 January (a public holiday) removes the weekday service and adds the Sunday one.
@Suite struct TimetableWeekdaysTests {
    static func date(_ v: Int) -> GTFSDate { GTFSDate(yyyymmdd: v)! }
    static let weekday = 0, saturday = 1, sunday = 2, night = 3, special = 4

    static func calendar(_ exceptions: [ServiceCalendar.Exception]) -> ServiceCalendar {
        let (start, end) = (date(20260101), date(20260228))
        return ServiceCalendar(
            serviceCount: 5,
            weekly: [
                .init(service: weekday, weekdays: 0b0011111, start: start, end: end),
                .init(service: saturday, weekdays: 0b0100000, start: start, end: end),
                .init(service: sunday, weekdays: 0b1000000, start: start, end: end),
                .init(service: night, weekdays: 0b1111111, start: start, end: end),
            ],
            exceptions: exceptions)
    }

    @Test func aMondayHolidayRunningTheSundayTimetableIsASunday() {
        let holiday = Self.date(20260126)
        #expect(holiday.weekday == 1)
        let cal = Self.calendar([
            .init(service: Self.weekday, date: holiday, kind: .removed),
            .init(service: Self.sunday, date: holiday, kind: .added),
        ])
        #expect(TimetableWeekdays.weekday(of: holiday, cal) == 7)
        #expect(TimetableWeekdays.exceptions(cal) == [holiday: 7])
        // The Monday before and after are Mondays.
        #expect(TimetableWeekdays.weekday(of: Self.date(20260119), cal) == 1)
        #expect(TimetableWeekdays.weekday(of: Self.date(20260202), cal) == 1)
    }

    @Test func aFridayRunningTheSaturdayTimetableIsASaturday() {
        let friday = Self.date(20260130)
        let cal = Self.calendar([
            .init(service: Self.weekday, date: friday, kind: .removed),
            .init(service: Self.saturday, date: friday, kind: .added),
        ])
        #expect(TimetableWeekdays.exceptions(cal) == [friday: 6])
    }

    @Test func anExtraServiceOnAWeekdayOrADayWithoutServiceKeepsTheWeekday() {
        let monday = Self.date(20260126)
        let extra = Self.calendar([.init(service: Self.special, date: monday, kind: .added)])
        #expect(TimetableWeekdays.exceptions(extra).isEmpty)
        // Nothing runs (every service removed): no evidence, its weekday.
        let empty = Self.calendar([
            .init(service: Self.weekday, date: monday, kind: .removed),
            .init(service: Self.night, date: monday, kind: .removed),
        ])
        #expect(TimetableWeekdays.exceptions(empty).isEmpty)
        // Only the all-week service left: as close to Sunday as to Monday, a tie keeps Monday.
        let night = Self.calendar([.init(service: Self.weekday, date: monday, kind: .removed)])
        #expect(TimetableWeekdays.weekday(of: monday, night) == 1)
    }

    @Test func twoHolidaysInARowStillMatchTheirUsualNeighbours() {
        // Thursday 1 January and Friday 2 January both on the Sunday timetable; the next Thursday and Friday
        // are ordinary, so each compares with a normal weekday a week later.
        let days = [Self.date(20260101), Self.date(20260102)]
        let cal = Self.calendar(
            days.flatMap {
                [
                    ServiceCalendar.Exception(service: Self.weekday, date: $0, kind: .removed),
                    ServiceCalendar.Exception(service: Self.sunday, date: $0, kind: .added),
                ]
            })
        #expect(TimetableWeekdays.exceptions(cal) == [days[0]: 7, days[1]: 7])
    }

    @Test func aHolidayWithAServiceOfItsOwnIsPlacedByItsTripCount() {
        // As MiWay's feed does (Thanksgiving, Monday 13 October 2025): the holiday runs a "Holiday" service
        // shared with no other date; its 2,352 trips are Sunday's count, Monday's is 5,506. Service 4 is the
        // holiday's here; the all-week night service is removed too, so no service is shared.
        let holiday = Self.date(20260126)
        let cal = Self.calendar([
            .init(service: Self.weekday, date: holiday, kind: .removed),
            .init(service: Self.night, date: holiday, kind: .removed),
            .init(service: Self.special, date: holiday, kind: .added),
        ])
        let trips = [5506, 3192, 2352, 0, 2352]
        #expect(TimetableWeekdays.exceptions(cal, tripsPerService: trips) == [holiday: 7])
        // Without trip counts there is no evidence: Monday.
        #expect(TimetableWeekdays.exceptions(cal).isEmpty)
        // A holiday service as busy as a weekday stays a weekday.
        #expect(TimetableWeekdays.exceptions(cal, tripsPerService: [5506, 3192, 2352, 0, 5400]).isEmpty)
    }

    @Test func similarityIsSharedOverEither() {
        var a = ServiceSet(capacity: 130), b = ServiceSet(capacity: 130)
        for i in [1, 2, 129] { a.insert(i) }
        for i in [2, 129, 7] { b.insert(i) }
        #expect(a.similarity(to: b) == 0.5)
        #expect(ServiceSet(capacity: 3).similarity(to: ServiceSet(capacity: 3)) == 0)
    }
}
