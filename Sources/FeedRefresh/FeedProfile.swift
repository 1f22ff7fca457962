// What the refresher compares between the serving database and a new one, per feed: its trips, trips per
// mode, where its stops are, which dates its services run.
import Foundation
import SQLiteKit

public struct FeedProfile: Sendable, Hashable {
    public var name: String
    public var version: String?
    public var trips: Int
    /// Trips per mode (`routes.mode`: bus, train, ferry, …).
    public var tripsByMode: [String: Int]
    /// The mean position of the feed's stops with coordinates; nil when none has any.
    public var centroid: Coordinate?
    /// The first and last date (YYYYMMDD) any service of the feed may run.
    public var serviceStartDate: Int?
    public var serviceEndDate: Int?
    public var timezone: String

    public struct Coordinate: Sendable, Hashable {
        public var lat: Double
        public var lon: Double
        public init(lat: Double, lon: Double) {
            self.lat = lat
            self.lon = lon
        }

        /// Great-circle distance in km.
        public func kilometres(to other: Coordinate) -> Double {
            let r = 6371.0
            let dLat = (other.lat - lat) * .pi / 180
            let dLon = (other.lon - lon) * .pi / 180
            let a =
                sin(dLat / 2) * sin(dLat / 2) + cos(lat * .pi / 180) * cos(other.lat * .pi / 180) * sin(dLon / 2)
                * sin(dLon / 2)
            return 2 * r * asin(min(1, sqrt(a)))
        }
    }

    public init(
        name: String, version: String? = nil, trips: Int, tripsByMode: [String: Int], centroid: Coordinate?,
        serviceStartDate: Int?, serviceEndDate: Int?, timezone: String
    ) {
        self.name = name
        self.version = version
        self.trips = trips
        self.tripsByMode = tripsByMode
        self.centroid = centroid
        self.serviceStartDate = serviceStartDate
        self.serviceEndDate = serviceEndDate
        self.timezone = timezone
    }

    /// The profiles of every feed of the database at `path` (opened read-only), by feed name.
    public static func read(databasePath path: String) throws -> [String: FeedProfile] {
        let db = try Database(path: path, mode: .readOnly)
        var profiles: [String: FeedProfile] = [:]
        var names: [Int64: String] = [:]
        let feeds = try db.prepare(
            "SELECT feed_pk, name, version, trip_count, service_start_date, service_end_date, timezone FROM feeds")
        while try feeds.step() {
            let name = feeds.string(1) ?? ""
            names[feeds.int64(0)] = name
            profiles[name] = FeedProfile(
                name: name, version: feeds.string(2), trips: feeds.int(3), tripsByMode: [:], centroid: nil,
                serviceStartDate: feeds.optionalInt(4), serviceEndDate: feeds.optionalInt(5),
                timezone: feeds.string(6) ?? "UTC")
        }
        let modes = try db.prepare(
            "SELECT t.feed_pk, r.mode, count(*) FROM trips t JOIN routes r ON r.route_pk = t.route_pk "
                + "GROUP BY t.feed_pk, r.mode")
        while try modes.step() {
            guard let name = names[modes.int64(0)] else { continue }
            profiles[name]?.tripsByMode[modes.string(1) ?? "", default: 0] += modes.int(2)
        }
        let centroids = try db.prepare(
            "SELECT feed_pk, avg(lat), avg(lon) FROM stops WHERE lat IS NOT NULL AND lon IS NOT NULL "
                + "AND NOT (lat = 0 AND lon = 0) GROUP BY feed_pk")
        while try centroids.step() {
            guard let name = names[centroids.int64(0)], !centroids.isNull(1) else { continue }
            profiles[name]?.centroid = Coordinate(lat: centroids.double(1), lon: centroids.double(2))
        }
        return profiles
    }
}
