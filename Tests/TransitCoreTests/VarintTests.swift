import Testing
import TransitCore

@Suite struct VarintTests {
    /// The values at the edges of each length and their bytes.
    static let edges: [(value: UInt64, wire: [UInt8])] = [
        (0, [0x00]),
        (1, [0x01]),
        (127, [0x7F]),
        (128, [0x80, 0x01]),
        (300, [0xAC, 0x02]),
        (16_383, [0xFF, 0x7F]),
        (16_384, [0x80, 0x80, 0x01]),
        (1 << 32, [0x80, 0x80, 0x80, 0x80, 0x10]),
        (.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    /// Each written three ways (appended, at a pointer, sized) and read back.
    @Test(arguments: edges)
    func roundTrips(value: UInt64, wire: [UInt8]) {
        var appended: [UInt8] = []
        Varint.append(value, to: &appended)
        #expect(appended == wire)
        #expect(Varint.size(value) == wire.count)

        var written = [UInt8](repeating: 0xEE, count: 12)
        let end = written.withUnsafeMutableBufferPointer { buffer in
            Varint.write(value, at: buffer.baseAddress!) - buffer.baseAddress!
        }
        #expect(end == wire.count)
        #expect(Array(written[..<end]) == wire && written[end] == 0xEE)

        (wire + [0x2A]).withUnsafeBytes { bytes in
            var offset = 0
            #expect(Varint.read(bytes, at: &offset) == value)
            #expect(offset == wire.count)
            #expect(Varint.read(bytes, at: &offset) == 42 && offset == wire.count + 1)
        }
    }

    @Test func sizesAtEveryLength() {
        for bytes in 1...9 {
            let last = (UInt64(1) << (7 * bytes)) - 1
            #expect(Varint.size(last) == bytes && Varint.size(last + 1) == bytes + 1)
        }
        #expect(Varint.size(.max) == 10)
    }

    @Test func cutOffOrTooLongIsNil() {
        func read(_ wire: [UInt8], end: Int? = nil, maxBytes: Int = 10) -> (UInt64?, Int) {
            wire.withUnsafeBytes { bytes in
                var offset = 0
                let value = Varint.read(bytes, at: &offset, end: end ?? bytes.count, maxBytes: maxBytes)
                return (value, offset)
            }
        }
        #expect(read([]).0 == nil)
        #expect(read([0x80]).0 == nil)
        #expect(read([0xFF, 0xFF, 0xFF]).0 == nil)
        // Complete, but past the end it is given.
        #expect(read([0x80, 0x01], end: 1).0 == nil)
        // Eleven bytes: longer than protobuf allows.
        #expect(read([UInt8](repeating: 0x80, count: 10) + [0x01]).0 == nil)
        // protobuf-c's 5-byte limit for tags and lengths.
        #expect(read([0x80, 0x80, 0x80, 0x80, 0x80, 0x01], maxBytes: 5).0 == nil)
        #expect(read([0x80, 0x80, 0x80, 0x80, 0x01], maxBytes: 5) == (1 << 28, 5))
        // A tenth byte's bits beyond 64 are dropped (as protobuf does).
        #expect(read([UInt8](repeating: 0xFF, count: 9) + [0x7F]) == (.max, 10))
        // Redundant continuation bytes still read as the value.
        #expect(read([0x81, 0x80, 0x00]) == (1, 3))
    }

    /// Reading starts at the offset given and stops at `end`, not at the buffer's end.
    @Test func readsInsideARange() {
        ([0xFF, 0x96, 0x01, 0xFF] as [UInt8]).withUnsafeBytes { bytes in
            var offset = 1
            #expect(Varint.read(bytes, at: &offset, end: 3) == 150 && offset == 3)
        }
    }
}
