/// New South Wales public holidays, including the weekday substitutes for weekend dates.
///
/// The same rules as scripts/make-sample-feed.py, so both feeds treat holidays alike.
enum NSWHolidays {
    /// All public holidays of one year, sorted.
    static func holidays(in year: Int) -> [CivilDate] {
        var days: [CivilDate] = []
        func withMondaySubstitute(_ date: CivilDate) {
            days.append(date)
            if date.weekday == 5 { days.append(date.adding(days: 2)) }
            if date.weekday == 6 { days.append(date.adding(days: 1)) }
        }
        withMondaySubstitute(CivilDate(year, 1, 1))
        withMondaySubstitute(CivilDate(year, 1, 26))
        let easter = easterSunday(year)
        days += [easter.adding(days: -2), easter.adding(days: -1), easter, easter.adding(days: 1)]
        days.append(CivilDate(year, 4, 25))
        days.append(nthMonday(year, 6, 2))  // King's Birthday
        days.append(nthMonday(year, 10, 1))  // Labour Day
        let christmas = CivilDate(year, 12, 25)
        days += [christmas, CivilDate(year, 12, 26)]
        switch christmas.weekday {
        case 5: days += [CivilDate(year, 12, 27), CivilDate(year, 12, 28)]  // Sat: Mon and Tue off
        case 6: days.append(CivilDate(year, 12, 27))  // Sun: Boxing Day Monday, Christmas on Tuesday
        case 4: days.append(CivilDate(year, 12, 28))  // Fri: Boxing Day Saturday, Monday off
        default: break
        }
        return Array(Set(days)).sorted()
    }

    /// Weekday public holidays in the closed range, sorted.
    static func weekdayHolidays(from start: CivilDate, through end: CivilDate) -> [CivilDate] {
        var out: [CivilDate] = []
        for year in start.year...end.year {
            out += holidays(in: year).filter { $0.isWeekday && $0 >= start && $0 <= end }
        }
        return out
    }

    /// Anonymous Gregorian computus.
    static func easterSunday(_ year: Int) -> CivilDate {
        let a = year % 19, b = year / 100, c = year % 100
        let d = b / 4, e = b % 4, f = (b + 8) / 25, g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return CivilDate(year, month, day)
    }

    private static func nthMonday(_ year: Int, _ month: Int, _ n: Int) -> CivilDate {
        let first = CivilDate(year, month, 1)
        let offset = (7 - first.weekday) % 7
        return first.adding(days: offset + 7 * (n - 1))
    }
}
