import Testing
import TransitCore

@Suite struct CivilCalendarTests {
    static let knownDays: [(year: Int, month: Int, day: Int, dayNumber: Int)] = [
        (1970, 1, 1, 0),
        (1969, 12, 31, -1),
        (1900, 3, 1, -25_508),
        (2000, 2, 29, 11_016),
        (2000, 3, 1, 11_017),
        (2024, 2, 29, 19_782),
        (2025, 10, 5, 20_366),
        (2100, 2, 28, 47_540),
        (2100, 3, 1, 47_541),  // 2100 is no leap year
        (1, 1, 1, -719_162),
        (0, 3, 1, -719_468),
        (9999, 12, 31, 2_932_896),
    ]

    @Test(arguments: knownDays)
    func knownDay(year: Int, month: Int, day: Int, dayNumber: Int) {
        #expect(CivilCalendar.dayNumber(year: year, month: month, day: day) == dayNumber)
        #expect(CivilCalendar.date(dayNumber: dayNumber) == (year, month, day))
    }

    /// Day by day from 1968 to 2102 (1970, the leap years, 2000 and 2100): each day number's date is the day
    /// after the one before, and back again.
    @Test func everyDayAcross1970AndTheCenturies() {
        var date = (year: 1968, month: 1, day: 1)
        let first = CivilCalendar.dayNumber(year: 1968, month: 1, day: 1)
        for dayNumber in first...CivilCalendar.dayNumber(year: 2102, month: 12, day: 31) {
            #expect(CivilCalendar.date(dayNumber: dayNumber) == date)
            #expect(CivilCalendar.dayNumber(year: date.year, month: date.month, day: date.day) == dayNumber)
            if date.day < CivilCalendar.daysInMonth(year: date.year, month: date.month) {
                date.day += 1
            } else if date.month < 12 {
                date = (date.year, date.month + 1, 1)
            } else {
                date = (date.year + 1, 1, 1)
            }
        }
    }

    @Test func roundTripsFarOut() {
        for dayNumber in stride(from: -3_000_000, through: 3_000_000, by: 997) {
            let d = CivilCalendar.date(dayNumber: dayNumber)
            #expect(CivilCalendar.dayNumber(year: d.year, month: d.month, day: d.day) == dayNumber)
        }
    }

    @Test func leapYearsAndMonthLengths() {
        #expect(CivilCalendar.isLeapYear(2024) && CivilCalendar.isLeapYear(2000) && CivilCalendar.isLeapYear(1600))
        #expect(!CivilCalendar.isLeapYear(2100) && !CivilCalendar.isLeapYear(1900) && !CivilCalendar.isLeapYear(2025))
        #expect(CivilCalendar.daysInMonth(year: 2024, month: 2) == 29)
        #expect(CivilCalendar.daysInMonth(year: 2100, month: 2) == 28)
        #expect(
            (1...12).map { CivilCalendar.daysInMonth(year: 2025, month: $0) } == [
                31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
            ])
    }

    /// Days past the month's end run on into the next month (HTTP dates are not checked any closer).
    @Test func daysPastTheMonthRunOn() {
        #expect(
            CivilCalendar.dayNumber(year: 2025, month: 2, day: 31)
                == CivilCalendar.dayNumber(year: 2025, month: 3, day: 3))
        #expect(
            CivilCalendar.dayNumber(year: 2025, month: 3, day: 0)
                == CivilCalendar.dayNumber(year: 2025, month: 2, day: 28))
    }
}
