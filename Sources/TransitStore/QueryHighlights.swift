import SQLiteKit

/// What a first-time user can ask of a database whatever city it holds: the launcher prints its paste lines
/// from these, so a Caltrain or Vilnius database is not greeted with Sydney's stop ids.
public struct FeedHighlights: Sendable, Hashable {
    /// The station (or stop without one) with the most scheduled trips.
    public var busiestStopId: String
    public var busiestStopName: String
    /// A word of that stop's name (its first of three letters or more, lowercased): a `search` that finds it.
    public var searchWord: String
    /// The middle of the served stops (the median latitude and longitude): a `nearby` point inside the network.
    public var centreLat: Double
    public var centreLon: Double
    /// The route with the most trips, and its mode.
    public var routeId: String
    public var routeMode: String
}

extension StaticStore {
    /// The feed's highlights; nil for a database without a served stop or a route with trips.
    public func highlights() throws(StoreError) -> FeedHighlights? {
        try run { c in
            let busiest = try c.statement(
                """
                SELECT stop_id, name FROM stops WHERE parent_pk IS NULL AND trip_count > 0
                ORDER BY trip_count DESC, stop_id LIMIT 1
                """)
            guard try busiest.step(), let stopId = busiest.string(0) else { return nil }
            let name = busiest.string(1) ?? ""
            let route = try c.statement(
                "SELECT route_id, mode FROM routes WHERE trip_count > 0 ORDER BY trip_count DESC, route_id LIMIT 1")
            guard try route.step(), let routeId = route.string(0) else { return nil }
            let mode = route.string(1) ?? "other"
            var lats: [Double] = []
            var lons: [Double] = []
            let points = try c.statement(
                "SELECT lat, lon FROM stops WHERE parent_pk IS NULL AND trip_count > 0 AND lat IS NOT NULL")
            while try points.step() {
                lats.append(points.double(0))
                lons.append(points.double(1))
            }
            guard !lats.isEmpty else { return nil }
            lats.sort()
            lons.sort()
            let word =
                name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).first { $0.count >= 3 }
                .map { $0.lowercased() } ?? name.lowercased()
            return FeedHighlights(
                busiestStopId: stopId, busiestStopName: name, searchWord: word, centreLat: lats[lats.count / 2],
                centreLon: lons[lons.count / 2], routeId: routeId, routeMode: mode)
        }
    }
}
