import Testing
import TransitModel
import TransitStore
import TransitTesting

@testable import Gateway

/// A board window answers a later page exactly as the static service would (the rows, a row before them,
/// a full page or not), and refuses what it cannot tell: times before its anchor, pages running past its end.
@Suite struct BoardWindowTests {
    private static let store: StaticStore? = try? StaticStore(path: SampleDatabase.path(), connections: 1)
    private let at = SampleTimes.mondayEvening

    private func store() throws -> StaticStore { try #require(Self.store) }

    private func window(_ stopId: String, anchor: Int64, rows: Int) throws -> BoardWindow {
        let board = try store().departures(stopId: stopId, at: anchor, limit: rows)
        return BoardWindow(stopId: stopId, anchor: anchor, fetchLimit: rows, board: board)
    }

    private func ids(_ departures: [Departure]) -> [String] {
        departures.map { "\($0.tripId)|\($0.startTime ?? "")|\($0.stopSequence)|\($0.scheduledUnix)" }
    }

    @Test(arguments: ["200060", "20006016", "20007003", "21351003"])
    func aPageInsideTheWindowIsTheStaticPage(stopId: String) throws {
        let anchor = at - 900
        let window = try window(stopId, anchor: anchor, rows: 40)
        #expect(window.rows.count == 40 && !window.complete)
        var served = 0
        for t in stride(from: anchor, through: anchor + 5400, by: 97) {
            for limit in [1, 5, 13, 25] {
                let expected = try store().departures(stopId: stopId, at: t, limit: limit)
                guard let slice = window.page(from: t, limit: limit) else {
                    // Refused only when the page would reach past the window's last row.
                    let last = try #require(window.rows.last)
                    #expect(
                        expected.departures.count < limit
                            || expected.departures.last!.scheduledUnix >= last.scheduledUnix,
                        "t \(t) limit \(limit)")
                    continue
                }
                served += 1
                #expect(ids(slice.board.departures) == ids(expected.departures), "t \(t) limit \(limit)")
                #expect(slice.board.hasMorePast == expected.hasMorePast, "t \(t) limit \(limit)")
                #expect(slice.board.departures.count == limit)
                #expect(slice.board.timezone == expected.timezone)

                // The page after it continues from the index the slice ends at.
                if let cursor = expected.laterCursor, let rows = window.continuation(at: slice.end, limit: 4) {
                    let following = try store().departures(stopId: stopId, at: t, limit: 4, cursor: cursor)
                    #expect(ids(rows) == ids(following.departures), "after t \(t) limit \(limit)")
                }
            }
        }
        #expect(served > 20, "the window served \(served) pages")
    }

    @Test func theWindowsLastRowsFollowedByTheStaticRestAreTheStaticPage() throws {
        let anchor = at
        let window = try window("200060", anchor: anchor, rows: 12)
        let slice = try #require(window.page(from: anchor, limit: 9))
        #expect(window.continuation(at: slice.end, limit: 6) == nil)
        // What the gateway does then: the rows left here, then the static service's from the window's cursor.
        let held = Array(window.rows[slice.end...])
        let windowEnd: String = try #require(window.laterCursor)
        let rest = try store().departures(stopId: "200060", at: anchor, limit: 6 - held.count, cursor: windowEnd)
        let firstPage = try store().departures(stopId: "200060", at: anchor, limit: 9)
        let firstPageEnd: String = try #require(firstPage.laterCursor)
        let expected = try store().departures(stopId: "200060", at: anchor, limit: 6, cursor: firstPageEnd)
        #expect(ids(held + rest.departures) == ids(expected.departures))
    }

    /// A window extended with the static service's next page (`extended(with:askedLimit:)`) answers the pages
    /// inside it as the static service does; at a stop with few departures its rows reach past the horizon
    /// from a later board's time, and a page that would need those is refused.
    @Test func anExtendedWindowAnswersAsTheStaticService() throws {
        let sparse = try #require(stopWithFewDepartures(), "a sample stop with few departures")
        for (stopId, rows) in [("200060", 20), ("21351003", 6), (sparse, 3)] {
            let window = try extendedWindow(stopId, rows: rows)
            var served = 0
            let last = try #require(window.rows.last).scheduledUnix
            for t in stride(from: at, through: last, by: Int(max(1, (last - at) / 60))) {
                for limit in [1, 2, 4, 6, 9] {
                    guard let slice = window.page(from: t, limit: limit) else { continue }
                    served += 1
                    let expected = try store().departures(stopId: stopId, at: t, limit: limit)
                    #expect(ids(slice.board.departures) == ids(expected.departures), "\(stopId) t \(t) limit \(limit)")
                    #expect(slice.board.hasMorePast == expected.hasMorePast, "\(stopId) t \(t) limit \(limit)")
                }
            }
            #expect(served >= 3, "\(stopId): the window served \(served) pages")
        }
    }

    private func extendedWindow(_ stopId: String, rows: Int) throws -> BoardWindow {
        let first = try window(stopId, anchor: at, rows: rows)
        let cursor = try #require(first.laterCursor)
        let next = try store().departures(stopId: stopId, at: at, limit: rows, cursor: cursor)
        let window = first.extended(with: next, askedLimit: rows)
        #expect(window.rows.count == first.rows.count + next.departures.count && window.anchor == at)
        return window
    }

    /// A stop of the sample with 4 or 5 departures in the horizon after `at` (its windows of 3 rows, extended,
    /// reach past the horizon from later times).
    private func stopWithFewDepartures() -> String? {
        for stopId in ["2000140", "2750226"] {
            guard let board = try? store().departures(stopId: stopId, at: at, limit: 6) else { continue }
            if (4...5).contains(board.departures.count) { return stopId }
        }
        return nil
    }

    @Test func beforeTheAnchorOrPastTheEndItCannotTell() throws {
        let window = try window("200060", anchor: at, rows: 10)
        #expect(window.page(from: at - 1, limit: 1)?.end == nil)
        #expect(window.page(from: at, limit: 11)?.end == nil)
        #expect(window.page(from: at, limit: 10)?.end == 10)
        let afterLast = try #require(window.rows.last).scheduledUnix + 1
        #expect(window.page(from: afterLast, limit: 1)?.end == nil)
    }

    @Test func aCompleteWindowAnswersAShortPageAtItsAnchorOnly() throws {
        // A stop with few departures: 100 asked, fewer listed (nothing more within the horizon).
        let stopId = try #require(sparseStop())
        let window = try window(stopId, anchor: at, rows: 100)
        #expect(window.complete)
        let slice = try #require(window.page(from: at, limit: 100))
        let expected = try store().departures(stopId: stopId, at: at, limit: 100)
        #expect(ids(slice.board.departures) == ids(expected.departures))
        #expect(slice.board.hasMoreFuture == expected.hasMoreFuture && slice.board.hasMorePast == expected.hasMorePast)
        // Later, the static service would search further ahead than the window reached.
        #expect(window.page(from: at + 60, limit: 100)?.end == nil)
    }

    /// A stop of the sample with fewer than 100 departures in the 24 h after `at`.
    private func sparseStop() -> String? {
        for stopId in ["20007003", "21351003", "27501001", "20006016"] {
            if let board = try? store().departures(stopId: stopId, at: at, limit: 100), board.departures.count < 100,
                !board.departures.isEmpty
            {
                return stopId
            }
        }
        return nil
    }
}
