import Foundation
import TransitModel

/// A calendar date as a day number (days since 1970-01-01), for service-date arithmetic.
///
/// NOTE: TransitCore gets `GTFSDate`/`ServiceTimeZone` (branch wt/query); this internal copy exists
/// because that code was not on main when RealtimeCore was written. Replace it once merged.
struct CivilDate: Hashable, Comparable, Sendable {
    var dayNumber: Int

    init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// nil when `serviceDate` (YYYYMMDD) is not a real calendar date.
    init?(serviceDate: ServiceDate) {
        let y = Int(serviceDate / 10_000), m = Int(serviceDate / 100 % 100), d = Int(serviceDate % 100)
        guard y >= 1, m >= 1, m <= 12, d >= 1, d <= CivilDate.daysIn(month: m, year: y) else { return nil }
        // Howard Hinnant's days_from_civil.
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        dayNumber = era * 146_097 + doe - 719_468
    }

    var serviceDate: ServiceDate {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return ServiceDate(y * 10_000 + m * 100 + d)
    }

    func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Where GTFS times of a service date land in unix time, per IANA timezone, with the reference instants
/// cached (the resolver asks for the same few dates thousands of times per feed update).
///
/// GTFS times count from "noon minus 12 h" of the service date in the agency timezone, which is local
/// midnight except on days the UTC offset changes during the night (then it is one hour off midnight).
struct ServiceDayClock: Sendable {
    private struct ReferenceKey: Hashable { var zone: Int; var day: Int }
    private var zoneIndex: [String: Int] = [:]
    private var zones: [TimeZone] = []
    private var references: [ReferenceKey: Int64] = [:]

    /// The index of a zone for the other calls, nil when the identifier is not a known IANA zone.
    mutating func zone(_ identifier: String) -> Int? {
        if let index = zoneIndex[identifier] { return index }
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        zones.append(zone)
        zoneIndex[identifier] = zones.count - 1
        return zones.count - 1
    }

    /// Unix time of noon minus 12 h on `date` in zone `zone`.
    mutating func referenceUnix(zone: Int, date: CivilDate) -> Int64 {
        let key = ReferenceKey(zone: zone, day: date.dayNumber)
        if let cached = references[key] { return cached }
        if references.count > 4096 { references.removeAll(keepingCapacity: true) }
        let noonWall = Int64(date.dayNumber) * 86_400 + 43_200
        // Guess the offset at wall-clock noon read as UTC, then correct with the offset in force at the
        // real noon (noon is never inside a DST change, so the second reading settles it).
        var offset = offsetSeconds(zone: zone, unix: noonWall)
        offset = offsetSeconds(zone: zone, unix: noonWall - offset)
        let value = noonWall - offset - 43_200
        references[key] = value
        return value
    }

    /// The local calendar date at an instant in zone `zone`.
    func localDate(zone: Int, unix: Int64) -> CivilDate {
        let local = unix + offsetSeconds(zone: zone, unix: unix)
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return CivilDate(dayNumber: Int(day))
    }

    private func offsetSeconds(zone: Int, unix: Int64) -> Int64 {
        Int64(zones[zone].secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(unix))))
    }
}
