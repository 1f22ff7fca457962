// The arena behind every encode and decode: aligned, contents intact across chunks, exact string copies.
import Testing
import TransitProto

@Suite struct ArenaTests {
    @Test func allocationsAreAlignedAndDoNotOverlap() {
        ProtoArena.with(capacity: 64) { arena in
            var blocks: [(UnsafeMutableRawPointer, Int)] = []
            // Odd sizes and one larger than any chunk so far force several chunks.
            for (i, size) in [1, 3, 17, 100, 5, 10_000, 7, 64, 1].enumerated() {
                let p = arena.allocate(byteCount: size)
                #expect(Int(bitPattern: p) % 16 == 0, "allocation \(i) misaligned")
                p.initializeMemory(as: UInt8.self, repeating: UInt8(i), count: size)
                blocks.append((p, size))
            }
            // Writing later blocks must not have touched earlier ones.
            for (i, (p, size)) in blocks.enumerated() {
                let bytes = UnsafeRawBufferPointer(start: p, count: size)
                #expect(bytes.allSatisfy { $0 == UInt8(i) }, "block \(i) overwritten")
            }
        }
    }

    @Test(arguments: ["", "a", "exactly fifteen", Fixtures.unicodeName, String(repeating: "ü🚆", count: 5_000)])
    func stringCopiesAreExactAndTerminated(_ s: String) {
        ProtoArena.with { arena in
            let c = arena.string(s)
            #expect(String(cString: c) == s)
            #expect(c[s.utf8.count] == 0)
            #expect(arena.string(nil as String?) == nil)
        }
    }

    @Test func repeatedHelpers() {
        ProtoArena.with { arena in
            let (n0, p0) = arena.values([UInt32]())
            #expect(n0 == 0 && p0 == nil)
            let (n1, p1) = arena.values([UInt32(20250101), 7, .max])
            #expect(n1 == 3)
            #expect(Array(UnsafeBufferPointer(start: p1, count: n1)) == [20250101, 7, .max])

            let (n2, p2) = arena.strings([])
            #expect(n2 == 0 && p2 == nil)
            let strings = ["x", "", Fixtures.unicodeName]
            let (n3, p3) = arena.strings(strings)
            #expect(n3 == 3)
            #expect((0..<n3).map { String(cString: p3![$0]!) } == strings)
        }
    }
}
