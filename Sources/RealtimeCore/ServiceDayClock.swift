import TransitCore

/// The resolver's handle on TransitCore's `ServiceTimeZone`s: one per IANA identifier, found by a small
/// index so the per-trip cost is an integer lookup (`ServiceTimeZone` caches the reference instants).
struct ServiceDayClock: Sendable {
    private var zoneIndex: [String: Int] = [:]
    private var zones: [ServiceTimeZone] = []

    /// The index of a zone for the other calls, nil when the identifier is not a known IANA zone.
    mutating func zone(_ identifier: String) -> Int? {
        if let index = zoneIndex[identifier] { return index }
        guard let zone = try? ServiceTimeZone(identifier: identifier) else { return nil }
        zones.append(zone)
        zoneIndex[identifier] = zones.count - 1
        return zones.count - 1
    }

    /// Unix time of noon minus 12 h on `date` in zone `zone` (GTFS times count from it).
    func referenceUnix(zone: Int, date: GTFSDate) -> Int64 {
        zones[zone].referenceUnix(of: date)
    }

    /// The local calendar date at an instant in zone `zone`.
    func localDate(zone: Int, unix: Int64) -> GTFSDate {
        zones[zone].localDate(atUnix: unix)
    }
}
