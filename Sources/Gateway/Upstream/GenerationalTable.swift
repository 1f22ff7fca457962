/// A bounded map that forgets in bulk and cheaply, for cache tables read under a lock by every answer.
/// Entries are written to the young generation; when it holds `generationSize` entries or `generationBytes`
/// bytes (each entry's size as its writer estimates it), the old generation is let go whole and the young one
/// takes its place: constant work under the lock. (A pass choosing what to drop over a
/// full table of 100,000–200,000 typical-delay entries held that lock for 46–178 ms, and every answer needing a typical
/// delay waited: at 5,000 requests/s the gateway ran out of in-flight room and answered OVERLOADED.)
/// An entry read from the old generation moves to the young one, so entries in use stay and an entry goes
/// only after a whole generation without a read. Holds at most `2 × generationSize` entries and about
/// `2 × generationBytes` bytes (one entry more).
///
/// A generation let go is handed back (`Dropped`) so that the caller releases it after unlocking.
struct GenerationalTable<Key: Hashable, Value> {
    typealias Dropped = [Key: Sized]?

    /// A value and the bytes it was counted for.
    struct Sized {
        var value: Value
        var bytes: Int
    }

    let generationSize: Int
    let generationBytes: Int
    private var young: [Key: Sized] = [:]
    private var old: [Key: Sized] = [:]
    private var youngBytes = 0
    private var oldBytes = 0

    init(generationSize: Int, generationBytes: Int = .max) {
        precondition(generationSize > 0 && generationBytes > 0)
        self.generationSize = generationSize
        self.generationBytes = generationBytes
    }

    var count: Int { young.count + old.count }
    /// The bytes of the entries held, as their writers counted them.
    var bytes: Int { youngBytes + oldBytes }

    /// The entry, moved to the young generation when it was in the old one.
    mutating func get(_ key: Key, dropped: inout Dropped) -> Value? {
        if let sized = young[key] { return sized.value }
        guard let sized = old.removeValue(forKey: key) else { return nil }
        oldBytes -= sized.bytes
        set(key, sized.value, bytes: sized.bytes, dropped: &dropped)
        return sized.value
    }

    /// Keeps `value` under `key`, counted as `bytes` (its key's and its own, estimated by the caller in
    /// constant time or as part of making the value).
    mutating func set(_ key: Key, _ value: Value, bytes: Int = 0, dropped: inout Dropped) {
        if let replaced = young.updateValue(Sized(value: value, bytes: bytes), forKey: key) {
            youngBytes += bytes - replaced.bytes
            return
        }
        youngBytes += bytes
        if let stale = old.removeValue(forKey: key) { oldBytes -= stale.bytes }
        if young.count >= generationSize || youngBytes >= generationBytes {
            // Kept for the caller to release outside its lock; two turns under one lock keep the last.
            dropped = old
            old = young
            oldBytes = youngBytes
            young = [:]
            youngBytes = 0
        }
    }

    mutating func removeAll() {
        young = [:]
        old = [:]
        youngBytes = 0
        oldBytes = 0
    }
}

extension GenerationalTable.Sized: Sendable where Value: Sendable {}
