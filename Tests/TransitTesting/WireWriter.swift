import TransitCore

/// Hand-made protobuf bytes for what the codecs under test never produce: missing required fields, unknown
/// fields and extensions, out-of-range enum numbers. Field by field, in the order written.
public struct WireWriter {
    public var bytes: [UInt8] = []

    public init() {}

    /// A base-128 varint without a tag.
    public mutating func rawVarint(_ value: UInt64) { Varint.append(value, to: &bytes) }

    /// A field's key: its number and wire type (0 varint, 1 64-bit, 2 length-delimited, 3/4 group, 5 32-bit).
    public mutating func tag(_ field: Int, _ wireType: UInt64) { rawVarint(UInt64(field) << 3 | wireType) }

    public mutating func varint(_ field: Int, _ value: UInt64) {
        tag(field, 0)
        rawVarint(value)
    }

    /// An int32/enum field: negative numbers take ten bytes, as protobuf sign-extends them.
    public mutating func int32(_ field: Int, _ value: Int32) { varint(field, UInt64(bitPattern: Int64(value))) }

    public mutating func fixed32(_ field: Int, _ value: UInt32) {
        tag(field, 5)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func double(_ field: Int, _ value: Double) {
        tag(field, 1)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func bytesField(_ field: Int, _ value: [UInt8]) {
        tag(field, 2)
        rawVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    public mutating func string(_ field: Int, _ value: String) { bytesField(field, Array(value.utf8)) }

    /// An embedded message written by `build`.
    public mutating func message(_ field: Int, _ build: (inout WireWriter) -> Void) {
        var inner = WireWriter()
        build(&inner)
        bytesField(field, inner.bytes)
    }

    /// The bytes of a message written by `build`.
    public static func build(_ build: (inout WireWriter) -> Void) -> [UInt8] {
        var w = WireWriter()
        build(&w)
        return w.bytes
    }
}
