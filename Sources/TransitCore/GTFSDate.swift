/// A GTFS date (YYYYMMDD, e.g. a service date): a calendar day, independent of any timezone.
///
/// Stored as days since 1970-01-01 so day arithmetic and weekdays are plain integer maths
/// (proleptic Gregorian calendar: `CivilCalendar`).
public struct GTFSDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// nil unless year/month/day form a real date (year 1...9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { return nil }
        dayNumber = CivilCalendar.dayNumber(year: year, month: month, day: day)
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

    private var civil: (year: Int, month: Int, day: Int) { CivilCalendar.date(dayNumber: dayNumber) }
}
