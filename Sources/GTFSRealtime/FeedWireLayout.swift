// Where the header and each entity of a FeedMessage lie in its wire bytes, found by reading the top-level
// tags only (no nested message is looked into). Lets a big feed's entities be unpacked on several threads
// (see GTFSRealtimeCodec.decode): protobuf-c itself unpacks a message on one thread only.

/// The byte ranges of a FeedMessage's header and entities, in wire order.
struct FeedWireLayout: Equatable {
    var header: Range<Int>
    var entities: [Range<Int>]

    /// Reads the top-level fields of `bytes`. Nil when the body is anything but plain: not exactly one
    /// header, a header or entity field not length-delimited, a group, a truncated field or an overlong
    /// varint. The caller then unpacks the whole message, which gives the same answer or the same error
    /// as before (protobuf-c merges repeated headers, refuses malformed bytes, ...).
    init?(_ bytes: UnsafeRawBufferPointer) {
        var reader = WireReader(bytes)
        var header: Range<Int>?
        var entities: [Range<Int>] = []
        while !reader.atEnd {
            guard let tag = reader.varint() else { return nil }
            let field = tag >> 3
            switch tag & 7 {
            case 2:
                guard let range = reader.lengthDelimited() else { return nil }
                if field == 1 {
                    guard header == nil else { return nil }
                    header = range
                } else if field == 2 {
                    entities.append(range)
                }
            case 0 where field > 2:
                guard reader.varint() != nil else { return nil }
            case 1 where field > 2:
                guard reader.skip(8) else { return nil }
            case 5 where field > 2:
                guard reader.skip(4) else { return nil }
            default:
                return nil  // groups, or the header/entity field with another wire type
            }
        }
        guard let header else { return nil }
        self.header = header
        self.entities = entities
    }
}

/// Reads protobuf wire primitives from a buffer, never past its end.
private struct WireReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { offset >= bytes.count }

    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0 as UInt64, to: 70, by: 7) {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
        }
        return nil  // more than 10 bytes
    }

    mutating func lengthDelimited() -> Range<Int>? {
        guard let length = varint(), length <= UInt64(bytes.count - offset) else { return nil }
        let range = offset..<(offset + Int(length))
        offset = range.upperBound
        return range
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count <= bytes.count - offset else { return false }
        offset += count
        return true
    }
}
