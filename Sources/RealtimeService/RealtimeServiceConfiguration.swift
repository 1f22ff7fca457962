import EtcdClient
import Foundation
import ProcessSupport

/// Everything `transit-realtime serve` can be told about the service, passed whole to `RealtimeServiceRunner`
/// (and to `StandbyRole` with `--peer`). Every default is in `Defaults` (the init's default arguments and the
/// serve command's flags read them); the engine's tunables are `RealtimeEngine.Options`, with their defaults
/// there. README.md "Configuring a service" has the convention.
public struct RealtimeServiceConfiguration: Sendable {
    /// The sources' config file, JSON (`--config`, required; see config/realtime-tfnsw.json). Read at start and
    /// again by `reloadSources` (SIGHUP).
    public var sourcesConfigPath: String
    /// The static service's nng URL (`--static`, required); replicas of one database: their URLs separated by
    /// commas.
    public var staticURL: String
    /// nng URL of the REP socket: queries, snapshots (`--listen`, required).
    public var listenURL: String
    /// nng URL of the PUB socket: the change stream (`--publish`, required).
    public var publishURL: String
    /// IANA zone of the schedule dates when the static service does not answer at start; otherwise its first
    /// feed's zone is used (`--default-time-zone`). Default Australia/Sydney.
    public var defaultTimeZone: String
    /// Seconds after which a source's data is stale, for every source without its own `stale_after_s` in the
    /// sources config (`--stale-after`); nil: by kind, 90 s for trip updates and vehicle positions, 600 s for
    /// alerts. Default nil.
    public var defaultStaleAfterSecs: Int64?
    /// The least share of a source's update, among the entities that name a scheduled trip, that must resolve
    /// to a trip of the static data (`--min-match-rate`, 0…1): below it, or 30 points below the source's own
    /// median of the last hour, the source's `TimetableMatch.mismatch` is set (protocol/README.md, "Timetable
    /// match"). Default 0.5.
    public var minMatchRate: Double
    /// `minMatchRate` per-mille, as the sources' settings hold it.
    var minMatchPermille: UInt32 { UInt32((min(max(minMatchRate, 0), 1) * 1000).rounded()) }
    /// The SQLite file departure delays are recorded in, created when missing (`--delay-store`); nil: none are
    /// recorded and the gateway's typical delays are null. Default nil.
    public var delayStorePath: String?
    /// The wall clock of fetch times, staleness, the schedule date window, replay re-stamps and the published
    /// messages' send times (`--clock`); timers stay monotonic. Default: the machine's clock.
    public var clock: ServiceClock
    /// Hot standby with a peer instance (`--peer`, `--takeover-after`, `--standby`): the fallback for a single pair
    /// without etcd (two instances that cannot hear each other both become active); nil: this instance is active
    /// from the start. Default nil.
    public var standby: Standby?
    /// Leader election through etcd (`--election`, `--election-ttl`, `--election-name`, `--etcd-…`): the instance
    /// that holds the election key polls, publishes and answers; nil: no election. Default nil.
    public var election: Election?
    /// The file holding the last epoch without etcd (`--epoch-file`; the launcher uses STATE/realtime.epoch): each
    /// start publishes under the file's number + 1, so epochs only increase across restarts. nil: the start's
    /// unix milliseconds (increasing as long as the machine's clock does not go back). Default nil.
    public var epochFile: String?
    /// Period of the heartbeat on the PUB socket (no flag; protocol/README.md: at most 5 s). Default 2 s.
    public var heartbeatInterval: Duration
    /// Period of the engine's checks: staleness, the date window, the database version every
    /// `engine.versionCheckSecs` (no flag). Default 1 s.
    public var tickInterval: Duration
    /// Timeout of each request to the static service (no flag). Default 2 s.
    public var staticTimeout: Duration
    /// The engine's tunables (no flags; defaults in `RealtimeEngine.Options`). The engine's time zone is not
    /// among them: it is known only once the static service answered at start (or `defaultTimeZone`).
    public var engine: RealtimeEngine.Options
    /// The watchdog its poll loops, publisher and engine ticks advance (a runtime object: `serve` makes one and beats from it for
    /// `--watchdog-file` and systemd's `WATCHDOG=1`); nil: nothing is watched. Not an init argument: set it on
    /// the value. Default nil.
    public var watchdog: Watchdog? = nil

    /// `--peer`: this instance stands by while the other one's heartbeats come and takes over (under a new
    /// epoch) once they have stopped (`StandbyRole`).
    public struct Standby: Sendable {
        /// The least `takeoverAfter` (heartbeats come every `Defaults.heartbeatInterval`).
        public static let minimumTakeoverAfter: Duration = .seconds(3)

        /// The PUB URL of the other realtime instance (`--peer`).
        public var peerURL: String
        /// Time without a heartbeat of the peer before this instance takes over (`--takeover-after`; at least
        /// 3 s, heartbeats come every 2 s). Default 6 s.
        public var takeoverAfter: Duration
        /// Whether to start as the standby: wait `takeoverAfter` longer at start, so that the primary started at
        /// the same time wins (`--standby`). Default false.
        public var startsAsStandby: Bool

        public init(
            peerURL: String, takeoverAfter: Duration = Defaults.takeoverAfter,
            startsAsStandby: Bool = Defaults.startsAsStandby
        ) {
            self.peerURL = peerURL
            self.takeoverAfter = takeoverAfter
            self.startsAsStandby = startsAsStandby
        }
    }

    /// `--election`: campaign for `key` in etcd under a lease of `ttl` (protocol/README.md "Leader election").
    public struct Election: Sendable {
        /// The least TTL: etcd's own minimum lease is its election timeout, and renewals come every TTL/3.
        public static let minimumTTL: Duration = .seconds(3)

        /// The etcd cluster (`--election etcd://host:2379,…`, `--etcd-user`, `--etcd-password-file`, `--etcd-ca`,
        /// `--etcd-cert`, `--etcd-key`).
        public var etcd: EtcdConfiguration
        /// The lease's TTL (`--election-ttl`): renewals every TTL/3, a step-down 2·TTL/3 after the last one.
        /// Default 6 s.
        public var ttl: Duration
        /// The election key (`--election-key`). Default `transit/realtime/leader`.
        public var key: String
        /// This instance's name in the key, `health` and `stats` (`--election-name`). Default host:pid.
        public var name: String

        public init(
            etcd: EtcdConfiguration, ttl: Duration = Defaults.electionTTL, key: String = Defaults.electionKey,
            name: String = Defaults.instanceName
        ) {
            self.etcd = etcd
            self.ttl = ttl
            self.key = key
            self.name = name
        }
    }

    public init(
        sourcesConfigPath: String, staticURL: String, listenURL: String, publishURL: String,
        defaultTimeZone: String = Defaults.defaultTimeZone, defaultStaleAfterSecs: Int64? = nil,
        minMatchRate: Double = Defaults.minMatchRate, delayStorePath: String? = nil, clock: ServiceClock = .system,
        standby: Standby? = nil, election: Election? = nil, epochFile: String? = nil,
        heartbeatInterval: Duration = Defaults.heartbeatInterval, tickInterval: Duration = Defaults.tickInterval,
        staticTimeout: Duration = Defaults.staticTimeout, engine: RealtimeEngine.Options = .init()
    ) {
        self.sourcesConfigPath = sourcesConfigPath
        self.staticURL = staticURL
        self.listenURL = listenURL
        self.publishURL = publishURL
        self.defaultTimeZone = defaultTimeZone
        self.defaultStaleAfterSecs = defaultStaleAfterSecs
        self.minMatchRate = minMatchRate
        self.delayStorePath = delayStorePath
        self.clock = clock
        self.standby = standby
        self.election = election
        self.epochFile = epochFile
        self.heartbeatInterval = heartbeatInterval
        self.tickInterval = tickInterval
        self.staticTimeout = staticTimeout
        self.engine = engine
    }

    /// The default of every field that has one, read by the init's default arguments and by the flags' help
    /// (so the two cannot drift).
    public enum Defaults {
        public static let defaultTimeZone = "Australia/Sydney"
        public static let heartbeatInterval: Duration = .seconds(2)
        public static let tickInterval: Duration = .seconds(1)
        public static let staticTimeout: Duration = .seconds(2)
        public static let takeoverAfter: Duration = .seconds(6)
        public static let startsAsStandby = false
        public static let minMatchRate = 0.5
        public static let electionTTL: Duration = .seconds(6)
        public static let electionKey = "transit/realtime/leader"
        /// host:pid, as static replicas are named.
        public static var instanceName: String {
            "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
        }
    }
}
