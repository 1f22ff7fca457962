import Testing

@testable import TransitCore

private func date(_ v: Int) -> GTFSDate { GTFSDate(yyyymmdd: v)! }

@Suite struct ServiceCalendarTests {
    // Services: 0 weekdays (Mon–Fri) in October 2025; 1 weekends in October 2025;
    // 2 only in calendar_dates; 3 a calendar with no weekday flags plus an addition.
    let weekdays: UInt8 = 0b0011111
    let weekends: UInt8 = 0b1100000

    func makeCalendar(exceptions: [ServiceCalendar.Exception] = []) -> ServiceCalendar {
        ServiceCalendar(
            serviceCount: 4,
            weekly: [
                .init(service: 0, weekdays: weekdays, start: date(20251001), end: date(20251031)),
                .init(service: 1, weekdays: weekends, start: date(20251001), end: date(20251031)),
                .init(service: 3, weekdays: 0, start: date(20251001), end: date(20251031)),
            ],
            exceptions: exceptions)
    }

    @Test func weekdayFlagsWithinTheRange() {
        let cal = makeCalendar()
        #expect(cal.isActive(0, on: date(20251006)))  // Monday
        #expect(!cal.isActive(0, on: date(20251005)))  // Sunday
        #expect(cal.isActive(1, on: date(20251005)))
        #expect(!cal.isActive(1, on: date(20251006)))
        #expect(cal.isActive(0, on: date(20251001)))  // first day (Wednesday), inclusive
        #expect(cal.isActive(0, on: date(20251031)))  // last day (Friday), inclusive
        #expect(!cal.isActive(0, on: date(20250930)))  // Tuesday before the range
        #expect(!cal.isActive(0, on: date(20251103)))  // Monday after the range
    }

    @Test func typicalWeekIsTheFirstWholeWeekWithTheMostServiceDays() {
        // October 2025 starts on a Wednesday: the week of Monday 29 September has only five service days.
        #expect(makeCalendar().typicalWeek == date(20251006))
        // Two weekdays off in that week: the next one wins.
        let holidays = makeCalendar(exceptions: [
            .init(service: 0, date: date(20251007), kind: .removed),
            .init(service: 0, date: date(20251008), kind: .removed),
        ])
        #expect(holidays.typicalWeek == date(20251013))
        // An extra service day counts too.
        let extra = makeCalendar(exceptions: [.init(service: 2, date: date(20251015), kind: .added)])
        #expect(extra.typicalWeek == date(20251013))
    }

    @Test func noTypicalWeekWithoutService() {
        #expect(ServiceCalendar(serviceCount: 0, weekly: [], exceptions: []).typicalWeek == nil)
        let never = ServiceCalendar(
            serviceCount: 1, weekly: [.init(service: 0, weekdays: 0, start: date(20251001), end: date(20251031))],
            exceptions: [])
        #expect(never.typicalWeek == nil)
    }

    @Test func removalOverridesTheWeekdayPattern() {
        let cal = makeCalendar(exceptions: [.init(service: 0, date: date(20251006), kind: .removed)])
        #expect(!cal.isActive(0, on: date(20251006)))
        #expect(cal.isActive(0, on: date(20251007)))
    }

    @Test func additionOutsideTheRangeAndOnAnOffDay() {
        let cal = makeCalendar(exceptions: [
            .init(service: 0, date: date(20251105), kind: .added),  // after end
            .init(service: 0, date: date(20251004), kind: .added),  // a Saturday
            .init(service: 3, date: date(20251015), kind: .added),
        ])
        #expect(cal.isActive(0, on: date(20251105)))
        #expect(cal.isActive(0, on: date(20251004)))
        #expect(cal.isActive(3, on: date(20251015)))
        #expect(!cal.isActive(3, on: date(20251016)))
    }

    @Test func servicesDefinedOnlyByCalendarDates() {
        let cal = makeCalendar(exceptions: [
            .init(service: 2, date: date(20251225), kind: .added),
            .init(service: 2, date: date(20260126), kind: .added),
            .init(service: 2, date: date(20251226), kind: .removed),  // removing what never ran is harmless
        ])
        #expect(cal.isActive(2, on: date(20251225)))
        #expect(cal.isActive(2, on: date(20260126)))
        #expect(!cal.isActive(2, on: date(20251226)))
        #expect(!cal.isActive(2, on: date(20251006)))
        #expect(cal.lastDate == date(20260126))
        #expect(cal.firstDate == date(20251001))
    }

    @Test func removalWinsOverAdditionOnTheSameDate() {
        let cal = makeCalendar(exceptions: [
            .init(service: 2, date: date(20251010), kind: .removed),
            .init(service: 2, date: date(20251010), kind: .added),
        ])
        #expect(!cal.isActive(2, on: date(20251010)))
    }

    @Test func activeSetOfADate() {
        let cal = makeCalendar(exceptions: [
            .init(service: 2, date: date(20251006), kind: .added),
            .init(service: 0, date: date(20251006), kind: .removed),
        ])
        #expect(cal.activeServices(on: date(20251006)).members == [2])
        #expect(cal.activeServices(on: date(20251007)).members == [0])
        #expect(cal.activeServices(on: date(20251011)).members == [1])
        #expect(cal.activeServices(on: date(20240101)).isEmpty)
        // Cached answers are the same as fresh ones.
        #expect(cal.activeServices(on: date(20251006)).members == [2])
    }

    @Test func datesOfAServiceInARange() {
        let cal = makeCalendar(exceptions: [.init(service: 1, date: date(20251011), kind: .removed)])
        #expect(
            cal.dates(of: 1, from: date(20251004), through: date(20251012)).map(\.yyyymmdd)
                == [20251004, 20251005, 20251012])
    }

    @Test func outOfRangeServiceIdsAreIgnored() {
        let cal = ServiceCalendar(
            serviceCount: 1,
            weekly: [.init(service: 5, weekdays: 0x7F, start: date(20250101), end: date(20251231))],
            exceptions: [.init(service: -1, date: date(20250101), kind: .added)])
        #expect(cal.activeServices(on: date(20250601)).isEmpty)
        #expect(!cal.isActive(5, on: date(20250601)))
        #expect(cal.firstDate == nil)
    }

    @Test func flagInitialiserMapsMondayFirst() {
        let p = ServiceCalendar.Weekly(
            service: 0, monday: false, tuesday: false, wednesday: false, thursday: false,
            friday: false, saturday: true, sunday: true,
            start: date(20250101), end: date(20251231))
        #expect(p.weekdays == weekends)
        #expect(p.runs(on: date(20251005)))
        #expect(!p.runs(on: date(20251003)))
    }

    @Test func serviceSetBitsAcrossWords() {
        var set = ServiceSet(capacity: 130)
        for i in [0, 63, 64, 129] { set.insert(i) }
        set.insert(130)  // beyond capacity: ignored
        #expect(set.members == [0, 63, 64, 129])
        #expect(set.count == 4)
        set.remove(64)
        #expect(!set.contains(64) && set.contains(63) && !set.contains(-1))
    }
}

/// The calendar's dates precomputed at init (read without a lock) answer as dates computed on use do.
@Suite struct ServiceCalendarDenseTests {
    private func date(_ v: Int) -> GTFSDate { GTFSDate(yyyymmdd: v)! }

    @Test func precomputedDatesAnswerAsDatesComputedOnUse() {
        let weekly: [ServiceCalendar.Weekly] = [
            .init(service: 0, weekdays: 0b0011111, start: date(20_250_101), end: date(20_250_331)),
            .init(service: 1, weekdays: 0b1100000, start: date(20_250_201), end: date(20_250_430)),
            .init(service: 70, weekdays: 0b1111111, start: date(20_250_115), end: date(20_250_120)),
        ]
        let exceptions: [ServiceCalendar.Exception] = [
            .init(service: 0, date: date(20_250_127), kind: .removed),
            .init(service: 2, date: date(20_250_127), kind: .added),
            .init(service: 2, date: date(20_250_601), kind: .added),  // after every calendar range
            .init(service: 1, date: date(20_250_301), kind: .removed),
        ]
        let dense = ServiceCalendar(serviceCount: 71, weekly: weekly, exceptions: exceptions)
        let onUse = ServiceCalendar(serviceCount: 71, weekly: weekly, exceptions: exceptions, denseWordBudget: 0)
        var day = date(20_241_220)
        while day <= date(20_250_610) {
            #expect(dense.activeServices(on: day) == onUse.activeServices(on: day), "\(day)")
            for service in [0, 1, 2, 70, 71] {
                #expect(dense.isActive(service, on: day) == onUse.isActive(service, on: day), "\(service) \(day)")
            }
            day = day.adding(days: 1)
        }
        #expect(dense.isActive(2, on: date(20_250_601)) && !dense.isActive(0, on: date(20_250_127)))
        #expect(dense.isActive(2, on: date(20_250_127)) && dense.isActive(70, on: date(20_250_118)))
    }
}
