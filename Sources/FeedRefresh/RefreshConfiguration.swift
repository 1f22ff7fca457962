// Everything `transit-static refresh` is told (and `Services/launch --gtfs URL`, which runs it).
import TransitStore

public struct RefreshConfiguration: Sendable {
    public enum Source: Sendable {
        /// A zip or folder on this machine: imported as it is at each import, never checked.
        case path(String)
        /// Checked every `schedule.interval` with conditional GET.
        case url(RemoteFeed)
    }

    public struct Feed: Sendable {
        public var name: String
        public var prefix: String?
        public var source: Source

        public init(name: String, prefix: String? = nil, source: Source) {
            self.name = name
            self.prefix = prefix
            self.source = source
        }
    }

    /// The serving database (`--db`): new versions are renamed over it; replicas watching it swap them in.
    public var databasePath: String
    public var feeds: [Feed]
    /// `--gtfs-refresh` (default 6 h) and the backoff after failures.
    public var schedule: RefreshSchedule
    /// `--gtfs-max-download` (default 1 GiB; TfNSW's complete bundle is about 230 MB).
    public var maxDownloadBytes: Int
    /// A download's whole exchange must end within this (`--gtfs-download-timeout`, default 30 min).
    public var downloadTimeout: Duration
    /// `--gtfs-max-shrink` and the region check.
    public var limits: RefreshLimits
    /// The import's caps (`transit-static import`'s flags).
    public var importLimits: ImportLimits

    public init(
        databasePath: String, feeds: [Feed], schedule: RefreshSchedule = RefreshSchedule(interval: Defaults.interval),
        maxDownloadBytes: Int = Defaults.maxDownloadBytes, downloadTimeout: Duration = Defaults.downloadTimeout,
        limits: RefreshLimits = RefreshLimits(), importLimits: ImportLimits = ImportLimits()
    ) {
        self.databasePath = databasePath
        self.feeds = feeds
        self.schedule = schedule
        self.maxDownloadBytes = maxDownloadBytes
        self.downloadTimeout = downloadTimeout
        self.limits = limits
        self.importLimits = importLimits
    }

    public enum Defaults {
        public static let interval: Duration = .seconds(6 * 3600)
        public static let maxDownloadBytes = 1 << 30
        public static let downloadTimeout: Duration = .seconds(1800)
        public static let maxShrink = 0.5
    }

    /// The feeds of `--gtfs` arguments (`path`, `name=path`, `URL`, `name=URL`) with `--header` values for the
    /// URL ones and `--prefix name=B:` prefixes.
    public static func feeds(
        arguments: [String], headers: [String], prefixes: [String], environment: [String: String]
    ) throws -> [Feed] {
        var feeds: [Feed] = try arguments.map { argument in
            if RemoteFeed.isURL(argument) {
                let remote = try RemoteFeed(argument: argument, headers: headers, environment: environment)
                return Feed(name: remote.name, source: .url(remote))
            }
            let local = ImportOptions.Feed(argument: argument)
            return Feed(name: local.name, source: .path(local.path))
        }
        var options = ImportOptions(feeds: feeds.map { ImportOptions.Feed(path: "-", name: $0.name) }, databasePath: "")
        try options.applyPrefixes(prefixes)
        for index in feeds.indices { feeds[index].prefix = options.feeds[index].prefix }
        let names = feeds.map(\.name)
        if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw RemoteFeedError("two feeds are named \(twice): name them with name=URL")
        }
        return feeds
    }
}
