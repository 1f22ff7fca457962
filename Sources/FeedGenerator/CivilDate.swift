/// A calendar date without a time zone, as GTFS writes it (YYYYMMDD).
///
/// Day arithmetic uses days since 1970-01-01 (proleptic Gregorian, Howard Hinnant's algorithms), so the
/// generator never depends on Foundation's calendars or the host's time zone.
struct CivilDate: Comparable, Hashable, Sendable {
    let year: Int
    let month: Int
    let day: Int

    init(_ year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    init(daysSinceEpoch z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// 0 = Monday ... 6 = Sunday (1970-01-01 was a Thursday).
    var weekday: Int {
        let d = (daysSinceEpoch + 3) % 7
        return d < 0 ? d + 7 : d
    }

    var isWeekday: Bool { weekday < 5 }

    /// YYYYMMDD as an integer, e.g. 20251225.
    var yyyymmdd: Int { year * 10_000 + month * 100 + day }

    func adding(days: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    static func < (a: CivilDate, b: CivilDate) -> Bool {
        a.yyyymmdd < b.yyyymmdd
    }
}
