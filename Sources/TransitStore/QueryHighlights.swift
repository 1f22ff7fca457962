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
    /// A `plan` that surely finds a journey: from the busiest stop to the station (or stop without one) farthest
    /// along a pattern that leaves it, one trip away; when none leaves it (a terminus), from the farthest one
    /// before it to it. Nil when no pattern calls there.
    public var plan: PlanEnds?
    public struct PlanEnds: Sendable, Hashable {
        public var fromStopId: String
        public var toStopId: String
    }
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
                SELECT stop_id, name, stop_pk FROM stops WHERE parent_pk IS NULL AND trip_count > 0
                ORDER BY trip_count DESC, stop_id LIMIT 1
                """)
            guard try busiest.step(), let stopId = busiest.string(0) else { return nil }
            let name = busiest.string(1) ?? ""
            // The other end of the longest ride from (`leaving`) or to the busiest stop or one of its platforms.
            func farthest(leaving: Bool) throws -> String? {
                let (here, there) = leaving ? ("a", "z") : ("z", "a")
                let query = try c.statement(
                    """
                    SELECT COALESCE(parent.stop_id, s.stop_id)
                    FROM stops b
                    JOIN pattern_stops \(here) ON \(here).stop_pk = b.stop_pk
                    JOIN pattern_stops \(there) ON \(there).pattern_pk = \(here).pattern_pk
                    JOIN stops s ON s.stop_pk = \(there).stop_pk
                    LEFT JOIN stops parent ON parent.stop_pk = s.parent_pk
                    WHERE (b.stop_pk = ?1 OR b.parent_pk = ?1) AND COALESCE(s.parent_pk, s.stop_pk) != ?1
                        AND z.stop_index > a.stop_index AND a.pickup_type != 1 AND z.drop_off_type != 1
                    ORDER BY z.stop_index - a.stop_index DESC, 1 LIMIT 1
                    """)
                query.bind(1, busiest.int(2))
                return try query.step() ? query.string(0) : nil
            }
            let plan: FeedHighlights.PlanEnds? =
                if let to = try farthest(leaving: true) {
                    .init(fromStopId: stopId, toStopId: to)
                } else if let from = try farthest(leaving: false) {
                    .init(fromStopId: from, toStopId: stopId)
                } else {
                    nil
                }
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
                centreLon: lons[lons.count / 2], plan: plan, routeId: routeId, routeMode: mode)
        }
    }
}
