/// One frequencies.txt row of a trip (a period): instances start at `start`, `start + headway`, … while before `end`
/// (end is exclusive: every 30 min from 08:00:00 to 10:00:00 last starts at 09:30:00).
///
/// With exact_times=1 the starts are the schedule. With exact_times=0 (headway-based service) GTFS only
/// promises the headway; we still expand the same nominal starts so a board can show them, and they are
/// to be presented as estimates (`isExact == false`).
///
/// A trip instance's time at a stop is its start plus the stop's offset in the trip's pattern (the stop's
/// time minus the first stop's departure in stop_times.txt).
public struct FrequencyPeriod: Equatable, Hashable, Sendable {
    public var start: Int
    public var end: Int
    public var headway: Int
    public var isExact: Bool

    public init(start: Int, end: Int, headway: Int, isExact: Bool) {
        self.start = start
        self.end = end
        self.headway = headway
        self.isExact = isExact
    }

    /// Number of instances (0 for an empty window or a non-positive headway).
    public var instanceCount: Int {
        guard headway > 0, end > start else { return 0 }
        return (end - start + headway - 1) / headway
    }

    /// Start time (GTFS seconds at the first stop) of instance `index`.
    @inline(__always)
    public func startTime(ofInstance index: Int) -> Int { start + index * headway }

    /// Every instance's start time, ascending.
    public var startTimes: [Int] { (0..<instanceCount).map(startTime(ofInstance:)) }

    /// Indices of the instances whose time at a stop (start + offset) lies in `secs` — O(1).
    /// Iterate the range forwards for a future board, `.reversed()` for a past one.
    public func instances(offset: Int, timeIn secs: Range<Int>) -> Range<Int> {
        let count = instanceCount
        guard count > 0, !secs.isEmpty else { return 0..<0 }
        // start + k*h + offset >= lower  ⇔  k >= ceil((lower - offset - start) / h)
        let first = max(0, ceilDiv(secs.lowerBound - offset - start, headway))
        // start + k*h + offset < upper  ⇔  k < ceil((upper - offset - start) / h)
        let last = min(count, ceilDiv(secs.upperBound - offset - start, headway))
        return first < last ? first..<last : 0..<0
    }

    /// The instance whose start is nearest to `secs` (ties: the earlier), nil when there is none.
    public func nearestInstance(toStart secs: Int) -> Int? {
        let count = instanceCount
        guard count > 0 else { return nil }
        let k = floorDivInt(secs - start, headway)
        if k < 0 { return 0 }
        if k >= count - 1 { return count - 1 }
        let before = startTime(ofInstance: k), after = startTime(ofInstance: k + 1)
        return secs - before <= after - secs ? k : k + 1
    }

    /// The instance index starting exactly at `secs`, if any.
    public func instance(startingAt secs: Int) -> Int? {
        guard headway > 0, secs >= start, secs < end, (secs - start) % headway == 0 else { return nil }
        return (secs - start) / headway
    }
}

/// All frequency periods of one trip, ordered by start.
public struct TripFrequencies: Equatable, Sendable {
    public let periods: [FrequencyPeriod]

    public init(_ periods: [FrequencyPeriod]) {
        self.periods = periods.sorted { $0.start < $1.start }
    }

    /// Every instance start time of the trip, ascending (overlapping periods, invalid in GTFS, may repeat).
    public var startTimes: [Int] { periods.flatMap(\.startTimes) }

    /// Start times of the instances whose time at a stop (start + offset) lies in `secs`, ascending.
    public func startTimes(offset: Int, timeIn secs: Range<Int>) -> [Int] {
        var result: [Int] = []
        for period in periods {
            for k in period.instances(offset: offset, timeIn: secs) { result.append(period.startTime(ofInstance: k)) }
        }
        return periods.count > 1 ? result.sorted() : result
    }

    /// The window holding an instance that starts exactly at `secs`.
    public func period(startingAt secs: Int) -> FrequencyPeriod? {
        periods.first { $0.instance(startingAt: secs) != nil }
    }

    /// The start time nearest to `secs` over all periods (ties: the earlier).
    public func nearestStart(to secs: Int) -> Int? {
        var best: Int?
        for period in periods {
            guard let k = period.nearestInstance(toStart: secs) else { continue }
            let candidate = period.startTime(ofInstance: k)
            if let b = best {
                let db = abs(b - secs), dc = abs(candidate - secs)
                if dc < db || (dc == db && candidate < b) { best = candidate }
            } else {
                best = candidate
            }
        }
        return best
    }
}

@inline(__always)
func ceilDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a > 0) == (b > 0)) ? q + 1 : q
}

@inline(__always)
func floorDivInt(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
