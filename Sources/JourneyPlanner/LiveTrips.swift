import TransitCore

/// The live state of the trips, as the realtime service predicts them: what replaces the schedule of some runs
/// and the trips it added. A full update replaces the previous state (`Timetable.applying(_:)`).
public struct LiveTrips: Sendable, Equatable {
    public var runs: [RunKey: LiveRun]
    /// Added trips by their realtime trip id.
    public var added: [String: AddedTrip]

    public init(runs: [RunKey: LiveRun] = [:], added: [String: AddedTrip] = [:]) {
        self.runs = runs
        self.added = added
    }
}

/// What became of a scheduled run.
public enum LiveRun: Sendable, Equatable {
    case cancelled
    /// Predicted times at each stop of the run, in order (as many as it has stops).
    case times([LiveStopTime])
}

/// A predicted stop: unix times, or skipped (neither boarding nor alighting there).
public struct LiveStopTime: Sendable, Equatable {
    public var arrival: Int64
    public var departure: Int64
    public var skipped: Bool

    public init(arrival: Int64, departure: Int64, skipped: Bool = false) {
        self.arrival = arrival
        self.departure = departure
        self.skipped = skipped
    }
}

/// A trip the schedule does not have, with its stops and unix times.
public struct AddedTrip: Sendable, Equatable {
    public var mode: Mode
    public var wheelchairAccessible: Bool
    public var stops: [Int]
    public var arrivals: [Int64]
    public var departures: [Int64]
    public var pickup: [Bool]
    public var dropOff: [Bool]

    public init(
        mode: Mode, wheelchairAccessible: Bool = false, stops: [Int], arrivals: [Int64], departures: [Int64],
        pickup: [Bool]? = nil, dropOff: [Bool]? = nil
    ) {
        self.mode = mode
        self.wheelchairAccessible = wheelchairAccessible
        self.stops = stops
        self.arrivals = arrivals
        self.departures = departures
        self.pickup = pickup ?? Array(repeating: true, count: stops.count)
        self.dropOff = dropOff ?? Array(repeating: true, count: stops.count)
    }
}

/// Why a live state could not be laid over the timetable entirely (the rest was applied).
public struct LiveTripsProblem: Sendable, Equatable, CustomStringConvertible {
    public var description: String
}

extension Timetable {
    /// This timetable with `state` as its live trips (replacing the previous live state). Only the patterns of
    /// runs whose live state changed are rebuilt (and re-split into FIFO groups where trips now overtake), so the
    /// cost grows with the change, not with the timetable. Runs outside the window are ignored; a run whose times
    /// do not match its stop count, and an added trip naming unknown stops or with mismatched arrays, are left
    /// out and reported.
    public func applying(_ state: LiveTrips) -> (timetable: Timetable, problems: [LiveTripsProblem]) {
        var next = self
        var problems: [LiveTripsProblem] = []
        var touched = PatternSet(count: patterns.count)
        // Live runs leaving their pattern's live list, taken out together (one pass over each list, not one per run).
        var leaving = [Bool](repeating: false, count: runs.count)
        var left = PatternSet(count: patterns.count)
        var arriving: [(pattern: Int32, run: Int32)] = []

        // A scheduled run whose live state changed (added, changed or gone); live times already in `next.liveTimes`
        // from `start`.
        func change(_ prepared: PreparedRun, timesFrom base: Int) {
            let run = prepared.run, staticPattern = prepared.staticPattern
            let old = prepared.wasLive ?? staticPattern
            var newPattern: Int32? = staticPattern
            switch prepared.change {
            case .backOnSchedule:
                next.liveTimes.clear(run)
            case .cancelled:
                newPattern = nil
                next.liveTimes.cancel(run)
            case .mismatched(let liveStops):
                let expected = patterns[Int(staticPattern)].key.stops.count
                let key = prepared.key
                problems.append(
                    LiveTripsProblem(
                        description: "trip \(key.trip) of \(key.date): \(liveStops) live stops for \(expected)"))
                return
            case .times(let start, let skipped, let dwells):
                var p = staticPattern
                if !skipped.isEmpty {
                    var patternKey = patterns[Int(staticPattern)].key
                    for i in skipped {
                        patternKey.pickup[i] = false
                        patternKey.dropOff[i] = false
                    }
                    p = next.pattern(for: patternKey)
                }
                newPattern = p
                next.liveTimes.set(run, pattern: p, start: base + start, dwells: dwells)
            }
            if old >= 0 {
                touched.insert(old)
                if prepared.wasLive != nil {
                    leaving[Int(run)] = true
                    left.insert(old)
                }
            }
            // A run back on its schedule is in its pattern's scheduled groups again; a live one joins the live list.
            if let p = newPattern {
                if next.liveTimes.isLive(run) { arriving.append((p, run)) }
                touched.insert(p)
            }
        }
        // The runs to look at: the new state's (by their places in its dictionary: no copy of their times here) and
        // the previous state's runs it no longer has. The new state's in trip order, not the dictionary's: a feed's
        // trips mostly come route by route, so the conversion then reads the runs' slots nearly in order, and the
        // live times of a pattern's runs land side by side for its routes' rebuild.
        // (Only the order is packed: trip, the date's last 8 bits, the place among the indices; any order is correct.)
        let indices = Array(state.runs.indices)
        var order = indices.indices.map { i in
            let key = state.runs[indices[i]].key
            return UInt64(UInt32(bitPattern: key.trip)) << 40 | UInt64(key.date.dayNumber & 0xFF) << 32 | UInt64(i)
        }
        order.sort()
        let stated = order.map { indices[Int($0 & 0xFFFF_FFFF)] }
        let candidates = Candidates(
            state: state.runs, stated: stated, gone: live.runs.keys.filter { state.runs[$0] == nil })
        // Compared and converted on every core, a stretch of candidates each (reading only this timetable and the
        // states), their times into one array per stretch; laid in one by one, each stretch's times appended at once.
        // A stretch of at most 256 runs: what `prepare` reads ahead of its conversion then stays in a core's cache
        // until the conversion reads it (with a sixteenth of a full update's runs per stretch it did not).
        let stretches = ParallelMap.stretches(candidates.count, atMost: 256) { prepare(candidates, $0) }
        let bases = next.liveTimes.append(batches: stretches.map(\.times))
        for (stretch, base) in zip(stretches, bases) {
            for p in stretch.runs { change(p, timesFrom: base) }
        }
        for p in left.members { next.patterns[Int(p)].live.removeAll { leaving[Int($0)] } }
        for (p, run) in arriving { next.patterns[Int(p)].live.append(run) }

        // Added trips: new ones take a run (or reuse the slot of the same id), gone ones are emptied.
        for (id, trip) in state.added where live.added[id] != trip {
            let n = trip.stops.count
            guard n >= 2, trip.arrivals.count == n, trip.departures.count == n, trip.pickup.count == n,
                trip.dropOff.count == n, trip.stops.allSatisfy({ stops.indices.contains($0) })
            else {
                problems.append(LiveTripsProblem(description: "added trip \(id): stops and times do not match"))
                continue
            }
            let key = PatternKey(
                stops: trip.stops.map { Int32($0) }, pickup: trip.pickup, dropOff: trip.dropOff,
                modeBit: UInt8(trip.mode.bit), accessible: trip.wheelchairAccessible)
            let p = next.pattern(for: key)
            let run: Int32
            if let existing = next.addedRuns[id] {
                run = existing
                if let old = next.liveTimes.pattern(ofRun: run), old >= 0 {
                    next.patterns[Int(old)].live.removeAll { $0 == run }
                    touched.insert(old)
                }
            } else {
                run = Int32(next.runs.count)
                // No schedule: its times are always live (the table's slot says whether they dwell).
                next.runs.append(Run(key: nil, staticPattern: -1, times: -1, dwells: true))
                next.addedIds.append(id)
                next.liveTimes.appendRun()
                next.addedRuns[id] = run
            }
            next.liveTimes.set(
                run, pattern: p, arrivals: trip.arrivals.map { Int32(clamping: $0 - epoch) },
                departures: trip.departures.map { Int32(clamping: $0 - epoch) })
            next.patterns[Int(p)].live.append(run)
            touched.insert(p)
        }
        for id in live.added.keys where state.added[id] == nil {
            guard let run = next.addedRuns[id], let old = next.liveTimes.pattern(ofRun: run), old >= 0 else { continue }
            next.patterns[Int(old)].live.removeAll { $0 == run }
            next.liveTimes.cancel(run)
            touched.insert(old)
        }
        next.live = state
        next.liveTimes.compactIfWasteful { [patterns = next.patterns] in patterns[Int($0)].key.stops.count }
        // Sorted: the slots a pattern takes do not depend on a set's order.
        next.rebuildRoutes(ofPatterns: touched.members.map { Int($0) }.sorted())
        next.forward.flattenVisits()
        next.backward.flattenVisits()
        return (next, problems)
    }

    /// A run's new live state as `applying` lays it in, found on every core without changing anything.
    struct PreparedRun {
        var key: RunKey
        var run: Int32
        var staticPattern: Int32
        /// The pattern of its live times before the change (−1 cancelled; nil: it had none).
        var wasLive: Int32?
        var change: Change

        enum Change {
            /// The run has no live state any more.
            case backOnSchedule
            case cancelled
            /// Live times for another number of stops than the run has (left out, reported).
            case mismatched(liveStops: Int)
            /// Live times converted to the timetable's seconds, at `start` in its stretch's times (arrivals, then
            /// departures), the positions it skips and whether it dwells anywhere.
            case times(start: Int, skipped: [Int], dwells: Bool)
        }
    }

    /// The runs a live update looks at: candidate c < `stated.count` is the new state's run at `stated[c]`, the others
    /// the previous state's runs it no longer has (`gone`).
    struct Candidates {
        let state: [RunKey: LiveRun]
        let stated: [Dictionary<RunKey, LiveRun>.Index]
        let gone: [RunKey]

        var count: Int { stated.count + gone.count }
        func key(_ c: Int) -> RunKey { c < stated.count ? state[stated[c]].key : gone[c - stated.count] }
        func value(_ c: Int) -> LiveRun? { c < stated.count ? state[stated[c]].value : nil }
    }

    /// Runs prepared together, with their converted times in one array.
    struct PreparedStretch {
        var runs: [PreparedRun] = []
        var times: [Int32] = []
    }

    /// What laying each candidate's live state over its run needs; runs whose live state is unchanged, or outside the
    /// window, are left out. In passes over the stretch, each with a short body, so that the processor overlaps the
    /// memory reads of many candidates: each pass's reads mostly miss the caches, and one candidate after another they
    /// would wait one after another.
    func prepare(_ candidates: Candidates, _ range: Range<Int>) -> PreparedStretch {
        var found: [(candidate: Int, run: Int32)] = []
        found.reserveCapacity(range.count)
        for c in range {
            if let run = runIndex[candidates.key(c)] { found.append((c, run)) }
        }
        if !live.runs.isEmpty {
            found.removeAll { live.runs[candidates.key($0.candidate)] == candidates.value($0.candidate) }
        }
        let staticPatterns = found.map { runs[Int($0.run)].staticPattern }
        let stopCounts = staticPatterns.map { patterns[Int($0)].key.stops.count }
        let wasLive = found.map { liveTimes.pattern(ofRun: $0.run) }
        // The live times' first stops (their arrays' first memory), read ahead of the conversion below.
        var firstArrivals: Int64 = 0
        for (c, _) in found {
            if case .times(let stops) = candidates.value(c) { firstArrivals &+= stops.first?.arrival ?? 0 }
        }
        var stretch = PreparedStretch()
        stretch.runs.reserveCapacity(found.count)
        // Room for every run's times at once (no copy per growth); the reads' sum only makes this not optimized away.
        stretch.times.reserveCapacity(2 * stopCounts.reduce(0, +) + Int(truncatingIfNeeded: firstArrivals & 1))
        for (i, (c, run)) in found.enumerated() {
            let key = candidates.key(c), value = candidates.value(c)
            let change: PreparedRun.Change
            switch value {
            case nil:
                change = .backOnSchedule
            case .cancelled:
                change = .cancelled
            case .times(let stops):
                guard stops.count == stopCounts[i] else {
                    change = .mismatched(liveStops: stops.count)
                    break
                }
                // The arrivals, then the departures; raised where they decrease (`Timetable.rising`), which the
                // realtime conversion already did for the services' live times (`PlannerLiveFeed`).
                // One pass over the stops, through buffers: this loop converts every stop of every changed run.
                let n = stops.count, start = stretch.times.count
                var rising = true, dwells = false
                var skipped: [Int] = []
                stretch.times.append(contentsOf: repeatElement(0, count: 2 * n))
                stretch.times.withUnsafeMutableBufferPointer { times in
                    stops.withUnsafeBufferPointer { stops in
                        var previous = Int64.min
                        for j in 0..<n {
                            let s = stops[j]
                            rising = rising && s.arrival >= previous && s.departure >= s.arrival
                            dwells = dwells || s.arrival != s.departure
                            if s.skipped { skipped.append(j) }
                            previous = s.departure
                            times[start + j] = Int32(clamping: s.arrival - epoch)
                            times[start + n + j] = Int32(clamping: s.departure - epoch)
                        }
                    }
                }
                if !rising { Timetable.raise(&stretch.times, arrivalsAt: start, count: n) }
                change = .times(start: start, skipped: skipped, dwells: dwells)
            }
            stretch.runs.append(
                PreparedRun(key: key, run: run, staticPattern: staticPatterns[i], wasLive: wasLive[i], change: change))
        }
        return stretch
    }

    /// The pattern of `key`, created (without routes yet) when it is new.
    mutating func pattern(for key: PatternKey) -> Int32 {
        if let p = patternIndex[key] { return p }
        let p = Int32(patterns.count)
        patterns.append(
            Pattern(key: key, scheduledRuns: 0..<0, scheduledGroupEnds: [], scheduledTimes: 0, live: [], routes: []))
        patternIndex[key] = p
        return p
    }

    /// Whether a run's times come from the live state.
    public func isLive(run: Int) -> Bool { liveTimes.isLive(Int32(run)) }
}

/// A set of patterns as a flag per pattern and the list of those in it: an update inserts once per changed run, and a
/// flag costs less than a hash.
private struct PatternSet {
    private var flags: [Bool]
    private(set) var members: [Int32] = []

    init(count: Int) { flags = Array(repeating: false, count: count) }

    mutating func insert(_ p: Int32) {
        let i = Int(p)
        if i >= flags.count { flags.append(contentsOf: repeatElement(false, count: i + 1 - flags.count)) }
        if !flags[i] {
            flags[i] = true
            members.append(p)
        }
    }
}
