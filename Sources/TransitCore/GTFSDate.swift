/// A GTFS date (YYYYMMDD, e.g. a service date): a calendar day, independent of any timezone.
///
/// Stored as days since 1970-01-01 so day arithmetic and weekdays are plain integer maths
/// (proleptic Gregorian calendar, the civil-date algorithm of H. Hinnant).
public struct GTFSDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// nil unless year/month/day form a real date (year 1...9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= GTFSDate.daysInMonth(year: year, month: month)
        else { return nil }
        dayNumber = GTFSDate.days(year: year, month: month, day: day)
    }

    /// From the integer 20251005.
    public init?(yyyymmdd value: Int) {
        guard value >= 10000101, value <= 99991231 else { return nil }
        self.init(year: value / 10000, month: (value / 100) % 100, day: value % 100)
    }

    /// From the text "20251005" (exactly eight digits; surrounding spaces tolerated).
    public init?(_ text: some StringProtocol) {
        var value = 0
        var digits = 0
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 {
                if digits == 0 || digits == 8 { continue }
                return nil
            }
            guard byte >= 0x30, byte <= 0x39, digits < 8 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            digits += 1
        }
        guard digits == 8 else { return nil }
        self.init(yyyymmdd: value)
    }

    public var year: Int { civil.year }
    public var month: Int { civil.month }
    public var day: Int { civil.day }

    /// The integer form, e.g. 20251005.
    public var yyyymmdd: Int {
        let c = civil
        return c.year * 10000 + c.month * 100 + c.day
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday (ISO 4).
        let w = (dayNumber + 3) % 7
        return (w < 0 ? w + 7 : w) + 1
    }

    public func adding(days: Int) -> GTFSDate { GTFSDate(dayNumber: dayNumber + days) }

    public var description: String {
        let v = yyyymmdd
        let text = String(v)
        return v < 10000000 ? String(repeating: "0", count: 8 - text.count) + text : text
    }

    public static func < (a: GTFSDate, b: GTFSDate) -> Bool { a.dayNumber < b.dayNumber }

    // MARK: civil calendar maths

    private var civil: (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
