/// GTFS schedule times ("H:MM:SS" / "HH:MM:SS") as seconds since the service day's noon-minus-12h.
///
/// Hours may exceed 24 (a trip running past midnight is written "25:10:00" on the day it started), so a
/// time is not a wall-clock time of day; `ServiceDay` turns it into an instant.
public enum GTFSTime {
    /// Largest hour accepted (a week): GTFS sets no bound, but anything beyond is certainly a typo.
    public static let maxHours = 167

    /// Parses "H:MM:SS", "HH:MM:SS" or "HHH:MM:SS" (spaces around the value are tolerated).
    /// Returns nil for an empty value (a stop time without a time); throws for a malformed one.
    public static func parse(_ text: some StringProtocol) throws(GTFSTimeError) -> Int? {
        let utf8 = Array(text.utf8)
        let result = utf8.withUnsafeBufferPointer { buffer in
            Result { () throws(GTFSTimeError) -> Int? in try parse(utf8: buffer) }
        }
        return try result.get()
    }

    /// Byte-level variant for the importer's hot loop (no allocation).
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(GTFSTimeError) -> Int? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        if start == end { return nil }

        func fail(_ reason: String) -> GTFSTimeError {
            GTFSTimeError(
                text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self),
                reason: reason)
        }
        // Hours: 1...3 digits, then ':'.
        var i = start
        var hours = 0
        var hourDigits = 0
        while i < end, let d = digit(bytes[i]) {
            hours = hours * 10 + d
            hourDigits += 1
            i += 1
            if hourDigits > 3 { throw fail("hour has more than 3 digits") }
        }
        if hourDigits == 0 { throw fail("expected H:MM:SS") }
        guard i < end, bytes[i] == 0x3A else { throw fail("expected ':' after the hour") }
        i += 1
        guard let minutes = twoDigits(bytes, at: i, end: end) else { throw fail("minutes must be two digits") }
        i += 2
        guard i < end, bytes[i] == 0x3A else { throw fail("expected ':' after the minutes") }
        i += 1
        guard let seconds = twoDigits(bytes, at: i, end: end) else { throw fail("seconds must be two digits") }
        i += 2
        if i != end { throw fail("unexpected characters after the seconds") }
        if minutes > 59 { throw fail("minutes exceed 59") }
        if seconds > 59 { throw fail("seconds exceed 59") }
        if hours > maxHours { throw fail("hour exceeds \(maxHours)") }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// Formats seconds as "HH:MM:SS" (hours zero-padded to two digits, may exceed 23).
    /// Negative values (never produced by a valid feed) are formatted with a leading '-'.
    public static func format(_ totalSeconds: Int) -> String {
        let sign = totalSeconds < 0 ? "-" : ""
        let value = totalSeconds.magnitude
        let h = value / 3600, m = (value % 3600) / 60, s = value % 60
        return sign + pad2(h) + ":" + pad2(m) + ":" + pad2(s)
    }

    private static func pad2(_ v: UInt) -> String { v < 10 ? "0\(v)" : "\(v)" }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte &- 0x30) : nil
    }

    @inline(__always)
    private static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int? {
        guard i + 1 < end, let a = digit(bytes[i]), let b = digit(bytes[i + 1]) else { return nil }
        return a * 10 + b
    }
}

/// A malformed GTFS time: the text as given and why it was refused.
public struct GTFSTimeError: Error, Equatable, CustomStringConvertible, Sendable {
    public let text: String
    public let reason: String
    public var description: String { "invalid GTFS time \"\(text)\": \(reason)" }
}
