import TransitCore

/// A calendar date without a time zone, as GTFS writes it (YYYYMMDD): TransitCore's `GTFSDate` (over
/// `CivilCalendar`, the one implementation of the civil-date maths) with the generator's conventions (weekday
/// 0 = Monday).
struct CivilDate: Comparable, Hashable, Sendable {
    let date: GTFSDate

    /// `year`/`month`/`day` must form a real date (the generator only makes such dates).
    init(_ year: Int, _ month: Int, _ day: Int) {
        guard let date = GTFSDate(year: year, month: month, day: day) else {
            preconditionFailure("CivilDate: \(year)-\(month)-\(day) is not a date")
        }
        self.date = date
    }

    init(daysSinceEpoch: Int) { date = GTFSDate(dayNumber: daysSinceEpoch) }

    var year: Int { date.year }
    var month: Int { date.month }
    var day: Int { date.day }
    var daysSinceEpoch: Int { date.dayNumber }

    /// 0 = Monday ... 6 = Sunday.
    var weekday: Int { date.weekday - 1 }

    var isWeekday: Bool { weekday < 5 }

    /// YYYYMMDD as an integer, e.g. 20251225.
    var yyyymmdd: Int { date.yyyymmdd }

    func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    static func < (a: CivilDate, b: CivilDate) -> Bool { a.date < b.date }
}
