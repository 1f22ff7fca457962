// A byte-level JSON writer for the gateway's answers.
//
// Hand-written on purpose: on this hot path (a departure board is 30 rows × 25 fields) JSONEncoder costs about
// 4× more (≈ 180 µs against ≈ 46 µs, measured when this writer was chosen) and JSONSerialization ≈ 35×.
// The writer puts UTF-8 straight into one buffer; commas are placed automatically, so callers only say
// "key, value". It does not check that objects and arrays are balanced: the encoders in this module do.
//
// The buffer is an array kept at its full capacity, written through a pointer with the used length kept
// apart: each call checks room once and copies its bytes in one go. Appending byte by byte to an `Array`
// checked uniqueness and capacity for every byte (a key was five appends), about half of the encoding's
// cost in a profile of the gateway under load.

public struct JSONWriter: Sendable {
    /// Zero-filled beyond `count`; `count` bytes are the JSON so far.
    private var storage: [UInt8]
    /// Bytes written.
    public private(set) var count = 0
    /// True after a value (or a closed container) was written, so the next key or value needs a comma.
    private var needsComma = false

    public init(capacity: Int = 1024) {
        storage = [UInt8](repeating: 0, count: max(capacity, 64))
    }

    /// The JSON written so far.
    public var bytes: [UInt8] { Array(storage[..<count]) }

    /// The JSON written, without a copy; the writer is used up.
    public consuming func finish() -> [UInt8] {
        storage.removeSubrange(count...)
        return storage
    }

    /// The JSON written, in an array of its own size: for answers kept in a cache (`finish` hands over the
    /// writer's whole capacity, often twice the JSON).
    public consuming func finishCompact() -> [UInt8] {
        Array(storage[..<count])
    }

    // MARK: structure

    public mutating func beginObject() {
        put(UInt8(ascii: "{"), separated: true)
        needsComma = false
    }

    public mutating func endObject() {
        put(UInt8(ascii: "}"), separated: false)
        needsComma = true
    }

    public mutating func beginArray() {
        put(UInt8(ascii: "["), separated: true)
        needsComma = false
    }

    public mutating func endArray() {
        put(UInt8(ascii: "]"), separated: false)
        needsComma = true
    }

    /// A key the code spells out: plain ASCII without quotes, backslashes or control characters, so it is
    /// copied without escaping.
    public mutating func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        let comma = needsComma
        count = storage.withUnsafeMutableBufferPointer { p in
            var i = count
            if comma {
                p[i] = UInt8(ascii: ",")
                i += 1
            }
            p[i] = UInt8(ascii: "\"")
            (p.baseAddress! + i + 1).update(from: name.utf8Start, count: length)
            i += length + 1
            p[i] = UInt8(ascii: "\"")
            p[i + 1] = UInt8(ascii: ":")
            return i + 2
        }
        needsComma = false
    }

    /// A key from data (escaped like any string). Disfavoured, so a literal key picks the `StaticString`
    /// overload above (a string literal would otherwise default to `String` and be scanned for escapes).
    @_disfavoredOverload
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        put(UInt8(ascii: ":"), separated: false)
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
        if value { appendASCII("true" as StaticString) } else { appendASCII("false" as StaticString) }
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
        appendInteger(value.magnitude, negative: value < 0)
        needsComma = true
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }
    public mutating func int(_ value: Int32) { int(Int64(value)) }

    public mutating func int(_ value: UInt64) {
        separate()
        appendInteger(value, negative: false)
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

    /// Pre-encoded members of the object being written (`"key":value` pairs joined by commas, no braces).
    public mutating func members(_ encoded: [UInt8]) {
        encoded.withUnsafeBufferPointer { members($0) }
    }

    /// `members` from bytes held elsewhere (a departure's cached encoding).
    public mutating func members(_ encoded: UnsafeBufferPointer<UInt8>) {
        guard !encoded.isEmpty else { return }
        separate()
        appendBytes(encoded)
        needsComma = true
    }

    /// A pre-encoded JSON value (e.g. a request's `id`, copied exactly as the client sent it).
    public mutating func raw(_ value: RawJSON) {
        separate()
        value.bytes.withUnsafeBufferPointer { appendBytes($0) }
        needsComma = true
    }

    /// A service date (YYYYMMDD) as the string "YYYYMMDD", zero-padded.
    public mutating func serviceDate(_ date: UInt32) {
        separate()
        reserve(10)
        count = storage.withUnsafeMutableBufferPointer { p in
            let start = count
            p[start] = UInt8(ascii: "\"")
            var rest = date % 100_000_000
            for i in stride(from: start + 8, through: start + 1, by: -1) {
                p[i] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            p[start + 9] = UInt8(ascii: "\"")
            return start + 10
        }
        needsComma = true
    }

    public mutating func serviceDate(_ date: UInt32?) {
        if let date { serviceDate(date) } else { null() }
    }

    /// Appends a newline (the end of an answer line). Answers never contain a raw newline otherwise.
    public mutating func newline() {
        put(UInt8(ascii: "\n"), separated: false)
    }

    // MARK: private

    /// Room for `extra` more bytes (the array grows at least twofold, as `append` would).
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > storage.count { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        let wanted = max(count + extra, storage.count * 2)
        storage.append(contentsOf: repeatElement(0, count: wanted - storage.count))
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { put(UInt8(ascii: ","), separated: false) }
    }

    /// One byte, after a comma when `separated` and one is due.
    @inline(__always)
    private mutating func put(_ byte: UInt8, separated: Bool) {
        reserve(2)
        let comma = separated && needsComma
        count = storage.withUnsafeMutableBufferPointer { p in
            var i = count
            if comma {
                p[i] = UInt8(ascii: ",")
                i += 1
            }
            p[i] = byte
            return i + 1
        }
    }

    private mutating func appendBytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard !source.isEmpty else { return }
        reserve(source.count)
        count = storage.withUnsafeMutableBufferPointer { p in
            (p.baseAddress! + count).update(from: source.baseAddress!, count: source.count)
            return count + source.count
        }
    }

    private mutating func appendASCII(_ text: StaticString) {
        appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @_disfavoredOverload
    private mutating func appendASCII(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes($0) }
    }

    /// Decimal digits, after a minus sign when `negative`.
    private mutating func appendInteger(_ value: UInt64, negative: Bool) {
        reserve(21)
        count = storage.withUnsafeMutableBufferPointer { p in
            var i = count
            if negative {
                p[i] = UInt8(ascii: "-")
                i += 1
            }
            var digits = 1
            var probe = value
            while probe >= 10 {
                probe /= 10
                digits += 1
            }
            var rest = value
            var at = i + digits - 1
            repeat {
                p[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                at -= 1
            } while rest > 0
            return i + digits
        }
    }

    private mutating func appendQuoted(_ value: String) {
        put(UInt8(ascii: "\""), separated: false)
        // A native string's bytes are read in place; only a bridged or small one is copied first.
        if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var value = value
            value.withUTF8 { appendEscaped($0) }
        }
        put(UInt8(ascii: "\""), separated: false)
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
                appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                appendASCII(utf8[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                i += 3
                runStart = i
                continue
            }
            appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
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
                put(JSONWriter.hexDigit(byte >> 4), separated: false)
                put(JSONWriter.hexDigit(byte & 0x0F), separated: false)
            }
            i += 1
            runStart = i
        }
        appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
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
