import GatewayProtocol
import TransitModel

// The static pages behind a departure board: forward boards start from the stop's cached board window when
// it holds the page (BoardWindowCache), else from the static service.

extension RequestDispatcher {
    /// Where a board's next static page comes from: the first page (a forward one from the board window
    /// cache when it holds it), a static cursor with the database version of the page it came from (it is
    /// asked only of replicas on that version), or the rows of a cached window after an index.
    enum StaticPageSource {
        case first
        case cursor(String, version: String?)
        case window(BoardWindow, Int)
    }

    /// One static page of `query` (`at` and `limit` set; its cursor comes from `source`) and where the page
    /// after it comes from (nil: nothing follows). A first forward page that misses the window cache is asked
    /// with `windowRows` from `lookback` before `at` (the rows of trips that delays may move onto the board)
    /// and kept as the stop's window (unless it came from another database version than the pinned one); the
    /// page is its rows from `at` on.
    func staticPage(
        _ query: DeparturesQuery, from source: StaticPageSource, forward: Bool
    ) async -> (Result<StaticResult, GatewayError>, StaticPageSource?) {
        func plain(
            _ query: DeparturesQuery, cursorVersion: String? = nil
        ) async -> (Result<StaticResult, GatewayError>, StaticPageSource?) {
            let reply = await staticClient.reply(to: .departures(query), cursorVersion: cursorVersion)
            guard case .success(.departures(let board)) = reply.result else { return (reply.result, nil) }
            let cursor = forward ? board.laterCursor : board.earlierCursor
            return (reply.result, cursor.map { StaticPageSource.cursor($0, version: reply.version) })
        }
        switch source {
        case .first:
            guard forward, boardCache.enabled, let t = query.at else { return await plain(query) }
            var (held, previous) = boardCache.window(query.boardKey, from: t)
            if let held {
                if let slice = held.page(from: t, limit: query.limit) {
                    boardCache.count(hit: true)
                    return (.success(.departures(slice.board)), .window(held, slice.end))
                }
                previous = boardCache.window(query.boardKey)
            }
            boardCache.count(hit: false)
            let generation = boardCache.generation()
            var wide = query
            wide.limit = max(boardCache.windowRows, query.limit)
            // From `lookback` before; so many rows there that the page does not fit: again from `t`, which
            // always holds the page (a window's own anchor). A stop where that happened last time (a busy one,
            // or one with few departures a day) starts at `t` at once. Both on the stop's grid
            // (`BoardWindow.grid`: its last window's, else worked out from that window's rows), so boards asked
            // at nearby times share windows; then at `t` itself, whose window starts a grid fitted to its rows.
            let grid =
                previous.map { $0.grid > 1 ? $0.grid : BoardWindow.anchorGrid(rows: $0.rows, pageRows: query.limit) }
                ?? 1
            let onGrid = { (time: Int64) in time - ((time % grid) + grid) % grid }
            let lookBack = previous?.lookedBack ?? true
            var anchors = lookBack ? [onGrid(t - boardCache.lookback)] : []
            for anchor in [onGrid(t), t] where anchor != anchors.last { anchors.append(anchor) }
            for (index, anchor) in anchors.enumerated() {
                wide.at = anchor
                let reply = await staticClient.reply(to: .departures(wide))
                guard case .success(.departures(let board)) = reply.result else { return (reply.result, nil) }
                let onItsGrid = grid > 1 && anchor != t
                let window = BoardWindow(
                    stopId: query.stopId, key: query.boardKey, anchor: anchor, lookedBack: lookBack && index == 0,
                    grid: onItsGrid ? grid : BoardWindow.anchorGrid(rows: board.departures, pageRows: query.limit),
                    fetchLimit: wide.limit, board: board, databaseVersion: reply.version)
                guard let slice = window.page(from: t, limit: query.limit) else { continue }
                // Another version's rows (a rolling re-import) serve this board only.
                if let generation, reply.cacheable { boardCache.store(window, generation: generation) }
                return (.success(.departures(slice.board)), .window(window, slice.end))
            }
            return await plain(query)
        case .cursor(let cursor, let version):
            var next = query
            next.cursor = cursor
            return await plain(next, cursorVersion: version)
        case .window(let window, let start):
            // The page's rows from `held` when it holds all of them, and where the next page starts there.
            func slice(_ held: BoardWindow) -> (Result<StaticResult, GatewayError>, StaticPageSource?)? {
                guard let rows = held.continuation(at: start, limit: query.limit) else { return nil }
                let board = DepartureBoard(
                    stopId: query.stopId, at: query.at ?? 0, direction: .future, departures: rows, hasMoreFuture: true,
                    timezone: held.timezone)
                return (.success(.departures(board)), .window(held, start + query.limit))
            }
            if let sliced = slice(window) { return sliced }
            guard window.hasMoreFuture, let cursor = window.laterCursor else {
                let board = DepartureBoard(
                    stopId: query.stopId, at: query.at ?? 0, direction: .future,
                    departures: Array(window.rows[start...]),
                    timezone: window.timezone)
                return (.success(.departures(board)), nil)
            }
            // The static service's next page after the window, a window's worth, kept in the window's place
            // (`BoardWindow.extended`): the next board reading this far slices it instead of asking again.
            var next = query
            next.cursor = cursor
            next.limit = max(boardCache.windowRows, query.limit)
            let generation = boardCache.generation()
            let reply = await staticClient.reply(to: .departures(next), cursorVersion: window.databaseVersion)
            guard case .success(.departures(let page)) = reply.result else { return (reply.result, nil) }
            let wider = window.extended(with: page, askedLimit: next.limit)
            if let generation, reply.cacheable { boardCache.store(wider, generation: generation) }
            if let sliced = slice(wider) { return sliced }
            // Fewer rows than the page wants are left: all of them, and the page's flags.
            let board = DepartureBoard(
                stopId: query.stopId, at: query.at ?? 0, direction: .future, departures: Array(wider.rows[start...]),
                laterCursor: page.laterCursor, hasMorePast: true, hasMoreFuture: page.hasMoreFuture,
                timezone: wider.timezone)
            return (.success(.departures(board)), page.laterCursor.map { .cursor($0, version: reply.version) })
        }
    }

    /// Starts a check of the static database version when the board window cache needs one (in the
    /// background: no request waits for it). Not while the static service is down and its probe is not due
    /// (it would only be refused); when the probe is due, the check may be it, so recovery is noticed by the
    /// background check rather than a waiting request.
    func checkStaticVersionIfDue() {
        guard boardCache.wantsVersionCheck(askable: staticClient.wouldAsk) else { return }
        let boardCache = self.boardCache, staticClient = self.staticClient, cache = self.cache
        Task {
            let sent = ContinuousClock.now
            // Another version's answer (a rolling re-import) confirms nothing about the pinned one.
            let reply = await staticClient.reply(to: .feedInfo)
            if case .success(.feedInfo(let info)) = reply.result, reply.cacheable {
                // A new version: the trips held (answered while the version is confirmed) go too.
                if boardCache.confirm(version: info.databaseVersion, sentAt: sent) { cache.removeAll() }
            } else {
                boardCache.checkFailed()
            }
        }
    }
}
