import ArgumentParser
import EtcdClient
import Foundation
import Logging
import NNGKit
import ProcessSupport
import RealtimeService
import ServiceLifecycle
import ServiceMetrics
import ServiceSupport
import TransitCore
import TransitModel

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Poll the configured GTFS-Realtime sources, publish resolved changes (PUB) and answer queries (REP).",
        discussion: """
            The config file lists the sources (see config/realtime-tfnsw.json). Trip updates are resolved against \
            the static service's schedules; PUB topics tu, vp, al, st, hb and the REP queries are described in \
            protocol/README.md. SIGHUP re-reads the config file: sources added, removed or changed take effect \
            (unchanged sources keep their live state; every source starts polling again); a config that cannot be \
            read or is invalid changes nothing and is logged. SIGINT/SIGTERM stop it gracefully: polling stops, \
            the feed being processed finishes, then the sockets close. --clock replays a recorded day: the service \
            clock starts at that instant (fetch times, staleness, the schedule date window and replay re-stamps \
            follow it); give the static service and the gateway the same --clock and --clock-origin.
            """
    )

    @Option(help: ArgumentHelp("The sources' config file (JSON).", valueName: "file"))
    var config: String

    @Option(
        name: .customLong("static"),
        help: ArgumentHelp(
            "The static service's nng URL; replicas of one database: their URLs separated by commas.",
            valueName: "url[,url…]"))
    var staticURL: String

    @Option(help: ArgumentHelp("nng URL of the REP socket (queries, snapshots).", valueName: "url"))
    var listen: String

    @Option(help: ArgumentHelp("nng URL of the PUB socket (the change stream).", valueName: "url"))
    var publish: String

    @Option(
        help: ArgumentHelp(
            "Hot standby without etcd (the fallback for a single pair; prefer --election): the PUB URL of the other realtime instance. This one binds nothing, polls nothing and publishes nothing while the peer's heartbeats come; it takes over (under a new epoch) once they have stopped for --takeover-after. Give each of the two instances the other's URL. Split brain: two instances that cannot hear each other (started together without --standby, a paused process, a partition) both become active; the gateways then follow the higher epoch.",
            valueName: "url"))
    var peer: String?

    @Option(help: "With --peer: seconds without a heartbeat of the peer before this instance takes over.")
    var takeoverAfter = RealtimeServiceConfiguration.Defaults.takeoverAfter.inSeconds

    @Flag(
        help:
            "With --peer: start as the standby (wait --takeover-after longer at start, so that the primary started at the same time wins)."
    )
    var standby = RealtimeServiceConfiguration.Defaults.startsAsStandby

    @Option(
        help: ArgumentHelp(
            "Leader election through etcd's v3 API: the instance holding the election key under its lease polls, publishes and answers under the key's revision as its epoch; the others bind nothing and take over when the key is free. Several members: separated by commas; etcds:// for TLS.",
            valueName: "etcd://host:2379[,host:2379…]"))
    var election: String?

    @Option(
        help:
            "With --election: the lease's TTL in seconds (renewed every TTL/3; the leader steps down 2·TTL/3 after its last renewal)."
    )
    var electionTTL = RealtimeServiceConfiguration.Defaults.electionTTL.inSeconds

    @Option(help: ArgumentHelp("With --election: the election key.", valueName: "key"))
    var electionKey = RealtimeServiceConfiguration.Defaults.electionKey

    @Option(
        help: ArgumentHelp(
            "With --election: this instance's name (health, stats). Default: host:pid.", valueName: "name"))
    var electionName: String?

    @Option(help: ArgumentHelp("With --election: etcd user (etcd's authentication).", valueName: "user"))
    var etcdUser: String?

    @Option(help: ArgumentHelp("With --etcd-user: a file holding the user's password.", valueName: "file"))
    var etcdPasswordFile: String?

    @Option(
        help: ArgumentHelp("With --election etcds://: the CA that signed etcd's certificates (PEM).", valueName: "file")
    )
    var etcdCA: String?

    @Option(
        help: ArgumentHelp(
            "With --election etcds://: this client's certificate (PEM; etcd's --client-cert-auth).", valueName: "file"))
    var etcdCert: String?

    @Option(help: ArgumentHelp("With --etcd-cert: its private key (PEM).", valueName: "file"))
    var etcdKey: String?

    @Option(
        help: ArgumentHelp(
            "Without --election: the file keeping the last epoch, so each start publishes under a higher one (the launcher uses STATE/realtime.epoch). Default: the start's unix milliseconds.",
            valueName: "file"))
    var epochFile: String?

    @Option(
        help: ArgumentHelp(
            "Seconds after which a source's data is stale, for sources without their own stale_after_s in the config "
                + "(default: by kind, 90 for trip updates and vehicle positions, 600 for alerts).", valueName: "s"))
    var staleAfter: Int64?

    @Option(
        help: ArgumentHelp(
            "The least share (0…1) of a source's update, among the entities naming a scheduled trip, that must match "
                + "the timetable; below it, or 30 points below the source's median of the last hour, the source's "
                + "timetable match is a mismatch (the gateway's health: degraded).", valueName: "rate"))
    var minMatchRate = RealtimeServiceConfiguration.Defaults.minMatchRate

    @Option(
        help: ArgumentHelp(
            "IANA time zone of the schedule dates when the static service does not answer at start (otherwise its "
                + "first feed's zone is used).", valueName: "zone"))
    var defaultTimeZone = RealtimeServiceConfiguration.Defaults.defaultTimeZone

    @Option(
        help: ArgumentHelp(
            "SQLite file recording how late departures are (created when missing; the launcher uses "
                + "STATE/delays.db). Without it no delays are recorded and the gateway's typical delays are null.",
            valueName: "file"))
    var delayStore: String?

    @OptionGroup var logging: LoggingOptions

    @OptionGroup var metrics: MetricsOptions

    @OptionGroup(title: "Service clock")
    var clock: ClockOptions

    @OptionGroup(title: "TLS (tls+tcp:// URLs)")
    var tls: TLSOptions

    @OptionGroup(title: "Hang detection")
    var watchdogOptions: WatchdogOptions

    // Flags with a configuration field take their default from `RealtimeServiceConfiguration.Defaults` (shown
    // by --help); `configuration()` maps them onto the struct. README.md "Configuring a service".

    func validate() throws {
        _ = try configuration()
    }

    /// The service configuration these flags describe; a bad value throws a `ValidationError` naming its flag.
    func configuration() throws -> RealtimeServiceConfiguration {
        if let staleAfter, staleAfter < 1 { throw ValidationError("--stale-after must be at least 1 second") }
        let minimumTakeoverAfter = RealtimeServiceConfiguration.Standby.minimumTakeoverAfter.inSeconds
        guard takeoverAfter >= minimumTakeoverAfter, takeoverAfter.isFinite else {
            throw ValidationError(
                "--takeover-after must be at least \(Int(minimumTakeoverAfter)) seconds (heartbeats come every 2 s)")
        }
        if peer == nil, standby { throw ValidationError("--standby needs --peer") }
        let election = try electionConfiguration()
        if election != nil, peer != nil { throw ValidationError("--election and --peer exclude each other") }
        guard (0...1).contains(minMatchRate) else {
            throw ValidationError("--min-match-rate must be between 0 and 1, got \(minMatchRate)")
        }
        guard !NNGURLList.split(staticURL).isEmpty else {
            throw ValidationError(
                "--static needs at least one nng URL (several: separated by commas), got \"\(staticURL)\"")
        }
        guard (try? ServiceTimeZone(identifier: defaultTimeZone)) != nil else {
            throw ValidationError(
                "unknown --default-time-zone \(defaultTimeZone) (expected an IANA name such as Australia/Sydney)")
        }
        return RealtimeServiceConfiguration(
            sourcesConfigPath: config, staticURL: staticURL, listenURL: listen, publishURL: publish,
            defaultTimeZone: defaultTimeZone, defaultStaleAfterSecs: staleAfter, minMatchRate: minMatchRate,
            delayStorePath: delayStore,
            clock: clock.serviceClock,
            standby: peer.map {
                .init(peerURL: $0, takeoverAfter: .seconds(takeoverAfter), startsAsStandby: standby)
            }, election: election, epochFile: epochFile)
    }

    /// `--election` and its options; nil without `--election` (its options then refused).
    private func electionConfiguration() throws -> RealtimeServiceConfiguration.Election? {
        guard let election else {
            let given = [
                (etcdUser, "--etcd-user"), (etcdPasswordFile, "--etcd-password-file"), (etcdCA, "--etcd-ca"),
                (etcdCert, "--etcd-cert"), (etcdKey, "--etcd-key"), (electionName, "--election-name"),
            ].filter { $0.0 != nil }.map(\.1)
            if let first = given.first { throw ValidationError("\(first) needs --election") }
            return nil
        }
        let endpoints: [String]
        do {
            endpoints = try EtcdConfiguration.endpoints(of: election)
        } catch {
            throw ValidationError("--election: \(error)")
        }
        let minimum = RealtimeServiceConfiguration.Election.minimumTTL.inSeconds
        guard electionTTL >= minimum, electionTTL.isFinite, electionTTL == electionTTL.rounded() else {
            throw ValidationError("--election-ttl must be whole seconds, at least \(Int(minimum)), got \(electionTTL)")
        }
        if epochFile != nil { throw ValidationError("--epoch-file is for instances without --election") }
        var password: String?
        if let etcdPasswordFile {
            guard etcdUser != nil else { throw ValidationError("--etcd-password-file needs --etcd-user") }
            guard let data = FileManager.default.contents(atPath: etcdPasswordFile) else {
                throw ValidationError("--etcd-password-file: cannot read \(etcdPasswordFile)")
            }
            password = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        } else if etcdUser != nil {
            throw ValidationError("--etcd-user needs --etcd-password-file")
        }
        if (etcdCert == nil) != (etcdKey == nil) {
            throw ValidationError("--etcd-cert and --etcd-key go together")
        }
        let tls: EtcdConfiguration.TLSFiles? =
            etcdCA == nil && etcdCert == nil ? nil : .init(caPath: etcdCA, certificatePath: etcdCert, keyPath: etcdKey)
        if tls != nil, !endpoints.allSatisfy({ $0.hasPrefix("https://") }) {
            throw ValidationError("--etcd-ca/--etcd-cert need --election etcds://…")
        }
        return .init(
            etcd: EtcdConfiguration(endpoints: endpoints, username: etcdUser, password: password, tls: tls),
            ttl: .seconds(electionTTL), key: electionKey,
            name: electionName ?? RealtimeServiceConfiguration.Defaults.instanceName)
    }

    func run() async throws {
        ProcessMemory.keepFreedMemory()
        logging.bootstrap()
        tls.apply()
        let logger = Logger(label: "transit-realtime")

        let registry = metrics.bootstrap()
        var configuration = try self.configuration()
        let watchdog = Watchdog()
        configuration.watchdog = watchdog
        // The running service: made now, or (with --peer) once this instance takes over.
        let current: @Sendable () -> RealtimeServiceRunner?
        let role: any Service
        if configuration.election != nil {
            let electionRole: ElectionRole
            do {
                electionRole = try ElectionRole(configuration: configuration, logger: logger)
            } catch {
                printError("serve: \(error)")
                throw ExitCode.failure
            }
            role = electionRole
            current = { electionRole.current }
        } else if let peer = configuration.standby?.peerURL {
            let standbyRole: StandbyRole
            do {
                standbyRole = try StandbyRole(configuration: configuration, logger: logger)
            } catch {
                printError("serve: cannot dial the peer \(peer): \(error)")
                throw ExitCode.failure
            }
            role = standbyRole
            current = { standbyRole.current }
        } else {
            let service: RealtimeServiceRunner
            do {
                service = try await RealtimeServiceRunner(
                    configuration: configuration, logger: logger, epoch: try configuration.nextEpochWithoutElection())
            } catch {
                printError("serve: \(error)")
                throw ExitCode.failure
            }
            role = service
            current = { service }
        }
        let config = configuration.sourcesConfigPath
        let hangup = await SignalAction(.sighup) {
            guard let service = current() else {
                logger.info("SIGHUP: standing by, nothing to re-read yet (the config is read at takeover)")
                return
            }
            logger.info("SIGHUP: re-reading the sources config", metadata: ["config": "\(config)"])
            try? await service.reloadSources()  // logs what it did or why it changed nothing
        }
        var services: [any Service] = [role, hangup]
        do {
            let clock = configuration.clock
            let endpoint = try await metrics.endpoint(registry, logger: logger) { scraped in
                if let rss = ProcessMemory.residentBytes() {
                    scraped.gauge("transit_realtime_resident_bytes", [], Double(rss))
                }
                scraped.gauge("transit_realtime_active", [], current() == nil ? 0 : 1)
                scraped.total("transit_realtime_nng_unfinished_closes_total", [], Int64(UnfinishedCloses.count))
                guard let hub = current()?.sockets.hub,
                    case .success(.sources(let sources, let failedSends, _)) = hub.answer(.sources)
                else { return }
                scraped.total("transit_realtime_publish_failures_total", [], Int64(failedSends))
                let now = clock.unixSeconds
                for source in sources {
                    let name = [("source", source.name)]
                    if let success = source.lastSuccessUnix {
                        scraped.gauge("transit_realtime_feed_age_seconds", name, Double(now - success))
                    }
                    scraped.gauge("transit_realtime_feed_stale", name, source.stale ? 1 : 0)
                    scraped.gauge("transit_realtime_feed_entities", name, Double(source.entities))
                    scraped.total("transit_realtime_feed_errors_total", name, Int64(source.errors))
                    scraped.total("transit_realtime_updates_applied_total", name, Int64(source.updatesApplied))
                    for (reason, count) in source.drops {
                        scraped.total(
                            "transit_realtime_drops_total", name + [("reason", reason)], Int64(count))
                    }
                    if let match = source.match {
                        for (kind, count) in [("trip_updates", match.tripUpdates), ("vehicles", match.vehicles)] {
                            let labels = name + [("kind", kind)]
                            scraped.gauge("transit_realtime_match_considered", labels, Double(count.considered))
                            scraped.gauge("transit_realtime_match_matched", labels, Double(count.matched))
                        }
                        if let rate = match.ratePermille {
                            scraped.gauge("transit_realtime_match_rate", name, Double(rate) / 1000)
                        }
                        scraped.gauge("transit_realtime_match_mismatch", name, match.mismatch ? 1 : 0)
                    }
                }
            }
            if let endpoint { services.append(endpoint) }
        } catch {
            printError("serve: \(error)")
            throw ExitCode.failure
        }
        // Last: it stops first, so loops stopping on purpose are not reported late.
        services.append(watchdogOptions.service(watchdog, logger: logger))
        try await runUntilStopped(services, logger: logger)
    }
}
