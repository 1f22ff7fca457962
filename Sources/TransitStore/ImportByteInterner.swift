import Foundation

/// Maps byte strings (ids straight from CSV field bytes) to dense integers 0, 1, 2… without building a
/// String per lookup: the import looks up a stop id and a trip id for each of millions of stop_times rows.
/// Open addressing over a power-of-two table; keys are copied once into one byte arena.
struct ByteInterner {
    private var arena: [UInt8] = []
    /// Per key: arena offset << 24 | length (keys longer than 16 MiB are not ids).
    private var keys: [UInt64] = []
    /// Slot -> upper 32 bits of the key's hash << 32 | key index + 1 (0 = empty): probing compares hashes
    /// without touching another array, so a lookup costs about two cache misses (slot, arena).
    private var slots: [UInt64]
    private var mask: Int

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }

    var count: Int { keys.count }

    /// The index of `bytes`, or nil when not interned.
    @inline(__always)
    func find(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let hash = Self.hash(bytes)
        let tag = hash >> 32
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry >> 32 == tag {
                let index = Int(entry & 0xFFFF_FFFF) - 1
                if equals(index, bytes) { return index }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The index of `bytes`, interning it when new; `inserted` tells which.
    @inline(__always)
    mutating func intern(_ bytes: UnsafeRawBufferPointer) -> (index: Int, inserted: Bool) {
        let hash = Self.hash(bytes)
        let tag = hash >> 32
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry >> 32 == tag {
                let index = Int(entry & 0xFFFF_FFFF) - 1
                if equals(index, bytes) { return (index, false) }
            }
            slot = (slot + 1) & mask
        }
        let index = keys.count
        keys.append(UInt64(arena.count) << 24 | UInt64(min(bytes.count, 0xFF_FFFF)))
        arena.append(contentsOf: bytes.prefix(0xFF_FFFF))
        slots[slot] = tag << 32 | UInt64(index + 1)
        if keys.count * 2 > slots.count { grow() }
        return (index, true)
    }

    mutating func intern(_ string: String) -> (index: Int, inserted: Bool) {
        var copy = string
        return copy.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    func find(_ string: String) -> Int? {
        var copy = string
        return copy.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    /// The key at `index` as a String.
    func string(at index: Int) -> String {
        let start = Int(keys[index] >> 24), length = Int(keys[index] & 0xFF_FFFF)
        return arena.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + length]), as: UTF8.self)
        }
    }

    /// Whether key `index` equals `bytes` (cheap check before a lookup, e.g. the same trip as the last row).
    @inline(__always)
    func equals(_ index: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let key = keys[index]
        let length = Int(key & 0xFF_FFFF)
        guard length == bytes.count else { return false }
        if length == 0 { return true }
        let start = Int(key >> 24)
        return arena.withUnsafeBytes { memcmp($0.baseAddress! + start, bytes.baseAddress!, length) == 0 }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        for entry in old where entry != 0 {
            let index = Int(entry & 0xFFFF_FFFF) - 1
            let start = Int(keys[index] >> 24), length = Int(keys[index] & 0xFF_FFFF)
            let hash = arena.withUnsafeBytes { Self.hash(UnsafeRawBufferPointer(rebasing: $0[start..<start + length])) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }

    /// FNV-1a over 8-byte words with a final mix: fast for short ids, well spread for the table.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let n = bytes.count
        var i = 0
        while i + 8 <= n {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            h ^= h >> 29
            i += 8
        }
        while i < n {
            h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        h ^= UInt64(n)
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }
}
