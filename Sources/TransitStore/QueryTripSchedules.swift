import SQLiteKit
import TransitCore
import TransitModel

extension StaticStore {
    /// Most trip ids one bulk request may name.
    public static let maxScheduleTrips = 20_000
    /// Longest date range (days) of a bulk request.
    public static let maxScheduleDays = 62

    /// Most `knownPatternIds` one bulk request may name.
    public static let maxKnownPatternIds = 1_000_000

    /// For the realtime service: many trips at once, each with its pattern, first time, frequency periods,
    /// the service dates it runs on in [from, through] and its timezone; each pattern once, with every
    /// stop's offsets from the trip's start. Unknown ids are listed, not an error. Trips are read with two
    /// set-based statements (ids passed as one JSON array), whatever their number; patterns come from the
    /// in-memory `StorePatterns`.
    ///
    /// Patterns in `knownPatternIds` are left out when `knownDatabaseVersion` is the served version (a
    /// client caching patterns per version asks only for new ones); under another version they are all
    /// sent. Ids that name no pattern are ignored.
    ///
    /// `descriptors` name trips without an id (`tripMatches`): the answer's `descriptorMatches` list the
    /// matching trip ids per descriptor, and those trips' schedules are in `trips` too.
    public func tripSchedules(
        tripIds: [String], from: UInt32, through: UInt32, knownPatternIds: [UInt32] = [],
        knownDatabaseVersion: String? = nil, descriptors: [TripStartDescriptor] = []
    ) throws(StoreError) -> TripSchedules {
        let fromDate = try Self.parseDate(from, "from_date"), toDate = try Self.parseDate(through, "to_date")
        guard fromDate <= toDate, toDate.dayNumber - fromDate.dayNumber < Self.maxScheduleDays else {
            throw .invalidArgument(
                "date range \(fromDate)…\(toDate) must be ordered and at most \(Self.maxScheduleDays) days")
        }
        guard tripIds.count <= Self.maxScheduleTrips else {
            throw .invalidArgument("at most \(Self.maxScheduleTrips) trip ids per request, got \(tripIds.count)")
        }
        guard knownPatternIds.count <= Self.maxKnownPatternIds else {
            throw .invalidArgument(
                "at most \(Self.maxKnownPatternIds) known pattern ids per request, got \(knownPatternIds.count)")
        }
        guard knownPatternIds.isEmpty || !(knownDatabaseVersion ?? "").isEmpty else {
            throw .invalidArgument("known_pattern_ids need the known_database_version they were received under")
        }
        let known = knownDatabaseVersion == catalog.databaseVersion ? knownPatternIds : []

        return try run { c in
            let matches = try tripMatches(descriptors, on: c)
            var seen = Set<String>()
            var ids = tripIds.filter { seen.insert($0).inserted }
            for match in matches { for id in match where seen.insert(id).inserted { ids.append(id) } }
            // Trips, in the asked order.
            let tripRows = try c.statement(
                """
                SELECT trip_pk, trip_id, route_pk, direction_id, pattern_pk, start_secs, service_pk, feed_pk, is_frequency
                FROM trips WHERE trip_id IN (SELECT value FROM json_each(?1))
                """)
            tripRows.bind(1, JSONText.array(ids))
            struct Row {
                var pk, routePk, patternPk, startSecs, servicePk, feedPk: Int; var direction: Int?; var frequent: Bool
            }
            var byId: [String: Row] = [:]
            byId.reserveCapacity(ids.count)
            while try tripRows.step() {
                byId[tripRows.string(1) ?? ""] = Row(
                    pk: tripRows.int(0), routePk: tripRows.int(2), patternPk: tripRows.int(4),
                    startSecs: tripRows.int(5),
                    servicePk: tripRows.int(6), feedPk: tripRows.int(7), direction: tripRows.optionalInt(3),
                    frequent: tripRows.int(8) != 0)
            }

            // Frequency periods of the frequency-based ones.
            var periods: [Int: [TransitModel.FrequencyWindow]] = [:]
            let frequentPks = byId.values.filter(\.frequent).map(\.pk)
            if !frequentPks.isEmpty {
                let f = try c.statement(
                    """
                    SELECT trip_pk, start_secs, end_secs, headway_secs, exact_times FROM frequencies
                    WHERE trip_pk IN (SELECT value FROM json_each(?1)) ORDER BY trip_pk, start_secs
                    """)
                f.bind(1, JSONText.array(frequentPks))
                while try f.step() {
                    periods[f.int(0), default: []].append(
                        TransitModel.FrequencyWindow(
                            startSecs: Int32(truncatingIfNeeded: f.int(1)),
                            endSecs: Int32(truncatingIfNeeded: f.int(2)),
                            headwaySecs: Int32(truncatingIfNeeded: f.int(3)), exactTimes: f.int(4) != 0))
                }
            }

            var datesOfService: [Int: [UInt32]] = [:]
            var trips: [TripSchedule] = []
            var unknown: [String] = []
            trips.reserveCapacity(byId.count)
            for id in ids {
                guard let row = byId[id] else {
                    unknown.append(id)
                    continue
                }
                let dates: [UInt32]
                if let cached = datesOfService[row.servicePk] {
                    dates = cached
                } else {
                    dates = catalog.calendar.dates(of: row.servicePk, from: fromDate, through: toDate).map {
                        UInt32($0.yyyymmdd)
                    }
                    datesOfService[row.servicePk] = dates
                }
                let route = catalog.routes[row.routePk]
                trips.append(
                    TripSchedule(
                        tripId: id, routeId: route?.routeId ?? "", routeType: route?.routeType ?? 3,
                        directionId: row.direction,
                        patternId: UInt32(truncatingIfNeeded: row.patternPk),
                        startSecs: Int32(truncatingIfNeeded: row.startSecs),
                        frequencies: periods[row.pk] ?? [], serviceDates: dates,
                        timezone: catalog.zone(ofFeedPk: row.feedPk).identifier))
            }
            // Each pattern once, unless the client holds it already.
            var patternPks = Set(byId.values.map(\.patternPk))
            for id in known { patternPks.remove(Int(id)) }
            let patterns = patternPks.sorted().map {
                Pattern(patternId: UInt32(truncatingIfNeeded: $0), stops: self.patterns.stops($0))
            }
            return TripSchedules(
                databaseVersion: catalog.databaseVersion, patterns: patterns, trips: trips,
                unknownTripIds: unknown, descriptorMatches: matches,
                stations: try stations(of: patterns, on: c))
        }
    }

    /// The stations the stops of `patterns` belong to, each with all its child stops (a stop update may
    /// name another platform of the station), by station id and stop id.
    private func stations(of patterns: [Pattern], on c: StoreConnection) throws -> [StationPlatforms] {
        var seen = Set<String>()
        var stopIds: [String] = []
        for pattern in patterns {
            for stop in pattern.stops where seen.insert(stop.stopId).inserted { stopIds.append(stop.stopId) }
        }
        guard !stopIds.isEmpty else { return [] }
        let rows = try c.statement(
            """
            SELECT p.stop_id, c.stop_id, c.platform_code FROM stops c JOIN stops p ON p.stop_pk = c.parent_pk
            WHERE c.parent_pk IN (SELECT parent_pk FROM stops WHERE stop_id IN (SELECT value FROM json_each(?1))
                                  AND parent_pk IS NOT NULL)
            ORDER BY p.stop_id, c.stop_id
            """)
        rows.bind(1, JSONText.array(stopIds))
        var stations: [StationPlatforms] = []
        while try rows.step() {
            let stationId = rows.string(0) ?? ""
            let platform = StationPlatform(stopId: rows.string(1) ?? "", platformCode: rows.string(2))
            if stations.last?.stationId == stationId {
                stations[stations.count - 1].platforms.append(platform)
            } else {
                stations.append(StationPlatforms(stationId: stationId, platforms: [platform]))
            }
        }
        return stations
    }
}

/// JSON arrays for `json_each(?)`: one bound value instead of thousands of parameters.
enum JSONText {
    static func array(_ values: [Int]) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }

    static func array(_ strings: [String]) -> String {
        var out = "["
        out.reserveCapacity(strings.count * 16)
        for (i, s) in strings.enumerated() {
            if i > 0 { out += "," }
            out += "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            out += "\""
        }
        return out + "]"
    }
}
