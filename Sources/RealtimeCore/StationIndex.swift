import TransitModel

/// Which station each stop belongs to, and its platform code: from `TripSchedules.stations`. A stop update
/// naming another stop of the scheduled stop's station is a platform change, not a stop mismatch.
public struct StationIndex: Sendable {
    private struct Entry: Sendable {
        var station: String
        var platformCode: String?
    }

    private var byStop: [String: Entry] = [:]

    public init(_ stations: [StationPlatforms] = []) { add(stations) }

    public var isEmpty: Bool { byStop.isEmpty }

    public mutating func add(_ stations: [StationPlatforms]) {
        for station in stations {
            for platform in station.platforms {
                byStop[platform.stopId] = Entry(station: station.stationId, platformCode: platform.platformCode)
            }
        }
    }

    /// The parent station of a stop; nil for a stop without one (or not told).
    public func station(ofStop stopId: String) -> String? { byStop[stopId]?.station }

    /// The platform_code of a stop of some station, when it has one.
    public func platformCode(ofStop stopId: String) -> String? { byStop[stopId]?.platformCode }

    /// Two different stops of the same station.
    public func areSiblings(_ a: String, _ b: String) -> Bool {
        guard !byStop.isEmpty, a != b, let station = byStop[a]?.station else { return false }
        return byStop[b]?.station == station
    }
}
