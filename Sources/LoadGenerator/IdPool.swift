// The ids a workload asks about: busy stations (weighted by their departures, so a board's popularity follows the
// network's), trips running in the chosen window, stops, and search terms; for the map ops and reliability,
// shapes, routes, map views and the stops of busy boards (IdPool+Map.swift). Read from the served database
// (`--db`), or from an ids file for a gateway whose database is elsewhere (`--ids`; `--write-ids` makes one).
import Foundation
import SQLiteKit

/// Ids for requests, with the weights of the stations.
public struct IdPool: Sendable, Equatable {
    public var stations: [String] = []
    /// Cumulative weights of `stations` (same length; the last is the total).
    public var stationCumulative: [Double] = []
    public var trips: [String] = []
    public var stops: [String] = []
    public var searchTerms: [String] = []
    /// `shape` by shape_id: the shapes of trips running in the window.
    public var shapes: [String] = []
    /// `shape` by trip_id: trips running in the window whose shape shapes.txt defines.
    public var shapeTrips: [String] = []
    /// `route`, and `reliability` by route: routes weighted by their trips.
    public var routes = WeightedIds()
    /// `stops_in_bbox`: map views centred on served stops.
    public var boxes: [MapBox] = []
    /// `reliability` by stop: the stops departures are recorded at (platforms of the busiest boards), weighted
    /// by their board's departures.
    public var reliabilityStops = WeightedIds()

    public init() {}

    public mutating func addStation(_ id: String, weight: Double) {
        stations.append(id)
        stationCumulative.append((stationCumulative.last ?? 0) + max(weight, 0))
    }

    /// A station drawn by weight (`u` uniform in [0, 1)).
    public func station(at u: Double) -> String {
        stations[WeightedIds.index(in: stationCumulative, at: u)]
    }

    /// Which ops this pool can feed; the missing kinds, named, for the op mix's check.
    public func check(for mix: OpMix) throws(WorkloadError) {
        for op in mix.ops {
            let empty: String? =
                switch op {
                case .departures: stations.isEmpty ? "station" : nil
                case .trip: trips.isEmpty ? "trip" : nil
                case .alerts, .stop: stops.isEmpty ? "stop" : nil
                case .search: searchTerms.isEmpty ? "search" : nil
                case .shape: shapes.isEmpty && shapeTrips.isEmpty ? "shape" : nil
                case .route: routes.isEmpty ? "route" : nil
                case .stopsInBBox: boxes.isEmpty ? "bbox" : nil
                case .reliability: routes.isEmpty && reliabilityStops.isEmpty ? "route" : nil
                case .echo: nil
                }
            if let empty {
                throw WorkloadError("no \(empty) ids for op \(op.name) (give --db, or \(empty) lines in --ids)")
            }
        }
    }

    // MARK: ids file

    /// The ids file: one id per line, `KIND ID [WEIGHT]`, KIND one of `station` (departures; WEIGHT its share,
    /// default 1), `trip`, `stop` (stop and alerts), `search` (the rest of the line is the term), `shape` and
    /// `shape_trip` (shape by shape_id and by trip_id), `route` (route and reliability; WEIGHT as for stations),
    /// `reliability_stop` (reliability by stop; WEIGHT likewise) and `bbox MIN_LAT MIN_LON MAX_LAT MAX_LON [MODE]`
    /// (stops_in_bbox). Blank lines and lines starting with `#` are ignored.
    public init(idsFile text: String, source: String) throws(WorkloadError) {
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let location = "\(source):\(n + 1)"
            guard let space = line.firstIndex(of: " ") else {
                throw WorkloadError("\(location): expected KIND ID, got \"\(line)\"")
            }
            let kind = String(line[..<space])
            let rest = line[line.index(after: space)...].trimmingCharacters(in: .whitespaces)
            switch kind {
            case "station":
                let (id, weight) = try Self.weightedId(rest, kind: kind, location: location)
                addStation(id, weight: weight)
            case "trip": trips.append(rest)
            case "stop": stops.append(rest)
            case "search": searchTerms.append(rest)
            case "shape": shapes.append(rest)
            case "shape_trip": shapeTrips.append(rest)
            case "route":
                let (id, weight) = try Self.weightedId(rest, kind: kind, location: location)
                routes.add(id, weight: weight)
            case "reliability_stop":
                let (id, weight) = try Self.weightedId(rest, kind: kind, location: location)
                reliabilityStops.add(id, weight: weight)
            case "bbox":
                do { boxes.append(try MapBox(idsFields: rest)) } catch {
                    throw WorkloadError("\(location): \(error)")
                }
            default:
                throw WorkloadError(
                    "\(location): unknown kind \"\(kind)\" (station, trip, stop, search, shape, shape_trip, route, "
                        + "reliability_stop or bbox)")
            }
        }
    }

    /// `ID [WEIGHT]` (default 1, else a number above 0).
    private static func weightedId(_ text: String, kind: String, location: String) throws(WorkloadError) -> (
        String, Double
    ) {
        let parts = text.split(separator: " ")
        guard parts.count <= 2, let id = parts.first else {
            throw WorkloadError("\(location): expected \(kind) ID [WEIGHT]")
        }
        guard parts.count == 2 else { return (String(id), 1) }
        guard let w = Double(parts[1]), w > 0, w.isFinite else {
            throw WorkloadError("\(location): \(kind) weight must be a number above 0, got \"\(parts[1])\"")
        }
        return (String(id), w)
    }

    /// The pool as an ids file (what `init(idsFile:)` reads back).
    public var idsFile: String {
        var out = "# transit-bench load ids: KIND ID [WEIGHT]\n"
        var previous = 0.0
        for (id, cumulative) in zip(stations, stationCumulative) {
            out += "station \(id) \(formatWeight(cumulative - previous))\n"
            previous = cumulative
        }
        for id in trips { out += "trip \(id)\n" }
        for id in stops { out += "stop \(id)\n" }
        for term in searchTerms { out += "search \(term)\n" }
        for id in shapes { out += "shape \(id)\n" }
        for id in shapeTrips { out += "shape_trip \(id)\n" }
        for (k, id) in routes.ids.enumerated() { out += "route \(id) \(formatWeight(routes.weight(at: k)))\n" }
        for (k, id) in reliabilityStops.ids.enumerated() {
            out += "reliability_stop \(id) \(formatWeight(reliabilityStops.weight(at: k)))\n"
        }
        for box in boxes { out += "bbox \(box.idsFields)\n" }
        return out
    }

    private func formatWeight(_ w: Double) -> String { w == w.rounded() ? String(Int(w)) : String(w) }

    // MARK: database

    /// Reads the pools from the served database: the `busiest` boards (stations, and stops without one) weighted
    /// by their scheduled departures in the window's hours, up to `tripLimit` trips running at some time of the window on its service dates, random
    /// served stops and search terms (the first word's prefix of a stop name).
    public init(databasePath: String, window: TimeWindow, busiest: Int = 200, tripLimit: Int = 5000, seed: UInt64)
        throws
    {
        let db = try Database(path: databasePath, mode: .readOnly)
        var rng = SeededRandom(seed: seed)
        // Stations by their departures in the window's hours on its main service day, on services running that
        // day; else (a night window, a day without service) over the whole feed.
        let day = window.serviceDays().filter { $0.startSecs >= 0 }.min { $0.startSecs < $1.startSecs }
        if let day {
            let busy = try db.prepare(
                """
                SELECT s.stop_id, c.n FROM
                  (SELECT board_pk, COUNT(*) AS n FROM departures
                   WHERE departure_secs BETWEEN ? AND ? AND service_pk IN (\(Self.runningServices(day)))
                   GROUP BY board_pk ORDER BY n DESC LIMIT ?) c
                JOIN stops s ON s.stop_pk = c.board_pk ORDER BY c.n DESC
                """)
            busy.bind(1, day.startSecs)
            busy.bind(2, day.endSecs)
            busy.bind(3, busiest)
            while try busy.step() { addStation(busy.string(0) ?? "", weight: Double(busy.int(1))) }
        }
        if stations.isEmpty {
            let busy = try db.prepare(
                """
                SELECT s.stop_id, c.n FROM
                  (SELECT board_pk, COUNT(*) AS n FROM departures GROUP BY board_pk ORDER BY n DESC LIMIT ?) c
                JOIN stops s ON s.stop_pk = c.board_pk ORDER BY c.n DESC
                """)
            busy.bind(1, busiest)
            while try busy.step() { addStation(busy.string(0) ?? "", weight: Double(busy.int(1))) }
        }

        var served: [(id: String, name: String)] = []
        let stopsQuery = try db.prepare(
            "SELECT stop_id, name FROM stops WHERE parent_pk IS NULL AND location_type IN (0,1) AND trip_count > 0")
        while try stopsQuery.step() { served.append((stopsQuery.string(0) ?? "", stopsQuery.string(1) ?? "")) }
        guard !served.isEmpty else { throw WorkloadError("no served stops in \(databasePath)") }
        for _ in 0..<2000 {
            let s = served.randomElement(using: &rng)!
            stops.append(s.id)
            let word = s.name.split(separator: " ").first.map(String.init) ?? s.name
            let term = String(word.prefix(Int.random(in: 3...6, using: &rng)))
            if !term.isEmpty { searchTerms.append(term) }
        }
        trips = try Self.tripsRunning(in: window, db: db, limit: tripLimit, rng: &rng)
        // The map ops' and reliability's ids draw from a generator of their own, so the ids above stay those
        // every earlier run drew from the same seed.
        var mapRng = SeededRandom(seed: seed ^ 0x6D61_7073)
        try readMapAndReliabilityIds(db: db, window: window, tripLimit: tripLimit, rng: &mapRng)
    }

    /// Trips running at some time of the window: on each service date the window touches, those whose service
    /// runs that day (calendar, calendar_dates) and whose first-to-last times overlap the window's.
    static func tripsRunning(in window: TimeWindow, db: Database, limit: Int, rng: inout SeededRandom) throws
        -> [String]
    {
        var found = Set<String>()
        for day in window.serviceDays() {
            let statement = try db.prepare(
                """
                SELECT t.trip_id FROM trips t
                WHERE t.start_secs <= ? AND t.end_secs >= ? AND t.service_pk IN (\(runningServices(day)))
                """)
            statement.bind(1, Int64(day.endSecs))
            statement.bind(2, Int64(day.startSecs))
            while try statement.step() { if let id = statement.string(0) { found.insert(id) } }
        }
        var trips = found.sorted()
        trips.shuffle(using: &rng)
        return Array(trips.prefix(limit))
    }

    /// SQL selecting the services that run on `day` (calendar weekday and range, minus calendar_dates removals,
    /// plus additions). Only integers are interpolated.
    static func runningServices(_ day: TimeWindow.ServiceDay) -> String {
        let weekday = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][day.weekday]
        return """
            SELECT c.service_pk FROM calendar c WHERE c.\(weekday) = 1 AND \(day.date) BETWEEN c.start_date AND c.end_date
              AND NOT EXISTS (SELECT 1 FROM calendar_dates d WHERE d.service_pk = c.service_pk AND d.date = \(day.date)
                              AND d.exception_type = 2)
            UNION SELECT d.service_pk FROM calendar_dates d WHERE d.date = \(day.date) AND d.exception_type = 1
            """
    }
}
