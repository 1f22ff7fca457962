import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The services' wall clock: what "now" is for service logic (default `at`, staleness, trip-instance windows,
/// feed ages, fixture generation, `health`).
///
/// `.system` is the machine's clock. A replay clock (`--clock`) reads `start` at `origin` (a moment of the
/// machine's clock, by default when it is made) and then advances `rate` seconds per real second, measured on
/// the monotonic clock, so it never jumps when the machine's clock is set. Rate 0 freezes it at `start`.
/// Several processes given the same start, origin and rate agree to within their clocks' reading jitter.
/// Timers, sleeps and timeouts never use it: they stay on the monotonic clock (`ContinuousClock`).
public struct ServiceClock: Sendable, CustomStringConvertible {
    /// Unix seconds the clock read at `anchor`; nil for the machine's clock.
    private let startSeconds: Double?
    private let anchor: ContinuousClock.Instant
    public let rate: Double

    /// The machine's wall clock.
    public static let system = ServiceClock(startSeconds: nil, anchor: .now, rate: 1)

    private init(startSeconds: Double?, anchor: ContinuousClock.Instant, rate: Double) {
        self.startSeconds = startSeconds
        self.anchor = anchor
        self.rate = rate
    }

    /// A clock reading `start` (unix seconds) at the machine time `origin` (unix seconds; nil: now) and running
    /// at `rate` (1: real speed, 0: frozen). With an origin in the past, it reads what it would read had it been
    /// started then (how the launcher makes three processes agree).
    public init(start: Double, origin: Double? = nil, rate: Double = 1) {
        let realNow = Self.machineSeconds()
        let elapsed = origin.map { max(0, realNow - $0) } ?? 0
        self.init(startSeconds: start + elapsed * rate, anchor: .now, rate: rate)
    }

    /// True when this is a replay clock (`--clock` given).
    public var isReplay: Bool { startSeconds != nil }

    /// Unix seconds now, with fractions.
    public var seconds: Double {
        guard let startSeconds else { return Self.machineSeconds() }
        if rate == 0 { return startSeconds }
        let (whole, atto) = (ContinuousClock.now - anchor).components
        return startSeconds + (Double(whole) + Double(atto) / 1e18) * rate
    }

    /// Whole unix seconds now (rounded down).
    public var unixSeconds: Int64 { Int64(seconds.rounded(.down)) }

    /// Unix milliseconds now.
    public var unixMilliseconds: Int64 { Int64((seconds * 1000).rounded(.down)) }

    /// Now as a Date.
    public var date: Date { Date(timeIntervalSince1970: seconds) }

    public var description: String {
        guard isReplay else { return "system" }
        let at = Self.iso8601(unixSeconds)
        switch rate {
        case 0: return "frozen at \(at)"
        case 1: return "replay from \(at)"
        default: return "replay from \(at) at rate \(rate)"
        }
    }

    /// The machine's wall clock in unix seconds.
    public static func machineSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Parses a `--clock` value: unix seconds (fractions allowed), or an ISO 8601 time with a zone
    /// (`2026-06-11T08:15:00+10:00`, `2026-06-11T08:15:00Z`, fractional seconds allowed). Nil when neither.
    public static func parseInstant(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, trimmed.first != "+", !trimmed.contains("e"),
            !trimmed.contains("E")
        {
            return seconds
        }
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
        ] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: trimmed) { return date.timeIntervalSince1970 }
        }
        return nil
    }

    /// `2026-06-11T08:15:00Z` for unix seconds (log lines and messages).
    public static func iso8601(_ unix: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }
}
