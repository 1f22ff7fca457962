import Synchronization
import TransitModel

/// The static rows of recently asked boards (a `BoardWindow` per stop), so a hot stop's board costs no
/// static round trip while its window still holds the page asked for.
///
/// A stop keeps up to `windowsPerStop` windows (boards asked at times further apart than one window spans
/// each fetch their own; a busy station's 100 rows span only minutes of a peak: Central's 07:00–09:00 needs
/// about 20). Bounded in memory: at most `capacity` stops and `maxWindows` windows in all (a window holds up
/// to `windowRows` rows), so busy stops hold many windows and quiet ones one or two; past either bound the
/// least recently used stop is dropped (for stops), or that stop's least recently used window (for windows),
/// and past `windowsPerStop` the stop's own least recently used window; and at most `maxBytes` bytes of windows
/// (each window's `bytes`, estimated when it was made: constant work per store and per drop), past which the
/// least recently used stop gives up windows as for `maxWindows`. Bounded in time: a window is used only while the static database version it was
/// fetched under has been confirmed within `versionCheck` (the gateway asks the static service's feed_info
/// in the background before that runs out, see `wantsVersionCheck`), and for at most `lifetime` (each window for
/// a keep drawn from its second half: `ExpirySpread`). A new
/// version drops every window. So after a re-import, rows of the old database are served for at most
/// `versionCheck`. The cache holds no lock while the static service is asked.
final class BoardWindowCache: Sendable {
    let capacity: Int
    /// Rows asked for a window (the static service's most per page); a page of more is not cached.
    let windowRows: Int
    /// Seconds before the board's time a window starts: trips scheduled then and delayed onto the board are
    /// described from the window's rows, without asking the static service for the trip.
    let lookback: Int64
    let windowsPerStop: Int
    /// Windows held in all stops together.
    let maxWindows: Int
    /// Bytes of windows held in all stops together (their `bytes`).
    let maxBytes: Int
    let versionCheck: Duration
    let lifetime: Duration
    private let expiry: ExpirySpread

    struct Counts: Sendable, Equatable {
        var hits = 0
        var misses = 0
        var evictions = 0
        var stops = 0
        var windows = 0
    }

    /// Which database the caller saw confirmed before it asked the static service: a window it fetched is
    /// stored only if no other version was seen meanwhile.
    struct Generation: Sendable, Equatable {
        fileprivate var value: UInt64
    }

    private struct Entry {
        var window: BoardWindow
        var stored: ContinuousClock.Instant
        /// `stored` and the window's drawn keep.
        let expires: ContinuousClock.Instant
        var lastUse: UInt64
        /// The window's anchor, row count and last row's time, held beside it: choosing among a stop's windows
        /// reads only these. Reading the window itself costs a retain of it, and both event loops read the
        /// same windows, so each such retain is an atomic on a cache line the other core writes too.
        let anchor: Int64
        let rowCount: Int
        let lastScheduled: Int64?

        init(window: BoardWindow, stored: ContinuousClock.Instant, expires: ContinuousClock.Instant, lastUse: UInt64) {
            self.window = window
            self.stored = stored
            self.expires = expires
            self.lastUse = lastUse
            anchor = window.anchor
            rowCount = window.rows.count
            lastScheduled = window.rows.last?.scheduledUnix
        }
    }

    /// The windows of one stop (in no order) and when the stop was last used.
    private struct StopEntry {
        var windows: [Entry]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: StopEntry] = [:]
        /// Windows in `entries`, all stops together, and their bytes.
        var windows = 0
        var bytes = 0
        var useCounter: UInt64 = 0
        var version: String?
        var generation: UInt64 = 0
        /// When the last check that confirmed `version` was sent (nil: never confirmed).
        var confirmedAt: ContinuousClock.Instant?
        var checking = false
        var counts = Counts()
    }

    private let state = Mutex(State())
    /// When the next version check is due (`confirmedAt` + `versionCheck` / 2), in nanoseconds after `origin`;
    /// read without the lock. Every forward board asks `wantsVersionCheck`, and taking the lock is a write to a
    /// cache line both event loops' cores then pull back and forth (1 % of the gateway's CPU on departures).
    private let checkDue = Atomic<Int64>(.min)
    /// Counted apart from `state`: one atomic add, not a second lock per board.
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    private let origin = ContinuousClock.now

    private func nanos(_ t: ContinuousClock.Instant) -> Int64 {
        let d = origin.duration(to: t).components
        return d.seconds &* 1_000_000_000 &+ d.attoseconds / 1_000_000_000
    }

    init(
        capacity: Int = 512, windowRows: Int = StaticRequestLimits.maxLimit, lookback: Int64 = 900,
        windowsPerStop: Int = 32, maxWindows: Int = 4096, maxBytes: Int = .max, versionCheck: Duration = .seconds(1),
        lifetime: Duration = .seconds(600)
    ) {
        self.maxBytes = max(1, maxBytes)
        self.capacity = capacity
        self.windowRows = windowRows
        self.lookback = lookback
        self.windowsPerStop = max(1, windowsPerStop)
        self.maxWindows = max(1, maxWindows)
        self.versionCheck = versionCheck
        self.lifetime = lifetime
        expiry = ExpirySpread(lifetime)
    }

    var enabled: Bool { capacity > 0 }

    /// The windows of a board (`DeparturesQuery.boardKey`: the stop and its filters) that may be used now for
    /// a forward page from `t`: `best`, the one holding the most rows from `t` on among those anchored at or
    /// before `t` whose rows do not all lie before `t` (nil: none), and, only when there is no `best`,
    /// `latest`, the one stored last (whatever its time; a caller that has a best one but cannot use it asks
    /// `window(_:now:)`: handing out a window is a retain of an object both event loops read). Counts nothing.
    func window(_ boardKey: String, from t: Int64, now: ContinuousClock.Instant = .now) -> (
        best: BoardWindow?, latest: BoardWindow?
    ) {
        state.withLock { s in
            guard Self.confirmed(s, now: now, within: versionCheck), let at = s.entries.index(forKey: boardKey) else {
                return (nil, nil)
            }
            // Read and marked in place: a copy of the stop's entry would copy its window list when it is marked.
            var best: Int?, bestRows = -1, latest: Int?
            var latestStored: ContinuousClock.Instant?
            s.entries.values[at].windows.withUnsafeBufferPointer { windows in
                for i in windows.indices where windows[i].expires > now {
                    // On a tie the later one: windows are kept in the order they were stored.
                    if latestStored.map({ $0 <= windows[i].stored }) ?? true {
                        (latest, latestStored) = (i, windows[i].stored)
                    }
                    guard windows[i].anchor <= t else { continue }
                    // A window whose rows all lie before `t` gives no page from `t` (`BoardWindow.page`): skipped
                    // before the search, as a busy stop holds up to `windowsPerStop` windows.
                    if let last = windows[i].lastScheduled, last < t { continue }
                    // No more rows than it holds: a window that cannot beat the best is not searched.
                    guard windows[i].rowCount > bestRows else { continue }
                    let rows = windows[i].rowCount - windows[i].window.firstIndex(atOrAfter: t)
                    if rows > bestRows { (best, bestRows) = (i, rows) }
                }
            }
            guard best != nil || latest != nil else { return (nil, nil) }
            s.useCounter += 1
            s.entries.values[at].lastUse = s.useCounter
            if let best { s.entries.values[at].windows[best].lastUse = s.useCounter }
            // Read in place: a copy of the window list is a retain of an array both event loops read.
            if let best { return (s.entries.values[at].windows[best].window, nil) }
            return (nil, latest.map { s.entries.values[at].windows[$0].window })
        }
    }

    /// The window of a board stored last, when it may be used now.
    func window(_ boardKey: String, now: ContinuousClock.Instant = .now) -> BoardWindow? {
        window(boardKey, from: .max, now: now).latest
    }

    /// Records whether the page asked for came from a window (`hit`) or from the static service.
    func count(hit: Bool) {
        if hit { hits.add(1, ordering: .relaxed) } else { misses.add(1, ordering: .relaxed) }
    }

    /// The generation a window fetched from now on would belong to; nil while no version is confirmed (then
    /// nothing is stored).
    func generation(now: ContinuousClock.Instant = .now) -> Generation? {
        state.withLock { s in Self.confirmed(s, now: now, within: versionCheck) ? Generation(value: s.generation) : nil
        }
    }

    /// Keeps `window` for its stop if the database version is still the one of `generation`. A window of the
    /// stop with the same anchor is replaced.
    func store(_ window: BoardWindow, generation: Generation, now: ContinuousClock.Instant = .now) {
        guard enabled else { return }
        state.withLock { s in
            guard s.generation == generation.value else { return }
            s.useCounter += 1
            let entry = Entry(window: window, stored: now, expires: expiry.expiry(from: now), lastUse: s.useCounter)
            var stop: StopEntry
            if let held = s.entries.removeValue(forKey: window.key) {
                stop = held
                for gone in stop.windows where gone.anchor == window.anchor || gone.expires <= now {
                    s.windows -= 1
                    s.bytes -= gone.window.bytes
                }
                stop.windows.removeAll { $0.anchor == window.anchor || $0.expires <= now }
                if stop.windows.count >= windowsPerStop,
                    let oldest = stop.windows.indices.min(by: { stop.windows[$0].lastUse < stop.windows[$1].lastUse })
                {
                    s.bytes -= stop.windows.remove(at: oldest).window.bytes
                    s.windows -= 1
                }
            } else {
                if s.entries.count >= capacity { Self.dropLeastRecentlyUsedStop(&s) }
                stop = StopEntry(windows: [], lastUse: 0)
            }
            // The total: the other stops give up windows, the least recently used stop first (this one is out of
            // `entries` meanwhile, so it keeps what it holds).
            while s.windows >= maxWindows || s.bytes + window.bytes > maxBytes, !s.entries.isEmpty {
                Self.dropOneWindowOfLeastRecentlyUsedStop(&s)
            }
            // This stop's own windows make room last (a window larger than the whole bound is not kept).
            while s.bytes + window.bytes > maxBytes, !stop.windows.isEmpty {
                s.bytes -= stop.windows.removeFirst().window.bytes
                s.windows -= 1
            }
            guard s.bytes + window.bytes <= maxBytes else {
                if !stop.windows.isEmpty { s.entries[window.key] = stop }
                return
            }
            stop.lastUse = s.useCounter
            stop.windows.append(entry)
            s.windows += 1
            s.bytes += window.bytes
            s.entries[window.key] = stop
        }
    }

    private static func leastRecentlyUsedStop(_ s: State) -> String? {
        s.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
    }

    private static func dropLeastRecentlyUsedStop(_ s: inout State) {
        guard let oldest = leastRecentlyUsedStop(s), let dropped = s.entries.removeValue(forKey: oldest) else { return }
        s.windows -= dropped.windows.count
        for entry in dropped.windows { s.bytes -= entry.window.bytes }
        s.counts.evictions += 1
    }

    /// Drops the least recently used window of the least recently used stop (the stop too when it was its last).
    private static func dropOneWindowOfLeastRecentlyUsedStop(_ s: inout State) {
        guard let key = leastRecentlyUsedStop(s), var stop = s.entries[key] else { return }
        guard stop.windows.count > 1,
            let oldest = stop.windows.indices.min(by: { stop.windows[$0].lastUse < stop.windows[$1].lastUse })
        else {
            dropLeastRecentlyUsedStop(&s)
            return
        }
        s.bytes -= stop.windows.remove(at: oldest).window.bytes
        s.windows -= 1
        s.entries[key] = stop
    }

    // MARK: the database version

    /// True when a version check should start now (half of `versionCheck` has passed since the last
    /// confirmation, so windows stay usable under steady load) and none is running; the caller then runs
    /// one and reports it with `confirm` or `checkFailed`. `askable` (whether the static service would be
    /// asked now) is read only when a check is due.
    func wantsVersionCheck(now: ContinuousClock.Instant = .now, askable: @autoclosure () -> Bool = true) -> Bool {
        guard enabled, nanos(now) >= checkDue.load(ordering: .relaxed), askable() else { return false }
        return state.withLock { s in
            if s.checking { return false }
            if let at = s.confirmedAt, at.duration(to: now) < versionCheck / 2 { return false }
            s.checking = true
            return true
        }
    }

    /// The static service served `version` in answer to a question sent at `sentAt`. Another version than
    /// the one held drops every window; an answer older than the last confirmation changes nothing.
    /// Returns true when it replaced another version (not the first one confirmed).
    @discardableResult
    func confirm(version: String, sentAt: ContinuousClock.Instant) -> Bool {
        state.withLock { s in
            s.checking = false
            if let at = s.confirmedAt, sentAt < at { return false }
            let moved = s.version != nil && version != s.version
            if version != s.version {
                s.version = version
                s.generation += 1
                s.entries.removeAll()
                s.windows = 0
                s.bytes = 0
            }
            s.confirmedAt = sentAt
            checkDue.store(nanos(sentAt + versionCheck / 2), ordering: .relaxed)
            return moved
        }
    }

    /// The static client moved to another database version (all its answers now come from `version`):
    /// every window of the old one goes at once, without waiting for the next check.
    func versionMoved(to version: String) {
        state.withLock { s in
            guard version != s.version else { return }
            s.version = version
            s.generation += 1
            s.entries.removeAll()
            s.windows = 0
            s.bytes = 0
            let now = ContinuousClock.now
            s.confirmedAt = now
            checkDue.store(nanos(now + versionCheck / 2), ordering: .relaxed)
        }
    }

    func checkFailed() {
        state.withLock { $0.checking = false }
    }

    var counts: Counts {
        state.withLock { s in
            var c = s.counts
            c.hits = hits.load(ordering: .relaxed)
            c.misses = misses.load(ordering: .relaxed)
            c.stops = s.entries.count
            c.windows = s.windows
            return c
        }
    }

    /// Bytes of the windows held (their estimates).
    var heldBytes: Int { state.withLock { $0.bytes } }

    private static func confirmed(_ s: State, now: ContinuousClock.Instant, within: Duration) -> Bool {
        guard let at = s.confirmedAt else { return false }
        return at.duration(to: now) < within
    }
}
