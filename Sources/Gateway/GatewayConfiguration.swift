import Logging
import NNGKit
import ProcessSupport
import TransitModel

/// Everything `transit-gateway serve` can be told, passed whole to `GatewayServer.start`. Every default is in
/// `Defaults` (the init's default arguments and the serve command's flags read them); they are the contract's
/// (protocol/GATEWAY.md §1, protocol/README.md "timeouts (gateway)"). README.md "Configuring a service" has the
/// convention.
public struct GatewayConfiguration: Sendable {
    /// TCP host to listen on (`--listen` host). Default 127.0.0.1.
    public var host: String
    /// TCP port to listen on (`--listen` port); 0 picks a free one (tests). Default 7878.
    public var port: Int
    /// Where the HTTP and WebSocket port listens (`--http`, GATEWAY.md §8; module GatewayHTTP); nil: no HTTP
    /// port. Port 0 picks a free one (tests). Default nil.
    public var http: ListenAddress?
    /// The browser origin the HTTP answers allow (`--cors-origin`, one origin or "*"); nil: no CORS headers.
    /// Default nil.
    public var corsOrigin: String?
    /// nng URL of the static service's REP socket (`--static`, required); replicas of one database: their URLs
    /// separated by commas (one REQ socket dials them all, see `staticURLs`).
    public var staticURL: String
    /// The URLs of `staticURL`, one per replica.
    public var staticURLs: [String] {
        NNGURLList.split(staticURL)
    }
    /// nng URLs of the realtime service (`--realtime`, `--subscribe`): REP (snapshots, the `vehicles` fallback)
    /// and PUB (the live stream). A PUB URL needs the REP URL too (the snapshot handshake). Default: none.
    public var realtimeURL: String?
    public var subscribeURL: String?
    /// No message from the realtime publisher for this long: it counts as dead (static_only, stale). Default 15 s.
    public var realtimeSilence: Duration
    /// Longest wait between two attempts at a realtime snapshot that failed (no flag). Default 2 s.
    public var snapshotRetryMax: Duration

    /// Bytes of one request line, without its terminator (no flag). Default 64 KiB.
    public var maxLineBytes: Int
    /// Open connections over the line and HTTP ports; at the bound a newcomer is admitted by closing the least
    /// recently active connection of the client address holding the most (`AddressLedger`). Default 1024.
    public var maxConnections: Int
    /// Requests being answered over all connections; beyond, OVERLOADED. Default 512.
    public var maxInFlight: Int
    /// Requests read ahead per connection before the gateway stops reading (TCP back-pressure). Default 128.
    public var maxPipelined: Int
    /// Bytes of answers written to one connection and not yet taken by its client (TCP) at most: beyond,
    /// the gateway starts no more of its requests and stops reading it until the client reads. Default 1 MiB.
    public var maxUnwrittenBytes: Int
    /// Open connections from one client address; one more gets an OVERLOADED line and is closed. Default 64.
    public var maxConnectionsPerAddress: Int
    /// Line connections from one client address waiting to authenticate (with `authToken`); one more gets an
    /// OVERLOADED line and is closed. Default 8.
    public var maxUnauthenticatedPerAddress: Int = Defaults.maxUnauthenticatedPerAddress
    /// Subscriptions of one client address, over its connections (beyond: INVALID_ARGUMENT). Default 256.
    public var maxSubscriptionsPerAddress: Int = Defaults.maxSubscriptionsPerAddress
    /// Requests in flight of one client address (beyond: OVERLOADED); the share rule of `InFlightShare` holds
    /// too. Default 128.
    public var maxInFlightPerAddress: Int = Defaults.maxInFlightPerAddress
    /// Whether the per-address bounds hold for loopback clients too (off: the local launcher and
    /// benchmarks open hundreds of connections from 127.0.0.1). Default off.
    public var limitLoopback: Bool
    /// With `authToken`, a line connection not authenticated this long after it opened gets UNAUTHENTICATED and
    /// is closed. Default 5 s.
    public var authTimeout: Duration = Defaults.authTimeout
    /// A request line must be complete within this long of its first byte (else TIMEOUT, close); also the
    /// time a PROXY header has. Default 10 s.
    public var lineTimeout: Duration = Defaults.lineTimeout
    /// A subscriber whose events wait unread beyond this many bytes (held by the gateway) is closed (no flag).
    /// Default 256 KiB.
    public var maxUnreadEventBytes: Int = Defaults.maxUnreadEventBytes
    /// Every connection (line and HTTP ports) starts with a PROXY protocol v2 header, whose source address is
    /// the client's (`--proxy-protocol`; `ProxyHeaderHandler`). Default off.
    public var proxyProtocol: Bool = Defaults.proxyProtocol
    /// A connection with no request and no subscription for this long is closed. Default 30 s.
    public var idleTimeout: Duration
    /// The shared token of `auth` (nil: no authentication). With a token, every request of a connection
    /// before a successful `auth` gets UNAUTHENTICATED. From the file `--token-file` names. Default nil.
    public var authToken: [UInt8]?
    /// Requests per second one connection may send (a burst of as many; beyond: RATE_LIMITED); 0: no limit.
    /// Default 0.
    public var requestRate: Int
    /// Longest time for the whole request (TIMEOUT). Default 2 s.
    public var requestTimeout: Duration
    /// Longest time for one round trip to the static service (STATIC_UNAVAILABLE). Default 1 s.
    public var staticTimeout: Duration
    /// While the static service is down, requests needing it are refused at once except one per this
    /// interval, which asks (StaticBreaker). Zero: every request asks. Default 0.5 s.
    public var staticProbeInterval: Duration
    /// How long one journey plan may search (`--plan-budget-ms`, sent with each `plan` to the static service;
    /// past it the answer is what was found, with `cut`). 1 ms…60 s. Not an init argument. Default 500 ms.
    public var planBudget: Duration = Defaults.planBudget
    /// Longest time for one round trip to the realtime service (REALTIME_UNAVAILABLE; also each snapshot).
    /// Default 1 s.
    public var realtimeTimeout: Duration
    /// Subscriptions per connection at most (no flag). Default 16.
    public var maxSubscriptions: Int
    /// Shortest time between two pushed events of one subscription (no flag). Default 1 s.
    public var subscriptionInterval: Duration
    /// Stops whose board window (static rows of a forward board) the gateway keeps; 0 turns the cache off.
    /// Default 512.
    public var boardCacheStops: Int
    /// Board windows kept per stop at most (boards asked at times further apart than a window spans need their
    /// own: the 2-hour peak of the NSW-scale feed's busiest station takes 56 windows on its 128-second anchor
    /// grid). At least 1. Default 64.
    public var boardWindowsPerStop: Int
    /// Board windows kept in all (the memory bound: each holds up to `boardWindowRows` rows). At least 1.
    /// Default 4096.
    public var boardCacheWindows: Int
    /// Rows of a board window (1 … the static service's largest page, `StaticRequestLimits.maxLimit`; no flag).
    /// Default `StaticRequestLimits.maxLimit`.
    public var boardWindowRows: Int
    /// Bytes the gateway's caches hold at most, all together (`--max-cache-bytes`; split by `cacheBytes`): no
    /// request can grow them past it. Default 256 MiB.
    public var maxCacheBytes: Int = Defaults.maxCacheBytes
    /// The parts of `maxCacheBytes` (GATEWAY.md §1 "caches").
    public var cacheBytes: CacheBytes { CacheBytes(total: maxCacheBytes) }
    /// How often the heap's free memory is given back to the kernel (`HeapTrimmer`; no flag; zero: never), so
    /// that the RSS follows what the caches hold. Default 30 s.
    public var heapTrimInterval: Duration = Defaults.heapTrimInterval
    /// A kept board window is used only while the static database version was confirmed this recently (no
    /// flag). Default 1 s.
    public var staticVersionCheck: Duration
    /// Event-loop threads (0: one per core). Default 0.
    public var threads: Int
    /// Graceful shutdown: how long open connections get to receive the answers of the requests they sent
    /// before it began; the ones still open then are closed. Default 4 s.
    public var drainTimeout: Duration
    /// Graceful shutdown, before the drain: how long `health` answers `draining` while the gateway still serves
    /// every connection, new ones too (`--drain-announce`), so a load balancer's checks take it out of the
    /// rotation before it stops accepting (deploy/haproxy.cfg: two failed checks 2 s apart). Default 0 s.
    public var drainAnnounce: Duration = Defaults.drainAnnounce
    /// "Now" of requests without `at` (and of subscriptions' boards), of feed ages and of `health` (`serve
    /// --clock`); timeouts stay monotonic. Tests pin it (a frozen clock) so that what a board holds does not
    /// depend on the time of day they run at. Default: the machine's clock.
    public var clock: ServiceClock
    /// Where the gateway logs (a runtime object rather than a setting; kept here since the gateway's parts all
    /// reach it through the configuration).
    public var logger: Logger
    /// The watchdog its event loops advance (`EventLoopHeartbeats`; a runtime object, like the logger: `serve`
    /// makes one and beats from it for `--watchdog-file` and systemd); nil: nothing is watched (tests). Not an
    /// init argument: set it on the value.
    public var watchdog: Watchdog? = nil

    public init(
        host: String = Defaults.host, port: Int = Defaults.port, http: ListenAddress? = nil,
        corsOrigin: String? = nil, staticURL: String, realtimeURL: String? = nil,
        subscribeURL: String? = nil, maxLineBytes: Int = Defaults.maxLineBytes,
        maxConnections: Int = Defaults.maxConnections, maxInFlight: Int = Defaults.maxInFlight,
        maxPipelined: Int = Defaults.maxPipelined, maxUnwrittenBytes: Int = Defaults.maxUnwrittenBytes,
        maxConnectionsPerAddress: Int = Defaults.maxConnectionsPerAddress, limitLoopback: Bool = Defaults.limitLoopback,
        idleTimeout: Duration = Defaults.idleTimeout, authToken: [UInt8]? = nil,
        requestRate: Int = Defaults.requestRate,
        requestTimeout: Duration = Defaults.requestTimeout, staticTimeout: Duration = Defaults.staticTimeout,
        staticProbeInterval: Duration = Defaults.staticProbeInterval,
        realtimeTimeout: Duration = Defaults.realtimeTimeout, realtimeSilence: Duration = Defaults.realtimeSilence,
        snapshotRetryMax: Duration = Defaults.snapshotRetryMax, maxSubscriptions: Int = Defaults.maxSubscriptions,
        subscriptionInterval: Duration = Defaults.subscriptionInterval,
        boardCacheStops: Int = Defaults.boardCacheStops, boardWindowsPerStop: Int = Defaults.boardWindowsPerStop,
        boardCacheWindows: Int = Defaults.boardCacheWindows, boardWindowRows: Int = Defaults.boardWindowRows,
        staticVersionCheck: Duration = Defaults.staticVersionCheck, threads: Int = Defaults.threads,
        drainTimeout: Duration = Defaults.drainTimeout, clock: ServiceClock = .system,
        logger: Logger = Logger(label: "transit-gateway")
    ) {
        self.host = host
        self.port = port
        self.http = http
        self.corsOrigin = corsOrigin
        self.staticURL = staticURL
        self.realtimeURL = realtimeURL
        self.subscribeURL = subscribeURL
        self.maxLineBytes = maxLineBytes
        self.maxConnections = maxConnections
        self.maxInFlight = maxInFlight
        self.maxPipelined = maxPipelined
        self.maxUnwrittenBytes = maxUnwrittenBytes
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.limitLoopback = limitLoopback
        self.idleTimeout = idleTimeout
        self.authToken = authToken
        self.requestRate = requestRate
        self.requestTimeout = requestTimeout
        self.staticTimeout = staticTimeout
        self.staticProbeInterval = staticProbeInterval
        self.realtimeTimeout = realtimeTimeout
        self.realtimeSilence = realtimeSilence
        self.snapshotRetryMax = snapshotRetryMax
        self.maxSubscriptions = maxSubscriptions
        self.subscriptionInterval = subscriptionInterval
        self.boardCacheStops = boardCacheStops
        self.boardWindowsPerStop = max(1, boardWindowsPerStop)
        self.boardCacheWindows = max(1, boardCacheWindows)
        self.boardWindowRows = max(1, min(StaticRequestLimits.maxLimit, boardWindowRows))
        self.staticVersionCheck = staticVersionCheck
        self.threads = threads
        self.drainTimeout = drainTimeout
        self.clock = clock
        self.logger = logger
    }

    /// The default of every field that has one, read by the init's default arguments and by the flags' help
    /// (so the two cannot drift). The fields' comments say what each one is.
    public enum Defaults {
        public static let planBudget: Duration = .milliseconds(PlanLimits.defaultBudgetMilliseconds)
        public static let host = "127.0.0.1"
        public static let port = 7878
        public static let maxLineBytes = 64 * 1024
        public static let maxConnections = 1024
        public static let maxInFlight = 512
        public static let maxPipelined = 128
        public static let maxUnwrittenBytes = 1 << 20
        public static let maxConnectionsPerAddress = 64
        public static let limitLoopback = false
        public static let maxUnauthenticatedPerAddress = 8
        public static let maxSubscriptionsPerAddress = 256
        public static let maxInFlightPerAddress = 128
        public static let authTimeout: Duration = .seconds(5)
        public static let lineTimeout: Duration = .seconds(10)
        public static let maxUnreadEventBytes = 256 * 1024
        public static let proxyProtocol = false
        public static let maxCacheBytes = 256 << 20
        public static let heapTrimInterval = Duration.seconds(30)
        public static let idleTimeout: Duration = .seconds(30)
        public static let requestRate = 0
        public static let requestTimeout: Duration = .seconds(2)
        public static let staticTimeout: Duration = .seconds(1)
        public static let staticProbeInterval: Duration = .milliseconds(500)
        public static let realtimeTimeout: Duration = .seconds(1)
        public static let realtimeSilence: Duration = .seconds(15)
        public static let snapshotRetryMax: Duration = .seconds(2)
        public static let maxSubscriptions = 16
        public static let subscriptionInterval: Duration = .seconds(1)
        public static let boardCacheStops = 512
        public static let boardWindowsPerStop = 64
        public static let boardCacheWindows = 4096
        public static let boardWindowRows = StaticRequestLimits.maxLimit
        public static let staticVersionCheck: Duration = .seconds(1)
        public static let threads = 0
        public static let drainTimeout: Duration = .seconds(4)
        public static let drainAnnounce: Duration = .zero
    }
}

/// How `--max-cache-bytes` is split between the gateway's caches: board windows (the static rows of boards)
/// one half, typical delays one quarter, stop and trip details of live boards one eighth, kept `stop`/`search`
/// answers and kept static results one sixteenth each. Each cache counts its entries' estimated bytes (keys
/// included) as they are stored and dropped, in constant time per entry.
public struct CacheBytes: Sendable, Equatable {
    public var boardWindows: Int
    public var typicalDelays: Int
    public var staticDetails: Int
    public var staticAnswers: Int
    public var staticResults: Int

    public init(total: Int) {
        boardWindows = total / 2
        typicalDelays = total / 4
        staticDetails = total / 8
        staticAnswers = total / 16
        staticResults = total / 16
    }
}

/// A TCP address to listen on: `host:port` of a flag.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    /// 0: any free port.
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// "host:port" (the port 0 … 65535, the host not empty); nil when malformed.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), colon > text.startIndex,
            let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { return nil }
        self.init(host: String(text[..<colon]), port: port)
    }

    public var description: String { "\(host):\(port)" }
}
