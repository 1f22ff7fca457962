#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parsers for GTFS values straight from field bytes (no String in between). Each returns nil when the bytes
/// are not a valid value; callers decide whether empty means "absent".
public enum GTFSValue {
    /// A decimal integer with an optional sign; nil on anything else or on overflow.
    @inline(__always)
    public static func int(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let n = bytes.count
        guard n > 0 else { return nil }
        var negative = false
        if bytes[0] == 0x2D || bytes[0] == 0x2B {
            negative = bytes[0] == 0x2D
            i = 1
            guard n > 1 else { return nil }
        }
        var value = 0
        while i < n {
            let d = Int(bytes[i]) &- 0x30
            guard d >= 0, d <= 9 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            value = sum
            i += 1
        }
        return negative ? -value : value
    }

    /// A decimal number (`-33.8688`, `1e3`); nil when not entirely a finite number.
    public static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        let n = bytes.count
        guard n > 0, n < 64 else { return nil }
        // Fast path for the common plain form [-]digits[.digits] with few digits: exact for ≤ 15 digits.
        if let value = simpleDecimal(bytes) { return value }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { text in
            for i in 0..<n { text[i] = CChar(bitPattern: bytes[i]) }
            text[n] = 0
            var endPointer: UnsafeMutablePointer<CChar>?
            let value = strtod(text.baseAddress!, &endPointer)
            guard let endPointer, endPointer - text.baseAddress! == n, value.isFinite else { return nil }
            return value
        }
    }

    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
        1e13, 1e14, 1e15,
    ]

    /// `[-+]digits[.digits]` with at most 15 significant digits: integer mantissa / power of ten, which is
    /// correctly rounded (both are exact doubles). nil for anything else (left to strtod).
    @inline(__always)
    private static func simpleDecimal(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var i = 0
        let n = bytes.count
        var negative = false
        if bytes[0] == 0x2D || bytes[0] == 0x2B {
            negative = bytes[0] == 0x2D
            i = 1
        }
        var mantissa = 0
        var digits = 0
        var fraction = 0
        var seenDot = false
        var any = false
        while i < n {
            let c = bytes[i]
            if c == 0x2E {
                if seenDot { return nil }
                seenDot = true
            } else {
                let d = Int(c) &- 0x30
                guard d >= 0, d <= 9 else { return nil }
                any = true
                if mantissa != 0 || d != 0 { digits += 1 }
                if digits > 15 { return nil }
                mantissa = mantissa * 10 + d
                if seenDot { fraction += 1 }
            }
            i += 1
        }
        guard any, fraction <= 15 else { return nil }
        let value = Double(mantissa) / powersOfTen[fraction]
        return negative ? -value : value
    }

    /// A GTFS time `H:MM:SS` or `HH:MM:SS` (hours may exceed 24) as seconds; nil when malformed
    /// (minutes or seconds above 59, missing parts).
    @inline(__always)
    public static func time(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let n = bytes.count
        guard n >= 7 else { return nil }
        // The last six bytes are ":MM:SS"; everything before them is the hours.
        let hourDigits = n - 6
        guard hourDigits <= 3, bytes[n - 6] == 0x3A, bytes[n - 3] == 0x3A else { return nil }
        var hours = 0
        for i in 0..<hourDigits {
            let d = Int(bytes[i]) &- 0x30
            guard d >= 0, d <= 9 else { return nil }
            hours = hours * 10 + d
        }
        guard let minutes = twoDigits(bytes, n - 5), minutes < 60,
            let seconds = twoDigits(bytes, n - 2), seconds < 60
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// True when every byte is below 0x80 (8 bytes at a time): such text needs no UTF-8 validation.
    @inline(__always)
    public static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        guard n > 0 else { return true }
        let base = bytes.baseAddress!
        var i = 0
        var any: UInt64 = 0
        while i + 8 <= n {
            any |= base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < n {
            any |= UInt64(base.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
        return any & 0x8080_8080_8080_8080 == 0
    }

    /// A GTFS date `YYYYMMDD` as the integer YYYYMMDD; nil unless 8 digits with month 1–12 and day 1–31.
    public static func date(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count == 8, let value = int(bytes), value > 0 else { return nil }
        let month = value / 100 % 100
        let day = value % 100
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return value
    }

    @inline(__always)
    private static func twoDigits(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> Int? {
        let a = Int(bytes[at]) &- 0x30
        let b = Int(bytes[at + 1]) &- 0x30
        guard a >= 0, a <= 9, b >= 0, b <= 9 else { return nil }
        return a * 10 + b
    }
}

/// Typed accessors for the current record. Empty fields (or missing columns) read as nil; malformed values
/// throw a `CSVError` naming file, line, column and the offending text.
extension CSVReader {
    /// The field as a String ("" when empty). Bytes that are not UTF-8 are an `invalidUTF8` issue; when the
    /// handler lets the reader go on they read as U+FFFD.
    public func string(_ column: CSVColumn) throws -> String {
        let raw = bytes(column)
        return raw.isEmpty ? "" : try text(raw, column)
    }

    /// The field as a String, nil when empty.
    public func optionalString(_ column: CSVColumn) throws -> String? {
        let raw = bytes(column)
        return raw.isEmpty ? nil : try text(raw, column)
    }

    /// Checks that the field is UTF-8 text without making a String (for bytes the caller keeps and turns into
    /// text later): an `invalidUTF8` issue when not.
    public func checkText(_ column: CSVColumn) throws {
        let raw = bytes(column)
        if !GTFSValue.isASCII(raw), String(validating: raw, as: UTF8.self) == nil { try reportInvalidText(column) }
    }

    @inline(__always)
    private func text(_ raw: UnsafeRawBufferPointer, _ column: CSVColumn) throws -> String {
        if GTFSValue.isASCII(raw) { return String(decoding: raw, as: UTF8.self) }
        if let valid = String(validating: raw, as: UTF8.self) { return valid }
        try reportInvalidText(column)
        return String(decoding: raw, as: UTF8.self)
    }

    public func isEmpty(_ column: CSVColumn) -> Bool { bytes(column).isEmpty }

    /// The field as an integer, nil when empty.
    public func int(_ column: CSVColumn) throws -> Int? {
        let raw = bytes(column)
        if raw.isEmpty { return nil }
        guard let value = GTFSValue.int(raw) else { throw badValue("integer", raw, column) }
        return value
    }

    /// The field as an integer, `defaultValue` when empty.
    public func int(_ column: CSVColumn, default defaultValue: Int) throws -> Int {
        try int(column) ?? defaultValue
    }

    /// The field as an integer; an error when empty.
    public func requiredInt(_ column: CSVColumn) throws -> Int {
        guard let value = try int(column) else { throw missingValue(column) }
        return value
    }

    /// The field as a number, nil when empty.
    public func double(_ column: CSVColumn) throws -> Double? {
        let raw = bytes(column)
        if raw.isEmpty { return nil }
        guard let value = GTFSValue.double(raw) else { throw badValue("number", raw, column) }
        return value
    }

    /// The field as a GTFS time in seconds (`25:10:00` → 90600), nil when empty.
    public func time(_ column: CSVColumn) throws -> Int? {
        let raw = bytes(column)
        if raw.isEmpty { return nil }
        guard let value = GTFSValue.time(raw) else { throw badValue("time (expected H:MM:SS)", raw, column) }
        return value
    }

    /// The field as a GTFS date YYYYMMDD, nil when empty.
    public func date(_ column: CSVColumn) throws -> Int? {
        let raw = bytes(column)
        if raw.isEmpty { return nil }
        guard let value = GTFSValue.date(raw) else { throw badValue("date (expected YYYYMMDD)", raw, column) }
        return value
    }

    /// An error "missing value" for a required field that is empty.
    public func missingValue(_ column: CSVColumn) -> CSVError {
        error("missing value for required column \"\(column.name)\"", column: column)
    }

    private func badValue(_ kind: String, _ raw: UnsafeRawBufferPointer, _ column: CSVColumn) -> CSVError {
        let text = String(decoding: raw.prefix(40), as: UTF8.self)
        return error("bad \(kind) \"\(text)\"", column: column)
    }
}
