/// Answers of one connection, released in request order (GATEWAY.md §1: one answer line per request, in
/// order, even when later requests finish first). Every request reserves a slot when it is read; its answer
/// fills the slot whenever it is ready; `takeReady` hands out the filled slots at the head of the queue.
/// Pushed events take a slot too, already filled, so they land between answers, never before the answer
/// they follow.
struct OrderedAnswers {
    /// The next slot to hand out.
    private(set) var nextSlot: UInt64 = 0
    /// The first slot not yet taken by `takeReady`.
    private(set) var nextToRelease: UInt64 = 0
    private var filled: [UInt64: [UInt8]] = [:]
    /// Bytes of the filled slots not yet taken.
    private(set) var heldBytes = 0

    /// Slots reserved and not yet released (filled or not).
    var pendingCount: Int { Int(nextSlot - nextToRelease) }
    var isEmpty: Bool { nextSlot == nextToRelease }

    mutating func reserve() -> UInt64 {
        defer { nextSlot += 1 }
        return nextSlot
    }

    /// Whether `slot` still waits for its answer.
    func isOpen(_ slot: UInt64) -> Bool {
        slot >= nextToRelease && slot < nextSlot && filled[slot] == nil
    }

    /// Fills an open slot; returns false (and changes nothing) if it was already filled or released.
    @discardableResult
    mutating func fill(_ slot: UInt64, _ bytes: [UInt8]) -> Bool {
        guard isOpen(slot) else { return false }
        filled[slot] = bytes
        heldBytes += bytes.count
        return true
    }

    /// Replaces the bytes of a filled slot not yet released (a newer event supersedes an unsent one).
    @discardableResult
    mutating func replace(_ slot: UInt64, _ bytes: [UInt8]) -> Bool {
        guard slot >= nextToRelease, let old = filled[slot] else { return false }
        filled[slot] = bytes
        heldBytes += bytes.count - old.count
        return true
    }

    /// Whether `slot` was released (handed to the writer).
    func isReleased(_ slot: UInt64) -> Bool { slot < nextToRelease }

    /// The answers that can be written now, in order.
    mutating func takeReady() -> [[UInt8]] {
        var ready: [[UInt8]] = []
        while let bytes = filled.removeValue(forKey: nextToRelease) {
            ready.append(bytes)
            heldBytes -= bytes.count
            nextToRelease += 1
        }
        return ready
    }
}
