import ProcessSupport

/// Everything `transit-static serve` can be told about the service, passed whole to `StaticServer`. Every
/// default is in `Defaults` (the init's default arguments and the serve command's flags read them). README.md
/// "Configuring a service" has the convention.
public struct StaticServiceConfiguration: Sendable {
    /// The SQLite database written by `transit-static import` (`--db`, required).
    public var databasePath: String
    /// nng URL of the REP socket to listen on (`--listen`, required), e.g. ipc:///tmp/static.sock.
    public var listenURL: String
    /// Requests answered at once (`--contexts`): REP contexts, each with its own database connection. 1…256.
    /// Default 8.
    public var contexts: Int
    /// How often to check whether the database file was replaced, and reopen it if so (`--watch-interval`);
    /// zero: only on SIGHUP. Default zero.
    public var watchInterval: Duration
    /// This replica's name, sent with every answer as `served_by` (`--name`; the gateway counts answers per
    /// replica); nil: answers carry none. Default nil (the serve command sends host:pid when `--name` is not
    /// given).
    public var replicaName: String?
    /// "Now" of requests without `at` (`--clock`). Default: the machine's clock.
    public var clock: ServiceClock
    /// The watchdog its request workers answer (`WorkerProbe`) (a runtime object: `serve` makes one and beats from it for
    /// `--watchdog-file` and systemd's `WATCHDOG=1`); nil: nothing is watched. Not an init argument: set it on
    /// the value. Default nil.
    public var watchdog: Watchdog? = nil
    /// Plans searched at once (`--plan-workers`), with as many request workers added to `contexts` for them: one
    /// more plan waits for one at most its budget, then is refused with UNAVAILABLE. 0: no planner (no timetable
    /// in memory; `plan` is UNAVAILABLE). Not an init argument. Default 2.
    public var planWorkers: Int = Defaults.planWorkers
    /// nng URLs of the realtime service (`--realtime`, `--subscribe`): its REP socket (snapshots) and PUB socket
    /// (the live stream), several separated by commas (a service and its standby). With both, the planner follows
    /// the `tu` topic and plans with the live trips laid over its timetable (protocol/README.md flow 8); without,
    /// plans use the schedule. Not init arguments. Default: none.
    public var realtimeURL: String? = nil
    public var subscribeURL: String? = nil
    /// No message from the realtime publisher for this long: plans use the schedule and say so
    /// (`--realtime-silence`). Not an init argument. Default 15 s.
    public var realtimeSilence: Duration = Defaults.realtimeSilence

    public init(
        databasePath: String, listenURL: String, contexts: Int = Defaults.contexts,
        watchInterval: Duration = Defaults.watchInterval, replicaName: String? = nil, clock: ServiceClock = .system
    ) {
        self.databasePath = databasePath
        self.listenURL = listenURL
        self.contexts = contexts
        self.watchInterval = watchInterval
        self.replicaName = replicaName
        self.clock = clock
    }

    /// The most `contexts` (each holds a SQLite connection).
    public static let maxContexts = 256

    /// The default of every field that has one, read by the init's default arguments and by the flags' help
    /// (so the two cannot drift).
    public enum Defaults {
        public static let contexts = 8
        public static let watchInterval: Duration = .zero
        public static let planWorkers = 2
        public static let realtimeSilence: Duration = .seconds(15)
    }
}
