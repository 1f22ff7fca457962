// The realtime side's signal to the refresher (protocol/README.md flow 7): a realtime source that stops
// matching the timetable, or names another feed_version than its static feed, gets that static feed checked
// at once instead of at its next --gtfs-refresh. Pure: the sources' statuses (the realtime service's `sources`
// answer) in, the feeds to check out.
import TransitModel

public struct MismatchSignal: Sendable {
    /// A feed is checked at most this often on the signal (a feed that really is current must not be fetched on
    /// every poll of a bad realtime feed).
    public static let minimumGap: Int64 = 15 * 60

    /// Per feed: the mismatch episode (its `mismatch_since_unix`, or the realtime feed_version) last acted on,
    /// and when.
    private var actedOn: [String: (episode: String, at: Int64)] = [:]

    public init() {}

    /// The URL feeds to check now. `feeds`: name, id prefix ("" for none) and the version being served.
    public mutating func feedsToCheck(
        sources: [LiveSourceStatus], feeds: [(name: String, prefix: String, version: String?)], now: Int64
    ) -> [String] {
        var due: [String] = []
        for feed in feeds {
            var episode: String?
            for source in sources where source.idPrefix == feed.prefix {
                if let match = source.match, match.mismatch {
                    episode = "mismatch since \(match.mismatchSinceUnix ?? 0) (\(source.name))"
                } else if let realtime = source.feedVersion, let served = feed.version, realtime != served {
                    episode = "feed_version \(realtime) (\(source.name))"
                }
                if episode != nil { break }
            }
            guard let episode else { continue }
            if let last = actedOn[feed.name], last.episode == episode || now - last.at < Self.minimumGap { continue }
            actedOn[feed.name] = (episode, now)
            due.append(feed.name)
        }
        return due
    }
}
