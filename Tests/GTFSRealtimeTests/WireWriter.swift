// Hand-made protobuf bytes for what our encoder cannot produce: missing required fields, unknown
// fields and extensions, out-of-range enum numbers.

struct WireWriter {
    var bytes: [UInt8] = []

    mutating func rawVarint(_ value: UInt64) {
        var v = value
        repeat {
            let byte = UInt8(v & 0x7F)
            v >>= 7
            bytes.append(v == 0 ? byte : byte | 0x80)
        } while v != 0
    }

    mutating func tag(_ field: Int, _ wireType: UInt64) { rawVarint(UInt64(field) << 3 | wireType) }

    mutating func varint(_ field: Int, _ value: UInt64) {
        tag(field, 0)
        rawVarint(value)
    }

    /// An int32/enum field: negative numbers take ten bytes, as protobuf sign-extends them.
    mutating func int32(_ field: Int, _ value: Int32) { varint(field, UInt64(bitPattern: Int64(value))) }

    mutating func fixed32(_ field: Int, _ value: UInt32) {
        tag(field, 5)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func bytesField(_ field: Int, _ value: [UInt8]) {
        tag(field, 2)
        rawVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ field: Int, _ value: String) { bytesField(field, Array(value.utf8)) }

    mutating func message(_ field: Int, _ build: (inout WireWriter) -> Void) {
        var inner = WireWriter()
        build(&inner)
        bytesField(field, inner.bytes)
    }

    static func build(_ build: (inout WireWriter) -> Void) -> [UInt8] {
        var w = WireWriter()
        build(&w)
        return w.bytes
    }

    /// A FeedMessage header with version "2.0".
    mutating func header(timestamp: UInt64 = 1_767_225_600) {
        message(1) { h in
            h.string(1, "2.0")
            h.varint(3, timestamp)
        }
    }
}
