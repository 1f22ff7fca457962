import Foundation
import GTFSCSV
import SQLiteKit

/// One stop_times row, compact (40 bytes), with its trip and stop already resolved to integers.
/// The rows of a feed are buffered because stop_times.txt is usually but not always sorted by trip: they are
/// grouped by trip after reading, in O(n). One struct per row (not one array per column) so that gathering a
/// trip's rows from an unsorted file costs one cache miss per row, not one per column.
struct StopTimeRow {
    var trip: UInt32
    var stop: UInt32
    var sequence: UInt32
    /// Seconds, -1 when empty.
    var arrival: Int32
    var departure: Int32
    /// stop_headsign id + 1 in `ImportBuilder.headsigns`, 0 when empty.
    var headsign: UInt32
    var line: UInt32
    /// pickup_type | drop_off_type << 2 | timepoint << 4.
    var flags: UInt8
    /// shape_dist_traveled, NaN when empty.
    var distance: Double
}

extension ImportBuilder {
    /// Reads stop_times.txt: each row's trip and stop resolved to integers (unknown ones skipped and counted).
    func readStopTimes(_ feed: FeedContext, _ trips: FeedTrips, _ tally: FileTally) throws -> [StopTimeRow] {
        var rows: [StopTimeRow] = []
        guard let (reader, _) = try open(feed, "stop_times.txt", tally: tally) else { return rows }
        let size = feed.files.size("stop_times.txt")
        let tripColumn = try reader.required("trip_id")
        let stopColumn = try reader.required("stop_id")
        let sequenceColumn = try reader.required("stop_sequence")
        let arrivalColumn = reader.column("arrival_time")
        let departureColumn = reader.column("departure_time")
        let headsignColumn = reader.column("stop_headsign")
        let pickupColumn = reader.column("pickup_type")
        let dropOffColumn = reader.column("drop_off_type")
        let timepointColumn = reader.column("timepoint")
        let distanceColumn = reader.column("shape_dist_traveled")
        rows.reserveCapacity((size ?? 0) / 45)

        // Hot loop: work on locals, not on class properties (each property access is a dynamic
        // exclusivity check), and put them back at the end.
        let stopIDs = self.stopIDs
        var headsigns = self.headsigns
        self.headsigns = ByteInterner()
        var read = 0
        defer {
            self.headsigns = headsigns
            tally.read += read
            stopTimesRead += read
            feed.counts.stopTimes += read
        }
        var lastTrip = -1
        while try reader.next() {
            read += 1
            if read & 0xFFFF == 0 {
                try checkpoint(
                    feed, "stop_times.txt", rows: read,
                    fraction: size.map { Double(reader.bytesRead) / Double(max($0, 1)) })
            }
            let tripBytes = reader.bytes(tripColumn)
            let trip: Int
            if lastTrip >= 0, trips.ids.equals(lastTrip, tripBytes) {
                trip = lastTrip
            } else if let found = trips.ids.find(tripBytes) {
                trip = found
                lastTrip = found
            } else {
                try reject("unknown trip_id", reader, tripColumn, tally)
                continue
            }
            guard let stop = stopIDs.find(reader.bytes(stopColumn)) else {
                try reject("unknown stop_id", reader, stopColumn, tally)
                continue
            }
            let sequence = try reader.requiredInt(sequenceColumn)
            guard sequence >= 0, sequence <= Int(UInt32.max) else {
                throw reader.error(
                    "bad stop_sequence \(sequence) (expected a non-negative integer)",
                    column: sequenceColumn)
            }
            let arrival = try reader.time(arrivalColumn) ?? -1
            let departure = try reader.time(departureColumn) ?? -1
            let pickup = try reader.int(pickupColumn, default: 0)
            let dropOff = try reader.int(dropOffColumn, default: 0)
            guard (0...3).contains(pickup) else {
                throw reader.error("bad pickup_type \(pickup) (expected 0–3)", column: pickupColumn)
            }
            guard (0...3).contains(dropOff) else {
                throw reader.error("bad drop_off_type \(dropOff) (expected 0–3)", column: dropOffColumn)
            }
            let timepoint = try reader.int(timepointColumn, default: 1)
            guard timepoint == 0 || timepoint == 1 else {
                throw reader.error("bad timepoint \(timepoint) (expected 0 or 1)", column: timepointColumn)
            }
            let headsignBytes = reader.bytes(headsignColumn)
            var headsign: UInt32 = 0
            if !headsignBytes.isEmpty {
                let (index, inserted) = headsigns.intern(headsignBytes)
                if inserted { try reader.checkText(headsignColumn) }  // each distinct text checked once
                headsign = UInt32(index + 1)
            }

            rows.append(
                StopTimeRow(
                    trip: UInt32(trip), stop: UInt32(stop), sequence: UInt32(sequence),
                    arrival: Int32(clamping: arrival),
                    departure: Int32(clamping: departure), headsign: headsign, line: UInt32(clamping: reader.line),
                    flags: UInt8(pickup | dropOff << 2 | timepoint << 4),
                    distance: try reader.double(distanceColumn) ?? .nan))
        }
        return rows
    }

    /// Groups the rows by trip, orders each trip by stop_sequence, fills and interpolates missing times,
    /// finds or creates the trip's pattern and collects its departures.
    func buildTrips(
        _ feed: FeedContext, _ trips: inout FeedTrips, _ rows: [StopTimeRow],
        stopTimesTally: FileTally, tripsTally: FileTally
    ) throws {
        let tripCount = trips.records.count
        let fileName = "\(feed.path)/stop_times.txt"
        // Counting sort of row numbers by trip (keeps file order within a trip).
        var bucketStart = [Int](repeating: 0, count: tripCount + 1)
        for row in rows { bucketStart[Int(row.trip) + 1] += 1 }
        for i in 0..<tripCount { bucketStart[i + 1] += bucketStart[i] }
        var order = [Int32](repeating: 0, count: rows.count)
        do {
            var fill = bucketStart
            for row in 0..<rows.count {
                let trip = Int(rows[row].trip)
                order[fill[trip]] = Int32(row)
                fill[trip] += 1
            }
        }

        let insertPatternStop = try db.prepare(
            """
            INSERT INTO pattern_stops (pattern_pk, stop_index, stop_pk, stop_sequence, arrival_offset,
                                       departure_offset, pickup_type, drop_off_type, stop_headsign, timepoint,
                                       shape_dist_traveled)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let boards = stops.map { UInt32($0.board + 1) }
        var departures = self.departures
        self.departures = DepartureRows()
        defer { self.departures = departures }
        var members: [StopTimeRow] = []
        var arrival: [Int] = []
        var departure: [Int] = []
        var timed: [Bool] = []
        var key: [Int64] = []

        for t in 0..<tripCount {
            if t & 0x3FF == 0 {
                try checkpoint(feed, "patterns", rows: t, fraction: Double(t) / Double(tripCount))
            }
            let lo = bucketStart[t], hi = bucketStart[t + 1]
            if lo == hi {
                tripsTally.skip("trip without stop_times (not imported)")
                continue
            }
            members.removeAll(keepingCapacity: true)
            for k in lo..<hi { members.append(rows[Int(order[k])]) }
            var sorted = true
            for k in 1..<members.count where members[k - 1].sequence > members[k].sequence {
                sorted = false
                break
            }
            if !sorted {
                // (sequence, line): rows with equal sequences keep file order.
                members.sort { ($0.sequence, $0.line) < ($1.sequence, $1.line) }
            }
            var kept = 1
            for k in 1..<members.count {
                if members[k].sequence == members[kept - 1].sequence {
                    try reject(
                        "duplicate stop_sequence in a trip (later row skipped)", file: fileName,
                        line: Int(members[k].line), stopTimesTally)
                } else {
                    members[kept] = members[k]
                    kept += 1
                }
            }
            members.removeLast(members.count - kept)
            let n = members.count

            arrival.removeAll(keepingCapacity: true)
            departure.removeAll(keepingCapacity: true)
            timed.removeAll(keepingCapacity: true)
            for row in members {
                var a = Int(row.arrival), d = Int(row.departure)
                if a < 0 { a = d }
                if d < 0 { d = a }
                arrival.append(a)
                departure.append(d)
                timed.append(a >= 0)
            }
            guard timed[0], timed[n - 1] else {
                let line = Int(members[timed[0] ? n - 1 : 0].line)
                try reject(
                    "trip without times at its first or last stop (its stop_times skipped)", file: fileName,
                    line: line, rows: n, stopTimesTally)
                tripsTally.skip("trip without times at its first or last stop (not imported)")
                continue
            }
            interpolateMissingTimes(members, &arrival, &departure, timed)

            let start = arrival[0]
            key.removeAll(keepingCapacity: true)
            for k in 0..<n {
                let row = members[k]
                var flags = row.flags
                if !timed[k] { flags &= 0x0F }  // interpolated: timepoint 0
                key.append(Int64(row.stop) << 32 | Int64(row.sequence))
                key.append(
                    Int64(arrival[k] - start) << 32
                        | Int64(UInt32(bitPattern: Int32(clamping: departure[k] - start))))
                key.append(Int64(flags) << 32 | Int64(row.headsign))
                let distance = row.distance
                key.append(distance.isNaN ? PatternTable.noDistance : Int64(bitPattern: distance.bitPattern))
            }
            let (pattern, inserted) = patterns.findOrInsert(key)
            if inserted {
                try writePatternStops(pattern, insertPatternStop)
                feed.counts.patterns += 1
            }
            patterns.tripCounts[pattern] += 1

            let pk = nextTripPk
            nextTripPk += 1
            var trip = trips.records[t]
            trip.pk = Int32(pk)
            trip.patternPk = Int32(pattern + 1)
            trip.start = Int32(clamping: start)
            trip.end = Int32(clamping: arrival[n - 1])
            trips.records[t] = trip

            let frequencies = trips.frequencies[t]
            for k in 0..<(n - 1) {
                let row = members[k]
                guard row.flags & 0x03 != 1 else { continue }  // pickup_type 1: no departure here
                let board = boards[Int(row.stop)]
                if frequencies != nil {
                    frequencyStops.append(
                        FrequencyStopRow(
                            board: Int32(board), trip: Int32(pk), stopIndex: Int32(k), stop: Int32(row.stop + 1),
                            service: trip.servicePk))
                } else {
                    departures.append(
                        board: board, secs: Int32(clamping: departure[k]), trip: UInt32(pk),
                        stopIndex: UInt32(k), stop: row.stop + 1, service: UInt32(trip.servicePk))
                }
            }
            let instances = frequencies.map { $0.reduce(0) { $0 + $1.instances } } ?? 1
            patternRouteTrips[UInt64(pattern + 1) << 32 | UInt64(trip.routePk), default: 0] += instances
            routes[Int(trip.routePk) - 1].tripCount += 1
            stopTimesTally.imported += n
        }
    }

    /// Stops without times between two timed stops get times spread between them: by shape_dist_traveled
    /// when known for all three, else evenly by position.
    private func interpolateMissingTimes(
        _ members: [StopTimeRow], _ arrival: inout [Int], _ departure: inout [Int],
        _ timed: [Bool]
    ) {
        var previous = 0
        var k = 1
        while k < members.count {
            if timed[k] {
                previous = k
                k += 1
                continue
            }
            var next = k
            while !timed[next] { next += 1 }  // the last stop is timed
            let t0 = departure[previous], t1 = arrival[next]
            let d0 = members[previous].distance
            let d1 = members[next].distance
            for i in k..<next {
                var fraction = Double(i - previous) / Double(next - previous)
                let d = members[i].distance
                if !d.isNaN, !d0.isNaN, !d1.isNaN, d1 > d0 { fraction = min(1, max(0, (d - d0) / (d1 - d0))) }
                let time = t0 + Int((Double(t1 - t0) * fraction).rounded())
                arrival[i] = time
                departure[i] = time
            }
            previous = next
            k = next + 1
        }
    }

    private func writePatternStops(_ pattern: Int, _ insert: Statement) throws {
        let words = patterns.words(of: pattern)
        for index in 0..<(words.count / 4) {
            let at = words.startIndex + index * 4
            let w0 = words[at], w1 = words[at + 1], w2 = words[at + 2], w3 = words[at + 3]
            let flags = Int(w2 >> 32)
            let headsign = Int(w2 & 0xFFFF_FFFF)
            insert.bind(1, pattern + 1)
            insert.bind(2, index)
            insert.bind(3, Int(w0 >> 32) + 1)
            insert.bind(4, Int(w0 & 0xFFFF_FFFF))
            insert.bind(5, Int(w1 >> 32))
            insert.bind(6, Int(Int32(truncatingIfNeeded: w1)))
            insert.bind(7, flags & 0x03)
            insert.bind(8, (flags >> 2) & 0x03)
            insert.bind(9, headsign == 0 ? nil : headsigns.string(at: headsign - 1))
            insert.bind(10, (flags >> 4) & 0x01)
            insert.bind(11, w3 == PatternTable.noDistance ? nil : Double(bitPattern: UInt64(bitPattern: w3)))
            try insert.run()
        }
    }
}
