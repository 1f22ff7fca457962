import Foundation
import Synchronization

/// Service days in one IANA timezone (a feed's agency_timezone): where GTFS times of a service date
/// land on the real time line, and which service dates can have trips running at an instant.
///
/// GTFS measures stop times from "noon minus 12 h" of the service date in the agency timezone, not from
/// local midnight. The two differ only on days when the UTC offset changes during the night:
/// - Sydney 2025-10-05 (02:00 AEST → 03:00 AEDT): noon is 12:00 AEDT = 01:00 UTC, so the reference is
///   2025-10-04 13:00 UTC = 23:00 AEST on the 4th. "08:00:00" is 21:00 UTC = 08:00 AEDT (wall clock, as
///   after any change), while "01:30:00" is 14:30 UTC = 00:30 AEST: times before the change read one
///   hour early on the wall clock, which is what the rule says.
/// - Sydney 2026-04-05 (03:00 AEDT → 02:00 AEST): noon is 12:00 AEST = 02:00 UTC, so the reference is
///   14:00 UTC on the 4th = 01:00 AEDT on the 5th; "00:30:00" is 01:30 AEDT, "08:00:00" is 08:00 AEST.
/// A reference may thus fall before local midnight, so the service date after the local date can have
/// trips running (see `serviceDays(from:to:maxSecs:)`).
///
/// Never uses the host's timezone. Thread-safe; reference instants are cached per date: those of the days
/// given at init (a feed's span: `precomputing(_:)`) in a table read without a lock, others behind a mutex.
public final class ServiceTimeZone: Sendable {
    public let identifier: String
    public let timeZone: TimeZone

    private let referenceCache = Mutex<[Int: Int64]>([:])
    private static let cacheLimit = 8192
    /// Reference instants of the days from `firstDenseDay` on, computed at init.
    private let dense: [Int64]
    private let firstDenseDay: Int
    /// Days a zone precomputes at most (8 bytes each).
    public static let maxDenseDays = 20_000

    /// Throws `ServiceTimeZoneError` when the identifier is not a known IANA zone.
    public init(identifier: String) throws(ServiceTimeZoneError) {
        let trimmed = identifier.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let zone = TimeZone(identifier: trimmed) else {
            throw ServiceTimeZoneError(identifier: identifier)
        }
        self.identifier = trimmed
        self.timeZone = zone
        dense = []
        firstDenseDay = 0
    }

    private init(_ other: ServiceTimeZone, days: ClosedRange<GTFSDate>) {
        identifier = other.identifier
        timeZone = other.timeZone
        firstDenseDay = days.lowerBound.dayNumber
        let count = min(Self.maxDenseDays, days.upperBound.dayNumber - days.lowerBound.dayNumber + 1)
        dense = (0..<count).map { other.referenceUnix(of: days.lowerBound.adding(days: $0)) }
    }

    /// The same zone with the reference instants of `days` computed now and read without a lock afterwards
    /// (the static service asks them on every trip and board; a shared memo behind a mutex made its workers
    /// queue). Days past `maxDenseDays` from the first are computed on use, as are days outside.
    public func precomputing(_ days: ClosedRange<GTFSDate>) -> ServiceTimeZone {
        ServiceTimeZone(self, days: days)
    }

    /// Unix time of the service date's noon minus 12 h in this zone.
    public func referenceUnix(of date: GTFSDate) -> Int64 {
        let index = date.dayNumber - firstDenseDay
        if index >= 0, index < dense.count { return dense[index] }
        if let cached = referenceCache.withLock({ $0[date.dayNumber] }) { return cached }
        let value = computeReference(date)
        referenceCache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[date.dayNumber] = value
        }
        return value
    }

    /// Unix time of a GTFS time (seconds since the reference) on a service date.
    public func unix(of date: GTFSDate, secs: Int) -> Int64 {
        referenceUnix(of: date) + Int64(secs)
    }

    /// UTC offset in seconds at an instant.
    public func utcOffset(atUnix unix: Int64) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(unix)))
    }

    /// The local calendar date at an instant.
    public func localDate(atUnix unix: Int64) -> GTFSDate {
        let local = unix + Int64(utcOffset(atUnix: unix))
        return GTFSDate(dayNumber: Int(floorDiv(local, 86_400)))
    }

    /// The local wall-clock time of day (seconds after local midnight) at an instant.
    public func localSecondsOfDay(atUnix unix: Int64) -> Int {
        let local = unix + Int64(utcOffset(atUnix: unix))
        return Int(local - floorDiv(local, 86_400) * 86_400)
    }

    /// For the unix interval [fromUnix, toUnix), every service date whose times 0...maxSecs overlap it,
    /// each with the interval expressed in that date's GTFS seconds (clamped to 0...maxSecs), oldest date first.
    /// `maxSecs` is the largest stop time in the feed (e.g. 27 h); dates up to ⌈maxSecs / 24 h⌉ before the
    /// local date are considered, and the following date too (its reference can precede local midnight).
    public func serviceDays(fromUnix: Int64, toUnix: Int64, maxSecs: Int) -> [ServiceDayWindow] {
        guard fromUnix < toUnix, maxSecs >= 0 else { return [] }
        let first = localDate(atUnix: fromUnix).adding(days: -(maxSecs / 86_400 + 1))
        let last = localDate(atUnix: toUnix - 1).adding(days: 1)
        var windows: [ServiceDayWindow] = []
        var day = first
        while day <= last {
            let reference = referenceUnix(of: day)
            let lower = max(0, fromUnix - reference)
            let upper = min(Int64(maxSecs) + 1, toUnix - reference)
            if lower < upper {
                windows.append(ServiceDayWindow(date: day, referenceUnix: reference, secs: Int(lower)..<Int(upper)))
            }
            day = day.adding(days: 1)
        }
        return windows
    }

    /// The service dates that can have a trip running at an instant (times 0...maxSecs), oldest first:
    /// typically the local date and, when maxSecs ≥ 24 h, the previous date.
    public func serviceDates(runningAtUnix unix: Int64, maxSecs: Int) -> [GTFSDate] {
        serviceDays(fromUnix: unix, toUnix: unix + 1, maxSecs: maxSecs).map(\.date)
    }

    private func computeReference(_ date: GTFSDate) -> Int64 {
        // Local noon as if it were UTC, then correct by the offset in force at (real) noon. Noon is never
        // inside a DST transition, so a second pass settles it when the first guess crossed one.
        let noonWall = Int64(date.dayNumber) * 86_400 + 43_200
        var offset = Int64(utcOffset(atUnix: noonWall))
        let corrected = Int64(utcOffset(atUnix: noonWall - offset))
        if corrected != offset { offset = corrected }
        return noonWall - offset - 43_200
    }
}

/// One service date's part of a unix interval: GTFS seconds `secs` on `date` are inside the interval.
public struct ServiceDayWindow: Equatable, Sendable {
    public let date: GTFSDate
    public let referenceUnix: Int64
    public let secs: Range<Int>

    public init(date: GTFSDate, referenceUnix: Int64, secs: Range<Int>) {
        self.date = date
        self.referenceUnix = referenceUnix
        self.secs = secs
    }

    public func unix(secs value: Int) -> Int64 { referenceUnix + Int64(value) }
}

public struct ServiceTimeZoneError: Error, Equatable, CustomStringConvertible, Sendable {
    public let identifier: String
    public var description: String {
        "unknown timezone \"\(identifier)\" (expected an IANA name such as Australia/Sydney)"
    }
}

@inline(__always)
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
