import GatewayProtocol
import TransitModel

/// One departure, whatever its time: trip instance and stop sequence.
struct DepartureIdentity: Hashable {
    var instance: TripInstanceKey
    var stopSequence: UInt32

    init(_ d: Departure) {
        instance = TripInstanceKey(tripId: d.tripId, serviceDate: d.serviceDate, staticStartTime: d.instanceStartTime)
        stopSequence = d.stopSequence
    }

    init(_ instance: TripInstanceKey, stopSequence: UInt32) {
        self.instance = instance
        self.stopSequence = stopSequence
    }
}

/// The static rows a board holds, for `BoardAssembly.candidates`: made into a set of identities only when a
/// live visit in the window has to be checked against them (most boards have none; hashing every row's trip id
/// into a set on each page cost 1.5 % of the gateway's CPU).
struct PresentRows: ExpressibleByArrayLiteral {
    private var rows: [Departure] = []
    private var listed: [DepartureIdentity] = []

    init(rows: [Departure]) { self.rows = rows }
    init(arrayLiteral identities: DepartureIdentity...) { listed = identities }

    func identities() -> Set<DepartureIdentity> {
        var set = Set(listed)
        for row in rows { set.insert(DepartureIdentity(row)) }
        return set
    }
}

/// A visit of a live trip at a board's stop that the static rows do not hold: scheduled outside the fetched
/// window but predicted into it (delayed or early), or an added trip.
struct LiveCandidate {
    var trip: TripPrediction
    var index: Int
    /// The board time (predicted, else scheduled).
    var time: Int64
    /// The static stop_sequence of a kept stop of a modified trip (whose stops the update numbered as the
    /// modified trip's); nil otherwise.
    var originalSequence: UInt32? = nil

    var stop: LiveStop { trip.stops[index] }
    var identity: DepartureIdentity {
        DepartureIdentity(trip.key, stopSequence: originalSequence ?? stop.stopSequence)
    }
}

/// The pure steps of a departure board in predicted time (GATEWAY.md "departures"): static rows merged
/// with their predictions, the live visits the static rows lack, and the page cut.
///
/// The gateway fetches static rows by *scheduled* time over a window it knows completely (`known`: every
/// departure scheduled in it is among the rows). A departure's board time lies in `known` either because it
/// is scheduled there (a static row) or because the live state moved it there (a candidate found through the
/// per-stop index). So the set of departures whose board time lies in `known` is exact, and a page of it in
/// board order is exact too.
enum BoardAssembly {
    struct Merged {
        var rows: [DepartureRow] = []
        /// A prediction of a stale source was left out, or its lasting facts shown.
        var usedStale = false
    }

    /// Static rows with what the live state says about them; rows of deleted instances are dropped. Of a
    /// stale source (or while the publisher is silent) only what stays true is shown: a cancellation, a
    /// skipped stop, a deleted instance; its predicted times are left out (the row keeps its schedule). A
    /// row on the board is of a trip that has not ended, so these last as long as the row is shown.
    static func merge(_ departures: [Departure], state: RealtimeState?) -> Merged {
        var merged = Merged()
        merged.rows.reserveCapacity(departures.count)
        for d in departures {
            guard let state else {
                merged.rows.append(DepartureRow(departure: d))
                continue
            }
            let key = TripInstanceKey(
                tripId: d.tripId, serviceDate: d.serviceDate, staticStartTime: d.instanceStartTime)
            // A detour leaves its stops off the board and marks the trip's other rows.
            let detour = state.detour(for: key)
            if let detour, detour.role(ofOriginal: d.stopSequence) == .detoured { continue }
            var row: DepartureRow
            if !state.mayBeLive(key) {
                row = DepartureRow(departure: d)
            } else if let at = state.trips.index(forKey: key) {
                // The prediction is read in place (the dictionary's getter would copy it).
                guard
                    let withLive = merge(
                        d, state.trips.values[at], detour: detour, state: state, usedStale: &merged.usedStale)
                else { continue }
                row = withLive
            } else {
                row = DepartureRow(departure: d, realtime: vehicleOnly(state, key))
            }
            row.detour = detour
            merged.rows.append(row)
        }
        return merged
    }

    /// A static row with its trip's prediction; nil for a deleted instance and for a stop the update made
    /// set-down only (realtime pickup_type 1, a lasting fact like a skip: the static pickup_type 1 rows are
    /// never listed either).
    private static func merge(
        _ d: Departure, _ trip: TripPrediction, detour: LiveDetour?, state: RealtimeState, usedStale: inout Bool
    ) -> DepartureRow? {
        let stop = trip.stop(original: d.stopSequence, detour: detour)
        if trip.deleted || stop?.pickupType == 1 { return nil }
        if state.isStale(source: trip.source) {
            usedStale = true
            let skipped = stop?.skipped ?? false
            let lasting =
                trip.cancelled || skipped ? DepartureRealtime(cancelled: trip.cancelled, skipped: skipped) : nil
            return DepartureRow(departure: d, realtime: lasting)
        }
        return DepartureRow(departure: d, realtime: realtime(trip, stop, state: state))
    }

    /// What a row shows of a trip instance's prediction at one of its stops. The prediction's age is set on
    /// the page's rows only (`stampAges`: it needs the time of the answer).
    static func realtime(_ trip: TripPrediction, _ stop: LiveStop?, state: RealtimeState) -> DepartureRealtime {
        var realtime = DepartureRealtime(
            predictedUnix: trip.cancelled || stop?.skipped == true ? nil : stop?.predictedUnix,
            cancelled: trip.cancelled, skipped: stop?.skipped ?? false, added: trip.added,
            occupancyStatus: stop?.departureOccupancy ?? trip.occupancyStatus
                ?? state.vehicleByTrip[trip.key]?.occupancyStatus,
            carriages: stop?.carriages ?? [],
            platformChange: trip.cancelled ? nil : stop?.platformChange)
        if realtime.predictedUnix != nil, let stop {
            realtime.predictionSource = stop.predictionSource
            realtime.predictionMadeUnix = trip.madeUnix(state)
        }
        return realtime
    }

    /// The ages of the rows' predictions at `now` (the answer's time; `realtime` noted when each was made).
    static func stampAges(_ rows: inout [DepartureRow], now: Int64) {
        for i in rows.indices where rows[i].realtime?.predictionMadeUnix != nil {
            let made = rows[i].realtime!.predictionMadeUnix
            rows[i].realtime!.predictionAgeSeconds = rows[i].realtime!.predictionSource.age(
                tripTimestamp: made, feedTimestamp: nil, now: now)
        }
    }

    /// A row without a trip update whose vehicle reports occupancy.
    private static func vehicleOnly(_ state: RealtimeState, _ key: TripInstanceKey) -> DepartureRealtime? {
        guard let occupancy = state.vehicleByTrip[key]?.occupancyStatus else { return nil }
        return DepartureRealtime(occupancyStatus: occupancy)
    }

    struct Candidates {
        var visits: [LiveCandidate] = []
        var usedStale = false
        /// Live visits at the board's stops before / after `known` exist.
        var before = false
        var beyond = false
    }

    /// Live visits at `boardStops` whose board time lies in `known` and that `present` lacks. With
    /// `staticRows` (the static rows scheduled in `known` were fetched), a scheduled visit whose scheduled time
    /// lies in `known` is not one: the static service listed it or left it out on purpose (no pickup there).
    /// A trip's last stop offers no departure, and neither does a stop the update made set-down only.
    static func candidates(
        state: RealtimeState, boardStops: Set<String>, known: Range<Int64>, present: PresentRows,
        staticRows: Bool, admits: LiveBoardFilter? = nil
    ) -> Candidates {
        candidates(
            state: state, visits: visits(state: state, boardStops: boardStops), known: known, present: present,
            staticRows: staticRows, admits: admits)
    }

    /// The live state's visits at a board's stops (`visits(state:boardStops:timed:)`).
    struct StopVisits {
        /// A list per stop that has any.
        var byStop: [[StopVisitRef]] = []
        /// The visits that can be a departure on any board (the trip is there, not deleted, the visit is not
        /// its last stop, pickup is not ruled out, it has a board time), ascending by board time, no visit
        /// twice; nil: not worked out.
        var byTime: [(time: Int64, ref: StopVisitRef)]?
    }

    /// The live state's visits at `boardStops`, looked up once per board and read by `delayedCount` and by
    /// `candidates` after each page (each look-up hashes a stop id, and a station has up to ~80 platforms).
    /// `timed`: `byTime` too, for a `BoardStop` that keeps them while the state lasts: a board then looks at
    /// the visits in its window only (a busy station's live visits span the whole day, and checking each
    /// against the window looked its trip up: 5.8 % of the gateway's CPU on departures).
    static func visits(state: RealtimeState, boardStops: Set<String>, timed: Bool = false) -> StopVisits {
        guard !state.tripsByStop.isEmpty else { return StopVisits(byStop: [], byTime: timed ? [] : nil) }
        var visits = StopVisits(byStop: boardStops.compactMap { state.tripsByStop[$0] })
        guard timed else { return visits }
        var byTime: [(time: Int64, ref: StopVisitRef)] = []
        var seen = Set<StopVisitRef>()
        for refs in visits.byStop {
            for ref in refs {
                guard let at = state.trips.index(forKey: ref.key), ref.index < state.trips.values[at].stops.count - 1,
                    !state.trips.values[at].deleted, state.trips.values[at].stops[ref.index].pickupType != 1,
                    let time = state.trips.values[at].boardTime(at: ref.index), seen.insert(ref).inserted
                else { continue }
                byTime.append((time, ref))
            }
        }
        byTime.sort { $0.time < $1.time }
        visits.byTime = byTime
        return visits
    }

    /// `candidates` above, with the board stops' `visits` looked up.
    static func candidates(
        state: RealtimeState, visits: StopVisits, known: Range<Int64>, present: PresentRows,
        staticRows: Bool, admits: LiveBoardFilter? = nil
    ) -> Candidates {
        // The visits by time serve a board that filters nothing while no source is stale (what a stale
        // source's visit counts for depends on the moment the state is read, not on the state).
        if let byTime = visits.byTime, admits == nil, !state.sources.contains(where: \.stale) {
            return candidates(
                state: state, byTime: byTime, known: known, present: present, staticRows: staticRows)
        }
        var result = Candidates()
        var seen = Set<StopVisitRef>()
        var presentSet: Set<DepartureIdentity>?
        for refs in visits.byStop {
            for ref in refs {
                // The trip is read in place until it makes a candidate (a copy retains each of its references,
                // and most visits at a busy stop lie outside `known`).
                guard let at = state.trips.index(forKey: ref.key), ref.index < state.trips.values[at].stops.count - 1,
                    !state.trips.values[at].deleted, state.trips.values[at].stops[ref.index].pickupType != 1
                else { continue }
                if let admits, !admits.admits(state.trips.values[at]) { continue }
                if state.isStale(source: state.trips.values[at].source) {
                    result.usedStale = true
                    continue
                }
                guard let time = state.trips.values[at].boardTime(at: ref.index) else { continue }
                if time < known.lowerBound {
                    result.before = true
                    continue
                }
                if time >= known.upperBound {
                    result.beyond = true
                    continue
                }
                addCandidate(
                    ref, at: at, time: time, state: state, known: known, present: present, staticRows: staticRows,
                    presentSet: &presentSet, seen: &seen, to: &result)
            }
        }
        return result
    }

    /// `candidates` from the visits by board time: those in `known` are checked as one by one, and whether
    /// any lies before or beyond it is read off both ends.
    private static func candidates(
        state: RealtimeState, byTime: [(time: Int64, ref: StopVisitRef)], known: Range<Int64>, present: PresentRows,
        staticRows: Bool
    ) -> Candidates {
        var result = Candidates()
        guard let first = byTime.first, let last = byTime.last else { return result }
        result.before = first.time < known.lowerBound
        result.beyond = last.time >= known.upperBound
        var low = 0, high = byTime.count
        while low < high {
            let mid = (low + high) / 2
            if byTime[mid].time < known.lowerBound { low = mid + 1 } else { high = mid }
        }
        var seen = Set<StopVisitRef>()
        var presentSet: Set<DepartureIdentity>?
        for i in low..<byTime.count {
            let (time, ref) = byTime[i]
            guard time < known.upperBound else { break }
            guard let at = state.trips.index(forKey: ref.key) else { continue }
            addCandidate(
                ref, at: at, time: time, state: state, known: known, present: present, staticRows: staticRows,
                presentSet: &presentSet, seen: &seen, to: &result)
        }
        return result
    }

    /// A live visit whose board time lies in `known`, at `state.trips`' index `at`, made a candidate unless the
    /// static rows hold it (or left it out on purpose), its detour does not call there, or it is one already.
    private static func addCandidate(
        _ ref: StopVisitRef, at: Dictionary<TripInstanceKey, TripPrediction>.Index, time: Int64, state: RealtimeState,
        known: Range<Int64>, present: PresentRows, staticRows: Bool, presentSet: inout Set<DepartureIdentity>?,
        seen: inout Set<StopVisitRef>, to result: inout Candidates
    ) {
        if staticRows, !state.trips.values[at].added,
            let scheduled = state.trips.values[at].stops[ref.index].scheduledUnix, known.contains(scheduled)
        {
            return
        }
        var candidate = LiveCandidate(trip: state.trips.values[at], index: ref.index, time: time)
        if let detour = state.detour(for: ref.key) {
            // No departure where the detour does not call; a kept stop is known by its static number.
            let sequence = candidate.stop.stopSequence
            if candidate.trip.modificationsId == nil {
                if detour.role(ofOriginal: sequence) == .detoured { return }
            } else {
                candidate.originalSequence =
                    detour.stops.first { $0.role == .kept && $0.stopSequence == sequence }?.originalSequence
            }
        }
        if presentSet == nil { presentSet = present.identities() }
        if presentSet!.contains(candidate.identity) { return }
        guard seen.insert(ref).inserted else { return }
        result.visits.append(candidate)
    }

    /// Live visits at scheduled times inside `known` with a positive delay: they may leave a static page, so
    /// the gateway asks for that many more rows.
    static func delayedCount(visits: StopVisits, from: Int64) -> Int {
        var count = 0
        for refs in visits.byStop {
            // The index entry says whether the visit is late: no trip is looked up.
            for ref in refs where (ref.lateScheduledUnix ?? .min) >= from { count += 1 }
        }
        return count
    }

    /// How many rows `page` would hold, without building it.
    static func pageCount(
        _ rows: [DepartureRow], known: Range<Int64>, direction: BoardDirection, position: BoardPosition, limit: Int
    ) -> Int {
        var count = 0
        for row in rows where known.contains(row.time) {
            let key = BoardKey(row)
            if direction == .future ? position.precedes(key) : position.follows(key) {
                if count == limit { break }
                count += 1
            }
        }
        return count
    }

    struct Page {
        var rows: [DepartureRow]
        /// Rows beyond the page's far end (in its direction) within `known`.
        var more: Bool
        /// Rows on the near side of the position within `known`.
        var behind: Bool
    }

    /// The page after (future) or before (past) `position` among `rows` whose time lies in `known`, in
    /// ascending board order.
    static func page(
        _ rows: [DepartureRow], known: Range<Int64>, direction: BoardDirection, position: BoardPosition, limit: Int
    ) -> Page {
        var keyed: [(key: BoardKey, row: DepartureRow)] = []
        keyed.reserveCapacity(rows.count)
        var behind = false
        for row in rows where known.contains(row.time) {
            let key = BoardKey(row)
            let inside = direction == .future ? position.precedes(key) : position.follows(key)
            if inside { keyed.append((key, row)) } else { behind = true }
        }
        keyed.sort { $0.key < $1.key }
        let more = keyed.count > limit
        let cut = direction == .future ? keyed.prefix(limit) : keyed.suffix(limit)
        return Page(rows: cut.map(\.row), more: more, behind: behind)
    }
}

/// A filtered board's test for live visits: the trip update must name the route (and direction) asked for;
/// a mode is checked on the route the gateway knows for the update's route id. A visit whose update leaves
/// out what a filter asks is left off (it cannot be shown to match).
struct LiveBoardFilter: Sendable {
    var routeId: String?
    var directionId: Int?
    var mode: String?
    /// The mode of a route id, when known.
    var modeOfRoute: @Sendable (String) -> String?

    func admits(_ trip: TripPrediction) -> Bool {
        if let routeId, trip.routeId != routeId { return false }
        if let directionId, trip.directionId != directionId { return false }
        if let mode {
            guard let id = trip.routeId, modeOfRoute(id) == mode else { return false }
        }
        return true
    }
}
