// A tiny protobuf writer for hand-made messages the codec itself would never produce (fields missing,
// unknown enum values), so the decoder's errors can be tested.

struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ field: Int, _ value: UInt64) {
        tag(field, wireType: 0)
        raw(value)
    }

    mutating func string(_ field: Int, _ value: String) {
        tag(field, wireType: 2)
        raw(UInt64(value.utf8.count))
        bytes += value.utf8
    }

    mutating func double(_ field: Int, _ value: Double) {
        tag(field, wireType: 1)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
    }

    mutating func message(_ field: Int, _ build: (inout WireWriter) -> Void) {
        var inner = WireWriter()
        build(&inner)
        tag(field, wireType: 2)
        raw(UInt64(inner.bytes.count))
        bytes += inner.bytes
    }

    private mutating func tag(_ field: Int, wireType: UInt64) { raw(UInt64(field) << 3 | wireType) }

    private mutating func raw(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
}
