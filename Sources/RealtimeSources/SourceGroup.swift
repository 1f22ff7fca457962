// All sources of a config, polled together: one shared HTTP session, one RequestPacer, staggered starts.
import Foundation
import HTTPFetching
import Logging
import ProcessSupport

/// Tuning that is not part of the config file.
public struct PollingOptions: Sendable {
    /// Longest wait between polls of a failing source (raised to its interval when that is longer).
    public var backoffCap: Duration
    /// Delay before the first poll of the first network source (the others follow at the stagger spacing).
    public var initialDelay: Duration
    /// The wall clock of fetch times, statuses and replay re-stamps (the schedule of polls stays monotonic).
    public var clock: ServiceClock
    /// The watchdog each poll loop advances ("poll <source>"); nil: not watched.
    public var watchdog: Watchdog?

    public init(
        backoffCap: Duration = .seconds(600), initialDelay: Duration = .zero, clock: ServiceClock = .system,
        watchdog: Watchdog? = nil
    ) {
        self.backoffCap = backoffCap
        self.initialDelay = initialDelay
        self.clock = clock
        self.watchdog = watchdog
    }
}

public final class SourceGroup: Sendable {
    public let config: RealtimeConfig
    public let pollers: [SourcePoller]
    private let logger: Logger

    /// Checks the config (`RealtimeConfig.validate`) and prepares one poller per source; nothing is fetched
    /// before `start()`. `restamp` re-stamps replay files (nil plays them unchanged). `handler` receives every
    /// event of every source.
    public init(
        config: RealtimeConfig, options: PollingOptions = PollingOptions(), restamp: FeedRestamp? = nil,
        logger: Logger, handler: @escaping SourceEventHandler
    ) throws(RealtimeConfigError) {
        try config.validate()
        self.config = config
        self.logger = logger
        let hasNetwork = config.sources.contains(where: \.isNetwork)
        let client = hasNetwork ? HTTPFetchClient.shared : nil
        let pacer = hasNetwork ? RequestPacer(requestsPerSecond: config.maxRequestsPerSecond) : nil
        let offsets = Self.startOffsets(config.sources, maxRequestsPerSecond: config.maxRequestsPerSecond)
        pollers = zip(config.sources, offsets).map { source, offset in
            SourcePoller(
                source: source, startOffset: options.initialDelay + offset, backoffCap: options.backoffCap,
                pacer: pacer,
                client: client, restamp: restamp, clock: options.clock, watchdog: options.watchdog, logger: logger,
                handler: handler
            )
        }
    }

    public func start() {
        logger.info(
            "polling \(pollers.count) sources, \(groupedThousands(config.dailyRequests)) requests a day planned (budget \(groupedThousands(config.dailyRequestBudget)))"
        )
        for poller in pollers { poller.start() }
    }

    /// Stops every source; returns when no more events will arrive.
    public func stop() async {
        await withTaskGroup(of: Void.self) { group in
            for poller in pollers { group.addTask { await poller.stop() } }
        }
    }

    /// Every source's status, in config order.
    public func status() -> [SourceStatus] {
        pollers.map(\.status)
    }

    /// First-poll offsets: network sources spaced 2 / max_requests_per_second apart in config order (all of
    /// them answer soon after start, at no more than half the allowed rate), squeezed to fit in the shortest
    /// interval so that sources whose intervals are multiples of each other keep distinct slots forever
    /// after. Files and replays start at once.
    public static func startOffsets(_ sources: [SourceConfig], maxRequestsPerSecond: Double) -> [Duration] {
        let network = sources.filter(\.isNetwork)
        guard let shortest = network.map(\.pollInterval).min() else { return sources.map { _ in .zero } }
        let spacing = min(2 / maxRequestsPerSecond, shortest.seconds / Double(network.count))
        var index = 0
        return sources.map { source in
            guard source.isNetwork else { return .zero }
            defer { index += 1 }
            return .fromSeconds(spacing * Double(index))
        }
    }
}
