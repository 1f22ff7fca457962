// The `at` of departures, trip and alerts requests: drawn uniformly from a window, either a span of a service
// day in the feed's timezone (`07:00-09:00` on a date: the morning peak) or minutes around now (`now±30`).
import Foundation

/// [start, end] in unix seconds, with the timezone that names its service days.
public struct TimeWindow: Sendable, Equatable {
    public var start: Int64
    public var end: Int64
    public var timeZone: TimeZone

    public init(start: Int64, end: Int64, timeZone: TimeZone) {
        self.start = start
        self.end = end
        self.timeZone = timeZone
    }

    /// `HH:MM-HH:MM` on `date` (`YYYYMMDD` or `YYYY-MM-DD`; default: today in `timeZone`), times counted from
    /// the service day's noon minus 12 h as GTFS does (so `23:00-25:00` is fine); or `now±N` (also `now+-N`)
    /// N minutes either side of `now`.
    public init(parsing text: String, date: String?, timeZone: TimeZone, now: Int64) throws(WorkloadError) {
        self.timeZone = timeZone
        let t = text.trimmingCharacters(in: .whitespaces)
        for prefix in ["now±", "now+-"] where t.hasPrefix(prefix) {
            guard let minutes = Int64(t.dropFirst(prefix.count).replacingOccurrences(of: "m", with: "")),
                minutes >= 0
            else {
                throw WorkloadError("--window \(text): expected now±N (N minutes, e.g. now±30)")
            }
            start = now - minutes * 60
            end = now + minutes * 60
            return
        }
        let parts = t.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let from = Self.clockSeconds(parts[0]), let to = Self.clockSeconds(parts[1]),
            from < to
        else {
            throw WorkloadError("--window \(text): expected HH:MM-HH:MM (start before end) or now±N")
        }
        let day: (Int, Int, Int)
        if let date {
            guard let d = Self.parseDate(date) else {
                throw WorkloadError("--date \(date): expected YYYYMMDD or YYYY-MM-DD")
            }
            day = d
        } else {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(now)))
            day = (c.year!, c.month!, c.day!)
        }
        let origin = Self.serviceDayOrigin(year: day.0, month: day.1, day: day.2, timeZone: timeZone)
        start = origin + from
        end = origin + to
    }

    /// The unix time of a service day's "noon minus 12 h" in `timeZone` (GTFS times count from it).
    public static func serviceDayOrigin(year: Int, month: Int, day: Int, timeZone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        return Int64(noon.timeIntervalSince1970) - 12 * 3600
    }

    static func clockSeconds(_ text: String) -> Int64? {
        let p = text.split(separator: ":").map(String.init)
        guard p.count == 2 || p.count == 3, let h = Int64(p[0]), let m = Int64(p[1]), (0..<48).contains(h),
            (0..<60).contains(m)
        else { return nil }
        let s = p.count == 3 ? Int64(p[2]) : 0
        guard let s, (0..<60).contains(s) else { return nil }
        return h * 3600 + m * 60 + s
    }

    static func parseDate(_ text: String) -> (Int, Int, Int)? {
        let digits = text.replacingOccurrences(of: "-", with: "")
        guard digits.count == 8, let n = Int(digits) else { return nil }
        let (y, m, d) = (n / 10000, n / 100 % 100, n % 100)
        guard (1...12).contains(m), (1...31).contains(d) else { return nil }
        return (y, m, d)
    }

    /// A uniform draw in the window (`u` in [0, 1)).
    public func at(_ u: Double) -> Int64 { start + Int64(u * Double(end - start + 1)) }

    /// One service day the window touches: its date (YYYYMMDD), weekday (0 = Sunday) and the window in its
    /// seconds since noon minus 12 h.
    public struct ServiceDay: Sendable, Equatable {
        public var date: Int
        public var weekday: Int
        public var startSecs: Int64
        public var endSecs: Int64
    }

    /// The service days whose trips may run in the window: each local date it spans and the day before (trips
    /// past midnight).
    public func serviceDays() -> [ServiceDay] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var days: [ServiceDay] = []
        var date = calendar.date(byAdding: .day, value: -1, to: Date(timeIntervalSince1970: Double(start)))!
        let last = Date(timeIntervalSince1970: Double(end))
        while date <= last || calendar.isDate(date, inSameDayAs: last) {
            let c = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let origin = Self.serviceDayOrigin(year: c.year!, month: c.month!, day: c.day!, timeZone: timeZone)
            let day = ServiceDay(
                date: c.year! * 10000 + c.month! * 100 + c.day!, weekday: c.weekday! - 1, startSecs: start - origin,
                endSecs: end - origin)
            if !days.contains(day) { days.append(day) }
            date = calendar.date(byAdding: .day, value: 1, to: date)!
            if days.count > 10 { break }
        }
        return days
    }
}
