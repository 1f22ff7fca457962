import Foundation

/// Departure times as a rider reads them: the wall clock of the stop's timezone, not the viewer's.
public struct DepartureClock: Sendable {
    /// The stop's timezone (`timezone` of a board or stop); UTC when the name is unknown or missing.
    public let timeZone: TimeZone

    public init(timeZone identifier: String?) {
        timeZone = identifier.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
    }

    public init(_ timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The date on this clock at `unix`.
    public func date(_ unix: Int64) -> (year: Int, month: Int, day: Int) {
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(unix)))
        return (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    /// The unix time at which this clock shows `secondOfDay` on a date, the inverse of `time`; nil for a date the
    /// calendar has not (2026-02-30). A time in a daylight-saving gap is moved ahead by the gap (Foundation's rule).
    public func unix(_ date: (year: Int, month: Int, day: Int), secondOfDay: Int) -> Int64? {
        let day = DateComponents(year: date.year, month: date.month, day: date.day)
        var noon = day
        noon.hour = 12
        guard let middle = calendar.date(from: noon),
            calendar.dateComponents([.year, .month, .day], from: middle) == day
        else { return nil }
        var components = day
        components.hour = secondOfDay / 3600
        components.minute = secondOfDay / 60 % 60
        components.second = secondOfDay % 60
        return calendar.date(from: components).map { Int64($0.timeIntervalSince1970) }
    }

    /// "19:42": 24-hour hours and minutes of `unix` in the stop's timezone (a service day's 25:10 is 01:10).
    public func time(_ unix: Int64) -> String {
        let parts = components(unix)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// "19:42:05", for a clock line above a board.
    public func timeWithSeconds(_ unix: Int64) -> String {
        let parts = components(unix)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// The countdown of a departure at `unix` seen at `now`: `minutes_until` and `countdown_text` as the
    /// gateway computes them (§7), for a client that redraws between answers.
    public func countdown(to unix: Int64, now: Int64) -> (minutes: Int, text: String) {
        let minutes = Countdown.minutesUntil(unix, from: now)
        return (minutes, Countdown.text(minutesUntil: minutes))
    }

    private func components(_ unix: Int64) -> DateComponents {
        calendar.dateComponents([.hour, .minute, .second], from: Date(timeIntervalSince1970: Double(unix)))
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
