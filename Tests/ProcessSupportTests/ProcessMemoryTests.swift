import ProcessSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ProcessMemoryTests {
    @Test func residentSizeIsReadFromProc() throws {
        #if os(Linux)
        let resident = try #require(ProcessMemory.residentBytes())
        #expect(resident > 1 << 20 && resident < 64 << 30)
        #endif
    }

    /// Freed blocks in the middle of the heap stay resident until trimmed: 128 MiB of 64 KiB blocks (served
    /// from the heap, not mmap), all freed but the last (which keeps the heap's top from shrinking by itself).
    @Test func trimGivesFreedHeapMemoryBack() throws {
        #if os(Linux)
        let block = 64 << 10
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<(128 << 20) / block {
            let p = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 16)
            memset(p, 1, block)
            blocks.append(p)
        }
        for p in blocks.dropLast() { p.deallocate() }
        let before = try #require(ProcessMemory.residentBytes())
        #expect(ProcessMemory.trim())
        let after = try #require(ProcessMemory.residentBytes())
        blocks.last?.deallocate()
        // Generous slack: other suites' threads allocate too.
        #expect(before > after + (64 << 20), "resident before \(before >> 20) MiB, after \(after >> 20) MiB")
        #endif
    }
}
