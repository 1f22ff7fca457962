import GatewayProtocol
import RealtimeFollowing
import Synchronization
import TransitCore
import TransitModel

/// The recorded departure delays the gateway holds (protocol/README.md flow 6): histograms per slice, asked
/// from the realtime service in one `delay_histograms` request per board for the slices not held, kept
/// `ttl`. When the realtime service cannot answer (down, or it records no delays) nothing is asked for
/// `backoff`, so boards never wait on it repeatedly.
///
/// Every board row asks for one (route, stop, hour, day type), so what a row needs is kept resolved per
/// visit key: the typical delay chosen from the stop's and the route's slice, until the first of the two
/// expires. A board whose rows are all resolved costs one lock and one lookup per row; a slice's typical
/// delay is computed once, when its histogram arrives.
///
/// A trip answer wants every stop of the trip at once, and the trips asked in a peak make more visit keys
/// than are kept (5,000 trips of the NSW-scale feed's morning make 207,000), so each trip instance's list is
/// also kept whole, checked against the visit keys it was resolved for: a trip asked again costs one lookup.
/// Each table is a `GenerationalTable`: entries not read for a whole generation go, in bulk and without a
/// pass over the table under the lock. Entries past their time are answered while a background refresh asks
/// again, paced to `refreshSlicesPerSecond`.
final class TypicalDelayCache: Sendable {
    static let ttl: Duration = .seconds(600)
    /// A slice is kept between `ttl × 3/4` and `ttl` (drawn per slice): slices asked together, as at start,
    /// then expire over a stretch instead of all at once, which made every trip answer of that second ask
    /// the realtime service again (trip p99 140 ms in a trip-only load ten minutes after start).
    static let shortestKeep: Duration = ttl * 3 / 4
    private static let keep = ExpirySpread(ttl, shortest: shortestKeep)
    /// When some slices must be asked anyway, held ones expiring within this are asked too (`resolve`), so a
    /// list refreshed once lasts at least this long.
    static let askAhead: Duration = ttl / 4
    /// How long past its time a visit's or trip's typical delay is still answered while it is asked again in
    /// the background: an answer never waits for a refresh (figures over 28 days change little in minutes).
    static let staleGrace: Duration = ttl
    /// Background refreshes at most at once; past that a stale entry is answered and asked again by a later
    /// answer. Unbounded, the entries of a gateway's first minutes expiring together started thousands of
    /// refreshes asking the same slices again and again (gateway CPU per answer doubled, answers waited
    /// seconds); one after the other, a slice refreshed for one trip is fresh for the next.
    static let maxRefreshes = 2
    /// Slices the background refreshes ask per second, on average: a refresh starts while the budget is above
    /// zero and is charged the slices it asked (`refreshBudget`). Unpaced, the slices a gateway filled in its
    /// first minute were all asked again within about 40 s once the first of them expired (a refresh asks
    /// its list's slices due within `askAhead` along, and every slice of that fill was): at 5,000 answers/s
    /// on the NSW-scale feed, 213,000 slices in 40 s, the gateway's CPU up by a fifth and the realtime
    /// service's up to 85 ms/s. Paced, they are asked over about 3.5 minutes while the held ones are answered
    /// (`staleGrace`): the tables hold at most 2 × `generationEntries` slices, asked again in 512 s < 600 s.
    static let refreshSlicesPerSecond = 1_000
    static let backoff: Duration = .seconds(30)
    /// Slices, and visit keys apart, written before the older generation goes (at most twice this held): above
    /// the 207,000 visit keys of the NSW-scale feed's morning trips, so a peak's working set stays whole.
    static let generationEntries = 256_000
    /// Trip instances whose whole list is kept, per generation.
    static let generationTrips = 8_192

    /// Asks the realtime service for the histograms of these slices (at most `RealtimeQuery.maxDelaySlices`),
    /// in order; nil when it cannot answer.
    typealias Fetch = @Sendable ([DelaySlice]) async -> [DelayHistogram]?

    /// One scheduled visit a typical delay is wanted for.
    struct Visit {
        var routeId: String
        var stopId: String
        var serviceDate: ServiceDate
        /// Scheduled departure (else arrival) in GTFS seconds of the service day.
        var scheduledSecs: Int
    }

    /// What a visit's typical delay depends on: its route and stop, the hour of its scheduled time and the
    /// day type of its service date.
    struct VisitKey: Hashable {
        var routeId: String
        var stopId: String
        var hour: Int
        var dayType: DayType

        /// The stop's slice and the route's (its fallback).
        var slices: (stop: DelaySlice, route: DelaySlice) {
            (
                DelaySlice(routeId: routeId, stopId: stopId, hour: hour, dayType: dayType),
                DelaySlice(routeId: routeId, stopId: nil, hour: hour, dayType: dayType)
            )
        }
    }

    /// A slice's typical delay at its own level (the stop's or the route's), computed when it arrived.
    private struct SliceEntry {
        var typical: TypicalDelay?
        var until: ContinuousClock.Instant
    }

    /// A visit key's typical delay, chosen from its two slices, kept until the first of them expires.
    private struct VisitEntry {
        var typical: TypicalDelay?
        var until: ContinuousClock.Instant
    }
    private typealias SliceTable = GenerationalTable<DelaySlice, SliceEntry>
    private typealias VisitTable = GenerationalTable<VisitKey, VisitEntry>

    /// A trip instance's typical delays, stop by stop, for the visit keys they were resolved for; kept until
    /// the first of its visits' entries expires.
    private struct TripEntry {
        var keys: [VisitKey?]
        var typicals: [TypicalDelay?]
        var until: ContinuousClock.Instant
    }
    private typealias TripTable = GenerationalTable<TripInstanceKey, TripEntry>

    /// Bytes of one entry as the tables count them: its dictionary slot and its key's strings (`EntryBytes`;
    /// constant time per entry; a trip's list is counted as it is made).
    static func bytes(of slice: DelaySlice) -> Int {
        EntryBytes.slot(DelaySlice.self, SliceTable.Sized.self) + EntryBytes.heap(slice.routeId ?? "")
            + EntryBytes.heap(slice.stopId ?? "")
    }
    static func bytes(of key: VisitKey) -> Int {
        EntryBytes.slot(VisitKey.self, VisitTable.Sized.self) + EntryBytes.heap(key.routeId)
            + EntryBytes.heap(key.stopId)
    }
    /// A trip's list: its slot and its two arrays (the keys' strings are shared with the visit keys, counted
    /// there).
    static func bytes(of trip: TripInstanceKey, stops: Int) -> Int {
        EntryBytes.slot(TripInstanceKey.self, TripTable.Sized.self) + EntryBytes.heap(trip.tripId)
            + EntryBytes.array(stops, of: VisitKey?.self) + EntryBytes.array(stops, of: TypicalDelay?.self)
    }

    private struct State {
        var slices: SliceTable
        var visits: VisitTable
        var trips: TripTable
        var unavailableUntil: ContinuousClock.Instant?
        var dayTypes = DayTypeCalendar()
        /// When the day types are asked again (nil: never asked).
        var dayTypesUntil: ContinuousClock.Instant?
        /// Asked again in the background now (one refresh at a time for each).
        var refreshingTrips = Set<TripInstanceKey>()
        var refreshingVisits = Set<VisitKey>()
        var refreshesInFlight = 0
        /// Slices the background refreshes may still ask (at most one second's worth saved up; below zero
        /// after a refresh asked more than was left), as of `refreshBudgetTime`.
        var refreshBudget = Double(refreshSlicesPerSecond)
        var refreshBudgetTime: ContinuousClock.Instant?

        /// Adds what the pace allows since the budget was last brought up to date.
        mutating func replenishRefreshBudget(now: ContinuousClock.Instant) {
            defer { refreshBudgetTime = max(refreshBudgetTime ?? now, now) }
            guard let last = refreshBudgetTime, now > last else { return }
            let seconds = Double((now - last).microseconds) / 1e6
            refreshBudget = min(
                Double(refreshSlicesPerSecond), refreshBudget + seconds * Double(refreshSlicesPerSecond))
        }
    }

    /// Trip instances whose list is kept now.
    var keptTrips: Int { state.withLock { $0.trips.count } }
    /// Background refreshes not finished yet.
    var refreshesInFlight: Int { state.withLock { $0.refreshesInFlight } }

    private let fetch: Fetch?
    /// Asks the static service's `feed_info` for the dates that run a weekend timetable (nil: no answer).
    private let askDayTypes: (@Sendable () async -> DayTypeCalendar?)?
    private let state: Mutex<State>

    /// A cache asking `client` (nil: no realtime service, every typical delay is nil).
    convenience init(
        client: RealtimeClient?, maxBytes: Int = .max, askDayTypes: (@Sendable () async -> DayTypeCalendar?)? = nil
    ) {
        guard let client else {
            self.init(fetch: nil, maxBytes: maxBytes, askDayTypes: askDayTypes)
            return
        }
        self.init(fetch: { slices in await Self.ask(client, slices) }, maxBytes: maxBytes, askDayTypes: askDayTypes)
    }

    private static func ask(_ client: RealtimeClient, _ slices: [DelaySlice]) async -> [DelayHistogram]? {
        guard
            case .success(.delayHistograms(let answer)) = await client.query(
                .delayHistograms(slices), requestId: RequestTrace.id),
            answer.count == slices.count
        else { return nil }
        return answer.map(\.histogram)
    }

    /// `askDayTypes` is asked at most every `ttl` (every `backoff` while it fails) while boards want
    /// typical delays; without it every date is its own weekday.
    /// `maxBytes`: the tables together hold about this many bytes at most (`GatewayConfiguration.CacheBytes`):
    /// slices and visits two fifths each, trips' lists one fifth, each table two generations of half its part.
    init(fetch: Fetch?, maxBytes: Int = .max, askDayTypes: (@Sendable () async -> DayTypeCalendar?)? = nil) {
        self.fetch = fetch
        self.askDayTypes = askDayTypes
        let fifth = max(1, maxBytes / 10)  // a fifth, halved for two generations
        state = Mutex(
            State(
                slices: SliceTable(generationSize: Self.generationEntries, generationBytes: 2 * fifth),
                visits: VisitTable(generationSize: Self.generationEntries, generationBytes: 2 * fifth),
                trips: TripTable(generationSize: Self.generationTrips, generationBytes: fifth)))
    }

    /// Bytes the tables hold, as counted.
    var heldBytes: Int { state.withLock { $0.slices.bytes + $0.visits.bytes + $0.trips.bytes } }

    /// The day types of service dates, asked again when they are older than `ttl`.
    func dayTypes(now: ContinuousClock.Instant = .now) async -> DayTypeCalendar {
        let (held, due) = state.withLock { s -> (DayTypeCalendar, Bool) in
            let due = askDayTypes != nil && (s.dayTypesUntil.map { $0 <= now } ?? true)
            // One asker at a time: the others use what is held meanwhile.
            if due { s.dayTypesUntil = now + Self.backoff }
            return (s.dayTypes, due)
        }
        guard due, let askDayTypes else { return held }
        guard let fresh = await askDayTypes() else { return held }
        state.withLock { s in
            s.dayTypes = fresh
            s.dayTypesUntil = ContinuousClock.now + Self.ttl
        }
        return fresh
    }

    /// The visit key of a visit under the day type `dayTypes` gives its service date (the realtime service
    /// records samples with the same function); nil for a service date that is not a date.
    static func key(_ visit: Visit, dayTypes: DayTypeCalendar = DayTypeCalendar()) -> VisitKey? {
        guard let date = GTFSDate(yyyymmdd: Int(visit.serviceDate)) else { return nil }
        return key(visit, dayType: dayTypes.dayType(of: visit.serviceDate, isoWeekday: date.weekday))
    }

    /// The slices of a visit: the stop's and the route's (its fallback).
    static func slices(_ visit: Visit, dayTypes: DayTypeCalendar) -> (stop: DelaySlice, route: DelaySlice)? {
        key(visit, dayTypes: dayTypes)?.slices
    }

    private static func key(_ visit: Visit, dayType: DayType) -> VisitKey {
        VisitKey(
            routeId: visit.routeId, stopId: visit.stopId, hour: TypicalDelay.hour(ofSecs: visit.scheduledSecs),
            dayType: dayType)
    }

    /// The typical delay of each visit (nil: under 5 departures recorded, or not known), in order. `ask`:
    /// the realtime service may be asked for the slices not held (callers pass false while its publisher is
    /// silent, so a board never waits on a service that is down).
    /// `trip`: the visits are that trip instance's stops, in order (its list is kept whole).
    func typicalDelays(
        _ visits: [Visit], ask: Bool, trip: TripInstanceKey? = nil, now: ContinuousClock.Instant = .now
    ) async -> [TypicalDelay?] {
        var result = [TypicalDelay?](repeating: nil, count: visits.count)
        guard fetch != nil, !visits.isEmpty else { return result }
        let dayTypes = await dayTypes(now: now)
        // A board's rows nearly always share one service date: its day type is worked out once.
        var lastDate: ServiceDate?
        var lastType: DayType?
        var keys: [VisitKey?] = []
        keys.reserveCapacity(visits.count)
        for visit in visits {
            if visit.serviceDate != lastDate {
                lastDate = visit.serviceDate
                lastType = GTFSDate(yyyymmdd: Int(visit.serviceDate)).map {
                    dayTypes.dayType(of: visit.serviceDate, isoWeekday: $0.weekday)
                }
            }
            keys.append(lastType.map { Self.key(visit, dayType: $0) })
        }
        var pending: [Int] = []
        // The trip's list is kept only when every visit has a fresh entry, until the first of them expires.
        var keepable = true
        var until: ContinuousClock.Instant?
        // Entries past their time but within `staleGrace`: answered, and asked again in the background.
        var stale = false
        // Generations let go meanwhile, released after the lock.
        var dropped: (trips: TripTable.Dropped, visits: VisitTable.Dropped) = (nil, nil)
        let kept = state.withLock { s -> [TypicalDelay?]? in
            if let trip, let entry = s.trips.get(trip, dropped: &dropped.trips), entry.until + Self.staleGrace > now,
                entry.keys == keys
            {
                stale = entry.until <= now
                return entry.typicals
            }
            for (index, key) in keys.enumerated() {
                guard let key else {
                    keepable = false
                    continue
                }
                if let entry = s.visits.get(key, dropped: &dropped.visits), entry.until + Self.staleGrace > now {
                    result[index] = entry.typical
                    if entry.until > now {
                        until = min(until ?? entry.until, entry.until)
                    } else {
                        stale = true
                        keepable = false
                    }
                } else {
                    pending.append(index)
                }
            }
            return nil
        }
        dropped = (nil, nil)
        if let kept {
            if stale, ask { refresh(keys, trip: trip, now: now) }
            return kept
        }
        if !pending.isEmpty {
            let (resolved, _) = await resolve(pending.map { keys[$0]! }, ask: ask, now: now)
            for (index, (typical, expires)) in zip(pending, resolved) {
                result[index] = typical
                if let expires { until = min(until ?? expires, expires) } else { keepable = false }
            }
        }
        if stale, ask { refresh(keys, trip: trip, now: now) }
        if let trip, keepable, let until { keep(trip, keys: keys, typicals: result, until: until, now: now) }
        return result
    }

    private func keep(
        _ trip: TripInstanceKey, keys: [VisitKey?], typicals: [TypicalDelay?], until: ContinuousClock.Instant,
        now: ContinuousClock.Instant
    ) {
        let entry = TripEntry(keys: keys, typicals: typicals, until: until)
        let bytes = Self.bytes(of: trip, stops: keys.count)
        let dropped = state.withLock { s in
            var dropped: TripTable.Dropped = nil
            s.trips.set(trip, entry, bytes: bytes, dropped: &dropped)
            return dropped
        }
        _ = dropped
    }

    /// Asks again, in the background, for the visits of a list answered from entries past their time (and
    /// keeps the trip's list anew when every visit resolves); one refresh at a time per trip, or per visit
    /// key for a board, and none while the slice budget is spent (`refreshSlicesPerSecond`).
    private func refresh(_ keys: [VisitKey?], trip: TripInstanceKey?, now: ContinuousClock.Instant) {
        let wanted = state.withLock { s -> [VisitKey] in
            guard s.refreshesInFlight < Self.maxRefreshes else { return [] }
            s.replenishRefreshBudget(now: now)
            guard s.refreshBudget > 0 else { return [] }
            if let trip {
                guard s.refreshingTrips.insert(trip).inserted else { return [] }
                s.refreshesInFlight += 1
                return keys.compactMap { $0 }
            }
            let fresh = keys.compactMap { $0 }.filter { s.refreshingVisits.insert($0).inserted }
            if !fresh.isEmpty { s.refreshesInFlight += 1 }
            return fresh
        }
        guard !wanted.isEmpty else { return }
        Task {
            let (resolved, asked) = await resolve(wanted, ask: true, now: now)
            if let trip, keys.count == wanted.count, resolved.allSatisfy({ $0.1 != nil }) {
                let until = resolved.compactMap(\.1).min() ?? now
                keep(trip, keys: keys, typicals: resolved.map(\.0), until: until, now: now)
            }
            state.withLock { s in
                if let trip { s.refreshingTrips.remove(trip) } else { s.refreshingVisits.subtract(wanted) }
                s.refreshesInFlight -= 1
                s.refreshBudget -= Double(asked)
            }
        }
    }

    /// The typical delays of visit keys not resolved yet: from the held slices and (when `ask`) the rest asked
    /// in one request; the keys whose two slices are both held are kept resolved.
    /// Each with when its entry expires (nil: not both slices held, so not kept); `asked`: the slices asked.
    private func resolve(_ keys: [VisitKey], ask: Bool, now: ContinuousClock.Instant) async -> (
        [(TypicalDelay?, ContinuousClock.Instant?)], asked: Int
    ) {
        var wanted = Set<DelaySlice>()
        for key in keys {
            let (stop, route) = key.slices
            wanted.insert(stop)
            wanted.insert(route)
        }
        var found: [DelaySlice: SliceEntry] = [:]
        var missing: [DelaySlice] = []
        // Held slices that expire within `askAhead` are asked along with missing ones. A list's entry lasts
        // until the first of its slices expires, and slices expire over a stretch: asking only the expired
        // one made a trip of 40 stops ask again each time another of its 41 slices expired, tens of times in
        // those minutes (the expiry wave: 35-50 % more gateway CPU per answer for 3-4 minutes in 10).
        var soon: [DelaySlice] = []
        var droppedSlices: SliceTable.Dropped = nil
        let asking = state.withLock { s -> Bool in
            for slice in wanted {
                if let entry = s.slices.get(slice, dropped: &droppedSlices), entry.until > now {
                    found[slice] = entry
                    if entry.until <= now + Self.askAhead { soon.append(slice) }
                } else {
                    missing.append(slice)
                }
            }
            return s.unavailableUntil.map { $0 <= now } ?? true
        }
        var askedCount = 0
        if ask, asking, !missing.isEmpty, let fetch {
            missing += soon
            var asked: [DelaySlice: SliceEntry] = [:]
            var failed = false
            var start = 0
            var random = SystemRandomNumberGenerator()
            while start < missing.count {
                let chunk = Array(missing[start..<min(start + RealtimeQuery.maxDelaySlices, missing.count)])
                start += chunk.count
                askedCount += chunk.count
                guard let histograms = await fetch(chunk) else {
                    failed = true
                    break
                }
                for (slice, histogram) in zip(chunk, histograms) {
                    let typical = TypicalDelay(histogram, level: slice.stopId == nil ? .route : .stop)
                    let until = Self.keep.expiry(from: now, using: &random)
                    asked[slice] = SliceEntry(typical: typical, until: until)
                }
            }
            found.merge(asked) { _, new in new }
            droppedSlices = state.withLock { s in
                var dropped: SliceTable.Dropped = nil
                for (slice, entry) in asked {
                    s.slices.set(slice, entry, bytes: Self.bytes(of: slice), dropped: &dropped)
                }
                s.unavailableUntil = failed ? now + Self.backoff : nil
                return dropped
            }
        }
        var resolved: [VisitKey: VisitEntry] = [:]
        let typicals = keys.map { key -> (TypicalDelay?, ContinuousClock.Instant?) in
            let (stop, route) = key.slices
            let stopEntry = found[stop], routeEntry = found[route]
            let typical = stopEntry?.typical ?? routeEntry?.typical
            guard let stopEntry, let routeEntry else { return (typical, nil) }
            let entry = VisitEntry(typical: typical, until: min(stopEntry.until, routeEntry.until))
            resolved[key] = entry
            return (typical, entry.until)
        }
        droppedSlices = nil
        if !resolved.isEmpty {
            let dropped = state.withLock { s in
                var dropped: VisitTable.Dropped = nil
                for (key, entry) in resolved { s.visits.set(key, entry, bytes: Self.bytes(of: key), dropped: &dropped) }
                return dropped
            }
            _ = dropped
        }
        return (typicals, askedCount)
    }
}
