import ArgumentParser
import FeedRefresh
import Foundation
import Logging
import NNGKit
import ProcessSupport
import ServiceLifecycle
import ServiceSupport
import TransitModel
import TransitProto
import TransitStore

struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Keep the database current: check URL feeds on a schedule, import, validate, rename into place.",
        discussion: """
            The deployment's one importer (protocol/README.md flow 9). Each http(s) feed is checked every \
            --gtfs-refresh with a conditional GET (ETag / Last-Modified); when one changed, all feeds are \
            imported into <db>.candidate, which must open, cover today's date (the service clock's), keep at \
            least 1 - --gtfs-max-shrink of each changed feed's trips and every mode it had, and stay in the same \
            region; then it is renamed over --db, where replicas running `serve --watch-interval` (or reloaded) \
            swap it in. Otherwise it is refused with the reason and the serving database keeps serving. \
            <db>.refresh/state.json holds each feed's version, source, last check, last change, next check and \
            last error (feed_info and health show them); <db>.refresh/feeds/ the last good download of each. \
            Errors back off from 5 minutes up to the interval. SIGHUP checks every URL feed at once, and so does \
            a realtime source of --realtime that stops matching the timetable (at most every 15 min per feed). \
            Header values and URLs expand $VAR / ${VAR} from the environment (sent over https only, or http to \
            localhost).
            """
    )

    @Option(help: ArgumentHelp("The serving database to keep current.", valueName: "file"))
    var db: String

    @Argument(
        help: ArgumentHelp(
            "The feeds: URL, name=URL, or a zip/folder path / name=path (imported as it is).", valueName: "feed"))
    var feeds: [String] = []

    @Option(help: ArgumentHelp("A request header for the URL feeds, `Name: value`; repeatable.", valueName: "header"))
    var header: [String] = []

    @Option(
        help: ArgumentHelp(
            "Prefix a feed's agency, route, trip, service, shape and block ids (not stop ids).",
            valueName: "name=B:"))
    var prefix: [String] = []

    @Option(help: ArgumentHelp("How often each URL feed is checked: 6h, 30m, 90s.", valueName: "duration"))
    var gtfsRefresh = "6h"

    @Option(help: ArgumentHelp("Refuse a download larger than this (K, M, G).", valueName: "size"))
    var gtfsMaxDownload = "1GiB"

    @Option(help: ArgumentHelp("The longest a download may take: 30m, 90s.", valueName: "duration"))
    var gtfsDownloadTimeout = "30m"

    @Option(
        help: ArgumentHelp(
            "Refuse a new version that lost more than this share of a feed's trips (0…1).", valueName: "ratio"))
    var gtfsMaxShrink = RefreshConfiguration.Defaults.maxShrink

    @Option(
        help: ArgumentHelp(
            "The realtime service's REP URL: a source that stops matching the timetable (or names another "
                + "feed_version) gets its static feed checked at once, at most every 15 min (flow 7).",
            valueName: "url"))
    var realtime: String?

    @Flag(
        help:
            "Check every URL feed once (and import if one changed), then exit: 0 unchanged or swapped, 1 refused or failed."
    )
    var once = false

    @OptionGroup var logging: LoggingOptions

    @OptionGroup(title: "Service clock (the date a new version must cover)")
    var clock: ClockOptions

    @OptionGroup(title: "Hang detection (the heartbeat says the process lives; an import may take minutes)")
    var watchdogOptions: WatchdogOptions

    func validate() throws {
        _ = try configuration(environment: [:], checkingVariables: false)
    }

    /// The refresher's configuration these flags describe; a bad value throws a `ValidationError` naming its
    /// flag. `checkingVariables: false` validates the shape only (the environment is read in `run`).
    func configuration(environment: [String: String], checkingVariables: Bool = true) throws -> RefreshConfiguration {
        guard !feeds.isEmpty else { throw ValidationError("name at least one feed") }
        guard let interval = RefreshSchedule.parseDuration(gtfsRefresh), interval >= .seconds(1) else {
            throw ValidationError("--gtfs-refresh expects a duration such as 6h, 30m or 90s, got \"\(gtfsRefresh)\"")
        }
        guard let timeout = RefreshSchedule.parseDuration(gtfsDownloadTimeout), timeout >= .seconds(1) else {
            throw ValidationError(
                "--gtfs-download-timeout expects a duration such as 30m or 90s, got \"\(gtfsDownloadTimeout)\"")
        }
        guard let maxDownload = ImportLimits.parseSize(gtfsMaxDownload), maxDownload > 0 else {
            throw ValidationError("--gtfs-max-download expects a size such as 1GiB or 500M, got \"\(gtfsMaxDownload)\"")
        }
        guard (0...1).contains(gtfsMaxShrink) else {
            throw ValidationError("--gtfs-max-shrink expects a share 0…1, got \(gtfsMaxShrink)")
        }
        let configured: [RefreshConfiguration.Feed]
        do {
            configured = try RefreshConfiguration.feeds(
                arguments: feeds, headers: header, prefixes: prefix,
                environment: checkingVariables ? environment : Self.anyVariable(feeds + header))
        } catch {
            throw ValidationError("\(error)")
        }
        return RefreshConfiguration(
            databasePath: db, feeds: configured, schedule: RefreshSchedule(interval: interval),
            maxDownloadBytes: maxDownload, downloadTimeout: timeout, limits: RefreshLimits(maxShrink: gtfsMaxShrink))
    }

    /// An environment that sets every variable named in `texts` (shape checks only).
    private static func anyVariable(_ texts: [String]) -> [String: String] {
        var environment: [String: String] = [:]
        for text in texts {
            var rest = Substring(text)
            while let dollar = rest.firstIndex(of: "$") {
                rest = rest[rest.index(after: dollar)...].drop { $0 == "{" }
                let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !name.isEmpty { environment[String(name)] = "x" }
            }
        }
        return environment
    }

    func run() async throws {
        logging.bootstrap()
        let logger = Logger(label: "transit-static.refresh")
        let configuration: RefreshConfiguration
        do {
            configuration = try self.configuration(environment: ProcessInfo.processInfo.environment)
        } catch {
            printError("refresh: \(error)")
            throw ExitCode.failure
        }
        let serviceClock = clock.serviceClock
        let refresher = FeedRefresher(configuration: configuration, logger: logger, serviceNow: { serviceClock.date })
        if once {
            let outcome = await refresher.check(force: true)
            let state = RefreshState.load(forDatabase: db)
            switch outcome {
            case .swapped(let version): print("refresh: new database \(version) in place at \(db)")
            case .unchanged: print("refresh: unchanged")
            case .refused(let reasons):
                printError("refresh refused, \(db) is unchanged: \(reasons.joined(separator: "; "))")
                throw ExitCode.failure
            }
            let errors = state.feeds.compactMap { feed in feed.refresh.lastError.map { "\(feed.name): \($0)" } }
            if !errors.isEmpty, outcome == .unchanged {
                for error in errors { printError("refresh: \(error)") }
                throw ExitCode.failure
            }
            return
        }
        let hangup = await SignalAction(.sighup) {
            logger.info("SIGHUP: checking every URL feed now")
            refresher.wake()
        }
        var services: [any Service] = [RefreshLoop(refresher: refresher), hangup]
        if let realtime { services.append(MismatchWatch(url: realtime, refresher: refresher, logger: logger)) }
        services.append(watchdogOptions.service(Watchdog(), logger: logger))
        try await runUntilStopped(services, logger: logger)
    }
}

/// The refresher's loop as a service (graceful shutdown cancels it between checks).
struct RefreshLoop: Service {
    let refresher: FeedRefresher

    func run() async throws {
        await cancelWhenGracefulShutdown { await refresher.run() }
    }
}

/// Asks the realtime service for its sources every minute and wakes the refresher when one of them stops
/// matching its static feed (protocol/README.md flow 7's signal; `MismatchSignal` decides).
struct MismatchWatch: Service {
    let url: String
    let refresher: FeedRefresher
    let logger: Logger

    func run() async throws {
        let requester = try NNGRequester(dialing: url, defaultTimeout: .seconds(5))
        defer { _ = requester.close() }
        await cancelWhenGracefulShutdown {
            var signal = MismatchSignal()
            var id: UInt64 = 0
            while !Task.isCancelled {
                id += 1
                if let sources = try? await Self.sources(requester, id: id) {
                    let state = RefreshState.load(forDatabase: refresher.configuration.databasePath)
                    let feeds = refresher.configuration.feeds.compactMap { feed -> (String, String, String?)? in
                        guard case .url = feed.source else { return nil }
                        return (feed.name, feed.prefix ?? "", state[feed: feed.name]?.version)
                    }
                    let due = signal.feedsToCheck(
                        sources: sources, feeds: feeds.map { (name: $0.0, prefix: $0.1, version: $0.2) },
                        now: Int64(Date().timeIntervalSince1970))
                    if !due.isEmpty {
                        logger.notice("realtime no longer matches \(due.joined(separator: ", ")): checking now")
                        refresher.wake()
                    }
                }
                try? await Task.sleep(for: .seconds(60))
            }
        }
    }

    private static func sources(_ requester: NNGRequester, id: UInt64) async throws -> [LiveSourceStatus] {
        let reply = try await requester.request(RealtimeCodec.encode(RealtimeRequest(requestId: id, query: .sources)))
        guard case .success(.sources(let sources, _, _)) = try RealtimeCodec.decodeResponse(reply).result else {
            return []
        }
        return sources
    }
}
