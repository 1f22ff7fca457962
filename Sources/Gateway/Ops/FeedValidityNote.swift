import GatewayProtocol
import TransitCore
import TransitModel

/// What a rider is told when they ask for a date no imported feed covers (feed_info.txt's start_date–end_date;
/// GATEWAY.md §2 `meta.note`, §3 NOT_FOUND): an empty board's and a route without service's `meta.note`, a
/// trip's NOT_FOUND name the feeds' dates, so none reads as "no service". Asked only for an empty board, a
/// route without service that day or a NOT_FOUND, so the ordinary answer pays nothing.
enum FeedValidity {
    /// The feeds' dates ("sample-gtfs 20250101–20301231") when none covers `day` (YYYYMMDD); nil when one
    /// does, or no feed states its dates.
    static func uncovered(_ day: ServiceDate, feeds: [FeedSummary]) -> String? {
        let stated = feeds.filter { $0.startDate != nil || $0.endDate != nil }
        guard !stated.isEmpty else { return nil }
        let covered = stated.contains { feed in
            (feed.startDate.map { $0 <= day } ?? true) && (feed.endDate.map { day <= $0 } ?? true)
        }
        guard !covered else { return nil }
        return stated.map { feed in
            "\(feed.name) \(feed.startDate.map(String.init) ?? "…")–\(feed.endDate.map(String.init) ?? "…")"
        }.joined(separator: ", ")
    }

    /// The note of a board at `at`, for the local date in `timezone` (else the first feed's).
    static func note(at: Int64, timezone: String?, feeds: [FeedSummary]) -> String? {
        guard let zoneName = timezone ?? feeds.first?.timezone, let zone = try? ServiceTimeZone(identifier: zoneName)
        else { return nil }
        let date = zone.localDate(atUnix: at)
        guard let ranges = uncovered(ServiceDate(date.yyyymmdd), feeds: feeds) else { return nil }
        return "\(date) is outside the feed's dates: \(ranges); pick an at inside them"
    }
}

extension RequestDispatcher {
    /// The board with its validity note when it is empty and its date is outside every feed's dates.
    func withValidityNote(_ board: LiveBoard) async -> LiveBoard {
        guard board.answer.rows.isEmpty, let feeds = await feeds() else { return board }
        var board = board
        board.note = FeedValidity.note(at: board.meta.at, timezone: board.answer.timezone, feeds: feeds)
        return board
    }

    /// `meta.note` of a route without service on `date` (YYYYMMDD) when no feed covers that date.
    func validityNote(date: ServiceDate) async -> String? {
        guard let feeds = await feeds(), let ranges = FeedValidity.uncovered(date, feeds: feeds) else { return nil }
        return "\(date) is outside the feed's dates: \(ranges); pick a date inside them"
    }

    /// A NOT_FOUND for a trip on a date no feed covers, with the feeds' dates; unchanged otherwise.
    func withValidityHint(_ error: GatewayError, date: ServiceDate) async -> GatewayError {
        guard let feeds = await feeds(), let ranges = FeedValidity.uncovered(date, feeds: feeds) else { return error }
        return GatewayError(.notFound, "\(error.message); \(date) is outside the feed's dates: \(ranges)")
    }

    private func feeds() async -> [FeedSummary]? {
        guard case .success(.feedInfo(let info)) = await keptStaticResult(.feedInfo) else { return nil }
        return info.feeds
    }
}
