import TransitModel

/// One reason `health` is not `ok` (GATEWAY.md, `health`): the source it concerns (nil: the static service or
/// the realtime service as a whole), a stable code and a message a person can act on.
public struct HealthReason: Sendable, Hashable {
    public var source: String?
    public var code: Code
    public var message: String

    public enum Code: String, Sendable, Hashable {
        /// The static service did not answer: `health` is `down`.
        case staticUnavailable = "static_unavailable"
        /// No heartbeat from the realtime service for the silence limit, or never one.
        case realtimeSilent = "realtime_silent"
        /// A source's data is older than its stale_after (or it has applied nothing yet).
        case sourceStale = "source_stale"
        /// A source's last polls failed `RealtimeSourceStatus.failingAfter` times or more in a row.
        case sourceFailing = "source_failing"
        /// The realtime service judged a source's last update to match the timetable too little.
        case timetableMismatch = "timetable_mismatch"
        /// A source's feed_version differs from the feed_version of the static feed it matches.
        case feedVersionMismatch = "feed_version_mismatch"
        /// A static feed's last refresh from its URL failed; the serving database is unchanged (flow 9).
        case staticRefreshFailed = "static_refresh_failed"
        /// The gateway got SIGTERM and announces it before draining: `health` is `draining`.
        case draining
    }

    public init(source: String?, code: Code, message: String) {
        self.source = source
        self.code = code
        self.message = message
    }
}

/// `health`'s status and its reasons, from the static service's feed_info (nil: it did not answer) and the
/// realtime reading. Pure: the caller gives the time. `down` when the static service does not answer,
/// `degraded` when there is any other reason, else `ok`.
public enum HealthJudgement {
    public static func judge(
        feedInfo info: FeedInfo?, staticError: String?, realtime status: RealtimeReading.Status,
        heartbeatAge: Duration?, sources: [RealtimeSourceStatus], now: Int64
    ) -> (status: String, reasons: [HealthReason]) {
        var reasons: [HealthReason] = []
        if info == nil {
            reasons.append(
                .init(
                    source: nil, code: .staticUnavailable,
                    message: "the static service does not answer: \(staticError ?? "no answer"); stops, boards and "
                        + "trips fail until it is back (is transit-static running? its log says why)"))
        }
        for feed in info?.feeds ?? [] {
            guard let refresh = feed.refresh, let error = refresh.lastError else { continue }
            let failures =
                refresh.consecutiveFailures > 0
                ? "refresh failed \(refresh.consecutiveFailures) time"
                    + (refresh.consecutiveFailures == 1 ? "" : "s") + " in a row" : "refresh refused"
            reasons.append(
                .init(
                    source: feed.name, code: .staticRefreshFailed,
                    message: "static feed \(feed.name): \(failures), the serving version "
                        + "(\(feed.version ?? "without feed_version")) is unchanged: \(error)"))
        }
        switch status {
        case .notConfigured: break
        case .silent:
            let heard = heartbeatAge.map { "for \($0.components.seconds) s" } ?? "ever"
            reasons.append(
                .init(
                    source: nil, code: .realtimeSilent,
                    message: "no heartbeat from the realtime service \(heard): answers use the timetable only "
                        + "(is transit-realtime running, and the gateway's --subscribe its --publish URL?)"))
        case .ok:
            for source in sources { reasons += Self.reasons(source, feeds: info?.feeds, now: now) }
        }
        let verdict = info == nil ? "down" : (reasons.isEmpty ? "ok" : "degraded")
        return (verdict, reasons)
    }

    /// What is wrong with one source.
    static func reasons(_ source: RealtimeSourceStatus, feeds: [FeedSummary]?, now: Int64) -> [HealthReason] {
        var reasons: [HealthReason] = []
        let name = source.name
        if source.stale {
            let age =
                source.feedTimestamp.map { "its newest feed is \(ageText(now - $0)) old" } ?? "no feed applied yet"
            let error = source.lastError.map { "; last error: \($0)" } ?? ""
            reasons.append(.init(source: name, code: .sourceStale, message: "\(name): stale, \(age)\(error)"))
        }
        if source.failing {
            reasons.append(
                .init(
                    source: name, code: .sourceFailing,
                    message: "\(name): \(source.consecutiveErrors) failed polls in a row; last error: "
                        + (source.lastError ?? "unknown")))
        }
        let feed = staticFeed(of: source, in: feeds ?? [])
        if let match = source.match, match.mismatch, let rate = match.ratePermille {
            let byTrips = match.tripUpdates.considered > 0
            let count = byTrips ? match.tripUpdates.considered : match.vehicles.considered
            var message = "\(name): \(percent(rate)) of \(count) \(byTrips ? "trip updates" : "vehicle positions") "
            message += "match the timetable ("
            if let median = match.medianPermille { message += "median \(percent(median)) over the last hour, " }
            message += "minimum \(percent(match.minPermille)))"
            if let feed {
                let version = feed.version.map { " (version \($0))" } ?? ""
                message += "; static feed \(feed.name)\(version) imported \(ageText(now - feed.importedAt)) ago"
            }
            message += ": import the current timetable"
            reasons.append(.init(source: name, code: .timetableMismatch, message: message))
        }
        if let feed, let staticVersion = feed.version, !staticVersion.isEmpty, let live = source.feedVersion,
            !live.isEmpty, live != staticVersion
        {
            reasons.append(
                .init(
                    source: name, code: .feedVersionMismatch,
                    message: "\(name): the realtime feed is for feed_version \(live), the static feed \(feed.name) "
                        + "is version \(staticVersion): import the matching timetable"))
        }
        return reasons
    }

    /// The static feed a source's ids were prefixed like; nil when none or several are.
    static func staticFeed(of source: RealtimeSourceStatus, in feeds: [FeedSummary]) -> FeedSummary? {
        let candidates = feeds.filter { ($0.prefix ?? "") == source.idPrefix }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// "18 %" of 183 per-mille (rounded to a whole percent).
    static func percent(_ permille: UInt32) -> String { "\((permille + 5) / 10) %" }

    /// "45 s", "12 min", "5 h", "2 days".
    static func ageText(_ seconds: Int64) -> String {
        let s = max(0, seconds)
        switch s {
        case ..<120: return "\(s) s"
        case ..<7200: return "\(s / 60) min"
        case ..<172_800: return "\(s / 3600) h"
        default: return "\(s / 86400) days"
        }
    }
}
