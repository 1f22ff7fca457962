/// The runs' live times as a timetable holds them: for each run, whether it has live times, and if so the pattern it
/// now follows (none when cancelled) and its times, all runs' in one array. Plain values in two arrays, however many
/// runs are live: a live update reads one slot per run of every pattern it rebuilds and copies no reference per run,
/// and dropping a timetable frees two arrays, not two per live run.
struct LiveTimesTable: Sendable {
    /// A run's slot: `pattern` is `Slot.scheduled` (no live times: it runs to its schedule), `Slot.cancelled`, or the
    /// pattern of its live times, which are `times[start..<start + n]` (arrivals) and the n after (departures), n its
    /// pattern's stop count.
    struct Slot: Sendable, Equatable {
        var pattern: Int32
        var start: Int32
        /// Whether its live arrival differs from its departure at some stop (`Timetable.Run.dwells`).
        var dwells = false

        static let scheduled: Int32 = -2
        static let cancelled: Int32 = -1
    }
    private(set) var slots: [Slot]
    private(set) var times: [Int32] = []
    /// Runs' earlier live times still in `times` (no slot points at them); taken out when they outnumber the live
    /// runs' (`compactIfWasteful`).
    private var unusedRuns = 0

    init(runCount: Int) {
        slots = Array(repeating: Slot(pattern: Slot.scheduled, start: 0), count: runCount)
    }

    /// Whether the run has live times (cancelled included).
    @inline(__always) func isLive(_ run: Int32) -> Bool { slots[Int(run)].pattern != Slot.scheduled }

    /// The pattern of the run's live times: nil when it has none, −1 when cancelled.
    func pattern(ofRun run: Int32) -> Int32? {
        let p = slots[Int(run)].pattern
        return p == Slot.scheduled ? nil : p
    }

    /// The run's live arrivals and departures (empty when cancelled); nil when it has no live times.
    func times(ofRun run: Int32, stopCount n: Int) -> (arrivals: ArraySlice<Int32>, departures: ArraySlice<Int32>)? {
        let slot = slots[Int(run)]
        if slot.pattern == Slot.scheduled { return nil }
        if slot.pattern == Slot.cancelled { return ([], []) }
        let s = Int(slot.start)
        return (times[s..<s + n], times[s + n..<s + 2 * n])
    }

    /// A slot for a new run (an added trip's), with no live times yet.
    mutating func appendRun() { slots.append(Slot(pattern: Slot.scheduled, start: 0)) }

    /// Gives the run live times in `pattern` (arrivals and departures of equal count), raised where they decrease
    /// (`Timetable.raise`).
    mutating func set(_ run: Int32, pattern: Int32, arrivals: [Int32], departures: [Int32]) {
        precondition(arrivals.count == departures.count)
        let start = append(arrivals)
        _ = append(departures)
        Timetable.raise(&times, arrivalsAt: start, count: arrivals.count)
        set(run, pattern: pattern, start: start, dwells: arrivals != departures)
    }

    /// Appends times for runs to point at (`set(_:pattern:start:dwells:)`) and says where they start.
    mutating func append(_ more: [Int32]) -> Int {
        precondition(times.count + more.count <= Int(Int32.max), "live times beyond 2^31")
        let start = times.count
        times.append(contentsOf: more)
        return start
    }

    /// Appends batches of times (room for all of them made once: no copy per growth) and says where each starts.
    mutating func append(batches: [[Int32]]) -> [Int] {
        let total = batches.reduce(0) { $0 + $1.count }
        precondition(times.count + total <= Int(Int32.max), "live times beyond 2^31")
        times.reserveCapacity(times.count + total)
        return batches.map { append($0) }
    }

    /// Gives the run the live times in `pattern` at `times[start...]` (arrivals, then as many departures), saying
    /// whether they differ anywhere.
    mutating func set(_ run: Int32, pattern: Int32, start: Int, dwells: Bool) {
        precondition(pattern >= 0 && start < times.count)
        release(run)
        slots[Int(run)] = Slot(pattern: pattern, start: Int32(start), dwells: dwells)
    }

    /// Marks the run cancelled (or an added trip gone): it has live times, in no pattern.
    mutating func cancel(_ run: Int32) {
        release(run)
        slots[Int(run)] = Slot(pattern: Slot.cancelled, start: 0)
    }

    /// Puts the run back on its schedule.
    mutating func clear(_ run: Int32) {
        release(run)
        slots[Int(run)] = Slot(pattern: Slot.scheduled, start: 0)
    }

    /// Counts the run's current times, if any, as unused.
    private mutating func release(_ run: Int32) {
        if slots[Int(run)].pattern >= 0 { unusedRuns += 1 }
    }

    /// Takes the unused times out when they outnumber the live runs' (so `times` stays within twice what is live);
    /// `stopCount(pattern)` gives each pattern's stop count.
    mutating func compactIfWasteful(stopCount: (Int32) -> Int) {
        guard unusedRuns > 0 else { return }
        let live = slots.reduce(0) { $0 + ($1.pattern >= 0 ? 1 : 0) }
        guard unusedRuns > live else { return }
        var kept: [Int32] = []
        kept.reserveCapacity(times.count / 2)
        for i in slots.indices where slots[i].pattern >= 0 {
            let s = Int(slots[i].start), n = stopCount(slots[i].pattern)
            slots[i].start = Int32(kept.count)
            kept.append(contentsOf: times[s..<s + 2 * n])
        }
        times = kept
        unusedRuns = 0
    }
}
