import Foundation
import GTFSRealtime
import Logging
import NNGKit
import RealtimeSources
import Synchronization
import TransitModel

/// The whole realtime service: the sources of a config polled (RealtimeSources), the engine resolving and
/// applying their feeds against the static service, the PUB and REP sockets, the heartbeat and the periodic
/// checks. `transit-realtime serve` is this plus signal handling.
public final class RealtimeServiceRunner: Sendable {
    public struct Options: Sendable {
        /// Heartbeat period (protocol/README.md: at most 5 s).
        public var heartbeatInterval: Duration
        /// Period of the engine's checks (staleness, date window, database version every `versionCheckSecs`).
        public var tickInterval: Duration
        public var versionCheckSecs: Int64
        /// Timeout of each request to the static service.
        public var staticTimeout: Duration
        /// Zone for the schedule date window when the static service cannot tell (its first feed's zone is used).
        public var defaultTimeZone: String
        /// Staleness limit for every source without its own `stale_after_s` in the config (nil: by kind,
        /// 90 s for trip updates and vehicle positions, 10 min for alerts).
        public var staleAfterSecs: Int64?
        /// Unix seconds of the engine's "now" (date window, staleness): the wall clock; tests pin it so that which
        /// trips run does not depend on the time of day they run at.
        public var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

        public init(heartbeatInterval: Duration = .seconds(2), tickInterval: Duration = .seconds(1),
                    versionCheckSecs: Int64 = 30, staticTimeout: Duration = .seconds(2),
                    defaultTimeZone: String = "Australia/Sydney", staleAfterSecs: Int64? = nil) {
            self.heartbeatInterval = heartbeatInterval
            self.tickInterval = tickInterval
            self.versionCheckSecs = versionCheckSecs
            self.staticTimeout = staticTimeout
            self.defaultTimeZone = defaultTimeZone
            self.staleAfterSecs = staleAfterSecs
        }
    }

    public let engine: RealtimeEngine
    public let sockets: RealtimeSockets
    public let timeZone: String
    private let sources: SourceGroup
    private let schedules: StaticScheduleClient
    private let options: Options
    private let logger: Logger
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Loads the config, dials the static service, binds both sockets. Nothing is polled before `start()`.
    public init(configPath: String, staticURL: String, listen: String, publish: String, options: Options = Options(),
                logger: Logger = Logger(label: "transit.realtime")) async throws {
        let config = try RealtimeConfig.load(path: configPath)
        let schedules = try StaticScheduleClient(url: staticURL, timeout: options.staticTimeout)
        // The static feed's zone bounds the schedule queries and dates added trips; ask once at start.
        var zone = options.defaultTimeZone
        if let info = try? await schedules.feedInfo(), let first = info.feeds.first?.timezone {
            zone = first
        } else {
            logger.warning("static service not answering at start; assuming time zone \(zone)", metadata: ["static": "\(staticURL)"])
        }
        let sockets: RealtimeSockets
        do {
            sockets = try RealtimeSockets(listen: listen, publish: publish)
        } catch {
            schedules.close()
            throw error
        }
        let settings = config.sources.map {
            SourceSettings($0, timeZone: zone, defaultStaleAfterSecs: options.staleAfterSecs)
        }
        let engine = try RealtimeEngine(
            sources: settings, hub: sockets.hub, schedules: schedules,
            options: .init(timeZone: zone, versionCheckSecs: options.versionCheckSecs), logger: logger,
            clock: options.clock)
        self.sources = try SourceGroup(
            config: config, restamp: { bytes, timestamp in try GTFSRealtimeCodec.restamp(bytes, timestamp: timestamp) },
            logger: logger
        ) { event in await engine.handle(FeedEvent(event)) }
        self.engine = engine
        self.sockets = sockets
        self.schedules = schedules
        self.timeZone = zone
        self.options = options
        self.logger = logger
    }

    public var sourceNames: [String] { sources.config.sources.map(\.name) }

    /// Starts polling, the heartbeat and the periodic checks.
    public func start() {
        let hub = sockets.hub, engine = self.engine, options = self.options
        let heartbeat = Task {
            while !Task.isCancelled {
                hub.heartbeat()
                try? await Task.sleep(for: options.heartbeatInterval)
            }
        }
        let ticks = Task {
            while !Task.isCancelled {
                await engine.tick()
                try? await Task.sleep(for: options.tickInterval)
            }
        }
        tasks.withLock { $0 += [heartbeat, ticks] }
        sources.start()
    }

    /// Stops polling (in-flight events finish), then the timers and the sockets.
    public func stop() async {
        await sources.stop()
        let running = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
        sockets.stop()
        schedules.close()
    }
}

extension SourceSettings {
    /// The live state's settings of a configured source: its own `stale_after_s` wins over the service-wide
    /// `defaultStaleAfterSecs` (`serve --stale-after`); without either the limit goes by kind.
    init(_ source: SourceConfig, timeZone: String, defaultStaleAfterSecs: Int64?) {
        self.init(
            name: source.name, kind: LiveSourceKind(source.kind), idPrefix: source.prefix ?? "",
            staleAfterSecs: source.staleAfterSecs.map(Int64.init) ?? defaultStaleAfterSecs, timeZone: timeZone,
            maxBytes: source.maxBytes)
    }
}

extension LiveSourceKind {
    init(_ kind: SourceKind) {
        switch kind {
        case .auto: self = .auto
        case .tripUpdates: self = .tripUpdates
        case .vehiclePositions: self = .vehiclePositions
        case .alerts: self = .alerts
        }
    }
}

extension FeedEvent {
    init(_ event: SourceEvent) {
        let now = Int64(Date().timeIntervalSince1970)
        switch event {
        case .fetched(let feed):
            self = .fetched(source: feed.source, bytes: feed.bytes, at: Int64(feed.fetchedAt.timeIntervalSince1970))
        case .notModified(let source):
            self = .notModified(source: source, at: now)
        case .failed(let source, let error):
            self = .failed(source: source, message: error.description, at: now)
        }
    }
}
