/// Which weekday's timetable a service date runs, from the feed's calendar: a public holiday on a Monday
/// whose calendar_dates remove the weekday services and add the Sunday ones runs as a Sunday
/// (protocol/README.md flow 6, "Day types from the calendar").
///
/// Only dates with calendar_dates exceptions can differ from their weekday. Each one's active services are
/// compared with the nearest Saturday's, the nearest Sunday's and the same weekday's a week away (before
/// and after, the closer of the two): it runs as Sunday when that set is strictly closer than its own
/// weekday's and at least as close as Saturday's, as Saturday when that one is strictly closer than both;
/// otherwise (ties, a date without service) as its own weekday.
public enum TimetableWeekdays {
    /// ISO weekday numbers of the weekend timetables.
    public static let saturday = 6
    public static let sunday = 7

    /// The dates of `calendar` that run another weekday's timetable than their own, with the ISO weekday
    /// they run as (6 or 7).
    public static func exceptions(_ calendar: ServiceCalendar) -> [GTFSDate: Int] {
        var result: [GTFSDate: Int] = [:]
        for date in calendar.exceptionDates {
            let runsAs = weekday(of: date, calendar)
            if runsAs != date.weekday { result[date] = runsAs }
        }
        return result
    }

    /// The ISO weekday whose timetable `date` runs.
    public static func weekday(of date: GTFSDate, _ calendar: ServiceCalendar) -> Int {
        let own = date.weekday
        let services = calendar.activeServices(on: date)
        if services.isEmpty { return own }
        func closest(_ weekday: Int) -> Double {
            // The nearest date with that weekday on each side (a week away for the date's own weekday).
            let after = (weekday - own + 7) % 7
            let forward = after == 0 ? 7 : after
            let backward = forward == 7 ? 7 : 7 - forward
            let sides = [date.adding(days: forward), date.adding(days: -backward)]
            return sides.map { services.similarity(to: calendar.activeServices(on: $0)) }.max() ?? 0
        }
        let ownScore = closest(own)
        let sundayScore = own == sunday ? ownScore : closest(sunday)
        let saturdayScore = own == saturday ? ownScore : closest(saturday)
        if own != sunday, sundayScore > ownScore, sundayScore >= saturdayScore { return sunday }
        if own != saturday, saturdayScore > ownScore, saturdayScore > sundayScore { return saturday }
        return own
    }
}
