import Foundation
import SQLiteKit
import TransitCore

extension ImportBuilder {
    /// Writes everything collected across feeds: statistics-bearing stops (+ search and spatial indexes),
    /// stop_routes, patterns, the departures index, frequency_stops, route trip counts, feeds and meta.
    func finish(databaseVersion: String, importedAt: Int) throws {
        let statistics = timed("stop statistics") { stopStatistics() }
        try timed("write stops") {
            try writeStops(statistics)
            try writeStopRoutes(statistics.stopRoutes)
            try writePatterns()
        }
        var sorted: [DepartureRows.Row] = []
        timed("sort departures") { sorted = departures.takeSorted(boardCount: stops.count) }
        try timed("write departures") {
            let total = Double(max(sorted.count, 1))
            try DepartureRows.write(sorted, to: db) { rows in
                try checkpoint(nil, "departures index", rows: rows, fraction: Double(rows) / total)
            }
        }
        sorted = []
        try writeFrequencyStops()
        try writeRouteTripCounts()
        for feed in feeds { try writeFeed(feed, importedAt: importedAt) }
        let meta = try db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)")
        for (key, value) in [
            (Schema.MetaKey.schemaVersion, String(Schema.version)),
            (Schema.MetaKey.dbVersion, databaseVersion),
            (Schema.MetaKey.importedAt, String(importedAt)),
        ] {
            try meta.bind([key, value])
            try meta.run()
        }
        try timed("indexes") {
            for sql in Schema.indexes { try db.exec(sql) }
            try db.exec("PRAGMA analysis_limit = 1000; ANALYZE")
        }
    }

    struct StopStatistics {
        /// (stop_pk << 32 | route_pk) -> scheduled trips, a station including its platforms.
        var stopRoutes: [UInt64: Int] = [:]
        var tripCount: [Int]
        var primaryRouteType: [Int?]
        var modeMask: [Int]
    }

    /// Routes and trips per stop from the patterns' trips, stations aggregating their platforms; the primary
    /// route type is the one of the most routes serving the stop (ties: `Mode.rank`, then the lower route_type).
    /// Routes, not trips: a frequency-based metro line's many instances must not make a station of four train
    /// lines a metro stop.
    func stopStatistics() -> StopStatistics {
        var stats = StopStatistics(
            tripCount: Array(repeating: 0, count: stops.count),
            primaryRouteType: Array(repeating: nil, count: stops.count),
            modeMask: Array(repeating: 0, count: stops.count))
        var seen = Set<Int>()
        for (key, trips) in patternRouteTrips {
            let pattern = Int(key >> 32) - 1
            let route = key & 0xFFFF_FFFF
            // A trip counts once at each stop it calls at, and once at a station however many of its
            // platforms it calls at (a loop, or a reversal on another platform).
            seen.removeAll(keepingCapacity: true)
            for stop in patterns.stops(of: pattern) {
                if seen.insert(stop).inserted { stats.stopRoutes[UInt64(stop + 1) << 32 | route, default: 0] += trips }
                let board = stops[stop].board
                if board != stop, seen.insert(board).inserted {
                    stats.stopRoutes[UInt64(board + 1) << 32 | route, default: 0] += trips
                }
            }
        }
        var typeRoutes: [Int: [Int: Int]] = [:]  // stop -> route_type -> routes
        for (key, trips) in stats.stopRoutes {
            let stop = Int(key >> 32) - 1
            let route = routes[Int(key & 0xFFFF_FFFF) - 1]
            stats.tripCount[stop] += trips
            stats.modeMask[stop] |= route.mode.bit
            typeRoutes[stop, default: [:]][route.routeType, default: 0] += 1
        }
        for (stop, byType) in typeRoutes {
            stats.primaryRouteType[stop] =
                byType.min { a, b in
                    if a.value != b.value { return a.value > b.value }
                    let rankA = Mode(routeType: a.key).rank, rankB = Mode(routeType: b.key).rank
                    if rankA != rankB { return rankA < rankB }
                    return a.key < b.key
                }?.key
        }
        return stats
    }

    private func writeStops(_ stats: StopStatistics) throws {
        let insert = try db.prepare(
            """
            INSERT INTO stops (stop_pk, stop_id, feed_pk, code, name, tts_name, desc, lat, lon, zone_id, url,
                               location_type, parent_pk, board_pk, timezone, wheelchair_boarding, level_id,
                               platform_code, trip_count, primary_route_type, primary_mode, mode_mask)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let search = try db.prepare("INSERT INTO stop_search (rowid, name, code, is_platform) VALUES (?, ?, ?, ?)")
        let spatial = try db.prepare(
            "INSERT INTO stop_rtree (stop_pk, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)")
        for (i, stop) in stops.enumerated() {
            let pk = i + 1
            let primary = stats.primaryRouteType[i]
            insert.bind(1, pk)
            insert.bind(2, stop.id)
            insert.bind(3, stop.feed + 1)
            insert.bind(4, stop.code)
            insert.bind(5, stop.name)
            insert.bind(6, stop.ttsName)
            insert.bind(7, stop.desc)
            insert.bind(8, stop.lat)
            insert.bind(9, stop.lon)
            insert.bind(10, stop.zone)
            insert.bind(11, stop.url)
            insert.bind(12, stop.locationType)
            insert.bind(13, stop.parent >= 0 ? stop.parent + 1 : nil)
            insert.bind(14, stop.board + 1)
            insert.bind(15, stop.timezone)
            insert.bind(16, stop.wheelchair)
            insert.bind(17, stop.level)
            insert.bind(18, stop.platformCode)
            insert.bind(19, stats.tripCount[i])
            insert.bind(20, primary)
            insert.bind(21, primary.map { Mode(routeType: $0).rawValue })
            insert.bind(22, stats.modeMask[i])
            try insert.run()
            guard stop.locationType <= 1 else { continue }  // entrances, nodes, boarding areas: not searchable
            try search.bind([pk, stop.name, stop.code, stop.locationType == 0 && stop.parent >= 0 ? 1 : 0])
            try search.run()
            if let lat = stop.lat, let lon = stop.lon {
                try spatial.bind([pk, lat, lat, lon, lon])
                try spatial.run()
            }
        }
    }

    private func writeStopRoutes(_ stopRoutes: [UInt64: Int]) throws {
        let insert = try db.prepare("INSERT INTO stop_routes (stop_pk, route_pk, trip_count) VALUES (?, ?, ?)")
        for key in stopRoutes.keys.sorted() {
            try insert.bind([Int(key >> 32), Int(key & 0xFFFF_FFFF), stopRoutes[key]!])
            try insert.run()
        }
    }

    private func writePatterns() throws {
        let insert = try db.prepare("INSERT INTO patterns (pattern_pk, stop_count, trip_count) VALUES (?, ?, ?)")
        for pattern in 0..<patterns.count {
            try insert.bind([pattern + 1, patterns.words(of: pattern).count / 4, patterns.tripCounts[pattern]])
            try insert.run()
        }
    }

    private func writeFrequencyStops() throws {
        let insert = try db.prepare(
            """
            INSERT INTO frequency_stops (board_pk, trip_pk, stop_index, stop_pk, service_pk) VALUES (?, ?, ?, ?, ?)
            """)
        for row in frequencyStops.sorted() {
            try insert.bind([Int(row.board), Int(row.trip), Int(row.stopIndex), Int(row.stop), Int(row.service)])
            try insert.run()
        }
    }

    private func writeRouteTripCounts() throws {
        let update = try db.prepare("UPDATE routes SET trip_count = ? WHERE route_pk = ?")
        for (i, route) in routes.enumerated() where route.tripCount > 0 {
            try update.bind([route.tripCount, i + 1])
            try update.run()
        }
    }

    private func writeFeed(_ feed: FeedContext, importedAt: Int) throws {
        let insert = try db.prepare(
            """
            INSERT INTO feeds (feed_pk, name, prefix, path, publisher_name, publisher_url, feed_lang, default_lang,
                               version, start_date, end_date, contact_email, contact_url, service_start_date,
                               service_end_date, timezone, imported_at, agency_count, stop_count, route_count,
                               trip_count, stop_time_count, pattern_count, service_count, frequency_count)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let c = feed.counts
        try insert.bind([
            feed.feedPk, feed.name, feed.prefix, feed.path, feed.info["feed_publisher_name"],
            feed.info["feed_publisher_url"], feed.info["feed_lang"], feed.info["default_lang"],
            feed.info["feed_version"], feed.infoStartDate, feed.infoEndDate, feed.info["feed_contact_email"],
            feed.info["feed_contact_url"], feed.serviceStartDate, feed.serviceEndDate, feed.timezone, importedAt,
            c.agencies, c.stops, c.routes, c.trips, c.stopTimes, c.patterns, c.services, c.frequencies,
        ])
        try insert.run()
    }
}
