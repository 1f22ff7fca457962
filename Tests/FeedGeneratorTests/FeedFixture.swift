import Foundation

/// A GTFS folder read with `CSVTable`, and the cross-file checks every feed must pass.
struct FeedFixture {
    let directory: String
    let agency, stops, routes, trips, stopTimes, calendar, calendarDates, frequencies, feedInfo: CSVTable

    init(directory: String) throws {
        self.directory = directory
        func load(_ name: String) throws -> CSVTable { try CSVTable(path: directory + "/" + name) }
        agency = try load("agency.txt")
        stops = try load("stops.txt")
        routes = try load("routes.txt")
        trips = try load("trips.txt")
        stopTimes = try load("stop_times.txt")
        calendar = try load("calendar.txt")
        calendarDates = try load("calendar_dates.txt")
        frequencies = try load("frequencies.txt")
        feedInfo = try load("feed_info.txt")
    }

    static let files = [
        "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
        "calendar_dates.txt", "frequencies.txt", "feed_info.txt", "shapes.txt",
    ]

    /// Referential integrity and ordering problems, one line each (empty when the feed is sound).
    func problems() -> [String] {
        var out: [String] = []
        func note(_ s: String) { if out.count < 20 { out.append(s) } }

        let agencies = Set(agency.column("agency_id"))
        for row in routes.rows where !agencies.contains(routes.value(row, "agency_id")) {
            note("route \(routes.value(row, "route_id")) has unknown agency")
        }
        let timezones = Set(agency.column("agency_timezone"))
        if timezones != ["Australia/Sydney"] { note("agency timezones \(timezones)") }

        var stopType: [String: Int] = [:]
        for row in stops.rows { stopType[stops.value(row, "stop_id")] = Int(stops.value(row, "location_type")) ?? 0 }
        if stopType.count != stops.rows.count { note("duplicate stop ids") }
        for row in stops.rows {
            let id = stops.value(row, "stop_id"), parent = stops.value(row, "parent_station")
            let type = stopType[id] ?? 0
            if parent.isEmpty {
                if type >= 2 { note("stop \(id) of location_type \(type) has no parent") }
            } else if stopType[parent] != 1 {
                note("stop \(id) has parent \(parent) that is not a station")
            } else if type == 1 {
                note("station \(id) has a parent")
            }
        }

        let routeIds = Set(routes.column("route_id"))
        let services = Set(calendar.column("service_id")).union(calendarDates.column("service_id"))
        var tripIds = Set<String>()
        for row in trips.rows {
            let id = trips.value(row, "trip_id")
            if !tripIds.insert(id).inserted { note("duplicate trip \(id)") }
            if !routeIds.contains(trips.value(row, "route_id")) { note("trip \(id) has unknown route") }
            if !services.contains(trips.value(row, "service_id")) { note("trip \(id) has unknown service") }
        }

        // per trip: the last (sequence, departure) seen, in file order
        var last: [String: (seq: Int, departure: Int)] = [:]
        var tripsWithStops = Set<String>()
        for row in stopTimes.rows {
            let trip = stopTimes.value(row, "trip_id"), stop = stopTimes.value(row, "stop_id")
            guard tripIds.contains(trip) else { note("stop_time of unknown trip \(trip)"); continue }
            guard let type = stopType[stop] else { note("stop_time of \(trip) at unknown stop \(stop)"); continue }
            if type != 0 { note("stop_time of \(trip) at \(stop) of location_type \(type)") }
            guard let seq = Int(stopTimes.value(row, "stop_sequence")),
                let arrival = gtfsSeconds(stopTimes.value(row, "arrival_time")),
                let departure = gtfsSeconds(stopTimes.value(row, "departure_time"))
            else { note("stop_time of \(trip) with a bad sequence or time: \(row)"); continue }
            if arrival > departure { note("\(trip) seq \(seq): arrival after departure") }
            if let previous = last[trip] {
                if seq <= previous.seq { note("\(trip): stop_sequence \(seq) after \(previous.seq)") }
                if arrival < previous.departure { note("\(trip) seq \(seq): time goes backwards") }
            }
            last[trip] = (seq, departure)
            tripsWithStops.insert(trip)
        }
        for trip in tripIds where !tripsWithStops.contains(trip) { note("trip \(trip) has no stop times") }

        for row in frequencies.rows {
            let trip = frequencies.value(row, "trip_id")
            if !tripIds.contains(trip) { note("frequency of unknown trip \(trip)") }
            guard let start = gtfsSeconds(frequencies.value(row, "start_time")),
                let end = gtfsSeconds(frequencies.value(row, "end_time")),
                let headway = Int(frequencies.value(row, "headway_secs"))
            else { note("bad frequency row \(row)"); continue }
            if start >= end || headway <= 0 { note("frequency of \(trip): empty window or headway") }
            if !["0", "1"].contains(frequencies.value(row, "exact_times")) { note("frequency exact_times of \(trip)") }
        }
        for row in calendarDates.rows where !["1", "2"].contains(calendarDates.value(row, "exception_type")) {
            note("calendar_dates exception_type \(row)")
        }
        return out
    }

    /// The stop times of one trip in file order.
    func stopTimes(of trip: String) -> [[String]] {
        stopTimes.rows(where: "trip_id", is: trip)
    }
}
