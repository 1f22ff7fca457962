import SQLiteKit
import TransitCore
import TransitModel

extension StaticStore {
    /// Scheduled departures at a stop; for a station, at all its platforms.
    ///
    /// `direction` future lists departures at or after `at`, past those before it (the board is ascending
    /// either way); the search reaches up to `DepartureBoard.horizon` (24 h) to fill `limit`. A `cursor` from an earlier
    /// board (its `laterCursor`/`earlierCursor`) replaces `at` and `direction` and continues exactly where
    /// that board ended. Every service date whose times can fall in the window is considered (the previous
    /// day's trips past midnight, and the next day's when its noon-minus-12h precedes local midnight), each
    /// in its feed's timezone; frequency-based trips are expanded into instances with their start time.
    /// Stops where a trip offers no pickup (pickup_type 1) and a trip's last stop are never listed.
    /// `routeId`, `directionId` and `mode` keep only the departures of that route, direction and mode; they
    /// apply before `limit` (a filtered board still fills `limit` rows from the horizon) and a cursor continues
    /// the board of the same filters. An unknown `routeId` is `notFound`, an unknown mode or a direction other
    /// than 0 or 1 `invalidArgument`.
    public func departures(
        stopId: String, at: Int64, direction: BoardDirection = .future, limit: Int,
        cursor: String? = nil, routeId: String? = nil, directionId: Int? = nil, mode: String? = nil
    ) throws(StoreError) -> DepartureBoard {
        try Self.checkLimit(limit)
        try Self.checkTime(at)
        let filter = try boardFilter(routeId: routeId, directionId: directionId, mode: mode)
        let tag = databaseTag
        var asked = BoardCursor(direction: direction, position: .before(.timeOnly(at)))
        if let cursor, !cursor.isEmpty { asked = try BoardCursor.decode(cursor, databaseTag: tag) }
        let askedCopy = asked

        return try run { c in
            var board = try resolveBoard(c, stopId: stopId)
            board.filter = filter
            let forward = askedCopy.direction == .future
            var (rows, more) = try collectDepartures(
                c, board: board, from: askedCopy.position, forward: forward, limit: limit)
            if !forward { rows.reverse() }

            // Positions around the page: before its first row and after its last (or, for an empty page,
            // the searched window's ends), and whether anything lies beyond them.
            let anchor = askedCopy.position
            let earlier: BoardPosition, later: BoardPosition
            if let first = rows.first, let last = rows.last {
                earlier = .before(first.key)
                later = .after(last.key)
            } else if forward {
                earlier = anchor
                later = .before(.timeOnly(anchor.key.unix + DepartureBoard.horizon))
            } else {
                earlier = .before(.timeOnly(anchor.key.unix - DepartureBoard.horizon))
                later = anchor
            }
            let moreEarlier =
                forward
                ? try !collectDepartures(c, board: board, from: earlier, forward: false, limit: 1).rows.isEmpty
                : more
            let moreLater =
                forward
                ? more
                : try !collectDepartures(c, board: board, from: later, forward: true, limit: 1).rows.isEmpty

            var departures: [Departure] = []
            departures.reserveCapacity(rows.count)
            var stops: [Int: (id: String, platform: String?)] = [:]
            for row in rows { departures.append(try departure(c, row, stops: &stops)) }

            return DepartureBoard(
                stopId: stopId, at: anchor.key.unix, direction: askedCopy.direction, departures: departures,
                earlierCursor: BoardCursor(direction: .past, position: earlier).encode(databaseTag: tag),
                laterCursor: BoardCursor(direction: .future, position: later).encode(databaseTag: tag),
                hasMorePast: moreEarlier, hasMoreFuture: moreLater, timezone: board.timezone)
        }
    }

    /// A short digest of the database version, so cursors of another import are recognised.
    var databaseTag: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in catalog.databaseVersion.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash & 0xffff_ffff, radix: 36)
    }

    struct Board {
        let boardPk: Int
        /// Only this platform's departures (a platform of a station), or nil for the whole board.
        let stopFilter: Int?
        let timezone: String
        /// Only these routes and direction, or nil for every departure.
        var filter: BoardFilter?
    }

    /// The departures a filtered board keeps.
    struct BoardFilter {
        /// nil: every route.
        var routePks: Set<Int>?
        var directionId: Int?

        func admits(routePk: Int, directionId: Int?) -> Bool {
            if let routePks, !routePks.contains(routePk) { return false }
            if let wanted = self.directionId, directionId != wanted { return false }
            return true
        }
    }

    /// The filter of `departures`' arguments; nil when none narrows the board.
    func boardFilter(routeId: String?, directionId: Int?, mode: String?) throws(StoreError) -> BoardFilter? {
        let routeId = routeId.flatMap { $0.isEmpty ? nil : $0 }
        let mode = try Self.parseMode(mode)
        if let directionId, directionId != 0 && directionId != 1 {
            throw .invalidArgument("direction_id must be 0 or 1, got \(directionId)")
        }
        guard routeId != nil || mode != nil || directionId != nil else { return nil }
        var routePks: Set<Int>?
        if let routeId {
            let pks = catalog.routes.filter { $0.value.routeId == routeId }.map(\.key)
            guard !pks.isEmpty else { throw .notFound("route \(routeId)") }
            routePks = Set(pks)
        }
        if let mode {
            let ofMode = catalog.routes.filter { $0.value.mode == mode.rawValue }.map(\.key)
            routePks = routePks.map { $0.intersection(ofMode) } ?? Set(ofMode)
        }
        return BoardFilter(routePks: routePks, directionId: directionId)
    }

    func resolveBoard(_ c: StoreConnection, stopId: String) throws -> Board {
        let s = try c.statement(
            """
            SELECT s.stop_pk, s.board_pk, s.feed_pk, COALESCE(s.timezone, p.timezone)
            FROM stops s LEFT JOIN stops p ON p.stop_pk = s.parent_pk WHERE s.stop_id = ?1
            """)
        s.bind(1, stopId)
        guard try s.step() else { throw StoreError.notFound("stop \(stopId)") }
        let pk = s.int(0), boardPk = s.int(1)
        return Board(
            boardPk: boardPk, stopFilter: boardPk == pk ? nil : pk,
            timezone: s.string(3) ?? catalog.zone(ofFeedPk: s.int(2)).identifier)
    }

    /// One departure found on a board, before its details are loaded.
    struct BoardRow {
        var key: BoardKey
        var date: GTFSDate
        var secs: Int
        var stopPk: Int
        var isFrequency: Bool
    }

    /// Up to `limit` departures strictly after (`forward`) or before `position`, within the horizon, in
    /// that direction's order; `more` tells whether another one follows within the horizon.
    func collectDepartures(
        _ c: StoreConnection, board: Board, from position: BoardPosition, forward: Bool,
        limit: Int
    ) throws -> (rows: [BoardRow], more: Bool) {
        let base = position.key.unix
        let fromUnix = forward ? base : base - DepartureBoard.horizon
        let toUnix = forward ? base + DepartureBoard.horizon : base + 1

        var streams: [ScheduledStream] = []
        var frequencyRows: [BoardRow] = []
        let frequencyTrips = try frequencyStops(c, board: board)
        for (zoneIndex, zone) in catalog.zones.enumerated() {
            for window in zone.serviceDays(fromUnix: fromUnix, toUnix: toUnix, maxSecs: catalog.maxSecs) {
                let active = catalog.calendar.activeServices(on: window.date)
                guard !active.isEmpty else { continue }
                let sql =
                    board.filter == nil
                    ? (forward ? Self.scheduledAscending : Self.scheduledDescending)
                    : (forward ? Self.filteredAscending : Self.filteredDescending)
                let stream = ScheduledStream(
                    statement: try c.statement(sql, slot: streams.count),
                    board: board, window: window, active: active, zoneIndex: zoneIndex, catalog: catalog,
                    position: position, forward: forward)
                try stream.advance()
                streams.append(stream)
                for f in frequencyTrips
                where active.contains(f.servicePk) && catalog.zoneIndex(ofService: f.servicePk) == zoneIndex
                    && board.filter?.admits(routePk: f.routePk, directionId: f.directionId) ?? true
                {
                    for k in f.period.instances(offset: f.offset, timeIn: window.secs) {
                        let start = f.period.startTime(ofInstance: k)
                        let secs = start + f.offset
                        let key = BoardKey(
                            unix: window.unix(secs: secs), tripPk: f.tripPk, stopIndex: f.stopIndex, start: start)
                        guard forward ? position.precedes(key) : position.follows(key) else { continue }
                        frequencyRows.append(
                            BoardRow(key: key, date: window.date, secs: secs, stopPk: f.stopPk, isFrequency: true))
                    }
                }
            }
        }
        frequencyRows.sort { forward ? $0.key < $1.key : $1.key < $0.key }

        // Merge the per-day streams and the frequency instances in board order.
        var rows: [BoardRow] = []
        var nextFrequency = 0
        while rows.count <= limit {
            var best: Int?
            for (i, s) in streams.enumerated() {
                guard let head = s.head else { continue }
                if let b = best, let bh = streams[b].head, forward ? !(head.key < bh.key) : !(bh.key < head.key) {
                    continue
                }
                best = i
            }
            let scheduled = best.flatMap { streams[$0].head }
            if nextFrequency < frequencyRows.count {
                let f = frequencyRows[nextFrequency]
                if scheduled == nil || (forward ? f.key < scheduled!.key : scheduled!.key < f.key) {
                    rows.append(f)
                    nextFrequency += 1
                    continue
                }
            }
            guard let scheduled, let b = best else { break }
            rows.append(scheduled)
            try streams[b].advance()
        }
        for s in streams { s.statement.reset() }
        let more = rows.count > limit
        if more { rows.removeLast(rows.count - limit) }
        return (rows, more)
    }

    static let scheduledAscending = """
        SELECT departure_secs, trip_pk, stop_index, stop_pk, service_pk FROM departures
        WHERE board_pk = ?1 AND departure_secs >= ?2 AND departure_secs < ?3 AND (?4 IS NULL OR stop_pk = ?4)
        ORDER BY departure_secs, trip_pk, stop_index
        """
    static let scheduledDescending = """
        SELECT departure_secs, trip_pk, stop_index, stop_pk, service_pk FROM departures
        WHERE board_pk = ?1 AND departure_secs >= ?2 AND departure_secs < ?3 AND (?4 IS NULL OR stop_pk = ?4)
        ORDER BY departure_secs DESC, trip_pk DESC, stop_index DESC
        """
    /// The same rows with their trip's route and direction, for a filtered board (the filter is applied as the
    /// rows are read, before the limit).
    static let filteredAscending = """
        SELECT d.departure_secs, d.trip_pk, d.stop_index, d.stop_pk, d.service_pk, t.route_pk, t.direction_id
        FROM departures d JOIN trips t ON t.trip_pk = d.trip_pk
        WHERE d.board_pk = ?1 AND d.departure_secs >= ?2 AND d.departure_secs < ?3 AND (?4 IS NULL OR d.stop_pk = ?4)
        ORDER BY d.departure_secs, d.trip_pk, d.stop_index
        """
    static let filteredDescending = """
        SELECT d.departure_secs, d.trip_pk, d.stop_index, d.stop_pk, d.service_pk, t.route_pk, t.direction_id
        FROM departures d JOIN trips t ON t.trip_pk = d.trip_pk
        WHERE d.board_pk = ?1 AND d.departure_secs >= ?2 AND d.departure_secs < ?3 AND (?4 IS NULL OR d.stop_pk = ?4)
        ORDER BY d.departure_secs DESC, d.trip_pk DESC, d.stop_index DESC
        """

    struct FrequencyStop {
        let tripPk: Int
        let stopIndex: Int
        let stopPk: Int
        let servicePk: Int
        let offset: Int
        let period: FrequencyPeriod
        let routePk: Int
        let directionId: Int?
    }

    /// The frequency-based trips offering departures on the board, one entry per frequencies.txt row.
    ///
    /// `offset` counts from the template's departure at its first stop, not from `trips.start_secs` (its
    /// arrival there): GTFS frequencies.txt start_time is the "time at which the first vehicle departs from
    /// the first stop of the trip", so an instance starting at S leaves stop k at S + (departure_k −
    /// departure_0). The two differ when the template dwells at its first stop.
    func frequencyStops(_ c: StoreConnection, board: Board) throws -> [FrequencyStop] {
        let s = try c.statement(
            """
            SELECT fs.trip_pk, fs.stop_index, fs.stop_pk, fs.service_pk, ps.departure_offset - first.departure_offset,
                   f.start_secs, f.end_secs, f.headway_secs, f.exact_times, t.route_pk, t.direction_id
            FROM frequency_stops fs
            JOIN trips t ON t.trip_pk = fs.trip_pk
            JOIN pattern_stops ps ON ps.pattern_pk = t.pattern_pk AND ps.stop_index = fs.stop_index
            JOIN pattern_stops first ON first.pattern_pk = t.pattern_pk AND first.stop_index = 0
            JOIN frequencies f ON f.trip_pk = fs.trip_pk
            WHERE fs.board_pk = ?1 AND (?2 IS NULL OR fs.stop_pk = ?2)
            """)
        s.bind(1, board.boardPk)
        s.bind(2, board.stopFilter)
        var result: [FrequencyStop] = []
        while try s.step() {
            result.append(
                FrequencyStop(
                    tripPk: s.int(0), stopIndex: s.int(1), stopPk: s.int(2), servicePk: s.int(3), offset: s.int(4),
                    period: FrequencyPeriod(start: s.int(5), end: s.int(6), headway: s.int(7), isExact: s.int(8) != 0),
                    routePk: s.int(9), directionId: s.optionalInt(10)))
        }
        return result
    }

    /// Loads a board row's trip, route, headsign, platform and start (its first departure, or for a
    /// frequency-based trip the instance's start).
    func departure(_ c: StoreConnection, _ row: BoardRow, stops: inout [Int: (id: String, platform: String?)]) throws
        -> Departure
    {
        let trip = try c.statement(
            """
            SELECT t.trip_id, t.route_pk, COALESCE(ps.stop_headsign, t.headsign), t.direction_id,
                   t.wheelchair_accessible, ps.stop_sequence, t.start_secs + first.departure_offset
            FROM trips t JOIN pattern_stops ps ON ps.pattern_pk = t.pattern_pk AND ps.stop_index = ?2
            JOIN pattern_stops first ON first.pattern_pk = t.pattern_pk AND first.stop_index = 0
            WHERE t.trip_pk = ?1
            """)
        trip.bind(1, row.key.tripPk)
        trip.bind(2, row.key.stopIndex)
        guard try trip.step() else { throw StoreError.database("departure of unknown trip_pk \(row.key.tripPk)") }
        let route =
            catalog.routes[trip.int(1)]
            ?? Route(routeId: "", routeType: 3, mode: Mode.other.rawValue, section: "#")
        if stops[row.stopPk] == nil {
            let stop = try c.statement("SELECT stop_id, platform_code FROM stops WHERE stop_pk = ?1")
            stop.bind(1, row.stopPk)
            stops[row.stopPk] = try stop.step() ? (stop.string(0) ?? "", stop.string(1)) : ("", nil)
        }
        let stop = stops[row.stopPk]!
        return Departure(
            tripId: trip.string(0) ?? "", startTime: GTFSTime.format(row.isFrequency ? row.key.start : trip.int(6)),
            route: route, headsign: trip.string(2), stopId: stop.id,
            stopSequence: UInt32(truncatingIfNeeded: trip.int(5)),
            stopIndex: UInt32(truncatingIfNeeded: row.key.stopIndex),
            serviceDate: UInt32(truncatingIfNeeded: row.date.yyyymmdd),
            scheduledSecs: Int32(truncatingIfNeeded: row.secs),
            scheduledUnix: row.key.unix, platform: stop.platform, wheelchairAccessible: trip.int(4),
            directionId: trip.optionalInt(3), frequencyBased: row.isFrequency)
    }
}

/// The scheduled departures of one service date in board order, keeping only rows whose service runs
/// that day in this zone and that lie beyond the position.
final class ScheduledStream {
    let statement: Statement
    let window: ServiceDayWindow
    let active: ServiceSet
    let zoneIndex: Int
    let catalog: StoreCatalog
    let position: BoardPosition
    let forward: Bool
    let filter: StaticStore.BoardFilter?
    private(set) var head: StaticStore.BoardRow?

    init(
        statement: Statement, board: StaticStore.Board, window: ServiceDayWindow, active: ServiceSet, zoneIndex: Int,
        catalog: StoreCatalog, position: BoardPosition, forward: Bool
    ) {
        self.statement = statement
        self.window = window
        self.active = active
        self.zoneIndex = zoneIndex
        self.catalog = catalog
        self.position = position
        self.forward = forward
        filter = board.filter
        statement.bind(1, board.boardPk)
        statement.bind(2, window.secs.lowerBound)
        statement.bind(3, window.secs.upperBound)
        statement.bind(4, board.stopFilter)
    }

    func advance() throws {
        head = nil
        while try statement.step() {
            let service = statement.int(4)
            guard active.contains(service), catalog.zoneIndex(ofService: service) == zoneIndex else { continue }
            if let filter, !filter.admits(routePk: statement.int(5), directionId: statement.optionalInt(6)) {
                continue
            }
            let secs = statement.int(0)
            let key = BoardKey(
                unix: window.unix(secs: secs), tripPk: statement.int(1), stopIndex: statement.int(2), start: -1)
            guard forward ? position.precedes(key) : position.follows(key) else { continue }
            head = StaticStore.BoardRow(
                key: key, date: window.date, secs: secs, stopPk: statement.int(3), isFrequency: false)
            return
        }
    }
}
