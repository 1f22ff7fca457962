import Foundation
import GTFSRealtime
import Logging
import NNGKit
import ProcessSupport
import RealtimeSources
import ServiceLifecycle
import Synchronization
import TransitModel

/// The whole realtime service: the sources of a config polled (RealtimeSources), the engine resolving and
/// applying their feeds against the static service, the PUB and REP sockets, the heartbeat and the periodic
/// checks. `transit-realtime serve` runs it as a `Service` in a `ServiceGroup`, with `reloadSources` on SIGHUP.
public final class RealtimeServiceRunner: Service, Sendable {
    public let engine: RealtimeEngine
    public let sockets: RealtimeSockets
    public let timeZone: String
    public let configuration: RealtimeServiceConfiguration
    /// The config file the sources come from (read again by `reloadSources`).
    public var configPath: String { configuration.sourcesConfigPath }
    /// The sources being polled; replaced by `reloadSources`.
    private let sources: Mutex<SourceGroup>
    private let schedules: StaticScheduleClient
    private let logger: Logger
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Loads the config, dials the static service, binds both sockets. Nothing is polled before `start()`.
    /// `epoch` and `lease`: `RealtimeHub`'s (the election key's revision and lease check with `--election`).
    public init(
        configuration: RealtimeServiceConfiguration, logger: Logger, epoch: UInt64 = EpochCounter.fromClock(),
        lease: PublishingLease = .unelected
    ) async throws {
        let config = try RealtimeConfig.load(path: configuration.sourcesConfigPath)
        let schedules = try StaticScheduleClient(url: configuration.staticURL, timeout: configuration.staticTimeout)
        // The static feed's zone bounds the schedule queries and dates added trips; ask once at start.
        var zone = configuration.defaultTimeZone
        let info = try? await schedules.feedInfo()
        if let first = info?.feeds.first?.timezone {
            zone = first
        } else {
            logger.warning(
                "static service not answering at start; assuming time zone \(zone)",
                metadata: ["static": "\(configuration.staticURL)"])
        }
        var delays: TypicalDelays?
        if let path = configuration.delayStorePath {
            do {
                delays = try TypicalDelays(
                    path: path, timeZone: zone, clock: { [clock = configuration.clock] in clock.unixSeconds })
                if let info { delays?.setDayTypes(info.dayTypes) }
            } catch {
                schedules.close()
                throw error
            }
        }
        let sockets: RealtimeSockets
        do {
            sockets = try RealtimeSockets(
                listen: configuration.listenURL, publish: configuration.publishURL, clock: configuration.clock,
                logger: logger, delays: delays, epoch: epoch, lease: lease)
        } catch {
            schedules.close()
            throw error
        }
        let settings = config.sources.map {
            SourceSettings(
                $0, timeZone: zone, defaultStaleAfterSecs: configuration.defaultStaleAfterSecs,
                minMatchPermille: configuration.minMatchPermille)
        }
        let engine = try RealtimeEngine(
            sources: settings, hub: sockets.hub, schedules: schedules,
            timeZone: zone, options: configuration.engine, logger: logger,
            clock: { [clock = configuration.clock] in clock.unixSeconds })
        self.sources = Mutex(
            try Self.sourceGroup(
                config, engine: engine, clock: configuration.clock, watchdog: configuration.watchdog, logger: logger))
        self.engine = engine
        self.sockets = sockets
        self.schedules = schedules
        self.timeZone = zone
        self.configuration = configuration
        self.logger = logger
    }

    private static func sourceGroup(
        _ config: RealtimeConfig, engine: RealtimeEngine, clock: ServiceClock, watchdog: Watchdog?, logger: Logger
    ) throws -> SourceGroup {
        try SourceGroup(
            config: config, options: PollingOptions(clock: clock, watchdog: watchdog),
            restamp: { bytes, timestamp in try GTFSRealtimeCodec.restamp(bytes, timestamp: timestamp) },
            logger: logger
        ) { event in await engine.handle(FeedEvent(event, now: clock.unixSeconds)) }
    }

    public var sourceNames: [String] { sources.withLock { $0 }.config.sources.map(\.name) }

    /// Runs until graceful shutdown (or cancellation): starts, logs "ready", then stops (`stop()`).
    public func run() async throws {
        start()
        logger.info(
            "ready",
            metadata: [
                "listen": "\(configuration.listenURL)", "publish": "\(configuration.publishURL)",
                "static": "\(configuration.staticURL)",
                "epoch": "\(sockets.hub.epoch)", "sources": "\(sourceNames.joined(separator: ","))",
                "time_zone": "\(timeZone)", "clock": "\(configuration.clock)",
                "pid": "\(ProcessInfo.processInfo.processIdentifier)",
            ])
        try? await gracefulShutdown()
        logger.info("stopping")
        await stop()
        logger.info("stopped")
    }

    /// Reads the config file again and polls what it lists now (SIGHUP). Sources whose settings did not
    /// change keep their live state; removed ones leave it (their trips, vehicles and alerts are published
    /// as removed); new and changed ones start empty. Every source is polled again from its first poll
    /// (conditional-request state and replay positions start afresh); the new sources are polling when it
    /// returns. An identical config, or one that cannot be read or is invalid, changes nothing (the error is
    /// logged and thrown). Never call it concurrently with itself or `stop()`.
    public func reloadSources() async throws {
        let config: RealtimeConfig
        let next: SourceGroup
        do {
            config = try RealtimeConfig.load(path: configPath)
            next = try Self.sourceGroup(
                config, engine: engine, clock: configuration.clock, watchdog: configuration.watchdog, logger: logger)
        } catch {
            logger.error(
                "re-reading the sources config failed; the sources are unchanged",
                metadata: ["config": "\(configPath)", "error": "\(error)"])
            throw error
        }
        let current = sources.withLock { $0 }
        guard config != current.config else {
            logger.info("sources config re-read: unchanged", metadata: ["config": "\(configPath)"])
            return
        }
        await current.stop()
        do {
            try await engine.replaceSources(
                with: config.sources.map {
                    SourceSettings(
                        $0, timeZone: timeZone, defaultStaleAfterSecs: configuration.defaultStaleAfterSecs,
                        minMatchPermille: configuration.minMatchPermille)
                })
        } catch {
            current.start()  // the config checks make this unreachable; keep polling what was polled
            logger.error(
                "the live state refused the new sources; the sources are unchanged", metadata: ["error": "\(error)"])
            throw error
        }
        sources.withLock { $0 = next }
        next.start()
        logger.info(
            "sources config re-read",
            metadata: [
                "config": "\(configPath)", "sources": "\(config.sources.map(\.name).joined(separator: ","))",
            ])
    }

    /// The watchdog's components (with each source's poll loop, `SourcePoller`).
    static let publisherComponent = "publisher"
    static let ticksComponent = "engine ticks"
    /// The longest the delay store's flush may take before the ticks count as stuck.
    static let flushAllowance: Duration = .seconds(300)

    /// Starts polling, the heartbeat and the periodic checks.
    public func start() {
        let hub = sockets.hub, engine = self.engine, options = self.configuration
        let watchdog = configuration.watchdog
        let heartbeat = Task {
            while !Task.isCancelled {
                hub.heartbeat()
                watchdog?.advance(Self.publisherComponent, nextWithin: options.heartbeatInterval)
                try? await Task.sleep(for: options.heartbeatInterval)
            }
        }
        let logger = self.logger
        let ticks = Task {
            while !Task.isCancelled {
                // A tick may wait on the static service (its version check): allow its timeout.
                watchdog?.advance(Self.ticksComponent, nextWithin: options.tickInterval + options.staticTimeout)
                await engine.tick()
                // The delay store's flush rewrites every row once per 14-day block (not measured at NSW scale):
                // allow it minutes, not seconds.
                watchdog?.advance(Self.ticksComponent, nextWithin: Self.flushAllowance)
                if let error = hub.delays?.flushIfDue() {
                    logger.warning("writing the delay store failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: options.tickInterval)
            }
        }
        tasks.withLock { $0 += [heartbeat, ticks] }
        sources.withLock { $0 }.start()
    }

    /// Stops polling (in-flight events finish), then the timers and the sockets.
    public func stop() async {
        await sources.withLock { $0 }.stop()
        let running = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
        configuration.watchdog?.remove(Self.publisherComponent)
        configuration.watchdog?.remove(Self.ticksComponent)
        sockets.stop()
        do {
            try sockets.hub.delays?.close()
        } catch {
            logger.error("writing the delay store at shutdown failed", metadata: ["error": "\(error)"])
        }
        schedules.close()
    }
}

extension SourceSettings {
    /// The live state's settings of a configured source: its own `stale_after_s` wins over the service-wide
    /// `defaultStaleAfterSecs` (`serve --stale-after`); without either the limit goes by kind. The least match
    /// rate is the service's (`serve --min-match-rate`).
    init(
        _ source: SourceConfig, timeZone: String, defaultStaleAfterSecs: Int64?,
        minMatchPermille: UInt32 = SourceSettings.defaultMinMatchPermille
    ) {
        self.init(
            name: source.name, kind: LiveSourceKind(source.kind), idPrefix: source.prefix ?? "",
            staleAfterSecs: source.staleAfterSecs.map(Int64.init) ?? defaultStaleAfterSecs, timeZone: timeZone,
            maxBytes: source.maxBytes)
        self.minMatchPermille = minMatchPermille
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
    /// `now`: the service clock's unix seconds (the time of events that carry none).
    init(_ event: SourceEvent, now: Int64) {
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
