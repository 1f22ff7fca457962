import GTFSCSV
import SQLiteKit

/// A trip of trips.txt, completed (pk, pattern, times) once its stop_times are processed.
struct TripRecord {
    var id: String
    var routePk: Int32
    var servicePk: Int32
    var headsign: String?
    var shortName: String?
    var direction: Int?
    var block: String?
    var shape: String?
    var wheelchair: Int8
    var bikes: Int8
    var line: Int32
    /// 0 until the trip has valid stop_times.
    var pk: Int32 = 0
    var patternPk: Int32 = 0
    var start: Int32 = 0
    var end: Int32 = 0
}

/// A frequencies.txt row of one trip.
struct FrequencyRow {
    var start: Int32
    var end: Int32
    var headway: Int32
    var exactTimes: Int8

    /// How many trips this row schedules (start, start + headway, … before end).
    var instances: Int { headway > 0 && end > start ? (Int(end - start) + Int(headway) - 1) / Int(headway) : 0 }
}

/// The trips of one feed, indexed by their unprefixed trip_id bytes (for the stop_times lookups).
struct FeedTrips {
    var ids = ByteInterner(capacity: 1 << 14)
    var records: [TripRecord] = []
    var frequencies: [Int: [FrequencyRow]] = [:]
}

extension ImportBuilder {
    /// trips.txt into memory (inserted once their stop_times give them a pattern).
    func readTrips(_ feed: FeedContext) throws -> FeedTrips {
        var trips = FeedTrips()
        guard let (reader, tally) = try open(feed, "trips.txt") else { return trips }
        let route = try reader.required("route_id")
        let service = try reader.required("service_id")
        let id = try reader.required("trip_id")
        let headsign = reader.column("trip_headsign")
        let shortName = reader.column("trip_short_name")
        let direction = reader.column("direction_id")
        let block = reader.column("block_id")
        let shape = reader.column("shape_id")
        let wheelchair = reader.column("wheelchair_accessible")
        let bikes = reader.column("bikes_allowed")
        while try reader.next() {
            tally.read += 1
            let idBytes = reader.bytes(id)
            if idBytes.isEmpty { throw reader.missingValue(id) }
            if trips.ids.find(idBytes) != nil {
                try reject("duplicate trip_id", reader, id, tally)
                continue
            }
            let tripID = feed.prefixed(try reader.string(id))
            if let owner = tripOwners[tripID] {
                throw collision("trip_id", tripID, feed: feed, owner: Int(owner), reader: reader, column: id)
            }
            guard let routePk = feed.routes[feed.prefixed(try reader.string(route))] else {
                try reject("unknown route_id", reader, route, tally)
                continue
            }
            guard let servicePk = feed.services[feed.prefixed(try reader.string(service))] else {
                try reject("unknown service_id", reader, service, tally)
                continue
            }
            let directionID = try reader.int(direction)
            if let directionID, directionID != 0, directionID != 1 {
                throw reader.error("bad direction_id \(directionID) (expected 0 or 1)", column: direction)
            }
            _ = trips.ids.intern(idBytes)
            tripOwners[tripID] = Int32(feed.index)
            trips.records.append(
                try TripRecord(
                    id: tripID, routePk: Int32(routePk), servicePk: Int32(servicePk),
                    headsign: reader.optionalString(headsign), shortName: reader.optionalString(shortName),
                    direction: directionID, block: reader.optionalString(block).map(feed.prefixed),
                    shape: reader.optionalString(shape).map(feed.prefixed),
                    wheelchair: Int8(clamping: try reader.int(wheelchair, default: 0)),
                    bikes: Int8(clamping: try reader.int(bikes, default: 0)), line: Int32(clamping: reader.line)))
            if tally.read & 0xFFF == 0 { try checkpoint(feed, "trips.txt", rows: tally.read) }
        }
        return trips
    }

    /// frequencies.txt (optional), attached to the feed's trips.
    func readFrequencies(_ feed: FeedContext, _ trips: inout FeedTrips) throws {
        guard let (reader, tally) = try open(feed, "frequencies.txt") else { return }
        let id = try reader.required("trip_id")
        let start = try reader.required("start_time")
        let end = try reader.required("end_time")
        let headway = try reader.required("headway_secs")
        let exact = reader.column("exact_times")
        while try reader.next() {
            tally.read += 1
            guard let trip = trips.ids.find(reader.bytes(id)) else {
                try reject("unknown trip_id", reader, id, tally)
                continue
            }
            guard let startSecs = try reader.time(start) else { throw reader.missingValue(start) }
            guard let endSecs = try reader.time(end) else { throw reader.missingValue(end) }
            let headwaySecs = try reader.requiredInt(headway)
            let exactTimes = try reader.int(exact, default: 0)
            guard exactTimes == 0 || exactTimes == 1 else {
                throw reader.error("bad exact_times \(exactTimes) (expected 0 or 1)", column: exact)
            }
            guard headwaySecs > 0, endSecs > startSecs else {
                try reject("frequency with headway_secs ≤ 0 or end_time not after start_time", reader, headway, tally)
                continue
            }
            trips.frequencies[trip, default: []].append(
                FrequencyRow(
                    start: Int32(startSecs), end: Int32(endSecs), headway: Int32(clamping: headwaySecs),
                    exactTimes: Int8(exactTimes)))
            tally.imported += 1
        }
    }

    /// Inserts the feed's trips that got stop_times, and their frequencies.
    func writeTrips(_ feed: FeedContext, _ trips: FeedTrips, _ tally: FileTally) throws {
        let insert = try db.prepare(
            """
            INSERT INTO trips (trip_pk, trip_id, feed_pk, route_pk, service_pk, pattern_pk, start_secs, end_secs,
                               headsign, short_name, direction_id, block_id, shape_id, wheelchair_accessible,
                               bikes_allowed, is_frequency)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertFrequency = try db.prepare(
            """
            INSERT OR IGNORE INTO frequencies (trip_pk, start_secs, end_secs, headway_secs, exact_times)
            VALUES (?, ?, ?, ?, ?)
            """)
        for (index, trip) in trips.records.enumerated() where trip.pk != 0 {
            let frequencies = trips.frequencies[index] ?? []
            insert.bind(1, Int(trip.pk))
            insert.bind(2, trip.id)
            insert.bind(3, feed.feedPk)
            insert.bind(4, Int(trip.routePk))
            insert.bind(5, Int(trip.servicePk))
            insert.bind(6, Int(trip.patternPk))
            insert.bind(7, Int(trip.start))
            insert.bind(8, Int(trip.end))
            insert.bind(9, trip.headsign)
            insert.bind(10, trip.shortName)
            insert.bind(11, trip.direction)
            insert.bind(12, trip.block)
            insert.bind(13, trip.shape)
            insert.bind(14, Int(trip.wheelchair))
            insert.bind(15, Int(trip.bikes))
            insert.bind(16, frequencies.isEmpty ? 0 : 1)
            try insert.run()
            tally.imported += 1
            feed.counts.trips += 1
            for frequency in frequencies {
                try insertFrequency.bind([
                    Int(trip.pk), Int(frequency.start), Int(frequency.end),
                    Int(frequency.headway), Int(frequency.exactTimes),
                ])
                try insertFrequency.run()
                feed.counts.frequencies += 1
            }
        }
    }
}
