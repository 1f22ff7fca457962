// Protobuf wire primitives read from a byte range, never past its end. Used where the decoder looks at the
// wire itself rather than through protobuf-c: the split decode's layout, the wire check, and the payloads of
// Transport for NSW's extensions (which protobuf-c keeps as unknown fields).

import TransitCore

/// Reads protobuf wire primitives from `bytes[offset..<end]`.
struct WireReader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.init(bytes, 0..<bytes.count)
    }

    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        self.bytes = bytes
        self.offset = range.lowerBound
        self.end = range.upperBound
    }

    var atEnd: Bool { offset >= end }

    /// A varint of at most `maxBytes` bytes (protobuf allows 10; protobuf-c reads tags and lengths of at
    /// most 5); nil when it is longer or runs past the end.
    @inline(__always)
    mutating func varint(maxBytes: Int = 10) -> UInt64? {
        Varint.read(bytes, at: &offset, end: end, maxBytes: maxBytes)
    }

    /// The payload range of a length-delimited field whose length prefix is next.
    mutating func lengthDelimited() -> Range<Int>? {
        guard let length = varint(), length <= UInt64(end - offset) else { return nil }
        let range = offset..<(offset + Int(length))
        offset = range.upperBound
        return range
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count <= end - offset else { return false }
        offset += count
        return true
    }
}
