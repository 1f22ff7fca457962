import Synchronization
import TransitCore
import TransitJSON
import TransitModel

/// The recorded departure delays the gateway holds (protocol/README.md flow 6): histograms per slice, asked
/// from the realtime service in one `delay_histograms` request per board for the slices not held, kept
/// `ttl`. When the realtime service cannot answer (down, or it records no delays) nothing is asked for
/// `backoff`, so boards never wait on it repeatedly.
final class TypicalDelayCache: Sendable {
    static let ttl: Duration = .seconds(600)
    static let backoff: Duration = .seconds(30)
    /// Entries held at most; all are dropped when it is reached (they come back one board at a time).
    static let maxEntries = 200_000

    private struct Entry {
        var histogram: DelayHistogram
        var until: ContinuousClock.Instant
    }

    private struct State {
        var entries: [DelaySlice: Entry] = [:]
        var unavailableUntil: ContinuousClock.Instant?
        var dayTypes = DayTypeCalendar()
        /// When the day types are asked again (nil: never asked).
        var dayTypesUntil: ContinuousClock.Instant?
    }

    private let client: RealtimeClient?
    /// Asks the static service's `feed_info` for the dates that run a weekend timetable (nil: no answer).
    private let askDayTypes: (@Sendable () async -> DayTypeCalendar?)?
    private let state = Mutex(State())

    /// `askDayTypes` is asked at most every `ttl` (every `backoff` while it fails) while boards want
    /// typical delays; without it every date is its own weekday.
    init(client: RealtimeClient?, askDayTypes: (@Sendable () async -> DayTypeCalendar?)? = nil) {
        self.client = client
        self.askDayTypes = askDayTypes
    }

    /// The day types of service dates, asked again when they are older than `ttl`.
    func dayTypes() async -> DayTypeCalendar {
        let now = ContinuousClock.now
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

    /// The histograms of `slices`: held ones, and (when `ask`) the rest asked in one request; a slice it
    /// could not get is missing from the result.
    func histograms(_ slices: Set<DelaySlice>, ask: Bool) async -> [DelaySlice: DelayHistogram] {
        guard let client, !slices.isEmpty else { return [:] }
        let now = ContinuousClock.now
        var found: [DelaySlice: DelayHistogram] = [:]
        var missing: [DelaySlice] = []
        let asking = state.withLock { s -> Bool in
            for slice in slices {
                if let entry = s.entries[slice], entry.until > now {
                    found[slice] = entry.histogram
                } else {
                    missing.append(slice)
                }
            }
            return s.unavailableUntil.map { $0 <= now } ?? true
        }
        guard ask, !missing.isEmpty, asking else { return found }
        var asked: [DelaySlice] = []
        var start = 0
        while start < missing.count {
            let chunk = Array(missing[start..<min(start + RealtimeQuery.maxDelaySlices, missing.count)])
            start += chunk.count
            guard case .success(.delayHistograms(let answer)) = await client.query(.delayHistograms(chunk)),
                answer.count == chunk.count
            else {
                state.withLock { $0.unavailableUntil = ContinuousClock.now + Self.backoff }
                return found
            }
            for (slice, window) in zip(chunk, answer) { found[slice] = window.histogram }
            asked += chunk
        }
        let until = ContinuousClock.now + Self.ttl
        state.withLock { s in
            if s.entries.count + asked.count > Self.maxEntries { s.entries.removeAll(keepingCapacity: true) }
            for slice in asked { s.entries[slice] = Entry(histogram: found[slice]!, until: until) }
            s.unavailableUntil = nil
        }
        return found
    }

    /// One scheduled visit a typical delay is wanted for.
    struct Visit {
        var routeId: String
        var stopId: String
        var serviceDate: ServiceDate
        /// Scheduled departure (else arrival) in GTFS seconds of the service day.
        var scheduledSecs: Int
    }

    /// The slices of a visit: the stop's and the route's (its fallback), under the day type `dayTypes`
    /// gives its service date (the realtime service records samples with the same function).
    static func slices(_ visit: Visit, dayTypes: DayTypeCalendar) -> (stop: DelaySlice, route: DelaySlice)? {
        guard let date = GTFSDate(yyyymmdd: Int(visit.serviceDate)) else { return nil }
        let hour = TypicalDelay.hour(ofSecs: visit.scheduledSecs)
        let type = dayTypes.dayType(of: visit.serviceDate, isoWeekday: date.weekday)
        return (
            DelaySlice(routeId: visit.routeId, stopId: visit.stopId, hour: hour, dayType: type),
            DelaySlice(routeId: visit.routeId, stopId: nil, hour: hour, dayType: type)
        )
    }

    /// The typical delay of each visit (nil: under 5 departures recorded, or not known), in order. `ask`:
    /// the realtime service may be asked for the slices not held (callers pass false while its publisher is
    /// silent, so a board never waits on a service that is down).
    func typicalDelays(_ visits: [Visit], ask: Bool) async -> [TypicalDelay?] {
        guard client != nil, !visits.isEmpty else { return Array(repeating: nil, count: visits.count) }
        let dayTypes = await dayTypes()
        let pairs = visits.map { Self.slices($0, dayTypes: dayTypes) }
        var wanted = Set<DelaySlice>()
        for pair in pairs {
            if let pair {
                wanted.insert(pair.stop)
                wanted.insert(pair.route)
            }
        }
        let held = await histograms(wanted, ask: ask)
        return pairs.map { pair in
            guard let pair else { return nil }
            return TypicalDelay.choose(stop: held[pair.stop], route: held[pair.route])
        }
    }
}
