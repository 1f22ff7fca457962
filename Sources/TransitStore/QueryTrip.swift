import SQLiteKit
import TransitCore
import TransitModel

extension StaticStore {
    /// How far from `at` (in days) a trip without a date is looked for.
    static let tripSearchDays = 7

    /// One trip instance with every stop's scheduled times.
    ///
    /// With `serviceDate` the trip must run that day (else `notFound`). Without it, the instance running
    /// nearest to `at` is chosen among the service dates around it (the previous service day's run past
    /// midnight included; a running instance wins, then the nearest, ties to the later one).
    /// Frequency-based trips take `startTime` ("HH:MM:SS", the departure from the first stop of an instance
    /// of one of its frequencies rows: on the start + k·headway grid for exact_times 1, anywhere in the
    /// window for 0) or, without it, the instance nearest to `at`; for other trips `startTime` is not needed and
    /// is ignored.
    public func trip(id: String, serviceDate: UInt32? = nil, startTime: String? = nil, at: Int64) throws(StoreError)
        -> TripDetail
    {
        try Self.checkTime(at)
        let date = try serviceDate.map { d throws(StoreError) in try Self.parseDate(d, "date") }
        var start: Int?
        if let startTime, !startTime.isEmpty {
            do {
                start = try GTFSTime.parse(startTime)
            } catch {
                throw .invalidArgument("start_time: \(error)")
            }
        }
        let startCopy = start
        return try run { c in
            let t = try loadTrip(c, id: id)
            let zone = catalog.zone(ofFeedPk: t.feedPk)
            // A frequency instance's start is its departure from the first stop (frequencies.txt start_time),
            // which follows the template's first time (its arrival there, `start_secs`) by any dwell there.
            let dwell = try t.frequencies == nil ? 0 : firstDepartureOffset(c, patternPk: t.patternPk)
            // From the start (first departure, or first time of a plain trip) to the arrival at the last stop.
            let duration = t.endSecs - t.startSecs - dwell

            // The instance: (service date, start time of the trip at its first stop).
            let instance: (date: GTFSDate, start: Int)
            if let date {
                guard catalog.calendar.isActive(t.servicePk, on: date) else {
                    throw StoreError.notFound("trip \(id) does not run on \(date)")
                }
                instance = (
                    date, try instanceStart(t, on: date, zone: zone, requested: startCopy, at: at, duration: duration)
                )
            } else {
                instance = try nearestInstance(t, zone: zone, requested: startCopy, at: at, duration: duration)
            }

            let stops = try tripStops(
                c, patternPk: t.patternPk, base: instance.start - dwell,
                reference: zone.referenceUnix(of: instance.date))
            let route =
                catalog.routes[t.routePk] ?? Route(routeId: "", routeType: 3, mode: Mode.other.rawValue, section: "#")
            let firstDeparture =
                t.frequencies == nil
                ? (stops.first.map { Int($0.departureSecs) } ?? t.startSecs)
                : instance.start
            return TripDetail(
                tripId: t.tripId, route: route, headsign: t.headsign, directionId: t.directionId,
                serviceDate: UInt32(instance.date.yyyymmdd), startTime: GTFSTime.format(firstDeparture),
                frequencyBased: t.frequencies != nil, wheelchairAccessible: t.wheelchairAccessible,
                bikesAllowed: t.bikesAllowed, blockId: t.blockId, shapeId: t.shapeId, shortName: t.shortName,
                timezone: zone.identifier, stops: stops,
                undatedRange: undatedRange(t, on: instance.date, zone: zone, duration: duration))
        }
    }

    /// The values of `at` for which `nearestInstance` picks the instance of `t` on `date` (so a client may
    /// reuse the answer for them): nearer to `at` than the trip's previous and next instances, a tie going to
    /// the later one, as `nearestInstance` decides. Every instance lasts `duration`, so no instance further
    /// away can be nearer. Kept within 6 days of the instance (inside the 7 days `nearestInstance` looks
    /// for, with a day to spare for its window of local dates). nil for a frequency-based trip.
    func undatedRange(_ t: TripRow, on date: GTFSDate, zone: ServiceTimeZone, duration: Int) -> Range<Int64>? {
        guard t.frequencies == nil else { return nil }
        let limit = Int64(Self.tripSearchDays - 1) * 86_400
        let start = zone.unix(of: date, secs: t.startSecs)
        let end = start + Int64(duration)
        // Further than the dates `nearestInstance` looks at for any `at` of the range.
        let reach = catalog.maxSecs / 86_400 + 2 * Self.tripSearchDays + 3
        let runs = { (d: GTFSDate) in self.catalog.calendar.isActive(t.servicePk, on: d) }
        var lower = start - limit
        if let previous = (1...reach).lazy.map({ date.adding(days: -$0) }).first(where: runs) {
            let previousEnd = zone.unix(of: previous, secs: t.startSecs) + Int64(duration)
            // Overlapping runs: from this start on it is the later of two running ones; else from halfway
            // between the two (rounded up: a tie is this, the later, instance).
            lower = max(lower, previousEnd >= start ? start : (start + previousEnd + 1) / 2)
        }
        var upper = end + limit + 1
        if let next = (1...reach).lazy.map({ date.adding(days: $0) }).first(where: runs) {
            let nextStart = zone.unix(of: next, secs: t.startSecs)
            upper = min(upper, nextStart <= end ? nextStart : (nextStart + end + 1) / 2)
        }
        return lower < upper ? lower..<upper : nil
    }

    struct TripRow {
        let pk: Int
        let tripId: String
        let feedPk: Int
        let routePk: Int
        let servicePk: Int
        let patternPk: Int
        let startSecs: Int
        let endSecs: Int
        let headsign: String?
        let shortName: String?
        let directionId: Int?
        let blockId: String?
        let shapeId: String?
        let wheelchairAccessible: Int
        let bikesAllowed: Int
        /// nil for trips that are not frequency-based.
        let frequencies: TripFrequencies?
    }

    func loadTrip(_ c: StoreConnection, id: String) throws -> TripRow {
        let s = try c.statement(
            """
            SELECT trip_pk, trip_id, feed_pk, route_pk, service_pk, pattern_pk, start_secs, end_secs, headsign,
                   short_name, direction_id, block_id, shape_id, wheelchair_accessible, bikes_allowed, is_frequency
            FROM trips WHERE trip_id = ?1
            """)
        s.bind(1, id)
        guard try s.step() else { throw StoreError.notFound("trip \(id)") }
        let pk = s.int(0)
        var frequencies: TripFrequencies?
        let row = (
            s.string(1) ?? id, s.int(2), s.int(3), s.int(4), s.int(5), s.int(6), s.int(7), s.string(8),
            s.string(9), s.optionalInt(10), s.string(11), s.string(12), s.int(13), s.int(14), s.int(15) != 0
        )
        if row.14 {
            let f = try c.statement(
                "SELECT start_secs, end_secs, headway_secs, exact_times FROM frequencies WHERE trip_pk = ?1 ORDER BY start_secs"
            )
            f.bind(1, pk)
            var periods: [FrequencyPeriod] = []
            while try f.step() {
                periods.append(
                    FrequencyPeriod(start: f.int(0), end: f.int(1), headway: f.int(2), isExact: f.int(3) != 0))
            }
            frequencies = TripFrequencies(periods)
        }
        return TripRow(
            pk: pk, tripId: row.0, feedPk: row.1, routePk: row.2, servicePk: row.3, patternPk: row.4,
            startSecs: row.5, endSecs: row.6, headsign: row.7, shortName: row.8, directionId: row.9,
            blockId: row.10, shapeId: row.11, wheelchairAccessible: row.12, bikesAllowed: row.13,
            frequencies: frequencies)
    }

    /// The template's departure at its first stop, in seconds after its first time (`start_secs`).
    func firstDepartureOffset(_ c: StoreConnection, patternPk: Int) throws -> Int {
        let s = try c.statement("SELECT departure_offset FROM pattern_stops WHERE pattern_pk = ?1 AND stop_index = 0")
        s.bind(1, patternPk)
        return try s.step() ? s.int(0) : 0
    }

    /// The start of the trip's instance on a date: its own start, the requested frequency instance, or
    /// the frequency instance nearest to `at`.
    func instanceStart(
        _ t: TripRow, on date: GTFSDate, zone: ServiceTimeZone, requested: Int?, at: Int64,
        duration: Int
    ) throws -> Int {
        guard let frequencies = t.frequencies else { return t.startSecs }
        if let requested {
            // exact_times=1 is a schedule: an instance starts only at start_time + k·headway (GTFS-Realtime:
            // start_time "must be some multiple (including zero) of headway_secs later than frequencies.txt
            // start_time"); exact_times=0 promises only a headway, so any start inside the window is one.
            let isInstance = frequencies.periods.contains { period in
                period.isExact
                    ? period.instance(startingAt: requested) != nil
                    : requested >= period.start && requested < period.end
            }
            guard isInstance else {
                throw StoreError.notFound("trip \(t.tripId) has no instance starting at \(GTFSTime.format(requested))")
            }
            return requested
        }
        let secs = Int(at - zone.referenceUnix(of: date))
        guard let start = Self.nearestFrequencyStart(frequencies, secs: secs, duration: duration) else {
            throw StoreError.notFound("trip \(t.tripId) has no frequency instances")
        }
        return start
    }

    /// Instance of a frequency trip nearest to `secs`: one running then (the latest started), else the
    /// nearest start or end.
    static func nearestFrequencyStart(_ f: TripFrequencies, secs: Int, duration: Int) -> Int? {
        // A running instance started within [secs - duration, secs]: the latest such start.
        var best: Int?
        for p in f.periods {
            let running = p.instances(offset: 0, timeIn: (secs - duration)..<(secs + 1))
            if let last = running.last {
                let s = p.startTime(ofInstance: last)
                if best == nil || s > best! { best = s }
            }
        }
        if let best { return best }
        // Otherwise the nearest by start (upcoming) or by end (finished).
        var bestDistance = Int.max
        for p in f.periods {
            guard p.instanceCount > 0 else { continue }
            let upcoming = p.instances(offset: 0, timeIn: secs..<Int.max / 2).first
            let finished = p.instances(offset: duration, timeIn: (Int.min / 2)..<secs).last
            for k in [upcoming, finished].compactMap({ $0 }) {
                let s = p.startTime(ofInstance: k)
                let d = s > secs ? s - secs : secs - (s + duration)
                if best == nil || d < bestDistance || (d == bestDistance && s > best!) {
                    bestDistance = d
                    best = s
                }
            }
        }
        return best
    }

    /// The instance nearest to `at` over the service dates around it. For a frequency-based trip named
    /// without a start time: the instance running at `at` (the latest started), else the next one to start,
    /// never one already finished (a rider holding the trip id of a board row wants a coming run, not the
    /// last one of the day).
    func nearestInstance(
        _ t: TripRow, zone: ServiceTimeZone, requested: Int?, at: Int64,
        duration: Int
    ) throws -> (date: GTFSDate, start: Int) {
        let local = zone.localDate(atUnix: at)
        let back = catalog.maxSecs / 86_400 + 1 + Self.tripSearchDays
        if let frequencies = t.frequencies, requested == nil {
            var running: (date: GTFSDate, start: Int, startUnix: Int64)?
            var next: (date: GTFSDate, start: Int, startUnix: Int64)?
            for offset in -back...(Self.tripSearchDays + 1) {
                let date = local.adding(days: offset)
                guard catalog.calendar.isActive(t.servicePk, on: date) else { continue }
                let secs = Int(at - zone.referenceUnix(of: date))
                for p in frequencies.periods {
                    if let k = p.instances(offset: 0, timeIn: (secs - duration)..<(secs + 1)).last {
                        let start = p.startTime(ofInstance: k)
                        let startUnix = zone.unix(of: date, secs: start)
                        if running == nil || startUnix > running!.startUnix { running = (date, start, startUnix) }
                    }
                    if let k = p.instances(offset: 0, timeIn: (secs + 1)..<Int.max / 2).first {
                        let start = p.startTime(ofInstance: k)
                        let startUnix = zone.unix(of: date, secs: start)
                        if next == nil || startUnix < next!.startUnix { next = (date, start, startUnix) }
                    }
                }
            }
            if let running { return (running.date, running.start) }
            if let next, next.startUnix - at <= Int64(Self.tripSearchDays) * 86_400 { return (next.date, next.start) }
        }
        var best: (date: GTFSDate, start: Int, distance: Int64, startUnix: Int64)?
        for offset in -back...(Self.tripSearchDays + 1) {
            let date = local.adding(days: offset)
            guard catalog.calendar.isActive(t.servicePk, on: date) else { continue }
            guard
                let start = try? instanceStart(
                    t, on: date, zone: zone, requested: requested, at: at, duration: duration)
            else { continue }
            let startUnix = zone.unix(of: date, secs: start)
            let endUnix = startUnix + Int64(duration)
            let distance = at < startUnix ? startUnix - at : (at > endUnix ? at - endUnix : 0)
            if best == nil || distance < best!.distance || (distance == best!.distance && startUnix > best!.startUnix) {
                best = (date, start, distance, startUnix)
            }
        }
        guard let best, best.distance <= Int64(Self.tripSearchDays) * 86_400 else {
            throw StoreError.notFound("trip \(t.tripId) does not run within \(Self.tripSearchDays) days of \(at)")
        }
        return (best.date, best.start)
    }

    /// Every stop of a pattern with times `base + offset`, as unix times from the service day's reference.
    func tripStops(_ c: StoreConnection, patternPk: Int, base: Int, reference: Int64) throws -> [TripStop] {
        let template: [TripStop]
        if let held = tripStopTemplates.withLock({ $0[patternPk] }) {
            template = held
        } else {
            template = try tripStopRows(c, patternPk: patternPk, base: 0, reference: 0)
            tripStopTemplates.withLock { held in
                if held.count >= Self.tripStopTemplateCapacity { held.removeAll() }
                held[patternPk] = template
            }
        }
        return template.map { row in
            var stop = row
            let arrival = base + Int(row.arrivalSecs), departure = base + Int(row.departureSecs)
            stop.arrivalSecs = Int32(truncatingIfNeeded: arrival)
            stop.departureSecs = Int32(truncatingIfNeeded: departure)
            stop.arrivalUnix = reference + Int64(arrival)
            stop.departureUnix = reference + Int64(departure)
            return stop
        }
    }

    /// The stop rows of pattern `patternPk` read from the database.
    private func tripStopRows(_ c: StoreConnection, patternPk: Int, base: Int, reference: Int64) throws -> [TripStop] {
        let s = try c.statement(
            """
            SELECT st.stop_id, st.name, ps.stop_sequence, ps.arrival_offset, ps.departure_offset, st.lat, st.lon,
                   st.platform_code, st.wheelchair_boarding, p.wheelchair_boarding, ps.pickup_type, ps.drop_off_type,
                   ps.stop_headsign, p.stop_id
            FROM pattern_stops ps
            JOIN stops st ON st.stop_pk = ps.stop_pk
            LEFT JOIN stops p ON p.stop_pk = st.parent_pk
            WHERE ps.pattern_pk = ?1 ORDER BY ps.stop_index
            """)
        s.bind(1, patternPk)
        var stops: [TripStop] = []
        while try s.step() {
            let arrival = base + s.int(3), departure = base + s.int(4)
            var wheelchair = s.int(8)
            if wheelchair == 0, let inherited = s.optionalInt(9) { wheelchair = inherited }
            stops.append(
                TripStop(
                    stopId: s.string(0) ?? "", stopName: s.string(1) ?? "",
                    stopSequence: UInt32(truncatingIfNeeded: s.int(2)),
                    arrivalSecs: Int32(truncatingIfNeeded: arrival),
                    departureSecs: Int32(truncatingIfNeeded: departure),
                    arrivalUnix: reference + Int64(arrival), departureUnix: reference + Int64(departure),
                    lat: s.optionalDouble(5) ?? 0, lon: s.optionalDouble(6) ?? 0, platformCode: s.string(7),
                    wheelchairBoarding: wheelchair, pickupType: s.int(10), dropOffType: s.int(11),
                    stopHeadsign: s.string(12), parentStation: s.string(13)))
        }
        return stops
    }
}
