/// Memory estimates of cache entries taken from the values' real layouts (RELIABILITY.md "Cache bytes"), so that
/// what a cache counts against `--max-cache-bytes` follows the RSS: guessed constants (a visit key at 96 bytes,
/// a trip list at 64 a stop) let a fill of trip answers grow the RSS 3.9 × what was counted.
enum EntryBytes {
    /// A dictionary slot holding a `K` and a `V`: twice their strides, since a `Dictionary` keeps a power-of-two
    /// capacity at most 3/4 full (between 3/8 and 3/4 on average as it grows).
    static func slot<K, V>(_: K.Type, _: V.Type) -> Int {
        2 * (MemoryLayout<K>.stride + MemoryLayout<V>.stride)
    }

    /// A string's heap allocation: none up to 15 UTF-8 bytes (kept inline), else a 32-byte header and the bytes,
    /// as malloc rounds them (16-byte steps, 16 bytes of its own).
    static func heap(_ string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : malloc(32 + count + 1)
    }

    /// An array's allocation of `count` elements of `T` (a 32-byte header).
    static func array<T>(_ count: Int, of _: T.Type) -> Int {
        malloc(32 + count * MemoryLayout<T>.stride)
    }

    /// What malloc takes for a request of `bytes`: rounded up to 16 plus its own 16.
    static func malloc(_ bytes: Int) -> Int { (bytes + 15) & ~15 + 16 }
}
