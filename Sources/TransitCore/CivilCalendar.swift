// The one implementation of the civil-date maths (GTFSDate, the realtime sources' HTTP dates, the request
// checks of the gateway and the static service): H. Hinnant's days_from_civil and civil_from_days
// (howardhinnant.github.io/date_algorithms.html), exact for every Int year of the proleptic Gregorian
// calendar. Years are counted in 400-year eras of 146 097 days, each starting on 1 March so that the leap
// day is the last day of its year.

/// Dates of the proleptic Gregorian calendar as day numbers: days since 1970-01-01 (negative before).
public enum CivilCalendar {
    /// The day number of `year`-`month`-`day` (month 1...12). The day is not checked against the month's
    /// length: day 0 is the last day of the month before, day 32 of January is 1 February.
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400  // 0...399
        let marchMonth = (month + 9) % 12  // March 0 ... February 11
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1  // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear  // 0...146096
        return era * 146_097 + dayOfEra - 719_468  // 719 468: days from 0000-03-01 to 1970-01-01
    }

    /// The date of day `dayNumber` (month 1...12, day 1...31).
    public static func date(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whether `year` has a 29 February: every fourth year, but of the centuries only every fourth.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// Days in `month` (1...12) of `year`: 28 to 31.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
