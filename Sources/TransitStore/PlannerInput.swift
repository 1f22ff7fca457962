import JourneyPlanner
import SQLiteKit
import TransitCore

/// What the journey planner's timetable is built from, loaded from the database for a window of service dates,
/// with the names of what the planner's indexes mean.
///
/// - Stop index = `stop_pk` (pks without a stop are placeholders without coordinates); `stopIds` names them.
/// - Trip index i is trip `tripIds[i]` of route `routeIds[i]`: only trips whose service runs on a date of the window.
/// - Each date is one service day per timezone of the feeds (a multi-feed database may have several), holding the
///   services of that timezone that run on it.
/// - `source.transfers`: the `transfers` table (stop-to-stop rows of transfers.txt).
public struct PlannerInput: Sendable {
    public var source: TimetableSource
    public var stopIds: [String]
    public var tripIds: [String]
    public var routeIds: [String]
}

extension StaticStore {
    /// The service dates the planner's timetable holds around `unix` (protocol/README.md flow 8): from the day
    /// before that day to the day after the next, in the first feed's timezone.
    public func plannerDates(aroundUnix unix: Int64) -> ClosedRange<GTFSDate> {
        let today = catalog.zones[0].localDate(atUnix: unix)
        return today.adding(days: -1)...today.adding(days: 2)
    }

    /// The service dates a plan at `unix` searches (protocol/README.md flow 8): those of every service day with a
    /// stop time in its horizon, the 24 h after a departure (`arriveBy` false) or the 24 h before an arrival, in the
    /// first feed's timezone. A day before the horizon's counts only when the feed's times reach into it (stop
    /// times past 24:00:00), so a plan around now needs no more than `plannerDates(aroundUnix:)` holds. The date of
    /// `unix` itself is always in (the planner takes a time its timetable's days do not cover for one outside them).
    public func plannerDates(forPlanAt unix: Int64, arriveBy: Bool) -> ClosedRange<GTFSDate> {
        let zone = catalog.zones[0]
        let (start, end) = arriveBy ? (unix - PlanQuery.horizon, unix) : (unix, unix + PlanQuery.horizon)
        let days = zone.serviceDays(fromUnix: start, toUnix: end + 1, maxSecs: catalog.maxSecs).map(\.date)
        let date = zone.localDate(atUnix: unix)
        return min(days.first ?? date, date)...max(days.last ?? date, date)
    }

    /// The first and last dates on which the feeds' calendars run a service (nil when none runs on any).
    public var serviceDates: ClosedRange<GTFSDate>? {
        guard let first = catalog.calendar.firstDate, let last = catalog.calendar.lastDate, first <= last else {
            return nil
        }
        return first...last
    }

    /// The timezone of the planner's dates (the first feed's).
    public var plannerZone: ServiceTimeZone { catalog.zones[0] }

    /// The planner's input for the service dates `dates` (use the day before the first date of interest too, for
    /// the trips still running after midnight). Trips with fewer than two stops are left out.
    public func plannerInput(dates: ClosedRange<GTFSDate>) throws(StoreError) -> PlannerInput {
        let catalog = self.catalog
        return try run { c in
            // Service days: one per date and zone.
            var days: [TimetableSource.ServiceDay] = []
            var runningServices = Set<Int>()
            var date = dates.lowerBound
            while date <= dates.upperBound {
                let active = catalog.calendar.activeServices(on: date)
                for (z, zone) in catalog.zones.enumerated() {
                    var set = ServiceSet(capacity: catalog.calendar.serviceCount)
                    for s in active.members
                    where catalog.zoneIndex(ofService: s) == z || (z == 0 && catalog.zoneIndex(ofService: s) < 0) {
                        set.insert(s)
                        runningServices.insert(s)
                    }
                    if !set.isEmpty {
                        days.append(.init(date: date, referenceUnix: zone.referenceUnix(of: date), services: set))
                    }
                }
                date = date.adding(days: 1)
            }

            // Stops by stop_pk.
            let maxStop = Int(try c.db.scalarInt("SELECT MAX(stop_pk) FROM stops") ?? 0)
            var stops = [TimetableSource.Stop](repeating: .init(lat: nil, lon: nil), count: maxStop + 1)
            var stopIds = [String](repeating: "", count: maxStop + 1)
            let stopRows = try c.db.prepare(
                "SELECT stop_pk, stop_id, lat, lon, parent_pk, wheelchair_boarding FROM stops")
            while try stopRows.step() {
                let pk = stopRows.int(0)
                guard pk >= 0 && pk <= maxStop else { continue }
                stopIds[pk] = stopRows.string(1) ?? ""
                stops[pk] = .init(
                    lat: stopRows.optionalDouble(2), lon: stopRows.optionalDouble(3), station: stopRows.optionalInt(4),
                    wheelchairBoarding: stopRows.int(5))
            }

            // Patterns' stops, read once and shared by their trips.
            var patternStops: [Int: [(stop: Int, arrival: Int, departure: Int, pickup: Bool, dropOff: Bool)]] = [:]
            let patternRows = try c.db.prepare(
                """
                SELECT pattern_pk, stop_pk, arrival_offset, departure_offset, pickup_type, drop_off_type
                FROM pattern_stops ORDER BY pattern_pk, stop_index
                """)
            while try patternRows.step() {
                patternStops[patternRows.int(0), default: []].append(
                    (
                        patternRows.int(1), patternRows.int(2), patternRows.int(3), patternRows.int(4) == 0,
                        patternRows.int(5) == 0
                    ))
            }

            var frequencies: [Int: [FrequencyPeriod]] = [:]
            let frequencyRows = try c.db.prepare(
                "SELECT trip_pk, start_secs, end_secs, headway_secs, exact_times FROM frequencies")
            while try frequencyRows.step() {
                frequencies[frequencyRows.int(0), default: []].append(
                    FrequencyPeriod(
                        start: frequencyRows.int(1), end: frequencyRows.int(2), headway: frequencyRows.int(3),
                        isExact: frequencyRows.int(4) != 0))
            }

            var trips: [TimetableSource.Trip] = []
            var tripIds: [String] = []
            var routeIds: [String] = []
            let tripRows = try c.db.prepare(
                """
                SELECT trip_pk, trip_id, route_pk, service_pk, pattern_pk, start_secs, wheelchair_accessible
                FROM trips ORDER BY trip_pk
                """)
            while try tripRows.step() {
                let service = tripRows.int(3)
                guard runningServices.contains(service), let pattern = patternStops[tripRows.int(4)], pattern.count >= 2
                else { continue }
                let start = tripRows.int(5)
                let route = catalog.routes[tripRows.int(2)]
                trips.append(
                    .init(
                        service: service, mode: route.flatMap { Mode(rawValue: $0.mode) } ?? .other,
                        wheelchairAccessible: tripRows.int(6),
                        stopTimes: pattern.map {
                            .init(
                                stop: $0.stop, arrival: start + $0.arrival, departure: start + $0.departure,
                                pickup: $0.pickup,
                                dropOff: $0.dropOff)
                        }, frequencies: frequencies[tripRows.int(0)] ?? []))
                tripIds.append(tripRows.string(1) ?? "")
                routeIds.append(route?.routeId ?? "")
            }
            var transfers: [TimetableSource.Transfer] = []
            let transferRows = try c.db.prepare(
                "SELECT from_stop_pk, to_stop_pk, transfer_type, min_transfer_time FROM transfers")
            while try transferRows.step() {
                let from = transferRows.int(0), to = transferRows.int(1)
                guard stops.indices.contains(from), stops.indices.contains(to) else { continue }
                transfers.append(
                    .init(from: from, to: to, type: transferRows.int(2), minTime: transferRows.optionalInt(3)))
            }
            return PlannerInput(
                source: TimetableSource(stops: stops, trips: trips, transfers: transfers, days: days), stopIds: stopIds,
                tripIds: tripIds, routeIds: routeIds)
        }
    }
}
