// Protobuf's base-128 varint (protobuf.dev, "Encoding"): seven bits per byte, least significant first, the
// high bit set on every byte but the last. The one implementation of it: TransitProto's wire writer,
// GTFSRealtime's wire reader, DelayStore's histogram rows and the tests' WireWriter all call it. It lives in
// TransitCore because that module depends on nothing and every one of those may depend on it. @inlinable:
// the realtime encoder and decoder call it for every field.

/// Protobuf base-128 varints: how long one is, writing one, reading one.
public enum Varint {
    /// Bytes `value` takes as a varint: 1 (below 128) to 10 (64 bits need ten 7-bit groups).
    @inlinable @inline(__always)
    public static func size(_ value: UInt64) -> Int {
        value < 0x80 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    /// Appends `value` as a varint to `bytes`.
    @inlinable @inline(__always)
    public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    /// Writes `value` as a varint at `cursor`, which must have room for `size(value)` bytes; returns the
    /// position just past it.
    @inlinable @inline(__always)
    public static func write(_ value: UInt64, at cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var cursor = cursor
        var v = value
        while v >= 0x80 {
            cursor.pointee = UInt8(truncatingIfNeeded: v) | 0x80
            cursor += 1
            v >>= 7
        }
        cursor.pointee = UInt8(truncatingIfNeeded: v)
        return cursor + 1
    }

    /// Reads the varint at `offset` in `bytes[..<end]` and moves `offset` past it. nil when it runs past `end`
    /// or is longer than `maxBytes` (protobuf allows 10; protobuf-c reads tags and lengths of at most 5);
    /// `offset` is then somewhere inside it. The bits of a tenth byte beyond 64 are dropped, as protobuf does.
    @inlinable @inline(__always)
    public static func read(
        _ bytes: UnsafeRawBufferPointer, at offset: inout Int, end: Int, maxBytes: Int = 10
    ) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        let limit = min(end, offset + maxBytes)
        while offset < limit {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    /// Reads the varint at `offset` in `bytes` (at most 10 bytes) and moves `offset` past it; nil when it is
    /// cut off or longer.
    @inlinable @inline(__always)
    public static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        read(bytes, at: &offset, end: bytes.count)
    }
}
