import Testing

@testable import TransitStore

@Suite struct ImportByteInternerTests {
    @Test func internsFindsAndSurvivesGrowth() {
        var interner = ByteInterner(capacity: 4)
        let ids = (0..<5_000).map { "stop-\($0 * 7919)" } + ["", "a", "a-very-long-identifier-beyond-fifteen-bytes"]
        for (i, id) in ids.enumerated() {
            let (index, inserted) = interner.intern(id)
            #expect(index == i)
            #expect(inserted)
        }
        #expect(interner.count == ids.count)
        for (i, id) in ids.enumerated() {
            #expect(interner.find(id) == i)
            #expect(interner.intern(id) == (i, false))
            #expect(interner.string(at: i) == id)
        }
        #expect(interner.find("stop-1") == nil)
        #expect(interner.find("stop-7919x") == nil)
        var copy = "stop-7919"
        copy.withUTF8 { bytes in
            #expect(interner.equals(1, UnsafeRawBufferPointer(bytes)))
            #expect(!interner.equals(2, UnsafeRawBufferPointer(bytes)))
        }
    }
}
