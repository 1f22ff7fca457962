// When each URL feed is checked next. Wall-clock times (unix seconds) persist in the state file, so a clock
// that jumps (the machine's stepped, a restart after days) must never wedge a feed: a next check further ahead
// than one interval (plus backoff) is pulled back, one in the past is due now.
import Foundation
import HTTPFetching

public struct RefreshSchedule: Sendable, Hashable {
    /// `--gtfs-refresh`, default 6 h.
    public var interval: Duration
    /// Waits after failed checks: from `min(5 min, interval)` doubling up to `interval`.
    public var backoff: Backoff

    public init(interval: Duration) {
        self.interval = interval
        backoff = Backoff(base: min(.seconds(300), interval), cap: interval)
    }

    /// The next check after one at `now` (unix seconds) that ended with `failures` consecutive failures.
    public func next(after now: Int64, failures: Int, using generator: inout some RandomNumberGenerator) -> Int64 {
        guard failures > 0 else { return now + Self.seconds(interval) }
        return now + Self.seconds(backoff.delay(afterFailures: failures, using: &generator))
    }

    /// How long to wait from `now` for a check planned at `planned` (nil: never checked: now). Never negative and
    /// never longer than the interval: a planned time that a clock jump left far ahead is not waited for.
    public func wait(until planned: Int64?, now: Int64) -> Duration {
        guard let planned else { return .zero }
        let seconds = min(max(0, planned - now), Self.seconds(interval))
        return .seconds(seconds)
    }

    static func seconds(_ duration: Duration) -> Int64 {
        let (s, atto) = duration.components
        return s + (atto > 0 ? 1 : 0)
    }
}

extension RefreshSchedule {
    /// `6h`, `30m`, `90s`, `1d`, `1h30m` or plain seconds; nil for anything else.
    public static func parseDuration(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 { return .milliseconds(Int64(seconds * 1000)) }
        var total = 0.0
        var number = ""
        var sawUnit = false
        for c in trimmed {
            if c.isNumber || c == "." {
                number.append(c)
                continue
            }
            let unit: Double
            switch c {
            case "d": unit = 86_400
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let value = Double(number), value.isFinite else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { return nil }
        return .milliseconds(Int64(total * 1000))
    }
}
