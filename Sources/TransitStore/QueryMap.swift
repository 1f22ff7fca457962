import Foundation
import SQLiteKit
import TransitCore
import TransitModel

extension StaticStore {
    /// The shape `shapeId`, or the shape of trip `tripId` (exactly one is given). A trip without a shape in
    /// shapes.txt gets a straight line through its stops that have coordinates (`source` `.stops`), drawn
    /// here rather than at import: it follows from the trip's pattern alone and costs the database nothing.
    public func shape(shapeId: String?, tripId: String?) throws(StoreError) -> Shape {
        guard (shapeId == nil) != (tripId == nil) else {
            throw .invalidArgument("give either shape_id or trip_id")
        }
        return try run { c in
            guard let tripId else { return try loadShape(c, id: shapeId!, tripId: nil) }
            let trip = try loadTrip(c, id: tripId)
            if let id = trip.shapeId, let shape = try? loadShape(c, id: id, tripId: tripId) { return shape }
            let s = try c.statement(
                """
                SELECT s.lat, s.lon FROM pattern_stops ps JOIN stops s ON s.stop_pk = ps.stop_pk
                WHERE ps.pattern_pk = ?1 ORDER BY ps.stop_index
                """)
            s.bind(1, trip.patternPk)
            var points: [(lat: Double, lon: Double)] = []
            while try s.step() {
                if let lat = s.optionalDouble(0), let lon = s.optionalDouble(1) { points.append((lat, lon)) }
            }
            return Shape(
                shapeId: nil, tripId: tripId, source: .stops, polyline: Polyline.encode(points),
                pointCount: points.count)
        }
    }

    private func loadShape(_ c: StoreConnection, id: String, tripId: String?) throws -> Shape {
        let s = try c.statement("SELECT point_count, polyline, distances FROM shapes WHERE shape_id = ?1")
        s.bind(1, id)
        guard try s.step() else { throw StoreError.notFound("shape \(id)") }
        let distances = s.string(2).flatMap { Polyline.decode(values: $0, scale: Schema.shapeDistanceScale) } ?? []
        return Shape(
            shapeId: id, tripId: tripId, source: .shapes, polyline: s.string(1) ?? "", pointCount: s.int(0),
            distances: distances)
    }

    /// Stations and stops without a station inside the box (a platform inside brings its station), the
    /// busiest (most scheduled trips) first, then by stop_id. `mode` keeps stops served by that mode.
    public func stopsInBBox(
        minLat: Double, minLon: Double, maxLat: Double, maxLon: Double, mode: String? = nil, limit: Int
    ) throws(StoreError) -> [Stop] {
        try Self.checkLimit(limit)
        let mode = try Self.parseMode(mode)
        if let problem = StopsInBBoxQuery(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: maxLon).problem {
            throw .invalidArgument(problem)
        }
        return try run { c in
            // The R*Tree holds 32-bit bounds rounded outwards: the exact test is on stops.lat/lon.
            let s = try c.statement(
                """
                SELECT p.stop_pk FROM stops p
                WHERE p.stop_pk IN (
                    SELECT CASE WHEN s.location_type = 0 AND s.parent_pk IS NOT NULL THEN s.parent_pk ELSE s.stop_pk END
                    FROM stop_rtree r JOIN stops s ON s.stop_pk = r.stop_pk
                    WHERE r.max_lat >= ?1 AND r.min_lat <= ?3 AND r.max_lon >= ?2 AND r.min_lon <= ?4
                      AND s.lat BETWEEN ?1 AND ?3 AND s.lon BETWEEN ?2 AND ?4)
                  AND p.location_type <= 1 AND (?5 = 0 OR p.mode_mask & ?5 != 0)
                ORDER BY p.trip_count DESC, p.stop_id LIMIT ?6
                """)
            s.bind(1, minLat)
            s.bind(2, minLon)
            s.bind(3, maxLat)
            s.bind(4, maxLon)
            s.bind(5, mode?.bit ?? 0)
            s.bind(6, limit)
            var pks: [Int] = []
            while try s.step() { pks.append(s.int(0)) }
            return try pks.compactMap { try loadStop(c, pk: $0)?.stop }
        }
    }

    /// One route with its patterns: the distinct stop sequences of its trips per direction, each with its
    /// headsigns, shape ids, trip count and first/last departure from the first stop over every day, its
    /// span on `date` (nil: the date of `now` in the route's feed timezone) and the spans of the calendar's
    /// typical week by day type; the route's own spans are over all its patterns.
    public func route(id: String, date: ServiceDate? = nil, now: Int64 = Int64(Date().timeIntervalSince1970))
        throws(StoreError) -> RouteDetail
    {
        let asked = try date.map { d throws(StoreError) in try Self.parseDate(d, "date") }
        return try run { c in
            let r = try c.statement("SELECT route_pk, feed_pk FROM routes WHERE route_id = ?1")
            r.bind(1, id)
            guard try r.step(), let route = catalog.routes[r.int(0)] else { throw StoreError.notFound("route \(id)") }
            let routePk = r.int(0)
            let day =
                asked ?? catalog.feedIndexByPk[r.int(1)].map { catalog.zones[catalog.feeds[$0].zone] }?
                .localDate(atUnix: now) ?? GTFSDate(dayNumber: Int(now / 86_400))

            struct Key: Hashable {
                var direction: Int?
                var stops: [String]
            }
            struct Group {
                var headsigns: [String: Int] = [:]
                var shapes: [String: Int] = [:]
                var trips = 0
                var first = Int.max
                var last = Int.min
                var order = 0
                /// First and last departure from the first stop per service_pk, for the spans of given days.
                var byService: [Int: DaySpan] = [:]
            }
            var groups: [Key: Group] = [:]
            let trips = try c.statement(
                """
                SELECT trip_pk, pattern_pk, direction_id, headsign, shape_id, start_secs, is_frequency, service_pk
                FROM trips WHERE route_pk = ?1 ORDER BY trip_pk
                """)
            let windows = try c.statement(
                "SELECT start_secs, end_secs, headway_secs FROM frequencies WHERE trip_pk = ?1")
            trips.bind(1, routePk)
            while try trips.step() {
                let stops = patterns.stops(trips.int(1))
                let key = Key(direction: trips.optionalInt(2), stops: stops.map(\.stopId))
                var group = groups[key] ?? Group(order: groups.count)
                group.trips += 1
                if let headsign = trips.string(3) { group.headsigns[headsign, default: 0] += 1 }
                if let shape = trips.string(4) { group.shapes[shape, default: 0] += 1 }
                let dwell = Int(stops.first?.departureOffset ?? 0)
                var span = DaySpan()
                if trips.int(6) != 0 {
                    // Frequency instances depart the first stop at the windows' start + k·headway.
                    windows.reset()
                    windows.bind(1, trips.int(0))
                    while try windows.step() {
                        let start = windows.int(0), end = windows.int(1), headway = max(1, windows.int(2))
                        span.add(start)
                        span.add(start + (max(0, end - start - 1) / headway) * headway)
                    }
                } else {
                    span.add(trips.int(5) + dwell)
                }
                if span.first <= span.last {
                    group.first = min(group.first, span.first)
                    group.last = max(group.last, span.last)
                    group.byService[trips.int(7), default: DaySpan()].merge(span)
                }
                groups[key] = group
            }

            let stopInfo = try c.statement(
                """
                SELECT s.name, s.lat, s.lon, p.stop_id FROM stops s LEFT JOIN stops p ON p.stop_pk = s.parent_pk
                WHERE s.stop_id = ?1
                """)
            var summaries: [String: PatternStopSummary] = [:]
            func summary(_ stopId: String) throws -> PatternStopSummary {
                if let known = summaries[stopId] { return known }
                stopInfo.reset()
                stopInfo.bind(1, stopId)
                var made = PatternStopSummary(stopId: stopId, name: "", lat: nil, lon: nil)
                if try stopInfo.step() {
                    made = PatternStopSummary(
                        stopId: stopId, name: stopInfo.string(0) ?? "", lat: stopInfo.optionalDouble(1),
                        lon: stopInfo.optionalDouble(2), parentStation: stopInfo.string(3))
                }
                summaries[stopId] = made
                return made
            }
            func ranked(_ counts: [String: Int]) -> [String] {
                counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
            }
            let ordered = groups.sorted { a, b in
                let da = a.key.direction ?? Int.max, db = b.key.direction ?? Int.max
                if da != db { return da < db }
                if a.value.trips != b.value.trips { return a.value.trips > b.value.trips }
                return a.value.order < b.value.order
            }
            // The services of each day asked about: the date, and the typical week's day types.
            let week = catalog.calendar.typicalWeek
            let dayTypes: [[GTFSDate]] =
                week.map { monday in [Array(0..<5), [5], [6]].map { $0.map { monday.adding(days: $0) } } }
                ?? [[], [], []]
            let services = Set(groups.values.flatMap(\.byService.keys))
            func running(_ days: [GTFSDate]) -> Set<Int> {
                services.filter { service in days.contains { catalog.calendar.isActive(service, on: $0) } }
            }
            let onDate = running([day])
            let onDayType = dayTypes.map(running)
            func spans(_ byService: [Int: DaySpan]) -> (ServiceSpan?, DayTypeSpans) {
                func over(_ running: Set<Int>) -> ServiceSpan? {
                    var span = DaySpan()
                    for (service, s) in byService where running.contains(service) { span.merge(s) }
                    return span.model
                }
                return (
                    over(onDate),
                    DayTypeSpans(weekday: over(onDayType[0]), saturday: over(onDayType[1]), sunday: over(onDayType[2]))
                )
            }
            var routeByService: [Int: DaySpan] = [:]
            let patterns = try ordered.map { key, group in
                routeByService.merge(group.byService) { a, b in a.merging(b) }
                let (dateSpan, dayTypeSpans) = spans(group.byService)
                return RoutePattern(
                    directionId: key.direction, headsigns: ranked(group.headsigns), shapeIds: ranked(group.shapes),
                    tripCount: group.trips, firstDeparture: GTFSTime.format(group.first),
                    lastDeparture: GTFSTime.format(group.last), stops: try key.stops.map(summary),
                    dateSpan: dateSpan, dayTypeSpans: dayTypeSpans)
            }
            let (dateSpan, dayTypeSpans) = spans(routeByService)
            return RouteDetail(
                route: route, patterns: patterns, date: ServiceDate(day.yyyymmdd), dateSpan: dateSpan,
                dayTypeSpans: dayTypeSpans, typicalWeek: week.map { ServiceDate($0.yyyymmdd) })
        }
    }
}

/// The first and last departure of some trips (GTFS seconds of the service day); empty while first > last.
struct DaySpan {
    var first = Int.max
    var last = Int.min

    mutating func add(_ secs: Int) {
        first = min(first, secs)
        last = max(last, secs)
    }

    mutating func merge(_ other: DaySpan) {
        first = min(first, other.first)
        last = max(last, other.last)
    }

    func merging(_ other: DaySpan) -> DaySpan {
        var merged = self
        merged.merge(other)
        return merged
    }

    var model: ServiceSpan? {
        first <= last ? ServiceSpan(first: GTFSTime.format(first), last: GTFSTime.format(last)) : nil
    }
}
