import GatewayProtocol
import TransitCore

/// The static service's circuit breaker: once the service is known to be down, requests that need it are
/// refused at once (their fallback answers, or STATIC_UNAVAILABLE) instead of each waiting out the static
/// timeout. Plain logic: the caller passes the clock's readings and reports every round trip.
///
/// The rule (protocol/GATEWAY.md "static service down"):
/// - `up`: every request asks. A request that gets no answer (timeout, or the socket cannot send) turns it
///   `down`, unless the service answered after that request was sent (a single slow answer among quick ones
///   does not count: the service is evidently there).
/// - `down`: every request is refused without a round trip. A background probe (never a client's request, so
///   no client waits out the timeout) asks once per `probeInterval`, the first one interval after the trip.
/// - Any answer from the service (a result, NOT_FOUND, INVALID_ARGUMENT, even one that does not decode), from
///   a probe, a request or the background version check, turns it `up` at once.
/// So a single timeout trips it, and the next probe decides: a service that merely hiccuped is asked again
/// within `probeInterval`. A zero interval turns the breaker off (every request asks).
struct StaticBreaker: Sendable {
    typealias Instant = ContinuousClock.Instant

    enum Admission: Equatable, Sendable {
        /// The service is up: ask it.
        case ask
        /// The breaker is off (zero probe interval) and the service is down: ask anyway.
        case probe
        /// The service is down: answer without asking.
        case refuse(GatewayError)
    }

    struct Outage: Equatable, Sendable {
        var since: Instant
        var sinceUnix: Int64
        /// Why the request that tripped the breaker failed.
        var reason: String
    }

    struct Counts: Equatable, Sendable {
        /// Times the service went from up to down.
        var trips = 0
        /// Background probes sent while down (and requests let through with the breaker off).
        var probes = 0
        /// Requests refused without a round trip.
        var fastFailures = 0
    }

    let probeInterval: Duration
    /// nil while up.
    private(set) var outage: Outage?
    private(set) var counts = Counts()
    /// When the service last answered anything.
    private var lastAnswer: Instant?
    /// When the background probe last asked while down (or the trip itself).
    private var lastProbe: Instant?

    init(probeInterval: Duration) {
        self.probeInterval = max(.zero, probeInterval)
    }

    var isUp: Bool { outage == nil }

    /// Whether a client's request about to be sent at `now` may ask the service: never while it is down
    /// (unless the breaker is off); finding out whether it is back is the background probe's job.
    mutating func admit(now: Instant) -> Admission {
        guard let outage else { return .ask }
        if probeInterval == .zero {
            counts.probes += 1
            return .probe
        }
        counts.fastFailures += 1
        return .refuse(Self.refusal(outage, now: now, probeInterval: probeInterval))
    }

    /// True when a client's request would ask now (the service is up, or the breaker is off).
    func wouldAsk(now: Instant) -> Bool { outage == nil || probeInterval == .zero }

    /// How long the background prober waits before its next probe: nil while up (nothing to probe), zero
    /// when one is due.
    func probeDelay(now: Instant) -> Duration? {
        guard outage != nil else { return nil }
        guard let last = lastProbe else { return .zero }
        return max(.zero, probeInterval - last.duration(to: now))
    }

    /// The background prober takes its turn at `now`: true when a probe is due (and counts it).
    mutating func takeProbe(now: Instant) -> Bool {
        guard probeDelay(now: now) == .zero else { return false }
        lastProbe = now
        counts.probes += 1
        return true
    }

    /// The service answered (anything) at `now`.
    mutating func answered(now: Instant) {
        outage = nil
        if lastAnswer.map({ $0 < now }) ?? true { lastAnswer = now }
    }

    /// A request sent at `sentAt` got no answer (timeout or not sendable), seen at `now`.
    mutating func failed(sentAt: Instant, now: Instant, unixNow: Int64, reason: String) {
        if let lastAnswer, sentAt < lastAnswer { return }  // the service answered since: a slow answer only
        guard outage == nil else { return }
        outage = Outage(since: now, sinceUnix: unixNow, reason: reason)
        lastProbe = now
        counts.trips += 1
    }

    /// The error of a refused request: since when, why, and how often the gateway tries again.
    static func refusal(_ outage: Outage, now: Instant, probeInterval: Duration) -> GatewayError {
        let seconds = max(0, outage.since.duration(to: now).components.seconds)
        return GatewayError(
            .staticUnavailable,
            "the static service is unreachable since \(utcText(outage.sinceUnix)) (\(seconds) s: \(outage.reason)); "
                + "the gateway asks it again every \(probeInterval.milliseconds) ms")
    }

    /// `2025-12-22T09:00:00Z`.
    static func utcText(_ unix: Int64) -> String {
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let secondOfDay = Int(unix - days * 86_400)
        let date = GTFSDate(dayNumber: Int(days))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(date.year)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(date.month))-\(two(date.day))T"
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }
}
