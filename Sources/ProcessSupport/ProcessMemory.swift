#if canImport(Glibc)
import Glibc
#endif

/// The process's memory as the kernel sees it: its resident size (for `stats`), and giving freed heap memory
/// back (the realtime service after a large feed: its malloc keeps freed memory for speed, so without a trim
/// the resident size stays at the peak of the largest feed ever decoded).
public enum ProcessMemory {
    private static let mTrimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in <malloc.h>
    private static let mMmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD

    /// glibc's malloc tuning for a process that decodes big feeds again and again: keep freed memory instead of
    /// returning it to the kernel every time (GTFSRealtimeCodec.decode's note: halves the decode time). Such a
    /// process calls `trim()` after a large feed, or its resident size stays at the largest feed's peak.
    public static func keepFreedMemory() {
        #if canImport(Glibc)
        // `mallopt` is not in Swift's Glibc module (malloc.h is not part of it), so it is looked up by name.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(mMmapThreshold, 32 << 20)
        _ = mallopt(mTrimThreshold, 256 << 20)
        #endif
    }

    /// Returns free heap memory to the kernel (glibc's `malloc_trim(0)`); false where that does not exist.
    @discardableResult
    public static func trim() -> Bool {
        #if canImport(Glibc)
        // malloc.h is not part of Swift's Glibc module, so the function is looked up by name.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return false }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        return true
        #else
        return false
        #endif
    }

    /// The process's resident set size in bytes (/proc/self/statm), nil where there is no /proc.
    public static func residentBytes() -> UInt64? {
        #if canImport(Glibc)
        // "size resident shared ..." in pages.
        guard let file = fopen("/proc/self/statm", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = fread(&buffer, 1, buffer.count, file)
        let fields = buffer[..<count].split(separator: 0x20)
        guard fields.count > 1, let pages = UInt64(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }
}
