import ArgumentParser
import Foundation
import Logging
import NNGKit
import ProcessSupport
import ServiceLifecycle
import ServiceMetrics
import ServiceSupport
import StaticService
import TransitModel

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Answer static queries (protobuf over nng REQ/REP) from an imported database.",
        discussion: """
            SIGHUP reopens the database (run after a new import; queries in flight finish on the old file; \
            if the new file cannot be opened, the old one keeps serving). SIGINT/SIGTERM stop it gracefully: \
            no new requests, the ones in progress finish. --clock replays a recorded day: requests without `at` \
            are answered at the service clock's time.
            """
    )

    @Option(help: ArgumentHelp("The database written by `transit-static import`.", valueName: "file"))
    var db: String

    @Option(
        help: ArgumentHelp(
            "nng URL to listen on, e.g. ipc:///tmp/static.sock or tcp://127.0.0.1:5555.",
            valueName: "url"))
    var listen: String

    @Option(help: "Requests answered at once (REP contexts, each with its own database connection; 1…256).")
    var contexts = StaticServiceConfiguration.Defaults.contexts

    @Option(
        help: ArgumentHelp(
            "Journey plans answered at once, on request workers of their own (0: no planner; `plan` is "
                + "UNAVAILABLE and no timetable is held in memory).", valueName: "n"))
    var planWorkers = StaticServiceConfiguration.Defaults.planWorkers

    @Option(
        help: ArgumentHelp(
            "nng URL of the realtime service's REP socket (snapshots of the live trips the planner follows; "
                + "several: comma-separated).", valueName: "url"))
    var realtime: String?

    @Option(
        help: ArgumentHelp(
            "nng URL of the realtime service's PUB socket: plans use the live trips (`tu`) laid over the timetable "
                + "(needs --realtime).", valueName: "url"))
    var subscribe: String?

    @Option(
        help: ArgumentHelp(
            "Seconds without a message from the realtime publisher before plans use the schedule (realtime_stale).",
            valueName: "seconds"))
    var realtimeSilence = StaticServiceConfiguration.Defaults.realtimeSilence.inSeconds

    @Option(
        help: ArgumentHelp(
            "Also reopen when the database file is replaced, checking every N seconds "
                + "(0: only on SIGHUP).", valueName: "seconds"))
    var watchInterval = StaticServiceConfiguration.Defaults.watchInterval.inSeconds

    @Option(
        help: ArgumentHelp(
            "This replica's name, sent with every answer (`served_by`; the gateway counts answers per replica). Default: host:pid.",
            valueName: "name"))
    var name: String?

    @OptionGroup var logging: LoggingOptions

    @OptionGroup var metrics: MetricsOptions

    @OptionGroup(title: "Service clock")
    var clock: ClockOptions

    @OptionGroup(title: "TLS (tls+tcp:// URLs)")
    var tls: TLSOptions

    @OptionGroup(title: "Hang detection")
    var watchdogOptions: WatchdogOptions

    // Flags with a configuration field take their default from `StaticServiceConfiguration.Defaults` (shown by
    // --help); `configuration()` maps them onto the struct. README.md "Configuring a service".

    func validate() throws {
        _ = try configuration()
    }

    /// The service configuration these flags describe; a bad value throws a `ValidationError` naming its flag.
    /// Without --name the replica is named host:pid.
    func configuration() throws -> StaticServiceConfiguration {
        guard (1...StaticServiceConfiguration.maxContexts).contains(contexts) else {
            throw ValidationError(
                "--contexts must be 1…\(StaticServiceConfiguration.maxContexts), got \(contexts)")
        }
        guard watchInterval >= 0, watchInterval.isFinite else { throw ValidationError("--watch-interval must be ≥ 0") }
        if let name, name.isEmpty || name.utf8.count > 200 {
            throw ValidationError("--name must be 1…200 bytes, got \(name.utf8.count)")
        }
        guard (0...64).contains(planWorkers) else {
            throw ValidationError("--plan-workers must be 0…64, got \(planWorkers)")
        }
        if subscribe != nil, realtime == nil {
            throw ValidationError("--subscribe needs --realtime (the realtime service's REP URL, for snapshots)")
        }
        for (flag, value) in [("--realtime", realtime), ("--subscribe", subscribe)] {
            if let value, value.isEmpty { throw ValidationError("\(flag) must not be empty") }
        }
        guard realtimeSilence > 0, realtimeSilence.isFinite else {
            throw ValidationError("--realtime-silence must be > 0, got \(realtimeSilence)")
        }
        var configuration = StaticServiceConfiguration(
            databasePath: db, listenURL: listen, contexts: contexts, watchInterval: .seconds(watchInterval),
            replicaName: name ?? "\(ProcessInfo.processInfo.hostName):\(getpid())", clock: clock.serviceClock)
        configuration.planWorkers = planWorkers
        configuration.realtimeURL = realtime
        configuration.subscribeURL = subscribe
        configuration.realtimeSilence = .seconds(realtimeSilence)
        return configuration
    }

    func run() async throws {
        // The planner's live updates free and allocate ~100 MB of routes each time: kept by malloc instead of
        // returned to the kernel and faulted in again (BENCHMARKS.md session 26: an update's p95 57.3 -> 45.3 ms).
        if planWorkers > 0 { ProcessMemory.keepFreedMemory() }
        logging.bootstrap()
        tls.apply()
        let logger = Logger(label: "transit-static")

        // Before the request handler makes its metric handles.
        let registry = metrics.bootstrap()
        let server: StaticServer
        let watchdog = Watchdog()
        do {
            var configuration = try configuration()
            configuration.watchdog = watchdog
            server = try StaticServer(configuration: configuration, logger: logger)
        } catch {
            printError("serve: \(error)")
            throw ExitCode.failure
        }
        let db = self.db
        let hangup = await SignalAction(.sighup) {
            logger.info("SIGHUP: reopening the database", metadata: ["path": "\(db)"])
            server.reload()
        }
        var services: [any Service] = [server, hangup]
        do {
            let endpoint = try await metrics.endpoint(registry, logger: logger) { scraped in
                if let rss = ProcessMemory.residentBytes() {
                    scraped.gauge("transit_static_resident_bytes", [], Double(rss))
                }
                scraped.gauge("transit_static_database_info", [("version", server.databaseVersion)], 1)
                for feed in server.feedInfo()?.feeds ?? [] { scraped.feed(feed) }
                scraped.total("transit_static_nng_unfinished_closes_total", [], Int64(UnfinishedCloses.count))
                if let report = server.planning?.report { scraped.planner(report) }
            }
            if let endpoint { services.append(endpoint) }
        } catch {
            printError("serve: \(error)")
            server.stop()
            throw ExitCode.failure
        }
        // Last: it stops first, so loops stopping on purpose are not reported late.
        services.append(watchdogOptions.service(watchdog, logger: logger))
        try await runUntilStopped(services, logger: logger)
    }
}

extension ScrapedValues {
    /// The journey planner (README "Metrics and logs"): the timetables held (0 when none), builds, the last live
    /// update, refusals and cut plans.
    fileprivate func planner(_ report: PlannerReport) {
        for (name, held) in [("window", report.window), ("far", report.far)] {
            let timetable = [("timetable", name)]
            gauge("transit_static_planner_timetable_bytes", timetable, Double(held?.bytes ?? 0))
            gauge("transit_static_planner_timetable_runs", timetable, Double(held?.runs ?? 0))
            gauge(
                "transit_static_planner_timetable_days", timetable,
                Double(held.map { $0.dates.upperBound.dayNumber - $0.dates.lowerBound.dayNumber + 1 } ?? 0))
        }
        let c = report.counts
        for (name, builds, failures, last) in [
            ("window", c.windowBuilds, c.windowBuildFailures, c.lastWindowBuildSeconds),
            ("far", c.farBuilds, c.farBuildFailures, c.lastFarBuildSeconds),
        ] {
            total("transit_static_planner_builds_total", [("timetable", name), ("result", "ok")], Int64(builds))
            total("transit_static_planner_builds_total", [("timetable", name), ("result", "failed")], Int64(failures))
            if let last { gauge("transit_static_planner_build_last_seconds", [("timetable", name)], last) }
        }
        // The live updates' count and durations: JourneyPlanning's histogram, _live_update_duration_seconds.
        if let last = c.lastLiveUpdateSeconds { gauge("transit_static_planner_live_update_last_seconds", [], last) }
        gauge("transit_static_planner_live_runs", [], Double(c.liveRuns))
        gauge("transit_static_planner_live_added_trips", [], Double(c.liveAddedTrips))
        total("transit_static_planner_landmark_refreshes_total", [], Int64(c.landmarkRefreshes))
        for (reason, n) in [("busy", c.refusedBusy), ("building", c.refusedBuilding), ("far", c.refusedFar)] {
            total("transit_static_plans_refused_total", [("reason", reason)], Int64(n))
        }
        total("transit_static_plans_cut_total", [], Int64(c.cutPlans))
    }

    /// A served feed: its version, and for a URL feed what the refresher last did (feed_info's `refresh`).
    fileprivate func feed(_ feed: FeedSummary) {
        let name = [("feed", feed.name)]
        gauge("transit_static_feed_info", name + [("version", feed.version ?? "")], 1)
        guard let refresh = feed.refresh else { return }
        gauge("transit_static_feed_refresh_info", name + [("source", refresh.source)], 1)
        let times = [
            ("last_check", refresh.lastCheck), ("last_change", refresh.lastChange),
            ("next_check", refresh.nextCheck), ("last_error", refresh.lastErrorAt),
        ]
        for (what, unix) in times {
            if let unix { gauge("transit_static_feed_refresh_\(what)_unix", name, Double(unix)) }
        }
        gauge("transit_static_feed_refresh_consecutive_failures", name, Double(refresh.consecutiveFailures))
        gauge("transit_static_feed_refresh_failing", name, refresh.lastError == nil ? 0 : 1)
        gauge("transit_static_feed_refresh_refused", name, refresh.refused == nil ? 0 : 1)
    }
}
