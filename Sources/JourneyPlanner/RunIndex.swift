import TransitCore

/// The run of each scheduled trip instance, by its `RunKey`.
///
/// A trip's run on one of the window's few dates is an array slot (trip × dates + day), not a hash lookup: a live
/// update looks up every changed run (tens of thousands) among hundreds of thousands, and hashing the key and probing
/// a dictionary that size cost a cache miss or two each and most of the lookup's time. Frequency-based instances
/// (a `start` of their own: a few hundred) keep a dictionary.
struct RunIndex: Sendable {
    /// The window's dates, sorted (`Timetable.dates`: three or four).
    private let dates: [GTFSDate]
    /// Run of trip t on dates[d] at `t * dates.count + d`, −1 for none.
    private var byTripDay: [Int32]
    private var byStart: [RunKey: Int32] = [:]

    init(trips: Int, dates: [GTFSDate]) {
        self.dates = dates
        byTripDay = Array(repeating: -1, count: trips * dates.count)
    }

    private func slot(_ key: RunKey) -> Int? {
        guard key.trip >= 0, let d = dates.firstIndex(of: key.date) else { return nil }
        let i = Int(key.trip) * dates.count + d
        return i < byTripDay.count ? i : nil
    }

    subscript(key: RunKey) -> Int32? {
        get {
            if key.start >= 0 { return byStart[key] }
            guard let i = slot(key) else { return nil }
            let run = byTripDay[i]
            return run >= 0 ? run : nil
        }
        set {
            if key.start >= 0 {
                byStart[key] = newValue
            } else if let i = slot(key) {
                byTripDay[i] = newValue ?? -1
            } else {
                preconditionFailure("run key \(key) outside the index's trips and dates")
            }
        }
    }

    /// Bytes of its storage (the dictionary's entries counted twice for its overhead).
    var bytes: Int {
        byTripDay.capacity * MemoryLayout<Int32>.stride + byStart.count * (MemoryLayout<RunKey>.stride + 4) * 2
    }
}
