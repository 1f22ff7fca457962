import Foundation

/// Writes the GTFS files of a planned network.
struct FeedWriter {
    let network: Network
    let timetable: Timetable
    let directory: String

    private func open(_ name: String) throws -> ByteFileWriter {
        try ByteFileWriter(path: directory + "/" + name)
    }

    private func finish(_ name: String, _ file: ByteFileWriter, rows: Int) throws -> FeedSummary.File {
        try file.close()
        return FeedSummary.File(name: name, rows: rows, bytes: file.bytesWritten)
    }

    func writeAgency() throws -> FeedSummary.File {
        let f = try open("agency.txt")
        try f.write("agency_id,agency_name,agency_url,agency_timezone,agency_lang,agency_phone\n")
        for agency in network.agencies {
            try f.writeField(agency.id)
            try f.write(",")
            try f.writeField(agency.name)
            try f.write(",https://transportnsw.info,Australia/Sydney,en,131500\n")
        }
        return try finish("agency.txt", f, rows: network.agencies.count)
    }

    func writeStops() throws -> FeedSummary.File {
        let f = try open("stops.txt")
        try f.write(
            "stop_id,stop_code,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding,platform_code\n"
        )
        for stop in network.stops {
            try f.writeDecimal(stop.id)
            try f.write(",")
            if stop.hasCode { try f.writeDecimal(stop.id) }
            try f.write(",")
            try f.writeField(stop.name)
            try f.reserve(64)
            f.put(44)
            f.putMicrodegrees(stop.position.lat)
            f.put(44)
            f.putMicrodegrees(stop.position.lon)
            f.put(44)
            f.putDecimal(stop.locationType)
            f.put(44)
            if stop.parent >= 0 { f.putDecimal(network.stops[stop.parent].id) }
            f.put(44)
            f.putDecimal(stop.wheelchair)
            f.put(44)
            try f.writeField(stop.platformCode)
            try f.write("\n")
        }
        return try finish("stops.txt", f, rows: network.stops.count)
    }

    func writeRoutes() throws -> FeedSummary.File {
        let f = try open("routes.txt")
        try f.write(
            "route_id,agency_id,route_short_name,route_long_name,route_desc,route_type,route_color,route_text_color\n")
        for route in network.routes {
            for field in [route.id, network.agencies[route.agency].id, route.shortName, route.longName, route.desc] {
                try f.writeField(field)
                try f.write(",")
            }
            try f.write("\(route.mode.routeType),\(route.color),\(route.textColor)\n")
        }
        return try finish("routes.txt", f, rows: network.routes.count)
    }

    func writeCalendar() throws -> FeedSummary.File {
        let f = try open("calendar.txt")
        try f.write("service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n")
        for row in ServiceCalendar.calendar {
            let days = row.days.map(String.init).joined(separator: ",")
            try f.write("\(row.service.id),\(days),\(ServiceCalendar.start.yyyymmdd),\(ServiceCalendar.end.yyyymmdd)\n")
        }
        return try finish("calendar.txt", f, rows: ServiceCalendar.calendar.count)
    }

    func writeCalendarDates(_ exceptions: [ServiceCalendar.Exception]) throws -> FeedSummary.File {
        let f = try open("calendar_dates.txt")
        try f.write("service_id,date,exception_type\n")
        for e in exceptions {
            try f.write("\(e.service.id),\(e.date.yyyymmdd),\(e.type)\n")
        }
        return try finish("calendar_dates.txt", f, rows: exceptions.count)
    }

    func writeFeedInfo(version: String) throws -> FeedSummary.File {
        let f = try open("feed_info.txt")
        try f.write("feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version\n")
        try f.write("transit-feedgen (synthetic NSW-scale feed),https://example.org/transit-feedgen,en,")
        try f.write("\(ServiceCalendar.start.yyyymmdd),\(ServiceCalendar.end.yyyymmdd),\(version)\n")
        return try finish("feed_info.txt", f, rows: 1)
    }

    /// trips.txt, stop_times.txt and frequencies.txt in one pass over the timetable.
    func writeTripsAndStopTimes() throws -> [FeedSummary.File] {
        let trips = try open("trips.txt")
        let stopTimes = try open("stop_times.txt")
        let frequencies = try open("frequencies.txt")
        try trips.write("route_id,service_id,trip_id,trip_headsign,direction_id,wheelchair_accessible,shape_id\n")
        try stopTimes.write("trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type\n")
        try frequencies.write("trip_id,start_time,end_time,headway_secs,exact_times\n")
        var tripRows = 0, stopTimeRows = 0, frequencyRows = 0
        let tails = network.patterns.map { RowTails(pattern: $0, stops: network.stops) }
        var tripId: [UInt8] = []
        tripId.reserveCapacity(96)

        for (r, route) in network.routes.enumerated() {
            let routeId = Array(route.id.utf8)
            let routeField = Array(csvField(route.id).utf8)
            for service in route.services {
                let n = timetable.tripCount(route: r, service: service)
                let serviceId = Array(service.id.utf8)
                for patterns in timetable.patternsByDirection[r] {
                    let direction = network.patterns[patterns[0]].direction
                    let counts = Timetable.split(n, patterns: patterns, in: network)
                    let templates = route.timetable != .scheduled
                    let times =
                        templates
                        ? [Timetable.frequencyWindows(route.timetable, mode: route.mode, service: service)[0].0]
                        : Timetable.departures(
                            n, service: service, mode: route.mode, direction: direction,
                            phaseMinutes: (r * 7 + direction * 4) % 10)
                    let order = Timetable.assign(counts)
                    for (j, local) in order.enumerated() {
                        let p = patterns[local]
                        let pattern = network.patterns[p]
                        // trip id: <route_id>.<service_id>.<direction>.<n> (".F" for frequency templates)
                        tripId.removeAll(keepingCapacity: true)
                        tripId += routeId
                        tripId.append(46)
                        tripId += serviceId
                        tripId.append(46)
                        tripId.append(UInt8(48 + direction))
                        tripId.append(46)
                        if templates { tripId.append(70) } else { tripId += Array(String(j + 1).utf8) }

                        try tripId.withUnsafeBufferPointer { id in
                            try routeField.withUnsafeBufferPointer { rf in
                                try trips.reserve(rf.count + serviceId.count + id.count + 16)
                                trips.put(rf)
                                trips.put(44)
                                serviceId.withUnsafeBufferPointer { trips.put($0) }
                                trips.put(44)
                                trips.put(id)
                                trips.put(44)
                            }
                            try trips.writeField(pattern.headsign)
                            try trips.reserve(8)
                            trips.put(44)
                            trips.put(UInt8(48 + direction))
                            trips.put(44)
                            trips.putDecimal(Self.wheelchairAccessible(route.mode, trip: j))
                            trips.put(44)
                            trips.put(83)  // S<pattern index + 1>: the pattern's shape (writeShapes)
                            trips.putDecimal(p + 1)
                            trips.put(10)
                            tripRows += 1

                            let start = times[j]
                            try tails[p].write(tripId: id, start: start, pattern: pattern, to: stopTimes)
                            stopTimeRows += pattern.stops.count

                            if templates {
                                for (from, to, headway) in Timetable.frequencyWindows(
                                    route.timetable, mode: route.mode, service: service)
                                {
                                    try frequencies.reserve(id.count + 40)
                                    frequencies.put(id)
                                    frequencies.put(44)
                                    frequencies.putTime(from)
                                    frequencies.put(44)
                                    frequencies.putTime(to)
                                    frequencies.put(44)
                                    frequencies.putDecimal(headway)
                                    frequencies.put(44)
                                    frequencies.put(route.timetable == .frequencyExact ? 49 : 48)
                                    frequencies.put(10)
                                    frequencyRows += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return [
            try finish("trips.txt", trips, rows: tripRows),
            try finish("stop_times.txt", stopTimes, rows: stopTimeRows),
            try finish("frequencies.txt", frequencies, rows: frequencyRows),
        ]
    }

    /// shapes.txt: one shape per pattern (`S<index + 1>`), a curve through every stop of the pattern: between
    /// two stops a quadratic Bézier curve whose control point sits off the straight line by 12 % of its
    /// length (alternately left and right), `Self.curveSteps` points per segment, shape_dist_traveled in
    /// metres. Integer and plain floating-point arithmetic only, so the bytes never depend on the platform.
    func writeShapes() throws -> FeedSummary.File {
        let file = try open("shapes.txt")
        try file.write("shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\n")
        var rows = 0
        for (p, pattern) in network.patterns.enumerated() {
            let id = Array("S\(p + 1)".utf8)
            var sequence = 0
            var distance = 0.0
            var previous = network.stops[pattern.stops[0]].position
            func put(_ point: Point) throws {
                distance += previous.metres(to: point)
                previous = point
                sequence += 1
                try file.reserve(id.count + 48)
                id.withUnsafeBufferPointer { file.put($0) }
                file.put(44)
                file.putMicrodegrees(point.lat)
                file.put(44)
                file.putMicrodegrees(point.lon)
                file.put(44)
                file.putDecimal(sequence)
                file.put(44)
                file.putDecimal(Int(distance.rounded()))
                file.put(10)
                rows += 1
            }
            try put(previous)
            for i in 1..<pattern.stops.count {
                let a = network.stops[pattern.stops[i - 1]].position, b = network.stops[pattern.stops[i]].position
                let side = i % 2 == 0 ? -0.12 : 0.12
                // Perpendicular on the ground: scale by the metres per microdegree of each axis.
                let controlLat = Double(a.lat + b.lat) / 2 - Double(b.lon - a.lon) * (0.0925 / 0.1112) * side
                let controlLon = Double(a.lon + b.lon) / 2 + Double(b.lat - a.lat) * (0.1112 / 0.0925) * side
                for k in 1...Self.curveSteps {
                    let t = Double(k) / Double(Self.curveSteps)
                    let wa = (1 - t) * (1 - t), wc = 2 * (1 - t) * t, wb = t * t
                    try put(
                        k == Self.curveSteps
                            ? b
                            : Point(
                                lat: Int((wa * Double(a.lat) + wc * controlLat + wb * Double(b.lat)).rounded()),
                                lon: Int((wa * Double(a.lon) + wc * controlLon + wb * Double(b.lon)).rounded())))
                }
            }
        }
        return try finish("shapes.txt", file, rows: rows)
    }

    /// Points of a shape per segment between two stops (the next stop included).
    static let curveSteps = 4

    /// 0/1/2 per trip: most vehicles are accessible, some buses are not or unknown.
    static func wheelchairAccessible(_ mode: Mode, trip j: Int) -> Int {
        switch mode {
        case .bus, .nightBus, .railReplacement:
            j % 17 == 3 ? 2 : (j % 29 == 5 ? 0 : 1)
        case .schoolBus:
            j % 2 == 0 ? 2 : 1
        default:
            1
        }
    }
}

/// The constant end of each stop_time row of a pattern: `,<stop_id>,<seq>,<pickup>,<drop_off>\n`.
/// Precomputed once, so a row costs a trip id copy, two times and one memcpy.
struct RowTails {
    private var bytes: [UInt8] = []
    private var offsets: [Int] = [0]

    init(pattern: GenPattern, stops: [GenStop]) {
        for (i, stop) in pattern.stops.enumerated() {
            bytes.append(44)
            bytes += Array(String(stops[stop].id).utf8)
            bytes.append(44)
            bytes += Array(String(i + 1).utf8)
            bytes.append(44)
            bytes.append(UInt8(48 + pattern.pickup[i]))
            bytes.append(44)
            bytes.append(UInt8(48 + pattern.dropOff[i]))
            bytes.append(10)
            offsets.append(bytes.count)
        }
    }

    func write(tripId: UnsafeBufferPointer<UInt8>, start: Int, pattern: GenPattern, to file: ByteFileWriter) throws {
        try bytes.withUnsafeBufferPointer { all in
            for i in 0..<pattern.stops.count {
                let tail = UnsafeBufferPointer(rebasing: all[offsets[i]..<offsets[i + 1]])
                try file.reserve(tripId.count + 20 + tail.count)
                file.put(tripId)
                file.put(44)
                file.putTime(start + pattern.arrival[i])
                file.put(44)
                file.putTime(start + pattern.departure[i])
                file.put(tail)
            }
        }
    }
}

/// A CSV field as it will be written (quoted when it holds a comma, quote or line break).
func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
