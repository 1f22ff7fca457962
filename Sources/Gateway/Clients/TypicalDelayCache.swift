import Synchronization
import TransitCore
import TransitJSON
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
final class TypicalDelayCache: Sendable {
    static let ttl: Duration = .seconds(600)
    static let backoff: Duration = .seconds(30)
    /// Entries held at most (slices, and visit keys apart); all are dropped when it is reached (they come back
    /// one board at a time).
    static let maxEntries = 200_000

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

    private struct State {
        var slices: [DelaySlice: SliceEntry] = [:]
        var visits: [VisitKey: VisitEntry] = [:]
        var unavailableUntil: ContinuousClock.Instant?
        var dayTypes = DayTypeCalendar()
        /// When the day types are asked again (nil: never asked).
        var dayTypesUntil: ContinuousClock.Instant?
    }

    private let fetch: Fetch?
    /// Asks the static service's `feed_info` for the dates that run a weekend timetable (nil: no answer).
    private let askDayTypes: (@Sendable () async -> DayTypeCalendar?)?
    private let state = Mutex(State())

    /// A cache asking `client` (nil: no realtime service, every typical delay is nil).
    convenience init(client: RealtimeClient?, askDayTypes: (@Sendable () async -> DayTypeCalendar?)? = nil) {
        guard let client else {
            self.init(fetch: nil, askDayTypes: askDayTypes)
            return
        }
        self.init(fetch: { slices in await Self.ask(client, slices) }, askDayTypes: askDayTypes)
    }

    private static func ask(_ client: RealtimeClient, _ slices: [DelaySlice]) async -> [DelayHistogram]? {
        guard case .success(.delayHistograms(let answer)) = await client.query(.delayHistograms(slices)),
            answer.count == slices.count
        else { return nil }
        return answer.map(\.histogram)
    }

    /// `askDayTypes` is asked at most every `ttl` (every `backoff` while it fails) while boards want
    /// typical delays; without it every date is its own weekday.
    init(fetch: Fetch?, askDayTypes: (@Sendable () async -> DayTypeCalendar?)? = nil) {
        self.fetch = fetch
        self.askDayTypes = askDayTypes
    }

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
    func typicalDelays(_ visits: [Visit], ask: Bool, now: ContinuousClock.Instant = .now) async -> [TypicalDelay?] {
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
        state.withLock { s in
            for (index, key) in keys.enumerated() {
                guard let key else { continue }
                if let entry = s.visits[key], entry.until > now {
                    result[index] = entry.typical
                } else {
                    pending.append(index)
                }
            }
        }
        guard !pending.isEmpty else { return result }
        let resolved = await resolve(pending.map { keys[$0]! }, ask: ask, now: now)
        for (index, typical) in zip(pending, resolved) { result[index] = typical }
        return result
    }

    /// The typical delays of visit keys not resolved yet: from the held slices and (when `ask`) the rest asked
    /// in one request; the keys whose two slices are both held are kept resolved.
    private func resolve(_ keys: [VisitKey], ask: Bool, now: ContinuousClock.Instant) async -> [TypicalDelay?] {
        var wanted = Set<DelaySlice>()
        for key in keys {
            let (stop, route) = key.slices
            wanted.insert(stop)
            wanted.insert(route)
        }
        var found: [DelaySlice: SliceEntry] = [:]
        var missing: [DelaySlice] = []
        let asking = state.withLock { s -> Bool in
            for slice in wanted {
                if let entry = s.slices[slice], entry.until > now {
                    found[slice] = entry
                } else {
                    missing.append(slice)
                }
            }
            return s.unavailableUntil.map { $0 <= now } ?? true
        }
        if ask, asking, !missing.isEmpty, let fetch {
            var asked: [DelaySlice: SliceEntry] = [:]
            var failed = false
            var start = 0
            let until = now + Self.ttl
            while start < missing.count {
                let chunk = Array(missing[start..<min(start + RealtimeQuery.maxDelaySlices, missing.count)])
                start += chunk.count
                guard let histograms = await fetch(chunk) else {
                    failed = true
                    break
                }
                for (slice, histogram) in zip(chunk, histograms) {
                    let typical = TypicalDelay(histogram, level: slice.stopId == nil ? .route : .stop)
                    asked[slice] = SliceEntry(typical: typical, until: until)
                }
            }
            found.merge(asked) { _, new in new }
            state.withLock { s in
                if s.slices.count + asked.count > Self.maxEntries { s.slices.removeAll(keepingCapacity: true) }
                s.slices.merge(asked) { _, new in new }
                s.unavailableUntil = failed ? now + Self.backoff : nil
            }
        }
        var resolved: [VisitKey: VisitEntry] = [:]
        let typicals = keys.map { key -> TypicalDelay? in
            let (stop, route) = key.slices
            let stopEntry = found[stop], routeEntry = found[route]
            let typical = stopEntry?.typical ?? routeEntry?.typical
            if let stopEntry, let routeEntry {
                resolved[key] = VisitEntry(typical: typical, until: min(stopEntry.until, routeEntry.until))
            }
            return typical
        }
        if !resolved.isEmpty {
            state.withLock { s in
                if s.visits.count + resolved.count > Self.maxEntries { s.visits.removeAll(keepingCapacity: true) }
                s.visits.merge(resolved) { _, new in new }
            }
        }
        return typicals
    }
}
