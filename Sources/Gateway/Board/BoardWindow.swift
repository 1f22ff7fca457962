import Synchronization
import TransitModel

/// Consecutive scheduled departures of a stop's board as the static service listed them forward from
/// `anchor` (one page of up to `fetchLimit` rows): every departure scheduled from `anchor` up to the last row
/// is among `rows`, in the static service's order. A later page forward from any `t ≥ anchor` whose rows all
/// lie inside `rows` is a slice of them, so the gateway can answer it without asking the static service
/// again (BoardWindowCache). `page(from:limit:)` returns only pages it knows to be exactly what the static
/// service would answer, as far as the gateway reads them (rows, `hasMorePast`, a full page or not).
// A class: the cache hands a window out on every hit, and a class is one retain where the struct was one per
// field (its rows, ids, cursor and timezone).
final class BoardWindow: Sendable {
    let stopId: String
    /// The board it belongs to: the stop and its filters (`DeparturesQuery.boardKey`); the cache's key.
    let key: String
    let anchor: Int64
    /// Fetched from `lookback` before the board time that asked for it (else from that time, or the grid point
    /// before it: `grid`).
    let lookedBack: Bool
    /// Ascending by scheduled time (ties in the static service's order).
    let rows: [Departure]
    /// The limit the rows were asked with: fewer rows means none is left within the board horizon.
    let fetchLimit: Int
    /// Of the page at `anchor`: a departure lies before its first row (within the static service's horizon).
    let hasMorePast: Bool
    /// A departure follows the last row, and the static service's cursor to it.
    let hasMoreFuture: Bool
    let laterCursor: String?
    let timezone: String?
    /// The database version the rows were read from (`laterCursor` belongs to it); nil: not named.
    let databaseVersion: String?
    /// The memory it holds, estimated once when it is made (`BoardWindowCache` counts it against its bytes).
    let bytes: Int

    init(
        stopId: String, key: String? = nil, anchor: Int64, lookedBack: Bool = false, grid: Int64 = 1,
        fetchLimit: Int, board: DepartureBoard, databaseVersion: String? = nil
    ) {
        self.databaseVersion = databaseVersion
        self.stopId = stopId
        self.key = key ?? stopId
        self.anchor = anchor
        self.lookedBack = lookedBack
        self.grid = grid
        self.fetchLimit = fetchLimit
        rows = board.departures
        hasMorePast = board.hasMorePast
        hasMoreFuture = board.hasMoreFuture
        laterCursor = board.laterCursor
        timezone = board.timezone
        var bytes = 512 + 2 * (self.key.utf8.count + stopId.utf8.count) + (board.laterCursor?.utf8.count ?? 0)
        for row in board.departures { bytes += Self.bytes(of: row) }
        self.bytes = bytes
    }

    /// A row's estimated memory: its box of fields (about 300 bytes with the route inline), its strings, the
    /// JSON encoding it caches once answered (about 400 bytes and its strings again), and the allocator's share;
    /// calibrated on the NSW-scale feed, where RSS grew about 1.4× the first estimate (704 + 2 × strings) as the
    /// windows filled (RELIABILITY.md "Cache bytes").
    static func bytes(of row: Departure) -> Int {
        let strings =
            row.tripId.utf8.count + (row.headsign?.utf8.count ?? 0) + row.stopId.utf8.count
            + (row.platform?.utf8.count ?? 0) + row.route.routeId.utf8.count + (row.route.longName?.utf8.count ?? 0)
            + (row.route.shortName?.utf8.count ?? 0)
        return 1056 + 3 * strings
    }

    /// Every departure scheduled in [anchor, anchor + horizon) is among the rows (the static service listed
    /// fewer than it was asked for).
    var complete: Bool { rows.count < fetchLimit }

    /// A page held here: its board and the index after its last row (where a following page starts).
    struct Slice {
        var board: DepartureBoard
        var end: Int
    }

    /// The static page forward from `t` with `limit` rows, or nil when this window cannot tell it exactly.
    func page(from t: Int64, limit: Int) -> Slice? {
        guard t >= anchor else { return nil }
        let start = firstIndex(atOrAfter: t)
        let end = start + limit
        if end <= rows.count {
            // An extended window's rows may reach past the horizon from `t` (its next page was asked from its
            // last row, `extended(with:askedLimit:)`); the static service's page from `t` stops there.
            guard rows[end - 1].scheduledUnix < t + DepartureBoard.horizon else { return nil }
            // The row before the page's first counts as "more past" only within the horizon of that first row
            // (what the static service checks); further back this window cannot tell.
            var morePast = hasMorePast
            if start > 0 {
                guard rows[start - 1].scheduledUnix >= rows[start].scheduledUnix - DepartureBoard.horizon else {
                    return nil
                }
                morePast = true
            }
            return Slice(board: board(Array(rows[start..<end]), at: t, morePast: morePast, moreFuture: true), end: end)
        }
        // Not full: exact only for the page the window was asked as (later ones search further ahead).
        guard complete, t == anchor else { return nil }
        return Slice(board: board(rows, at: t, morePast: hasMorePast, moreFuture: false), end: rows.count)
    }

    /// The rows of the page that continues at index `start` (after an earlier slice) with `limit` rows, when
    /// all of them lie here; else nil and the caller continues from `laterCursor` with the rows from `start`.
    func continuation(at start: Int, limit: Int) -> [Departure]? {
        guard start + limit <= rows.count else { return nil }
        return Array(rows[start..<start + limit])
    }

    /// This window with the static service's next page (asked with `laterCursor` and `limit`, read from
    /// `databaseVersion`) after its rows: the same anchor and flags behind it, the page's flags ahead. Consecutive
    /// pages list consecutive departures, so every departure from `anchor` to the new last row is among the rows,
    /// as in any window. The cache keeps it in the old one's place (same anchor): a busy station's boards whose
    /// live margin reads past a window's last row then slice the rows, where each of them asked the static service
    /// for the same next page (0.7 % of the NSW-scale boards at 07:00–09:00, each 1–2 ms: most of the open
    /// loop's p99).
    func extended(with next: DepartureBoard, askedLimit limit: Int) -> BoardWindow {
        let board = DepartureBoard(
            stopId: stopId, at: anchor, direction: .future, departures: rows + next.departures,
            laterCursor: next.laterCursor, hasMorePast: hasMorePast, hasMoreFuture: next.hasMoreFuture,
            timezone: timezone)
        // Fewer rows than asked in the new page (and only then) makes the whole window complete.
        return BoardWindow(
            stopId: stopId, key: key, anchor: anchor, lookedBack: lookedBack, grid: grid,
            fetchLimit: rows.count + limit, board: board, databaseVersion: databaseVersion)
    }

    /// The window's rows by departure: the static rows of trips that delays move onto a page of it (or early
    /// running pulls onto it from later), scheduled from `anchor` on. Made once, by the first board that asks
    /// (a board with live visits asks on every answer: hashing the window's 100 rows each time was 1.1 % of
    /// the gateway's CPU on departures), and held +1 in `byDeparture` like `Departure`'s encoding.
    func rowsByDeparture() -> [DepartureIdentity: Departure] {
        var held = byDeparture.load(ordering: .acquiring)
        if held == nil {
            var made: [DepartureIdentity: Departure] = [:]
            made.reserveCapacity(rows.count)
            for row in rows { made[DepartureIdentity(row)] = row }
            // Two threads may both make it; the first stored wins and the other's is released.
            let index = Unmanaged.passRetained(DepartureIndex(made))
            let (stored, current) = byDeparture.compareExchange(
                expected: nil, desired: index, ordering: .acquiringAndReleasing)
            if !stored { index.release() }
            held = stored ? index : current
        }
        return held!._withUnsafeGuaranteedRef { $0.rows }
    }

    private final class DepartureIndex: Sendable {
        let rows: [DepartureIdentity: Departure]
        init(_ rows: [DepartureIdentity: Departure]) { self.rows = rows }
    }

    private let byDeparture = Atomic<Unmanaged<DepartureIndex>?>(nil)

    deinit { byDeparture.load(ordering: .acquiring)?.release() }

    /// The spacing of the anchors of this board's windows, in seconds (1: none): a window is anchored at the
    /// grid point at or before the board time that asks for it, so boards asked at nearby times share it
    /// (`anchorGrid(rows:pageRows:)`). The board's next windows keep it while their pages fit.
    let grid: Int64

    /// The largest power of two of seconds within which `rows` (a board's density) leave room for a page of
    /// `pageRows` after them: a window anchored at the grid point at or before `t` then still holds the page
    /// from `t`, and boards asked at any time fetch the same few windows. Anchored at `t` itself, a busy
    /// station's windows (100 rows span 5 minutes of the NSW-scale feed's busiest peak) overlapped at random,
    /// and the 32 a stop kept covered too little of a 2-hour peak: one board in 27 asked the static service
    /// again, its window replacing another. 1: no grid (too few rows to tell).
    static func anchorGrid(rows: [Departure], pageRows: Int) -> Int64 {
        let spare = rows.count - pageRows
        guard spare >= 2 else { return 1 }
        let span = rows[spare - 1].scheduledUnix - rows[0].scheduledUnix
        guard span >= 2 else { return 1 }
        return Int64(1) << (Int64.bitWidth - 1 - span.leadingZeroBitCount)
    }

    /// The index of the first row scheduled at or after `t` (`rows.count` when none is).
    func firstIndex(atOrAfter t: Int64) -> Int {
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].scheduledUnix < t { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func board(_ departures: [Departure], at t: Int64, morePast: Bool, moreFuture: Bool) -> DepartureBoard {
        DepartureBoard(
            stopId: stopId, at: t, direction: .future, departures: departures, hasMorePast: morePast,
            hasMoreFuture: moreFuture, timezone: timezone)
    }
}
