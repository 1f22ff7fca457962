// The ids of the map ops (shape, route, stops_in_bbox) and of reliability, read from the served database.
import SQLiteKit

extension IdPool {
    /// Map views per run (as many as stops and search terms).
    static let boxCount = 2000
    /// One map view in this many filters by a mode (the centre stop's): most riders look at every stop.
    static let boxesPerModeFilter = 5

    /// Shapes and trips with a shape among the trips running in the window (up to `tripLimit`), every route
    /// with trips weighted by them, map views around served stops, and the stops of the busiest boards that
    /// departures leave from (so recorded delays exist for them) weighted by those departures.
    mutating func readMapAndReliabilityIds(db: Database, window: TimeWindow, tripLimit: Int, rng: inout SeededRandom)
        throws
    {
        let running = try Self.shapedTripsRunning(in: window, db: db, rng: &rng)
        shapeTrips = running.prefix(tripLimit).map(\.trip)
        var seen = Set<String>()
        shapes = running.prefix(tripLimit).map(\.shape).filter { seen.insert($0).inserted }

        let routeRows = try db.prepare(
            "SELECT route_id, trip_count FROM routes WHERE trip_count > 0 ORDER BY trip_count DESC, route_id")
        while try routeRows.step() { routes.add(routeRows.string(0) ?? "", weight: Double(routeRows.int(1))) }

        var centres: [(lat: Double, lon: Double, mode: String?)] = []
        let served = try db.prepare(
            """
            SELECT lat, lon, primary_mode FROM stops
            WHERE parent_pk IS NULL AND location_type IN (0,1) AND trip_count > 0 AND lat IS NOT NULL AND lon IS NOT NULL
            ORDER BY stop_pk
            """)
        while try served.step() { centres.append((served.double(0), served.double(1), served.string(2))) }
        if !centres.isEmpty {
            for k in 0..<Self.boxCount {
                let c = centres[Int(rng.next() % UInt64(centres.count))]
                boxes.append(
                    MapBox.phoneView(centredOn: c.lat, c.lon, mode: k % Self.boxesPerModeFilter == 0 ? c.mode : nil))
            }
        }

        let platforms = try db.prepare(
            """
            SELECT s.stop_id, COUNT(*) FROM departures d JOIN stops s ON s.stop_pk = d.stop_pk
            WHERE d.board_pk = (SELECT stop_pk FROM stops WHERE stop_id = ?1)
            GROUP BY d.stop_pk ORDER BY COUNT(*) DESC, s.stop_id
            """)
        for station in stations {
            platforms.reset()
            platforms.bind(1, station)
            while try platforms.step() {
                reliabilityStops.add(platforms.string(0) ?? "", weight: Double(platforms.int(1)))
            }
        }
    }

    /// Trips running at some time of the window (as `tripsRunning`) whose shape_id names a shape of shapes.txt,
    /// with that shape, shuffled.
    static func shapedTripsRunning(in window: TimeWindow, db: Database, rng: inout SeededRandom) throws
        -> [(trip: String, shape: String)]
    {
        var found: [String: String] = [:]
        for day in window.serviceDays() {
            let statement = try db.prepare(
                """
                SELECT t.trip_id, t.shape_id FROM trips t JOIN shapes s ON s.shape_id = t.shape_id
                WHERE t.start_secs <= ? AND t.end_secs >= ? AND t.service_pk IN (\(runningServices(day)))
                """)
            statement.bind(1, Int64(day.endSecs))
            statement.bind(2, Int64(day.startSecs))
            while try statement.step() {
                if let trip = statement.string(0), let shape = statement.string(1) { found[trip] = shape }
            }
        }
        var trips = found.sorted { $0.key < $1.key }.map { (trip: $0.key, shape: $0.value) }
        trips.shuffle(using: &rng)
        return trips
    }
}
