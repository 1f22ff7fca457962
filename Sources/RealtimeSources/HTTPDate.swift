// HTTP dates (RFC 9110 IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT") without DateFormatter, which is
// neither cheap nor Sendable.
import Foundation
import TransitCore

enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses an IMF-fixdate; nil for anything else (the obsolete formats are not worth the code).
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
            let day = Int(parts[1]), let month = months.firstIndex(of: parts[2].lowercased()),
            let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let h = Int(clock[0]), let m = Int(clock[1]), let s = Int(clock[2]),
            (1...31).contains(day), (0...23).contains(h), (0...59).contains(m), (0...60).contains(s)
        else { return nil }
        let days = CivilCalendar.dayNumber(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + h * 3600 + m * 60 + s))
    }

    /// Retry-After: delay seconds or an HTTP date; the wait from `now`.
    static func retryAfter(_ text: String, now: Date) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        guard let date = parse(trimmed) else { return nil }
        return .fromSeconds(date.timeIntervalSince(now))
    }

}
