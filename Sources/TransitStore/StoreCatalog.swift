import Foundation
import SQLiteKit
import TransitCore
import TransitModel
import TransitPresentation

/// The small tables, loaded once when a store opens and never changed: feeds with their timezones,
/// routes (as model values, naturally sorted), services with their calendar, and database facts.
final class StoreCatalog: Sendable {
    struct Feed: Sendable {
        let pk: Int
        let summary: FeedSummary
        /// Index into `zones`.
        let zone: Int
    }

    let databaseVersion: String
    let importedAt: Int64
    let feeds: [Feed]
    let feedIndexByPk: [Int: Int]
    /// The distinct agency timezones of all feeds.
    let zones: [ServiceTimeZone]
    /// Routes by route_pk.
    let routes: [Int: Route]
    /// Every route_pk in natural order of its name (see `sortName`).
    let routeOrder: [Int]
    /// The routes query's answers, precomputed: every route, and those of each mode, in natural order.
    let routeList: [Route]
    let routeListByMode: [String: [Route]]
    /// Position of each route_pk in `routeOrder`.
    let routeRank: [Int: Int]
    /// For each service_pk: the index of its feed's zone in `zones` (-1 for an unknown pk).
    let serviceZone: [Int]
    let calendar: ServiceCalendar
    /// The dates that run a weekend timetable on another weekday (feed_info's `timetable_days`).
    let dayTypes: DayTypeCalendar
    /// stop_id by stop_pk ("" for unused pks): the bulk schedules name thousands of stops per request.
    let stopIds: [String]
    /// Largest stop time in the database (GTFS seconds), frequency instances included.
    let maxSecs: Int
    let totals: (stops: UInt64, routes: UInt64, trips: UInt64, stopTimes: UInt64, patterns: UInt64)

    init(db: Database) throws {
        let meta = try db.prepare("SELECT key, value FROM meta")
        var values: [String: String] = [:]
        while try meta.step() { values[meta.string(0) ?? ""] = meta.string(1) ?? "" }
        guard let schema = values[Schema.MetaKey.schemaVersion].flatMap(Int.init), schema == Schema.version else {
            throw StoreError.database(
                "database schema version \(values[Schema.MetaKey.schemaVersion] ?? "missing"), "
                    + "this build reads version \(Schema.version): import the feeds again")
        }
        databaseVersion = values[Schema.MetaKey.dbVersion] ?? ""
        importedAt = values[Schema.MetaKey.importedAt].flatMap(Int64.init) ?? 0

        // Feeds and their zones.
        var zones: [ServiceTimeZone] = []
        var zoneByName: [String: Int] = [:]
        var feeds: [Feed] = []
        let feedRows = try db.prepare(
            """
            SELECT feed_pk, name, prefix, path, publisher_name, version, start_date, end_date, timezone,
                   COALESCE(feed_lang, default_lang), imported_at, stop_count, route_count, trip_count,
                   stop_time_count, service_start_date, service_end_date
            FROM feeds ORDER BY feed_pk
            """)
        while try feedRows.step() {
            let tzName = feedRows.string(8) ?? "UTC"
            let zone: Int
            if let z = zoneByName[tzName] {
                zone = z
            } else {
                do {
                    zones.append(try ServiceTimeZone(identifier: tzName))
                } catch {
                    throw StoreError.database("feed \(feedRows.string(1) ?? "?"): \(error)")
                }
                zone = zones.count - 1
                zoneByName[tzName] = zone
            }
            let prefix = feedRows.string(2) ?? ""
            let summary = FeedSummary(
                name: feedRows.string(1) ?? "", prefix: prefix.isEmpty ? nil : prefix,
                publisher: feedRows.string(4), version: feedRows.string(5),
                startDate: (feedRows.optionalInt(6) ?? feedRows.optionalInt(15)).map(UInt32.init(truncatingIfNeeded:)),
                endDate: (feedRows.optionalInt(7) ?? feedRows.optionalInt(16)).map(UInt32.init(truncatingIfNeeded:)),
                timezone: tzName, lang: feedRows.string(9), importedAt: feedRows.int64(10),
                stops: UInt64(max(0, feedRows.int64(11))), routes: UInt64(max(0, feedRows.int64(12))),
                trips: UInt64(max(0, feedRows.int64(13))), stopTimes: UInt64(max(0, feedRows.int64(14))),
                source: feedRows.string(3))
            feeds.append(Feed(pk: feedRows.int(0), summary: summary, zone: zone))
        }
        if zones.isEmpty { zones.append(try! ServiceTimeZone(identifier: "UTC")) }
        self.feeds = feeds
        var feedIndexByPk: [Int: Int] = [:]
        for (i, f) in feeds.enumerated() { feedIndexByPk[f.pk] = i }
        self.feedIndexByPk = feedIndexByPk

        // Routes.
        var routes: [Int: Route] = [:]
        var sortNames: [Int: String] = [:]
        let routeRows = try db.prepare(
            """
            SELECT r.route_pk, r.route_id, a.agency_id, r.short_name, r.long_name, r.route_type, r.color,
                   r.text_color, r.feed_pk
            FROM routes r LEFT JOIN agency a ON a.agency_pk = r.agency_pk
            """)
        while try routeRows.step() {
            let pk = routeRows.int(0)
            let routeId = routeRows.string(1) ?? ""
            let shortName = routeRows.string(3), longName = routeRows.string(4)
            let sortName = StoreCatalog.sortName(routeId: routeId, shortName: shortName, longName: longName)
            let routeType = routeRows.int(5)
            let feedName = feedIndexByPk[routeRows.int(8)].map { feeds[$0].summary.name }
            routes[pk] = Route(
                routeId: routeId, agencyId: routeRows.string(2), shortName: shortName, longName: longName,
                routeType: routeType, mode: Mode(routeType: routeType).rawValue,
                color: StoreCatalog.hexColor(routeRows.string(6)),
                textColor: StoreCatalog.hexColor(routeRows.string(7)),
                section: RouteSections.key(for: sortName), feed: feedName)
            sortNames[pk] = sortName
        }
        self.routes = routes
        routeOrder = routes.keys.sorted { a, b in
            let order = NaturalSort.compare(sortNames[a]!, sortNames[b]!)
            if order != .orderedSame { return order == .orderedAscending }
            let la = routes[a]!.longName ?? "", lb = routes[b]!.longName ?? ""
            if la != lb { return NaturalSort.areInIncreasingOrder(la, lb) }
            return routes[a]!.routeId < routes[b]!.routeId
        }
        routeList = routeOrder.compactMap { routes[$0] }
        routeListByMode = Dictionary(grouping: routeList, by: \.mode)
        var routeRank: [Int: Int] = [:]
        for (i, pk) in routeOrder.enumerated() { routeRank[pk] = i }
        self.routeRank = routeRank

        // Services and their calendar; service_pk is used directly as the calendar's dense id.
        let maxService = try db.scalarInt("SELECT MAX(service_pk) FROM services") ?? 0
        let serviceCount = Int(maxService) + 1
        var serviceZone = [Int](repeating: -1, count: serviceCount)
        let serviceRows = try db.prepare("SELECT service_pk, feed_pk FROM services")
        while try serviceRows.step() {
            let pk = serviceRows.int(0)
            if pk >= 0, pk < serviceCount, let f = feedIndexByPk[serviceRows.int(1)] { serviceZone[pk] = feeds[f].zone }
        }
        self.serviceZone = serviceZone
        var weekly: [ServiceCalendar.Weekly] = []
        let calendarRows = try db.prepare(
            """
            SELECT service_pk, monday, tuesday, wednesday, thursday, friday, saturday, sunday, start_date, end_date
            FROM calendar
            """)
        while try calendarRows.step() {
            var mask: UInt8 = 0
            for day in 0..<7 where calendarRows.int(Int32(1 + day)) != 0 { mask |= 1 << UInt8(day) }
            guard let start = GTFSDate(yyyymmdd: calendarRows.int(8)), let end = GTFSDate(yyyymmdd: calendarRows.int(9))
            else { continue }
            weekly.append(.init(service: calendarRows.int(0), weekdays: mask, start: start, end: end))
        }
        var exceptions: [ServiceCalendar.Exception] = []
        let exceptionRows = try db.prepare("SELECT service_pk, date, exception_type FROM calendar_dates")
        while try exceptionRows.step() {
            guard let date = GTFSDate(yyyymmdd: exceptionRows.int(1)),
                let kind = ServiceCalendar.Exception.Kind(rawValue: exceptionRows.int(2))
            else { continue }
            exceptions.append(.init(service: exceptionRows.int(0), date: date, kind: kind))
        }
        calendar = ServiceCalendar(serviceCount: serviceCount, weekly: weekly, exceptions: exceptions)
        // The zones' reference instants of the calendar's days (a few around them for after-midnight trips and
        // neighbouring days), precomputed for lock-free reads.
        if let first = calendar.firstDate, let last = calendar.lastDate {
            let days = first.adding(days: -2)...last.adding(days: 2)
            zones = zones.map { $0.precomputing(days) }
        }
        self.zones = zones
        var tripsPerService = [Int](repeating: 0, count: serviceCount)
        let tripCounts = try db.prepare("SELECT service_pk, COUNT(*) FROM trips GROUP BY service_pk")
        while try tripCounts.step() {
            let pk = tripCounts.int(0)
            if pk >= 0, pk < serviceCount { tripsPerService[pk] = tripCounts.int(1) }
        }
        dayTypes = DayTypeCalendar(
            runsAs: Dictionary(
                uniqueKeysWithValues: TimetableWeekdays.exceptions(calendar, tripsPerService: tripsPerService).map {
                    (ServiceDate($0.key.yyyymmdd), $0.value)
                }))

        let maxStopPk = Int(try db.scalarInt("SELECT MAX(stop_pk) FROM stops") ?? 0)
        guard maxStopPk < 50_000_000 else { throw StoreError.database("stop_pk \(maxStopPk) is too large to index") }
        var stopIds = [String](repeating: "", count: maxStopPk + 1)
        let stopRows = try db.prepare("SELECT stop_pk, stop_id FROM stops")
        while try stopRows.step() {
            let pk = stopRows.int(0)
            if pk >= 0, pk <= maxStopPk { stopIds[pk] = stopRows.string(1) ?? "" }
        }
        self.stopIds = stopIds

        let maxTrip = try db.scalarInt("SELECT MAX(end_secs) FROM trips") ?? 0
        let maxFrequency =
            try db.scalarInt(
                """
                SELECT MAX(f.end_secs + t.end_secs - t.start_secs) FROM frequencies f JOIN trips t ON t.trip_pk = f.trip_pk
                """) ?? 0
        maxSecs = Int(max(maxTrip, maxFrequency, 0))

        func count(_ sql: String) throws -> UInt64 { UInt64(max(0, try db.scalarInt(sql) ?? 0)) }
        totals = (
            try count("SELECT COUNT(*) FROM stops"), UInt64(routes.count), try count("SELECT COUNT(*) FROM trips"),
            try count("SELECT COALESCE(SUM(stop_time_count), 0) FROM feeds"), try count("SELECT COUNT(*) FROM patterns")
        )
    }

    /// Routes by pk in natural order (unknown pks dropped).
    func sortedRoutes(_ pks: some Sequence<Int>) -> [Route] {
        pks.compactMap { pk in routeRank[pk].map { ($0, pk) } }.sorted { $0.0 < $1.0 }.compactMap { routes[$0.1] }
    }

    func stopId(_ pk: Int) -> String { pk >= 0 && pk < stopIds.count ? stopIds[pk] : "" }

    func zone(ofFeedPk pk: Int) -> ServiceTimeZone {
        feedIndexByPk[pk].map { zones[feeds[$0].zone] } ?? zones[0]
    }

    func zoneIndex(ofService pk: Int) -> Int {
        pk >= 0 && pk < serviceZone.count ? serviceZone[pk] : -1
    }

    /// The name a route sorts and is indexed by: short name, else long name, else its id.
    static func sortName(routeId: String, shortName: String?, longName: String?) -> String {
        if let s = shortName, !s.isEmpty { return s }
        if let l = longName, !l.isEmpty { return l }
        return routeId
    }

    /// "f99d1c" / "#F99D1C" → "#F99D1C"; anything that is not six hex digits → nil.
    static func hexColor(_ raw: String?) -> String? {
        guard var text = raw?.trimmingCharacters(in: .whitespaces) else { return nil }
        if text.hasPrefix("#") { text.removeFirst() }
        guard text.utf8.count == 6,
            text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) })
        else { return nil }
        return "#" + text.uppercased()
    }
}
