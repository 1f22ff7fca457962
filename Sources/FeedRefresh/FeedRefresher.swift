// One importer per deployment keeps the URL feeds current: it checks each (conditional GET), imports a
// changed one with the others into a new file beside the serving database, validates it against the serving
// one, and renames it over the serving path, where every static replica watching that path (`serve
// --watch-interval`, or `systemctl reload`) swaps it in. A refresh that fails in any way leaves the serving
// database untouched and says why in the state file. protocol/README.md flow 9 has the rollout.
import Foundation
import HTTPFetching
import Logging
import Synchronization
import TransitStore

/// What one check did.
public enum RefreshOutcome: Sendable, Equatable {
    /// No feed was due, or every due one answered 304 / failed (see the state's errors).
    case unchanged
    /// A new database is in place (its version).
    case swapped(databaseVersion: String)
    /// New bytes were fetched but refused (the reasons); the serving database is untouched.
    case refused([String])
}

public final class FeedRefresher: Sendable {
    public let configuration: RefreshConfiguration
    private let client: HTTPFetchClient
    private let logger: Logger
    /// The machine's wall clock, unix seconds (check times; injected by tests).
    private let now: @Sendable () -> Int64
    /// The service clock's instant whose date a new version must cover (`--clock` replays a day).
    private let serviceNow: @Sendable () -> Date
    private let wakeRequested = Mutex(false)
    /// One check at a time (a wake during a check runs another after it).
    private let checking = Mutex(false)

    public init(
        configuration: RefreshConfiguration, client: HTTPFetchClient = .shared, logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
        serviceNow: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.client = client
        self.logger = logger
        self.now = now
        self.serviceNow = serviceNow
    }

    private var databasePath: String { configuration.databasePath }
    private var folder: String { RefreshState.folder(forDatabase: databasePath) }
    private func keptPath(_ name: String) -> String { folder + "/feeds/\(name).zip" }
    private var candidatePath: String { databasePath + ".candidate" }

    /// Checks every URL feed that is due (all of them with `force`, or when no database serves yet); imports,
    /// validates and swaps when one changed.
    public func check(force: Bool = false) async -> RefreshOutcome {
        let start = now()
        var state = RefreshState.load(forDatabase: databasePath)
        let serving = FileManager.default.fileExists(atPath: databasePath)
        try? FileManager.default.createDirectory(atPath: folder + "/feeds", withIntermediateDirectories: true)
        var staged: [String: (path: String, validators: CacheValidators)] = [:]
        var generator = SystemRandomNumberGenerator()

        for feed in configuration.feeds {
            guard case .url(let remote) = feed.source else { continue }
            var status = state.status(feed.name, source: remote.redactedURL)
            let kept = FileManager.default.fileExists(atPath: keptPath(feed.name))
            let due =
                force || !serving || !kept
                || configuration.schedule.wait(until: status.refresh.nextCheck, now: start) == .zero
            guard due else { continue }
            let download = folder + "/\(feed.name).download"
            let request = HTTPFetchRequest(
                url: remote.url,
                headers: remote.headers + [("Accept", "application/zip, application/octet-stream, */*;q=0.1")],
                validators: kept ? status.validators : CacheValidators(), maxBytes: configuration.maxDownloadBytes,
                timeout: configuration.downloadTimeout)
            status.refresh.lastCheck = start
            switch await client.fetch(request, to: .file(download)) {
            case .failure(let error):
                fail(&status, "\(remote.redactedURL): \(error)", at: start, generator: &generator)
            case .success(let (response, _)) where response.isNotModified:
                succeed(&status, at: start)
                if let refusal = status.refresh.refused {
                    status.refresh.lastError = "still the refused version: \(refusal)"
                }
                logger.debug("refresh \(feed.name): not modified")
            case .success(let (response, _)) where !response.isSuccess:
                unlink(download)
                fail(&status, "\(remote.redactedURL): HTTP \(response.status)", at: start, generator: &generator)
            case .success(let (response, _)):
                let validators = CacheValidators(responseHeaders: response.headers)
                if let looksLike = RefreshValidation.notZip(Self.prefix(of: download)) {
                    unlink(download)
                    let refusal = Refusal.notAZip(feed: feed.name, looksLike: looksLike).description
                    fail(&status, refusal, at: start, generator: &generator)
                    status.refresh.refused = refusal
                    status.validators = validators  // not fetched again until the server has other bytes
                } else {
                    staged[feed.name] = (download, validators)
                    logger.info("refresh \(feed.name): new bytes (\(response.byteCount) bytes)")
                }
            }
            state.update(status)
        }

        // Nothing new, or a feed with no bytes at all yet (its first download failed: nothing to import).
        let complete = configuration.feeds.allSatisfy { feed in
            guard case .url = feed.source else { return true }
            return staged[feed.name] != nil || FileManager.default.fileExists(atPath: keptPath(feed.name))
        }
        guard (!staged.isEmpty || !serving) && complete else {
            for (_, file) in staged { unlink(file.path) }
            save(state)
            return .unchanged
        }
        let outcome = importAndSwap(staged: staged, serving: serving, state: &state, at: start, generator: &generator)
        for (_, file) in staged { unlink(file.path) }
        save(state)
        return outcome
    }

    private func importAndSwap(
        staged: [String: (path: String, validators: CacheValidators)], serving: Bool, state: inout RefreshState,
        at time: Int64, generator: inout SystemRandomNumberGenerator
    ) -> RefreshOutcome {
        // Every URL feed imports from its new bytes or from its last good ones.
        var importFeeds: [ImportOptions.Feed] = []
        for feed in configuration.feeds {
            let path: String
            switch feed.source {
            case .path(let local): path = local
            case .url: path = staged[feed.name]?.path ?? keptPath(feed.name)
            }
            importFeeds.append(ImportOptions.Feed(path: path, name: feed.name, prefix: feed.prefix))
        }
        let changed = serving ? Array(staged.keys).sorted() : configuration.feeds.map(\.name)
        func refuse(_ reasons: [String]) -> RefreshOutcome {
            unlink(candidatePath)
            for name in staged.keys {
                guard var status = state[feed: name] else { continue }
                let text = reasons.joined(separator: "; ")
                fail(&status, text, at: time, generator: &generator)
                status.refresh.refused = text
                status.validators = staged[name]!.validators  // refused bytes are not fetched again
                state.update(status)
            }
            logger.warning("refresh refused, the serving database is unchanged: \(reasons.joined(separator: "; "))")
            return .refused(reasons)
        }

        let summary: ImportSummary
        do {
            summary = try GTFSImporter(
                options: ImportOptions(
                    feeds: importFeeds, databasePath: candidatePath, handleInterrupts: false,
                    limits: configuration.importLimits)
            ).run()
        } catch {
            return refuse(["import failed: \(error)"])
        }
        let candidate: [String: FeedProfile]
        let current: [String: FeedProfile]?
        do {
            // Opened as the replicas will open it.
            let store = try StaticStore(path: candidatePath, connections: 1)
            try store.prepareSearch()
            candidate = try FeedProfile.read(databasePath: candidatePath)
            current = serving ? try FeedProfile.read(databasePath: databasePath) : nil
        } catch {
            return refuse(["the new database cannot be opened: \(error)"])
        }
        let serviceNow = self.serviceNow()
        let refusals = RefreshValidation.refusals(
            candidate: candidate, serving: current, checked: changed,
            today: { Self.date(serviceNow, timezone: $0.timezone) }, limits: configuration.limits)
        guard refusals.isEmpty else { return refuse(refusals.map(\.description)) }

        // Keep the new bytes as the last good ones, then put the database in place (one atomic rename; the
        // replicas keep the old file open until they reopen, and its space is freed when the last one lets go).
        for (name, file) in staged { rename(file.path, keptPath(name)) }
        guard rename(candidatePath, databasePath) == 0 else {
            return refuse(["cannot rename the new database over \(databasePath): \(String(cString: strerror(errno)))"])
        }
        for name in changed {
            guard var status = state[feed: name] else { continue }
            succeed(&status, at: time)
            status.refresh.lastChange = time
            status.version = candidate[name]?.version
            status.refresh.refused = nil
            if let validators = staged[name]?.validators { status.validators = validators }
            state.update(status)
        }
        state.databaseVersion = summary.databaseVersion
        logger.info(
            "refresh: new database in place",
            metadata: ["version": "\(summary.databaseVersion)", "feeds": "\(changed.joined(separator: ","))"])
        return .swapped(databaseVersion: summary.databaseVersion)
    }

    private func succeed(_ status: inout RefreshedFeed, at time: Int64) {
        status.refresh.lastError = nil
        status.refresh.lastErrorAt = nil
        status.refresh.consecutiveFailures = 0
        var generator = SystemRandomNumberGenerator()
        status.refresh.nextCheck = configuration.schedule.next(after: time, failures: 0, using: &generator)
    }

    private func fail(
        _ status: inout RefreshedFeed, _ message: String, at time: Int64,
        generator: inout SystemRandomNumberGenerator
    ) {
        status.refresh.lastError = message
        status.refresh.lastErrorAt = time
        status.refresh.consecutiveFailures += 1
        status.refresh.nextCheck = configuration.schedule.next(
            after: time, failures: status.refresh.consecutiveFailures, using: &generator)
        logger.warning(
            "refresh \(status.name) failed (\(status.refresh.consecutiveFailures) in a row), the serving database is unchanged: \(message)"
        )
    }

    private func save(_ state: RefreshState) {
        do { try state.save(forDatabase: databasePath) } catch {
            logger.error("refresh: cannot write \(RefreshState.file(forDatabase: databasePath)): \(error)")
        }
    }

    /// Asks the running loop to check every URL feed now (SIGHUP; the realtime side's mismatch signal).
    public func wake() {
        wakeRequested.withLock { $0 = true }
    }

    /// Checks feeds as they fall due until the task is cancelled.
    public func run() async {
        var force = false
        while !Task.isCancelled {
            let outcome = await check(force: force)
            if case .swapped(let version) = outcome { logger.notice("refresh: serving \(version)") }
            let state = RefreshState.load(forDatabase: databasePath)
            let current = now()
            var wait = configuration.schedule.interval
            for feed in configuration.feeds {
                guard case .url = feed.source else { continue }
                wait = min(
                    wait, configuration.schedule.wait(until: state[feed: feed.name]?.refresh.nextCheck, now: current))
            }
            // Sleep in steps of at most a second, so a wake is heard at once.
            let deadline = ContinuousClock.now + wait
            force = false
            while ContinuousClock.now < deadline, !Task.isCancelled {
                if wakeRequested.withLock({
                    let was = $0; $0 = false; return was
                }) {
                    force = true
                    break
                }
                try? await Task.sleep(for: min(.seconds(1), deadline - ContinuousClock.now))
            }
        }
    }

    /// The first bytes of a file (the zip check).
    public static func prefix(of path: String) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
    }

    /// YYYYMMDD of `date` in `timezone` (UTC when unknown).
    static func date(_ date: Date, timezone: String) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timezone) ?? TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return (parts.year ?? 1970) * 10000 + (parts.month ?? 1) * 100 + (parts.day ?? 1)
    }
}
