// Where the header and each entity of a FeedMessage lie in its wire bytes, found by reading the top-level
// tags only (no nested message is looked into). Lets a big feed's entities be unpacked on several threads
// (see GTFSRealtimeCodec.decode): protobuf-c itself unpacks a message on one thread only.

/// The byte ranges of a FeedMessage's header and entities, in wire order.
struct FeedWireLayout: Equatable {
    /// The header's bytes.
    var header: Range<Int>
    /// The whole header field: tag, length and bytes.
    var headerField: Range<Int>
    var entities: [Range<Int>]

    /// Reads the top-level fields of `bytes`. Nil when the body is anything but plain: not exactly one
    /// header, a header or entity field not length-delimited, a group, a truncated field or an overlong
    /// varint. The caller then unpacks the whole message, which gives the same answer or the same error
    /// as before (protobuf-c merges repeated headers, refuses malformed bytes, ...).
    init?(_ bytes: UnsafeRawBufferPointer) {
        var reader = WireReader(bytes)
        var header: Range<Int>?
        var headerStart = 0
        var entities: [Range<Int>] = []
        while !reader.atEnd {
            let fieldStart = reader.offset
            guard let tag = reader.varint() else { return nil }
            let field = tag >> 3
            switch tag & 7 {
            case 2:
                guard let range = reader.lengthDelimited() else { return nil }
                if field == 1 {
                    guard header == nil else { return nil }
                    header = range
                    headerStart = fieldStart
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
        self.headerField = headerStart..<header.upperBound
        self.entities = entities
    }
}
