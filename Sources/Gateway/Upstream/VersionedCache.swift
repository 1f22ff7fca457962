import Synchronization

/// Answers that depend only on the static database (a stop's detail, a search's stops, the route list),
/// kept per key while the database version they were fetched under is the confirmed one: the board window
/// cache's `Generation`, which the gateway re-confirms in the background at least once per its
/// `versionCheck`. So after a re-import the old answers are served for at most that long, like board
/// windows; while no version is confirmed (or the board cache is off) nothing is kept. Nothing here comes
/// from the live state, so realtime updates never make an entry wrong. Bounded: at most `capacity` entries and
/// `maxBytes` bytes (each entry counted as its writer estimates it, key included; emptied when either is full:
/// constant work per store) and `lifetime` each (a keep drawn from its second half: `ExpirySpread`).
final class VersionedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    struct Counts: Sendable, Equatable {
        var hits = 0
        var misses = 0
    }

    private struct Entry {
        var value: Value
        var bytes: Int
        var generation: BoardWindowCache.Generation
        /// When it was stored and its drawn keep.
        var expires: ContinuousClock.Instant
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var counts = Counts()
    }

    let capacity: Int
    let maxBytes: Int
    let lifetime: Duration
    private let expiry: ExpirySpread
    private let state = Mutex(State())

    init(capacity: Int = 20_000, maxBytes: Int = .max, lifetime: Duration = .seconds(600)) {
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.lifetime = lifetime
        expiry = ExpirySpread(lifetime)
    }

    /// The value kept for `key` when it was fetched under `generation` (the one confirmed now) and is not
    /// past its keep; nil otherwise (an entry of another generation is dropped).
    func value(_ key: Key, generation: BoardWindowCache.Generation?, now: ContinuousClock.Instant = .now) -> Value? {
        state.withLock { s in
            guard let generation, let entry = s.entries[key] else {
                s.counts.misses += 1
                return nil
            }
            guard entry.generation == generation, now < entry.expires else {
                s.entries[key] = nil
                s.bytes -= entry.bytes
                s.counts.misses += 1
                return nil
            }
            s.counts.hits += 1
            return entry.value
        }
    }

    /// Keeps `value` for `key`; `generation` is the one confirmed before the static service was asked, so an
    /// answer that crossed a version change is never used under the new version.
    /// `bytes`: what the value and key hold on the heap (estimated by the caller in constant time or as part of
    /// making the value); the entry's slot is added here. One larger than `maxBytes` is not kept.
    func store(
        _ value: Value, for key: Key, bytes heapBytes: Int = 256, generation: BoardWindowCache.Generation?,
        now: ContinuousClock.Instant = .now
    ) {
        let bytes = heapBytes + Self.slotBytes
        guard let generation, bytes <= maxBytes else { return }
        state.withLock { s in
            let replaced = s.entries[key]
            s.bytes -= replaced?.bytes ?? 0
            if (s.entries.count >= capacity && replaced == nil) || s.bytes + bytes > maxBytes {
                s.entries.removeAll(keepingCapacity: true)
                s.bytes = 0
            }
            s.entries[key] = Entry(
                value: value, bytes: bytes, generation: generation, expires: expiry.expiry(from: now))
            s.bytes += bytes
        }
    }

    /// An entry's slot in the table (`EntryBytes.slot`).
    static var slotBytes: Int { EntryBytes.slot(Key.self, Entry.self) }

    var counts: Counts { state.withLock { $0.counts } }
    var count: Int { state.withLock { $0.entries.count } }
    var heldBytes: Int { state.withLock { $0.bytes } }
}
