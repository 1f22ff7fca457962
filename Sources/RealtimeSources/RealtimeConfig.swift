// The realtime sources to poll and the limits they must respect together.
import Foundation

public struct RealtimeConfig: Sendable, Hashable {
    public static let defaultDailyRequestBudget = 30_000
    public static let defaultMaxRequestsPerSecond = 5.0

    public var sources: [SourceConfig]
    /// Most HTTP requests a day all sources together may plan (Transport for NSW's free plan allows 60,000).
    public var dailyRequestBudget: Int
    /// Most HTTP requests started in any second, across all sources (the API answers 401 above 5).
    public var maxRequestsPerSecond: Double

    public init(
        sources: [SourceConfig], dailyRequestBudget: Int = RealtimeConfig.defaultDailyRequestBudget,
        maxRequestsPerSecond: Double = RealtimeConfig.defaultMaxRequestsPerSecond
    ) {
        self.sources = sources
        self.dailyRequestBudget = dailyRequestBudget
        self.maxRequestsPerSecond = maxRequestsPerSecond
    }

    /// HTTP requests a day when every poll succeeds: the sum of 86,400 / interval over the network sources
    /// (files and replays cost nothing; backoff only ever lowers the count).
    public var dailyRequests: Int {
        sources.reduce(0) { total, source in
            let (sum, overflow) = total.addingReportingOverflow(source.dailyRequests)
            return overflow ? Int.max : sum
        }
    }

    /// Checks what the loader cannot see per field: unique names, positive intervals and limits, the daily
    /// budget and the sustained request rate. `file` only labels the errors.
    public func validate(file: String? = nil) throws(RealtimeConfigError) {
        guard !sources.isEmpty else { throw RealtimeConfigError(file: file, field: "sources", "lists no sources") }
        var seen = Set<String>()
        for source in sources {
            guard !source.name.isEmpty else {
                throw RealtimeConfigError(file: file, field: "name", "a source has an empty name")
            }
            guard seen.insert(source.name).inserted else {
                throw RealtimeConfigError(
                    file: file, source: source.name, field: "name",
                    "two sources are named \"\(source.name)\"; names must be unique")
            }
            guard source.pollInterval > .zero else {
                throw RealtimeConfigError(
                    file: file, source: source.name, field: "poll_interval_s", "must be more than 0 seconds")
            }
            guard source.timeout > .zero else {
                throw RealtimeConfigError(
                    file: file, source: source.name, field: "timeout_s", "must be more than 0 seconds")
            }
            guard source.maxBytes > 0 else {
                throw RealtimeConfigError(file: file, source: source.name, field: "max_bytes", "must be more than 0")
            }
            if let stale = source.staleAfterSecs, !SourceConfig.staleAfterRange.contains(stale) {
                throw RealtimeConfigError(
                    file: file, source: source.name, field: "stale_after_s",
                    "must be \(SourceConfig.staleAfterRange.lowerBound) … \(groupedThousands(SourceConfig.staleAfterRange.upperBound)) seconds, got \(stale)"
                )
            }
        }
        guard dailyRequestBudget > 0 else {
            throw RealtimeConfigError(file: file, field: "daily_request_budget", "must be more than 0")
        }
        guard maxRequestsPerSecond.isFinite, maxRequestsPerSecond > 0 else {
            throw RealtimeConfigError(file: file, field: "max_requests_per_second", "must be more than 0")
        }
        let planned = dailyRequests
        if planned > dailyRequestBudget {
            let heaviest = sources.filter(\.isNetwork).sorted { $0.dailyRequests > $1.dailyRequests }.prefix(3)
                .map {
                    "\($0.name) every \(formatSeconds($0.pollInterval.seconds)) = \(groupedThousands($0.dailyRequests))"
                }
            throw RealtimeConfigError(
                file: file, field: "daily_request_budget",
                "the sources would make \(groupedThousands(planned)) requests a day, over the budget of "
                    + "\(groupedThousands(dailyRequestBudget)); poll less often (largest: \(heaviest.joined(separator: ", ")))"
            )
        }
        // Sustained rate: polls due faster than the pacer lets them out would queue up without end.
        let perSecond = sources.filter(\.isNetwork).reduce(0.0) { $0 + 1 / $1.pollInterval.seconds }
        if perSecond > maxRequestsPerSecond {
            throw RealtimeConfigError(
                file: file, field: "max_requests_per_second",
                "the sources would make \(String(format: "%.2f", perSecond)) requests a second on average, over the limit of \(maxRequestsPerSecond)"
            )
        }
    }
}
