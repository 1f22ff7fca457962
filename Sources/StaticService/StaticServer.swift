import Foundation
import Logging
import NNGKit
import ProcessSupport
import RealtimeFollowing
import ServiceLifecycle
import Synchronization
import TransitModel
import TransitStore

/// The static-data service: a REP socket on `configuration.listenURL` whose `contexts` workers answer
/// `StaticRequest`s from the database at `configuration.databasePath` (up to `contexts` queries at once, each on
/// its own SQLite connection).
///
/// `reload()` reopens the database (SIGHUP): queries already running finish on the old file. As a `Service`
/// (`transit-static serve` runs it in a `ServiceGroup`) it serves until graceful shutdown, reopening the database
/// when its file was replaced if `configuration.watchInterval` is not zero.
public final class StaticServer: Service, Sendable {
    /// Largest request accepted (protocol/README.md: a bulk request of 10,000 trip ids is ≈ 300 KB).
    public static let maxRequestBytes = 4 << 20

    public let configuration: StaticServiceConfiguration
    public var url: String { configuration.listenURL }
    public let stores: ReloadableStore
    private let server: NNGReplyServer
    private let probe: WorkerProbe?
    private let handler: StaticRequestHandler
    private let logger: Logger
    /// The journey planner (nil with `planWorkers` 0).
    public let planning: JourneyPlanning?
    /// The planner's subscriber to the realtime stream's `tu` topic (nil without a planner or realtime URLs).
    private let liveSubscriber: RealtimeSubscriber<PlannerLiveFeed>?
    /// The file a watch-triggered reload last failed on, so a broken file is reported once, not every tick.
    private let failedAttempt = Mutex<FailedReload?>(nil)

    private struct FailedReload: Sendable {
        /// nil: the file was missing.
        var file: FileIdentity?
    }

    /// Opens the database, then listens. Throws `StaticServerError` when either fails.
    public init(configuration: StaticServiceConfiguration, logger: Logger) throws(StaticServerError) {
        let contexts = configuration.contexts
        guard contexts >= 1 else { throw .invalidOption("--contexts must be at least 1, got \(contexts)") }
        let stores: ReloadableStore
        do {
            stores = try ReloadableStore(
                path: configuration.databasePath, connections: contexts + max(0, configuration.planWorkers))
        } catch {
            throw .database(path: configuration.databasePath, error)
        }
        let clock = configuration.clock
        guard configuration.planWorkers >= 0 else {
            throw .invalidOption("--plan-workers must be at least 0, got \(configuration.planWorkers)")
        }
        let planning =
            configuration.planWorkers > 0
            ? JourneyPlanning(
                maxConcurrent: configuration.planWorkers, logger: logger, liveSilence: configuration.realtimeSilence,
                now: { clock.unixSeconds })
            : nil
        planning?.refresh(stores.store)
        let handler = StaticRequestHandler(
            stores: stores, logger: logger, servedBy: configuration.replicaName, planning: planning,
            now: { clock.unixSeconds })
        self.handler = handler
        let url = configuration.listenURL
        do {
            let socket = try NNGSocket.rep()
            try socket.setMaxReceiveSize(Self.maxRequestBytes)
            try socket.listen(url)
            server = try NNGReplyServer(socket: socket, contexts: contexts + max(0, configuration.planWorkers)) {
                handler.handle($0)
            }
            if let watchdog = configuration.watchdog {
                probe = try WorkerProbe(socket: socket, watchdog: watchdog)
            } else {
                probe = nil
            }
        } catch {
            throw .listen(url: url, error)
        }
        if let planning, let subscribeURL = configuration.subscribeURL, let realtimeURL = configuration.realtimeURL {
            do {
                liveSubscriber = try RealtimeSubscriber(
                    consumer: PlannerLiveFeed(planning: planning),
                    fence: EpochFence(silenceLimit: configuration.realtimeSilence),
                    options: .init(
                        subscribeURL: subscribeURL, realtimeURL: realtimeURL, topics: [.tripUpdates],
                        silenceLimit: configuration.realtimeSilence, threadName: "planner-live"),
                    logger: logger)
            } catch {
                server.stop()
                throw .realtime(url: subscribeURL, error)
            }
        } else {
            liveSubscriber = nil
        }
        self.configuration = configuration
        self.stores = stores
        self.logger = logger
        self.planning = planning
    }

    /// The version of the database being served.
    public var databaseVersion: String { stores.store.databaseVersion }

    /// `feed_info` of the database being served, with the refresher's status of each URL feed (for metrics:
    /// not counted as an answer); nil when the database cannot answer it.
    public func feedInfo() -> FeedInfo? { handler.feedInfo() }

    /// Reopens the database file. On failure the old database keeps serving and the error is logged and
    /// returned. Returns the new database version on success.
    @discardableResult
    public func reload() -> Result<String, StoreError> {
        let old = databaseVersion
        do {
            let store = try stores.reopen()
            // The new database's timetable is built in the background; plans use the old one until then.
            planning?.refresh(store)
            logger.info(
                "database reopened",
                metadata: [
                    "path": "\(stores.path)", "old_version": "\(old)", "version": "\(store.databaseVersion)",
                ])
            return .success(store.databaseVersion)
        } catch {
            logger.error(
                "reopening the database failed; still serving the previous one",
                metadata: [
                    "path": "\(stores.path)", "version": "\(old)", "error": "\(error)",
                ])
            return .failure(error)
        }
    }

    /// Reloads when the file at the database path was replaced since it was opened (for a periodic watch;
    /// SIGHUP is the contract). Returns whether it tried. A file it failed on is not tried again until it
    /// changes.
    @discardableResult
    public func reloadIfReplaced() -> Bool {
        guard stores.fileWasReplaced else { return false }
        let file = FileIdentity(path: stores.path)
        if let failed = failedAttempt.withLock({ $0 }), failed.file == file { return false }
        let outcome = reload()
        failedAttempt.withLock { $0 = outcome.isSuccess ? nil : FailedReload(file: file) }
        return true
    }

    /// Stops answering: closes the socket and waits for the queries in progress. Idempotent.
    public func stop() {
        server.stop()
    }

    /// Starts following the realtime stream for the planner (`run` does; tests running the server without it
    /// call it themselves).
    public func startFollowingRealtime() {
        liveSubscriber?.start()
    }

    /// Logs "ready", serves until graceful shutdown (or cancellation), checking every `watchInterval` (when
    /// not zero) whether the database file was replaced, then stops (`stop()`).
    public func run() async throws {
        logger.info(
            "ready",
            metadata: [
                "listen": "\(url)", "db": "\(stores.path)", "database_version": "\(databaseVersion)",
                "contexts": "\(stores.connections)", "clock": "\(configuration.clock)",
                "pid": "\(ProcessInfo.processInfo.processIdentifier)",
            ])
        probe?.start()
        startFollowingRealtime()
        let interval = configuration.watchInterval
        if interval > .zero {
            try? await cancelWhenGracefulShutdown {
                while true {
                    try await Task.sleep(for: interval)
                    self.reloadIfReplaced()
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        logger.info("stopping")
        await probe?.stop()
        await liveSubscriber?.stop()
        stop()
        logger.info("stopped")
    }
}

/// Why the service could not start.
public enum StaticServerError: Error, CustomStringConvertible, Sendable {
    case database(path: String, StoreError)
    case listen(url: String, NNGError)
    case invalidOption(String)
    case realtime(url: String, NNGError)

    public var description: String {
        switch self {
        case .database(let path, let error): "cannot open the database \(path): \(error)"
        case .listen(let url, let error): "cannot listen on \(url): \(error)"
        case .invalidOption(let message): message
        case .realtime(let url, let error): "cannot subscribe to the realtime service at \(url): \(error)"
        }
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
