import Logging
import NNGKit
import ProcessSupport
import TransitModel

/// Everything `transit-gateway serve` can be told. Defaults are the contract's (protocol/GATEWAY.md §1,
/// protocol/README.md "timeouts (gateway)").
public struct GatewayConfig: Sendable {
    /// TCP address to listen on; port 0 picks a free one (tests).
    public var host: String
    public var port: Int
    /// nng URL of the static service's REP socket; replicas of one database: their URLs separated by commas
    /// (one REQ socket dials them all, see `staticURLs`).
    public var staticURL: String
    /// The URLs of `staticURL`, one per replica.
    public var staticURLs: [String] {
        NNGURLList.split(staticURL)
    }
    /// nng URLs of the realtime service: REP (snapshots, the `vehicles` fallback) and PUB (the live stream).
    /// A PUB URL needs the REP URL too (the snapshot handshake).
    public var realtimeURL: String?
    public var subscribeURL: String?
    /// No message from the realtime publisher for this long: it counts as dead (static_only, stale).
    public var realtimeSilence: Duration
    /// Longest wait between two attempts at a realtime snapshot that failed.
    public var snapshotRetryMax: Duration

    /// Bytes of one request line, without its terminator.
    public var maxLineBytes: Int
    /// Open TCP connections; one more gets an OVERLOADED line and is closed.
    public var maxConnections: Int
    /// Requests being answered over all connections; beyond, OVERLOADED.
    public var maxInFlight: Int
    /// Requests read ahead per connection before the gateway stops reading (TCP back-pressure).
    public var maxPipelined: Int
    /// Bytes of answers written to one connection and not yet taken by its client (TCP) at most: beyond,
    /// the gateway starts no more of its requests and stops reading it until the client reads.
    public var maxUnwrittenBytes: Int
    /// Open connections from one client address; one more gets an OVERLOADED line and is closed.
    public var maxConnectionsPerAddress: Int
    /// Whether `maxConnectionsPerAddress` holds for loopback clients too (off: the local launcher and
    /// benchmarks open hundreds of connections from 127.0.0.1).
    public var limitLoopback: Bool
    /// A connection with no request and no subscription for this long is closed.
    public var idleTimeout: Duration
    /// The shared token of `auth` (nil: no authentication). With a token, every request of a connection
    /// before a successful `auth` gets UNAUTHENTICATED.
    public var authToken: [UInt8]?
    /// Requests per second one connection may send (a burst of as many; beyond: RATE_LIMITED); 0: no limit.
    public var requestRate: Int
    /// The whole request (TIMEOUT).
    public var requestTimeout: Duration
    /// One round trip to the static service (STATIC_UNAVAILABLE).
    public var staticTimeout: Duration
    /// While the static service is down, requests needing it are refused at once except one per this
    /// interval, which asks (StaticBreaker). Zero: every request asks.
    public var staticProbeInterval: Duration
    /// One round trip to the realtime service (REALTIME_UNAVAILABLE).
    public var realtimeTimeout: Duration
    /// Subscriptions per connection.
    public var maxSubscriptions: Int
    /// Shortest time between two pushed events of one subscription.
    public var subscriptionInterval: Duration
    /// Stops whose board window (static rows of a forward board) the gateway keeps; 0 turns the cache off.
    public var boardCacheStops: Int
    /// Board windows kept per stop at most (boards asked at times further apart than a window spans need their
    /// own).
    public var boardWindowsPerStop: Int
    /// Board windows kept in all (the memory bound: each holds up to `boardWindowRows` rows).
    public var boardCacheWindows: Int
    /// Rows of a board window (1 … the static service's largest page, `StaticRequestLimits.maxLimit`).
    public var boardWindowRows: Int
    /// A kept board window is used only while the static database version was confirmed this recently.
    public var staticVersionCheck: Duration
    /// Event-loop threads (0: one per core).
    public var threads: Int
    /// Graceful shutdown: how long open connections get to receive the answers of the requests they sent
    /// before it began; the ones still open then are closed.
    public var drainTimeout: Duration
    /// "Now" of requests without `at` (and of subscriptions' boards), of feed ages and of `health` (`serve
    /// --clock`); timeouts stay monotonic. Tests pin it (a frozen clock) so that what a board holds does not
    /// depend on the time of day they run at.
    public var clock: ServiceClock
    public var logger: Logger

    public init(
        host: String = "127.0.0.1", port: Int = 7878, staticURL: String, realtimeURL: String? = nil,
        subscribeURL: String? = nil, maxLineBytes: Int = 64 * 1024, maxConnections: Int = 1024,
        maxInFlight: Int = 512, maxPipelined: Int = 128, maxUnwrittenBytes: Int = 1 << 20,
        maxConnectionsPerAddress: Int = 64, limitLoopback: Bool = false, idleTimeout: Duration = .seconds(30),
        authToken: [UInt8]? = nil, requestRate: Int = 0,
        requestTimeout: Duration = .seconds(2), staticTimeout: Duration = .seconds(1),
        staticProbeInterval: Duration = .milliseconds(500),
        realtimeTimeout: Duration = .seconds(1), realtimeSilence: Duration = .seconds(15),
        snapshotRetryMax: Duration = .seconds(2), maxSubscriptions: Int = 16,
        subscriptionInterval: Duration = .seconds(1),
        boardCacheStops: Int = 512, boardWindowsPerStop: Int = 32, boardCacheWindows: Int = 4096,
        boardWindowRows: Int = StaticRequestLimits.maxLimit,
        staticVersionCheck: Duration = .seconds(1), threads: Int = 0, drainTimeout: Duration = .seconds(4),
        clock: ServiceClock = .system, logger: Logger
    ) {
        self.host = host
        self.port = port
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
}
