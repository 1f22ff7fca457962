/// The distinct stop patterns, each stored once as 4 words per stop (stop | stop_sequence, arrival |
/// departure offset, flags | headsign id, shape_dist_traveled bits). Trips whose words are equal share the
/// pattern; lookups hash the words and compare exactly.
struct PatternTable {
    /// Stands for "no shape_dist_traveled" (a NaN payload no real distance has).
    static let noDistance = Int64(bitPattern: 0x7FF8_DEAD_0000_0001)

    private var storage: [Int64] = []
    private var offsets: [Int] = [0]
    private var byHash: [UInt64: Int32] = [:]
    /// Next pattern with the same hash (-1 = none).
    private var sameHash: [Int32] = []
    /// Trips using each pattern.
    var tripCounts: [Int] = []

    var count: Int { tripCounts.count }

    func words(of pattern: Int) -> ArraySlice<Int64> {
        storage[offsets[pattern]..<offsets[pattern + 1]]
    }

    /// `stop` index (0-based into the import's stops) at each position of `pattern`.
    func stops(of pattern: Int) -> [Int] {
        stride(from: offsets[pattern], to: offsets[pattern + 1], by: 4).map { Int(storage[$0] >> 32) }
    }

    mutating func findOrInsert(_ key: [Int64]) -> (pattern: Int, inserted: Bool) {
        let hash = key.withUnsafeBytes { ByteInterner.hash($0) }
        var candidate = byHash[hash] ?? -1
        while candidate >= 0 {
            let start = offsets[Int(candidate)], end = offsets[Int(candidate) + 1]
            if end - start == key.count, storage[start..<end].elementsEqual(key) {
                return (Int(candidate), false)
            }
            candidate = sameHash[Int(candidate)]
        }
        let pattern = tripCounts.count
        storage.append(contentsOf: key)
        offsets.append(storage.count)
        tripCounts.append(0)
        sameHash.append(byHash[hash] ?? -1)
        byHash[hash] = Int32(pattern)
        return (pattern, true)
    }
}
