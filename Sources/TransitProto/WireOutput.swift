// Protobuf wire primitives for the few messages written without protobuf-c (see TripSchedulesWire): the
// caller sizes the whole message first, then writes it into exactly that many bytes.
//
// The output must be what protobuf-c would write for the same message, byte for byte (tests compare):
// fields in field-number order, int32 as a sign-extended varint (10 bytes when negative), strings cut at
// the first NUL (protobuf-c measures them with strlen).

import TransitCore

/// Byte counts of wire encodings.
enum WireSize {
    @inline(__always)
    static func varint(_ value: UInt64) -> Int { Varint.size(value) }

    @inline(__always)
    static func int32(_ value: Int32) -> Int { varint(UInt64(bitPattern: Int64(value))) }

    @inline(__always)
    static func tag(_ field: Int) -> Int { varint(UInt64(field) << 3) }

    /// A varint field: tag and value.
    @inline(__always)
    static func varintField(_ field: Int, _ value: UInt64) -> Int { tag(field) + varint(value) }

    @inline(__always)
    static func int32Field(_ field: Int, _ value: Int32) -> Int { tag(field) + int32(value) }

    /// A length-delimited field (string, sub-message) whose body is `length` bytes.
    @inline(__always)
    static func delimited(_ field: Int, _ length: Int) -> Int { tag(field) + varint(UInt64(length)) + length }

    static func string(_ field: Int, _ s: String) -> Int { delimited(field, wireLength(s)) }

    /// The bytes of `s` protobuf-c would send: its UTF-8 up to the first NUL.
    @inline(__always)
    static func wireLength(_ s: String) -> Int {
        if let n = s.utf8.withContiguousStorageIfAvailable(lengthBeforeNUL) { return n }
        return Array(s.utf8).withUnsafeBufferPointer(lengthBeforeNUL)  // not reached for native strings
    }

    @inline(__always)
    static func lengthBeforeNUL(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        while i < utf8.count, utf8[i] != 0 { i += 1 }
        return i
    }
}

/// Writes wire encodings at a cursor into memory the caller sized with `WireSize`.
struct WireOutput {
    private(set) var cursor: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { cursor = start }

    @inline(__always)
    mutating func varint(_ value: UInt64) { cursor = Varint.write(value, at: cursor) }

    @inline(__always)
    mutating func tag(_ field: Int, wireType: UInt64) { varint(UInt64(field) << 3 | wireType) }

    /// One byte as is (a frame's separator).
    @inline(__always)
    mutating func byte(_ value: UInt8) {
        cursor.pointee = value
        cursor += 1
    }

    /// The UTF-8 of `s`, without tag or length (a frame's topic).
    mutating func raw(_ s: String) {
        for byte in s.utf8 { self.byte(byte) }
    }

    @inline(__always)
    mutating func varintField(_ field: Int, _ value: UInt64) {
        tag(field, wireType: 0)
        varint(value)
    }

    @inline(__always)
    mutating func int32Field(_ field: Int, _ value: Int32) { varintField(field, UInt64(bitPattern: Int64(value))) }

    /// The tag and length of a length-delimited field; its `length` bytes follow.
    @inline(__always)
    mutating func delimitedHeader(_ field: Int, _ length: Int) {
        tag(field, wireType: 2)
        varint(UInt64(length))
    }

    mutating func string(_ field: Int, _ s: String) { string(field, s, length: WireSize.wireLength(s)) }

    /// `s` whose `WireSize.wireLength` is already known.
    @inline(__always)
    mutating func string(_ field: Int, _ s: String, length: Int) {
        delimitedHeader(field, length)
        guard length > 0 else { return }
        if s.utf8.withContiguousStorageIfAvailable({ utf8 in
            cursor.update(from: utf8.baseAddress!, count: length)
        }) == nil {
            Array(s.utf8).withUnsafeBufferPointer { cursor.update(from: $0.baseAddress!, count: length) }
        }
        cursor += length
    }
}
