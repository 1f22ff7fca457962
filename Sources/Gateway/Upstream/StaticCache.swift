import GatewayProtocol
import Synchronization
import TransitModel

/// Static answers the live board needs again and again, kept for a while: a stop's station and platforms
/// (which stop ids a board covers), trip details of live trips outside the static window, the route list
/// (routes of added trips). Entries expire after a keep drawn per entry from the second half of `lifetime`
/// (`ExpirySpread`: entries stored together do not all expire together), all go when the static client moves to a new
/// database version (`removeAll`), and the stops (the trips) are emptied when they grow past `capacity` entries
/// or half of `maxBytes` (each entry's size estimated when it is stored: `bytes(of:)`). Only answers
/// read from the pinned version are kept (not another version's answer taken during a rolling re-import). With the static service down, the cached answers are what lets the
/// gateway still name routes and platforms on rt_only boards.
final class StaticCache: Sendable {
    struct Entry<Value: Sendable>: Sendable {
        var value: Value
        var expires: ContinuousClock.Instant
        var bytes = 0
    }

    private struct Stored: Sendable {
        var stops: [String: Entry<BoardStop>] = [:]
        var trips: [TripInstanceKey: Entry<TripDetail>] = [:]
        /// The instances held in `trips` (or once held), by trip id: for `undatedTrip`.
        var tripKeys: [String: [TripInstanceKey]] = [:]
        var routes: Entry<[String: Route]>?
        var stopBytes = 0
        var tripBytes = 0
        /// The timezone of the last board or trip answered: for rows built from live data alone.
        var lastTimezone: String?
    }

    let lifetime: Duration
    private let expiry: ExpirySpread
    let capacity: Int
    let maxBytes: Int
    private let stored = Mutex(Stored())
    private let heldTripHits = Atomic<Int>(0)
    /// Trips `undatedTrip` found (answers the static service was not asked for).
    var heldTripAnswers: Int { heldTripHits.load(ordering: .relaxed) }
    private let client: StaticClient

    init(client: StaticClient, lifetime: Duration = .seconds(600), capacity: Int = 50_000, maxBytes: Int = .max) {
        self.client = client
        self.maxBytes = maxBytes
        self.lifetime = lifetime
        expiry = ExpirySpread(lifetime)
        self.capacity = capacity
    }

    // MARK: stops

    func cachedStop(_ id: String) -> BoardStop? {
        let now = ContinuousClock.now
        return stored.withLock { s in s.stops[id].flatMap { $0.expires > now ? $0.value : nil } }
    }

    /// The stop with its station, platforms and routes (cached).
    func stop(_ id: String) async -> Result<BoardStop, GatewayError> {
        if let hit = cachedStop(id) { return .success(hit) }
        let reply = await client.reply(to: .stop(StopQuery(stopId: id)))
        switch reply.result {
        case .success(.stop(let answer)):
            let result = BoardStop(answer)
            guard reply.cacheable else { return .success(result) }
            let expires = expiry.expiry(from: ContinuousClock.now)
            let bytes = Self.bytes(of: answer) + id.utf8.count
            stored.withLock { s in
                s.stopBytes -= s.stops[id]?.bytes ?? 0
                if s.stops.count >= capacity || s.stopBytes + bytes > maxBytes / 2 {
                    s.stops.removeAll()
                    s.stopBytes = 0
                }
                s.stops[id] = Entry(value: result, expires: expires, bytes: bytes)
                s.stopBytes += bytes
                if let zone = answer.stop.timezone { s.lastTimezone = zone }
            }
            return .success(result)
        case .success(let other):
            return .failure(GatewayError(.internal, "the static service answered stop with \(other.kindName)"))
        case .failure(let error):
            return .failure(error)
        }
    }

    // MARK: trips

    func cachedTrip(_ key: TripInstanceKey, now: ContinuousClock.Instant = .now) -> TripDetail? {
        stored.withLock { s in s.trips[key].flatMap { $0.expires > now ? $0.value : nil } }
    }

    /// The static detail of one trip instance (cached; NOT_FOUND passes through).
    func trip(_ key: TripInstanceKey) async -> Result<TripDetail, GatewayError> {
        if let hit = cachedTrip(key) { return .success(hit) }
        let query = TripQuery(tripId: key.tripId, serviceDate: key.serviceDate, startTime: key.startTime)
        let reply = await client.reply(to: .trip(query))
        switch reply.result {
        case .success(.trip(let detail)):
            if reply.cacheable { remember(detail, as: key) }
            return .success(detail)
        case .success(let other):
            return .failure(GatewayError(.internal, "the static service answered trip with \(other.kindName)"))
        case .failure(let error):
            return .failure(error)
        }
    }

    func remember(_ detail: TripDetail, as key: TripInstanceKey, now: ContinuousClock.Instant = .now) {
        let expires = expiry.expiry(from: now)
        let bytes = Self.bytes(of: detail)
        stored.withLock { s in
            // Held with more than a quarter of the lifetime left: kept as it is (replacing it on every trip
            // answer freed a whole detail each time; a new database version empties the cache anyway). Keeps
            // are drawn from the second half of the lifetime, so every held detail stays untouched for at least
            // its first quarter; "more than half left" held one drawn near half for no time at all.
            if let held = s.trips[key], held.expires - now > lifetime / 4 {
                s.lastTimezone = detail.timezone
                return
            }
            s.tripBytes -= s.trips[key]?.bytes ?? 0
            if s.trips.count >= capacity || s.tripBytes + bytes > maxBytes / 2 {
                s.trips.removeAll()
                s.tripKeys.removeAll()
                s.tripBytes = 0
            }
            if s.trips.updateValue(Entry(value: detail, expires: expires, bytes: bytes), forKey: key) == nil,
                !(s.tripKeys[key.tripId]?.contains(key) ?? false)
            {
                s.tripKeys[key.tripId, default: []].append(key)
            }
            s.tripBytes += bytes
            s.lastTimezone = detail.timezone
        }
    }

    /// A held instance of `tripId` that the static service names for the trip asked without a date at `at`
    /// (TransitStore's `trip(id:at:)`), so the gateway need not ask: one whose `undatedRange` (the service's
    /// own word, in its reply) holds `at`; from a reply without a range (a service from before the range), one
    /// that runs at `at`, since a running instance wins. Never a frequency-based trip (`runs` is false).
    func undatedTrip(_ tripId: String, at: Int64) -> TripDetail? {
        let now = ContinuousClock.now
        let found = stored.withLock { s -> TripDetail? in
            for key in s.tripKeys[tripId] ?? [] {
                guard let entry = s.trips[key], entry.expires > now else { continue }
                if let range = entry.value.undatedRange {
                    if range.contains(at) { return entry.value }
                } else if Self.runs(entry.value, at: at) {
                    return entry.value
                }
            }
            return nil
        }
        if found != nil { heldTripHits.add(1, ordering: .relaxed) }
        return found
    }

    /// True when `trip` runs at `at` by its own times, counted from the later of its first stop's arrival and
    /// departure to the earlier of its last stop's (inside the static service's own span of the run, from
    /// its first time to its last); false for a frequency-based trip or one of 20 hours or more.
    static func runs(_ trip: TripDetail, at: Int64) -> Bool {
        guard !trip.frequencyBased, let first = trip.stops.first, let last = trip.stops.last else { return false }
        let span = max(last.arrivalUnix, last.departureUnix) - min(first.arrivalUnix, first.departureUnix)
        guard span < 20 * 3600 else { return false }
        return max(first.arrivalUnix, first.departureUnix) <= at && at <= min(last.arrivalUnix, last.departureUnix)
    }

    // MARK: routes

    func cachedRoute(_ id: String) -> Route? {
        let now = ContinuousClock.now
        return stored.withLock { s in s.routes.flatMap { $0.expires > now ? $0.value[id] : nil } }
    }

    /// A route by id from the route list (fetched once per lifetime); nil when unknown or not fetchable.
    func route(_ id: String) async -> Route? { await routes()[id] }

    /// The route list by id (fetched once per lifetime); empty when not fetchable.
    func routes() async -> [String: Route] {
        let now = ContinuousClock.now
        if let routes = stored.withLock({ s in s.routes.flatMap { $0.expires > now ? $0.value : nil } }) {
            return routes
        }
        let reply = await client.reply(to: .routes(RoutesQuery()))
        guard case .success(.routes(let list)) = reply.result else { return [:] }
        let byId = Dictionary(list.map { ($0.routeId, $0) }, uniquingKeysWith: { a, _ in a })
        if reply.cacheable {
            stored.withLock { $0.routes = Entry(value: byId, expires: expiry.expiry(from: ContinuousClock.now)) }
        }
        return byId
    }

    // MARK: a new database version

    /// Forgets every stop, trip and route (the static client moved to another database version).
    func removeAll() {
        stored.withLock { s in
            s.stops.removeAll()
            s.trips.removeAll()
            s.tripKeys.removeAll()
            s.routes = nil
            s.stopBytes = 0
            s.tripBytes = 0
        }
    }

    // MARK: bytes

    /// Bytes of the stops and trips held, as counted.
    var heldBytes: Int { stored.withLock { $0.stopBytes + $0.tripBytes } }

    /// A stop answer's estimated memory: the stop, its station, platforms and routes (about 320 bytes each with
    /// their strings; counted by entry, not by string).
    static func bytes(of stop: StopResult) -> Int {
        640 + 320 * (1 + stop.platforms.count + stop.routes.count) + stop.stop.name.utf8.count
    }

    /// A trip detail's estimated memory: the trip with its route (about 600 bytes) and 160 bytes a stop.
    static func bytes(of trip: TripDetail) -> Int {
        600 + trip.tripId.utf8.count * 2 + 160 * trip.stops.count
    }

    // MARK: timezone

    func noteTimezone(_ zone: String?) {
        guard let zone else { return }
        stored.withLock { $0.lastTimezone = zone }
    }

    var lastTimezone: String? { stored.withLock { $0.lastTimezone } }
}
