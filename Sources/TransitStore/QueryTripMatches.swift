import SQLiteKit
import TransitCore
import TransitModel

extension StaticStore {
    /// The static trips each descriptor names (GTFS-Realtime's TripDescriptor without trip_id: route_id,
    /// direction_id, start_date and start_time), one entry per descriptor in order, each sorted by trip id:
    /// empty when none matches, several when the descriptor is ambiguous.
    ///
    /// A trip matches when its route_id and direction_id equal the descriptor's (a trip without
    /// direction_id matches none), its service runs on start_date (calendar and calendar_dates), and
    /// start_time is its first stop's scheduled departure or, for a frequency-based trip, lies in one of its
    /// frequency windows: exact_times=1 only start + k·headway before the end; headway-based [start, end], the
    /// end admitted as the resolver's instance selection does (a run not fixed by the schedule may leave on it).
    public func tripMatches(_ descriptors: [TripStartDescriptor]) throws(StoreError) -> [[String]] {
        guard !descriptors.isEmpty else { return [] }
        return try run { c in try tripMatches(descriptors, on: c) }
    }

    func tripMatches(_ descriptors: [TripStartDescriptor], on c: StoreConnection) throws -> [[String]] {
        guard !descriptors.isEmpty else { return [] }
        guard descriptors.count <= Self.maxScheduleTrips else {
            throw StoreError.invalidArgument(
                "at most \(Self.maxScheduleTrips) descriptors per request, got \(descriptors.count)")
        }
        // Parsed once; descriptors grouped by route id so each trip row is checked against its route's only.
        struct Wanted { let index: Int; let direction: Int; let date: GTFSDate; let secs: Int }
        var byRoute: [String: [Wanted]] = [:]
        for (i, d) in descriptors.enumerated() {
            guard let date = GTFSDate(yyyymmdd: Int(d.startDate)) else {
                throw StoreError.invalidArgument("descriptors[\(i)].start_date \(d.startDate) is not a YYYYMMDD date")
            }
            let secs: Int?
            do { secs = try GTFSTime.parse(d.startTime) } catch {
                throw StoreError.invalidArgument("descriptors[\(i)].start_time \"\(d.startTime)\": \(error)")
            }
            guard let secs else {
                throw StoreError.invalidArgument("descriptors[\(i)].start_time is empty")
            }
            byRoute[d.routeId, default: []].append(Wanted(index: i, direction: d.directionId, date: date, secs: secs))
        }

        // Every trip of the routes named (trips_by_route), filtered in memory.
        struct Candidate {
            let pk: Int; let tripId: String; let route: String; let direction: Int; let patternPk: Int
            let startSecs: Int; let servicePk: Int; let frequent: Bool
        }
        let rows = try c.statement(
            """
            SELECT t.trip_pk, t.trip_id, r.route_id, t.direction_id, t.pattern_pk, t.start_secs, t.service_pk, t.is_frequency
            FROM routes r JOIN trips t ON t.route_pk = r.route_pk
            WHERE r.route_id IN (SELECT value FROM json_each(?1))
            """)
        rows.bind(1, JSONText.array(Array(byRoute.keys)))
        var candidates: [Candidate] = []
        while try rows.step() {
            guard let direction = rows.optionalInt(3) else { continue }
            candidates.append(
                Candidate(
                    pk: rows.int(0), tripId: rows.string(1) ?? "", route: rows.string(2) ?? "", direction: direction,
                    patternPk: rows.int(4), startSecs: rows.int(5), servicePk: rows.int(6), frequent: rows.int(7) != 0))
        }

        // Frequency windows of the frequency-based candidates.
        var periods: [Int: [FrequencyPeriod]] = [:]
        let frequentPks = candidates.filter(\.frequent).map(\.pk)
        if !frequentPks.isEmpty {
            let f = try c.statement(
                """
                SELECT trip_pk, start_secs, end_secs, headway_secs, exact_times FROM frequencies
                WHERE trip_pk IN (SELECT value FROM json_each(?1))
                """)
            f.bind(1, JSONText.array(frequentPks))
            while try f.step() {
                periods[f.int(0), default: []].append(
                    FrequencyPeriod(
                        start: f.int(1), end: f.int(2), headway: f.int(3), isExact: f.int(4) != 0))
            }
        }

        var matches = [[String]](repeating: [], count: descriptors.count)
        for trip in candidates {
            guard let wanted = byRoute[trip.route] else { continue }
            // A non-frequency trip's instance starts at its first stop's departure (start_secs is its first time).
            let firstDeparture = trip.startSecs + Int(patterns.stops(trip.patternPk).first?.departureOffset ?? 0)
            for w in wanted where w.direction == trip.direction {
                let startsThen: Bool
                if trip.frequent {
                    startsThen = (periods[trip.pk] ?? []).contains { p in
                        p.isExact ? p.instance(startingAt: w.secs) != nil : (p.start <= w.secs && w.secs <= p.end)
                    }
                } else {
                    startsThen = firstDeparture == w.secs
                }
                if startsThen, catalog.calendar.isActive(trip.servicePk, on: w.date) {
                    matches[w.index].append(trip.tripId)
                }
            }
        }
        for i in matches.indices where matches[i].count > 1 { matches[i].sort() }
        return matches
    }
}
