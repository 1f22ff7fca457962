/// calendar.txt and calendar_dates.txt of the generated feed.
///
/// Weekday, Saturday, Sunday and school-day services over the validity range; on weekday public
/// holidays the weekday and school services are removed and the Sunday service added; school
/// holidays remove the school service; TRACKWORK and EVENT exist only as calendar_dates additions.
struct ServiceCalendar {
    static let start = CivilDate(2025, 1, 1)
    static let end = CivilDate(2030, 12, 31)

    struct Row {
        var service: Service
        var days: [Int]  // Monday ... Sunday, 0 or 1
    }

    static let calendar: [Row] = [
        Row(service: .weekday, days: [1, 1, 1, 1, 1, 0, 0]),
        Row(service: .saturday, days: [0, 0, 0, 0, 0, 1, 0]),
        Row(service: .sunday, days: [0, 0, 0, 0, 0, 0, 1]),
        Row(service: .school, days: [1, 1, 1, 1, 1, 0, 0]),
    ]

    struct Exception: Comparable {
        var date: CivilDate
        var service: Service
        var type: Int  // 1 added, 2 removed

        static func < (a: Exception, b: Exception) -> Bool {
            (a.date, a.service.rawValue) < (b.date, b.service.rawValue)
        }
    }

    static func exceptions(rng: inout SplitMix64) -> [Exception] {
        var out: [Exception] = []
        let holidays = NSWHolidays.weekdayHolidays(from: start, through: end)
        for day in holidays {
            out.append(Exception(date: day, service: .weekday, type: 2))
            out.append(Exception(date: day, service: .sunday, type: 1))
            out.append(Exception(date: day, service: .school, type: 2))
        }
        let holidaySet = Set(holidays)
        for day in schoolHolidayWeekdays() where !holidaySet.contains(day) {
            out.append(Exception(date: day, service: .school, type: 2))
        }
        for year in start.year...end.year {
            out.append(Exception(date: CivilDate(year, 12, 31), service: .event, type: 1))
            out.append(Exception(date: CivilDate(year, 1, 26), service: .event, type: 1))
            // trackwork on one weekend a quarter
            for month in [2, 5, 8, 11] {
                var day = CivilDate(year, month, 1 + rng.below(21))
                while day.weekday != 5 { day = day.adding(days: 1) }
                out.append(Exception(date: day, service: .trackwork, type: 1))
                out.append(Exception(date: day.adding(days: 1), service: .trackwork, type: 1))
            }
        }
        return out.filter { $0.date >= start && $0.date <= end }.sorted()
    }

    /// Approximate NSW school holidays: summer (20 Dec - 27 Jan) and two weeks each in April, July and
    /// late September.
    static func schoolHolidayWeekdays() -> [CivilDate] {
        var out: [CivilDate] = []
        var day = start
        while day <= end {
            let (m, d) = (day.month, day.day)
            let holiday =
                (m == 12 && d >= 20) || (m == 1 && d <= 27) || (m == 4 && (14...25).contains(d))
                || (m == 7 && (7...18).contains(d)) || (m == 9 && d >= 29) || (m == 10 && d <= 10)
            if holiday && day.isWeekday { out.append(day) }
            day = day.adding(days: 1)
        }
        return out
    }
}
