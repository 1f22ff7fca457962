// A byte-level JSON writer for the gateway's answers.
//
// Hand-written on purpose: on this hot path (a departure board is 30 rows × 25 fields) JSONEncoder costs about
// 4× more (≈ 180 µs against ≈ 46 µs, measured when this writer was chosen) and JSONSerialization ≈ 35×.
// The writer appends UTF-8 straight into one growing buffer; commas are placed automatically, so callers only
// say "key, value". It does not check that objects and arrays are balanced: the encoders in this module do.

public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// True after a value (or a closed container) was written, so the next key or value needs a comma.
    private var needsComma = false

    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: structure

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key the code spells out: plain ASCII without quotes, backslashes or control characters, so it is
    /// copied without escaping.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A key from data (escaped like any string). Disfavoured, so that a literal key takes the copy above
    /// instead (a string literal would otherwise pick this overload: `String` is its default type).
    @_disfavoredOverload
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: values

    public mutating func null() {
        separate()
        appendASCII("null")
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        appendASCII(value ? "true" : "false")
        needsComma = true
    }

    public mutating func bool(_ value: Bool?) {
        if let value { bool(value) } else { null() }
    }

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func int(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude)
        needsComma = true
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }
    public mutating func int(_ value: Int32) { int(Int64(value)) }

    public mutating func int(_ value: UInt64) {
        separate()
        appendDigits(value)
        needsComma = true
    }

    public mutating func int(_ value: UInt32) { int(UInt64(value)) }

    public mutating func int(_ value: Int?) {
        if let value { int(Int64(value)) } else { null() }
    }

    public mutating func int(_ value: Int64?) {
        if let value { int(value) } else { null() }
    }

    /// Shortest round-trip decimal (Swift's `description` is locale-independent); NaN and ±infinity are
    /// not JSON and are written as null.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        appendASCII(value.description)
        needsComma = true
    }

    public mutating func double(_ value: Double?) {
        if let value { double(value) } else { null() }
    }

    /// A pre-encoded JSON value (e.g. a request's `id`, copied exactly as the client sent it).
    public mutating func raw(_ value: RawJSON) {
        separate()
        bytes.append(contentsOf: value.bytes)
        needsComma = true
    }

    /// A service date (YYYYMMDD) as the string "YYYYMMDD", zero-padded.
    public mutating func serviceDate(_ date: UInt32) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var divisor: UInt32 = 10_000_000
        var rest = date % 100_000_000
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func serviceDate(_ date: UInt32?) {
        if let date { serviceDate(date) } else { null() }
    }

    /// Appends a newline (the end of an answer line). Answers never contain a raw newline otherwise.
    public mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    // MARK: private

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendASCII(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func appendDigits(_ value: UInt64) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // A native string's bytes are read in place; only a bridged or small one is copied first.
        if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var value = value
            value.withUTF8 { appendEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Copies runs of plain bytes in one go; escapes `"`, `\`, control characters, and U+2028/U+2029 (valid
    /// JSON, but line terminators to JavaScript). Other non-ASCII passes through as UTF-8.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var i = 0
        let count = utf8.count
        while i < count {
            let byte = utf8[i]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0xE2 {
                i += 1
                continue
            }
            if byte == 0xE2 {
                // U+2028 / U+2029 are E2 80 A8 / E2 80 A9.
                guard i + 2 < count, utf8[i + 1] == 0x80, utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9 else {
                    i += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                appendASCII(utf8[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                i += 3
                runStart = i
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            switch byte {
            case 0x22: appendASCII("\\\"")
            case 0x5C: appendASCII("\\\\")
            case 0x0A: appendASCII("\\n")
            case 0x0D: appendASCII("\\r")
            case 0x09: appendASCII("\\t")
            case 0x08: appendASCII("\\b")
            case 0x0C: appendASCII("\\f")
            default:
                appendASCII("\\u00")
                bytes.append(JSONWriter.hexDigit(byte >> 4))
                bytes.append(JSONWriter.hexDigit(byte & 0x0F))
            }
            i += 1
            runStart = i
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// One JSON value kept as the exact bytes a client sent (a request's `id`), so big integers and odd but valid
/// spellings (`1.5e300`, `"\u00e9"`) come back untouched.
public struct RawJSON: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public static let null = RawJSON(bytes: Array("null".utf8))

    public var description: String { String(decoding: bytes, as: UTF8.self) }
}
