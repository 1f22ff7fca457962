import GatewayProtocol
import TransitModel

/// The paging state of one departure board while its static pages are fetched (`RequestDispatcher.board`
/// drives it: it asks the pages, this decides what to ask and what they tell).
///
/// Page 1 asks the client's limit plus a margin for ties and for trips the live state delays onto the board;
/// every page widens `known`, the span of scheduled time whose departures are all among `rows`; after each the
/// rows are merged with the live state and the live visits the rows lack are looked up (`candidates`). The
/// board stops fetching once the page can be cut from what it holds (`complete`); otherwise the next page
/// asks for the rows still missing (`advance(to:)`).
struct BoardPageFetch {
    /// The client's limit: rows on the page.
    let limit: Int
    let direction: BoardDirection
    /// The page's anchor (from `at` or the cursor).
    let position: BoardPosition
    let state: RealtimeState?
    /// `RealtimeView`'s version of `state` (what `BoardStop` keeps its visits for): no default, as a wrong
    /// version would hand out another state's visits.
    let stateVersion: UInt64
    /// The board's filters for live visits (the static rows come filtered); nil: none.
    let filter: LiveBoardFilter?

    /// The static page to ask next, and where it comes from.
    private(set) var staticQuery: DeparturesQuery
    private(set) var source = RequestDispatcher.StaticPageSource.first
    /// The stop's station and platforms, when known (cached, or asked alongside page 1).
    private(set) var info: BoardStop?
    /// The stop ids the board covers (a station: its platforms too).
    private(set) var boardStops: Set<String>
    /// The live state's visits at `boardStops` (`BoardAssembly.visits`).
    private var stopVisits = BoardAssembly.StopVisits()
    private(set) var timezone: String?
    /// The cached board window page 1 came from (its rows give delayed trips their scheduled row).
    private(set) var window: BoardWindow?

    /// The static rows so far, in the static service's order page after page.
    private(set) var rows: [Departure] = []
    /// Every departure scheduled in this span is among `rows`.
    private(set) var known: Range<Int64>
    /// Static rows past `known`, in the paging direction.
    private var staticMoreBeyond = false
    /// Static rows on the other side of the anchor.
    private var staticMoreBehind = false
    /// `rows` with what the live state says about them.
    private(set) var merged = BoardAssembly.Merged()
    /// Live visits whose board time lies in `known` that `rows` lack.
    private(set) var candidates = BoardAssembly.Candidates()
    /// Rows the page would show now (before the candidates' details are fetched).
    private var found = 0
    /// The last page had as many rows as asked: the static service may hold more within the horizon.
    private var lastPageFull = false

    private var anchorTime: Int64 { position.key.time }
    private var forward: Bool { direction == .future }

    init(
        stopId: String, limit: Int, direction: BoardDirection, position: BoardPosition, state: RealtimeState?,
        stateVersion: UInt64, info: BoardStop?, filtered query: DeparturesQuery? = nil,
        filter: LiveBoardFilter? = nil, windowed: Bool = false
    ) {
        self.filter = filter
        self.limit = limit
        self.direction = direction
        self.position = position
        self.state = state
        self.stateVersion = stateVersion
        self.info = info
        let t = position.key.time
        let forward = direction == .future
        let stops = info?.stopIds ?? [stopId]
        boardStops = stops
        known = t..<t
        if let state {
            stopVisits =
                info?.visits(in: state, version: stateVersion) ?? BoardAssembly.visits(state: state, boardStops: stops)
        }
        // Rows the live state may delay off the page are asked along, so one static round trip is likely to
        // do. Pages sliced from a board window cost none: they come without that margin (merging and sorting up
        // to 40 rows more than the page shows was a third of the board's work), and more follow from the
        // window when delays push rows out.
        let delayed = windowed ? 0 : BoardAssembly.delayedCount(visits: stopVisits, from: t)
        let fetchLimit = min(StaticRequestLimits.maxLimit, limit + 5 + min(delayed, 40))
        staticQuery = DeparturesQuery(
            stopId: stopId, at: forward ? t : t + 1, direction: direction, limit: fetchLimit, routeId: query?.routeId,
            directionId: query?.directionId, mode: query?.mode)
    }

    /// What page 1 tells beyond its rows: the timezone, whether departures lie behind the anchor, the stop's
    /// platforms when they were asked alongside, and the cached window it came from.
    mutating func takeFirstPage(
        _ board: DepartureBoard, from following: RequestDispatcher.StaticPageSource?,
        stop: Result<BoardStop, GatewayError>?
    ) {
        if case .window(let held, _)? = following { window = held }
        timezone = board.timezone
        staticMoreBehind = forward ? board.hasMorePast : board.hasMoreFuture
        if case .success(let fetched)? = stop {
            info = fetched
            boardStops = fetched.stopIds
            if let state { stopVisits = fetched.visits(in: state, version: stateVersion) }
        }
    }

    /// Adds one static page: its rows, the span they make known (up to the last row of a full page, else the
    /// whole horizon), the merge with the live state and the live visits the rows lack.
    mutating func add(_ board: DepartureBoard) {
        let t = anchorTime, horizon = DepartureBoard.horizon
        rows += board.departures
        let full = board.departures.count >= staticQuery.limit
        if forward {
            let end = full ? board.departures.last!.scheduledUnix : t + horizon
            known = t..<max(t, min(end, t + horizon))
            staticMoreBeyond = full || board.hasMoreFuture
        } else {
            let start = full ? board.departures.first!.scheduledUnix + 1 : t + 1 - horizon
            known = min(t + 1, max(start, t + 1 - horizon))..<t + 1
            staticMoreBeyond = full || board.hasMorePast
        }
        lastPageFull = full
        // Each row merges on its own: only the page's rows are merged, and added to the earlier pages' ones.
        let more = BoardAssembly.merge(board.departures, state: state)
        merged.rows += more.rows
        merged.usedStale = merged.usedStale || more.usedStale
        if let state {
            candidates = BoardAssembly.candidates(
                state: state, visits: stopVisits, known: known, present: PresentRows(rows: rows),
                staticRows: true, admits: filter)
        }
        found =
            BoardAssembly.pageCount(merged.rows, known: known, direction: direction, position: position, limit: limit)
            + candidates.visits.count
    }

    /// Enough rows for the page, or nothing more to fetch (a short page, or `known` reaches the horizon).
    var complete: Bool {
        let t = anchorTime, horizon = DepartureBoard.horizon
        let exhausted = forward ? known.upperBound >= t + horizon : known.lowerBound <= t + 1 - horizon
        return found >= limit || !lastPageFull || exhausted
    }

    /// Moves on to the page after the last one, asking for the rows still missing (with the same margin for
    /// ties at the new page's end).
    mutating func advance(to following: RequestDispatcher.StaticPageSource) {
        source = following
        staticQuery.limit = min(StaticRequestLimits.maxLimit, limit - found + 5)
    }

    /// Departures lie beyond `known` in the paging direction (static rows or live visits).
    var moreBeyond: Bool { staticMoreBeyond || (forward ? candidates.beyond : candidates.before) }
    /// Departures lie on the other side of the anchor.
    var moreBehind: Bool { staticMoreBehind || (forward ? candidates.before : candidates.beyond) }
}
