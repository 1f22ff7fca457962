#if canImport(Glibc)
import Glibc
#endif

/// The process's memory as the kernel sees it: its resident size (for `stats`), and giving freed heap memory
/// back (the realtime service after a large feed: its malloc keeps freed memory for speed, so without a trim
/// the resident size stays at the peak of the largest feed ever decoded).
public enum ProcessMemory {
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
