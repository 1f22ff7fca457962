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
        var touched = Set<Int32>()
        // Live runs leaving their pattern's live list, taken out together (one pass over each list, not one per run).
        var leaving = [Bool](repeating: false, count: runs.count)
        var left = Set<Int32>()
        var arriving: [(pattern: Int32, run: Int32)] = []

        // A scheduled run whose live state changed (added, changed or gone), its times moved in, not copied.
        func change(_ key: RunKey, _ run: Int32, _ prepared: consuming PreparedRun.Change) {
            let staticPattern = runs[Int(run)].staticPattern
            let wasLive = liveTimes.pattern(ofRun: run)
            let old = wasLive ?? staticPattern
            var newPattern: Int32? = staticPattern
            switch consume prepared {
            case .backOnSchedule:
                next.liveTimes.clear(run)
            case .cancelled:
                newPattern = nil
                next.liveTimes.cancel(run)
            case .mismatched(let liveStops):
                let expected = patterns[Int(staticPattern)].key.stops.count
                problems.append(
                    LiveTripsProblem(
                        description: "trip \(key.trip) of \(key.date): \(liveStops) live stops for \(expected)"))
                return
            case .times(let arrivals, let departures, let skipped):
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
                next.liveTimes.set(run, pattern: p, arrivals: arrivals, departures: departures)
            }
            if old >= 0 {
                touched.insert(old)
                if wasLive != nil {
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
        // The runs to look at: the new state's and the previous state's runs it no longer has, in an array (the
        // cores below read their own elements: no reference count shared between them).
        var candidates: [(key: RunKey, value: LiveRun?)] = []
        candidates.reserveCapacity(state.runs.count + live.runs.count)
        for (key, value) in state.runs { candidates.append((key, value)) }
        for key in live.runs.keys where state.runs[key] == nil { candidates.append((key, nil)) }
        // Compared and converted on every core (reading only this timetable and the states), laid in one by one.
        var prepared = candidates.withUnsafeBufferPointer { c in
            ParallelMap.map(c.count) { prepare(c[$0].key, c[$0].value) }
        }
        for i in prepared.indices {
            // Moved out of the array and its times out of the prepared run: laid in without a copy.
            guard var p = prepared[i].take() else { continue }
            var times = PreparedRun.Change.backOnSchedule
            swap(&times, &p.change)
            change(p.key, p.run, times)
        }
        for p in left { next.patterns[Int(p)].live.removeAll { leaving[Int($0)] } }
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
                next.runs.append(Run(key: nil, staticPattern: -1, times: -1))
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
        next.rebuildRoutes(ofPatterns: touched.map { Int($0) }.sorted())
        next.forward.flattenVisits()
        next.backward.flattenVisits()
        return (next, problems)
    }

    /// A run's new live state as `applying` lays it in, found on every core without changing anything: its times
    /// converted to the timetable's seconds, and the positions it skips.
    struct PreparedRun {
        var key: RunKey
        var run: Int32
        var change: Change

        enum Change {
            /// The run has no live state any more.
            case backOnSchedule
            case cancelled
            /// Live times for another number of stops than the run has (left out, reported).
            case mismatched(liveStops: Int)
            case times(arrivals: [Int32], departures: [Int32], skipped: [Int])
        }
    }

    /// What laying `value` over run `key` needs: nil when the run's live state is unchanged or the run is outside the
    /// window.
    func prepare(_ key: RunKey, _ value: LiveRun?) -> PreparedRun? {
        guard live.runs[key] != value, let run = runIndex[key] else { return nil }
        switch value {
        case nil:
            return PreparedRun(key: key, run: run, change: .backOnSchedule)
        case .cancelled:
            return PreparedRun(key: key, run: run, change: .cancelled)
        case .times(let stops):
            guard stops.count == patterns[Int(runs[Int(run)].staticPattern)].key.stops.count else {
                return PreparedRun(key: key, run: run, change: .mismatched(liveStops: stops.count))
            }
            return PreparedRun(
                key: key, run: run,
                change: .times(
                    arrivals: stops.map { Int32(clamping: $0.arrival - epoch) },
                    departures: stops.map { Int32(clamping: $0.departure - epoch) },
                    skipped: stops.indices.filter { stops[$0].skipped }))
        }
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
