/// A bounded map that forgets in bulk and cheaply, for cache tables read under a lock by every answer.
/// Entries are written to the young generation; when it holds `generationSize`, the old generation is let go
/// whole and the young one takes its place: constant work under the lock. (A pass choosing what to drop over a
/// full table of 100,000–200,000 typical-delay entries held that lock for 46–178 ms, and every answer needing a typical
/// delay waited: at 5,000 requests/s the gateway ran out of in-flight room and answered OVERLOADED.)
/// An entry read from the old generation moves to the young one, so entries in use stay and an entry goes
/// only after a whole generation without a read. Holds at most `2 × generationSize`.
///
/// A generation let go is handed back (`Dropped`) so that the caller releases it after unlocking.
struct GenerationalTable<Key: Hashable, Value> {
    typealias Dropped = [Key: Value]?

    let generationSize: Int
    private var young: [Key: Value] = [:]
    private var old: [Key: Value] = [:]

    init(generationSize: Int) {
        precondition(generationSize > 0)
        self.generationSize = generationSize
    }

    var count: Int { young.count + old.count }

    /// The entry, moved to the young generation when it was in the old one.
    mutating func get(_ key: Key, dropped: inout Dropped) -> Value? {
        if let value = young[key] { return value }
        guard let value = old.removeValue(forKey: key) else { return nil }
        set(key, value, dropped: &dropped)
        return value
    }

    mutating func set(_ key: Key, _ value: Value, dropped: inout Dropped) {
        if young.updateValue(value, forKey: key) == nil {
            old.removeValue(forKey: key)
            if young.count >= generationSize {
                // Kept for the caller to release outside its lock; two turns under one lock keep the last.
                dropped = old
                old = young
                young = [:]
            }
        }
    }

    mutating func removeAll() {
        young = [:]
        old = [:]
    }
}
