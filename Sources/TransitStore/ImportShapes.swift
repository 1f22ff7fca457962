import GTFSCSV
import SQLiteKit
import TransitCore

/// One shapes.txt row, compact (32 bytes). Coordinates are kept at the polyline's precision (1e-5 degrees).
struct ShapePointRow {
    var shape: UInt32
    var sequence: UInt32
    var line: UInt32
    var latE5: Int32
    var lonE5: Int32
    /// shape_dist_traveled, NaN when empty.
    var distance: Float64
}

extension ImportBuilder {
    /// shapes.txt (optional): one `shapes` row per shape_id, its points ordered by shape_pt_sequence and
    /// written as one encoded polyline (with its distances as a second one when every point has one).
    ///
    /// A value that is not a number, or a coordinate out of range, fails the import naming file, line and
    /// field; a repeated shape_pt_sequence within a shape is skipped and counted (strict: fails); a shape with
    /// fewer than two points is skipped and counted (also when strict); a shape whose distances are missing on
    /// some points or decrease keeps its points and drops its distances (counted).
    ///
    /// Memory: shapes.txt is normally grouped by shape (every producer we know writes it so), and then only
    /// one shape's points are held at a time. GTFS does not require it: when a shape's rows turn out to be
    /// split, what was written for the feed is removed and the file is read again holding every point
    /// (32 bytes each, like stop_times).
    func importShapes(_ feed: FeedContext) throws {
        guard feed.files.has("shapes.txt") else { return }
        let shapeCountBefore = shapeCount
        let talliesBefore = tallies.count
        if try readShapes(feed, grouped: true) { return }
        try db.exec("DELETE FROM shapes WHERE feed_pk = \(feed.feedPk)")
        shapeCount = shapeCountBefore
        shapeOwners = shapeOwners.filter { $0.value != feed.index }
        tallies.removeSubrange(talliesBefore...)
        _ = try readShapes(feed, grouped: false)
    }

    /// One pass over shapes.txt. `grouped`: writes each shape when the next begins, and returns false (having
    /// written only complete shapes) at the first row of a shape seen before; else buffers every row.
    private func readShapes(_ feed: FeedContext, grouped: Bool) throws -> Bool {
        guard let (reader, tally) = try open(feed, "shapes.txt") else { return true }
        let idColumn = try reader.required("shape_id")
        let latColumn = try reader.required("shape_pt_lat")
        let lonColumn = try reader.required("shape_pt_lon")
        let sequenceColumn = try reader.required("shape_pt_sequence")
        let distanceColumn = reader.column("shape_dist_traveled")
        let insert = try db.prepare(
            """
            INSERT INTO shapes (shape_pk, shape_id, feed_pk, point_count, polyline, distances)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        var ids = ByteInterner(capacity: 1 << 10)
        var rows: [ShapePointRow] = []
        if !grouped { rows.reserveCapacity((feed.files.size("shapes.txt") ?? 0) / 40) }
        var lastShape = -1
        while try reader.next() {
            tally.read += 1
            if tally.read & 0xFFFF == 0 { try checkpoint(feed, "shapes.txt", rows: tally.read) }
            let idBytes = reader.bytes(idColumn)
            if idBytes.isEmpty { throw reader.missingValue(idColumn) }
            let shape: Int
            if lastShape >= 0, ids.equals(lastShape, idBytes) {
                shape = lastShape
            } else {
                let (index, inserted) = ids.intern(idBytes)
                if inserted { try reader.checkText(idColumn) }
                if grouped {
                    guard inserted else { return false }  // a shape split over the file
                    if lastShape >= 0 {
                        try writeShape(feed, ids.string(at: lastShape), &rows[...], tally, insert)
                        rows.removeAll(keepingCapacity: true)
                    }
                }
                shape = index
                lastShape = index
            }
            guard let lat = try reader.double(latColumn) else { throw reader.missingValue(latColumn) }
            guard let lon = try reader.double(lonColumn) else { throw reader.missingValue(lonColumn) }
            guard (-90...90).contains(lat) else {
                throw reader.error("shape_pt_lat \(lat) out of range -90…90", column: latColumn)
            }
            guard (-180...180).contains(lon) else {
                throw reader.error("shape_pt_lon \(lon) out of range -180…180", column: lonColumn)
            }
            let sequence = try reader.requiredInt(sequenceColumn)
            guard sequence >= 0, sequence <= Int(UInt32.max) else {
                throw reader.error(
                    "bad shape_pt_sequence \(sequence) (expected a non-negative integer)", column: sequenceColumn)
            }
            let distance = try reader.double(distanceColumn) ?? .nan
            if !distance.isNaN, !(distance >= 0) || !distance.isFinite {
                throw reader.error(
                    "bad shape_dist_traveled \(distance) (expected a non-negative number)", column: distanceColumn)
            }
            rows.append(
                ShapePointRow(
                    shape: UInt32(shape), sequence: UInt32(sequence), line: UInt32(clamping: reader.line),
                    latE5: Int32((lat * Polyline.coordinateScale).rounded()),
                    lonE5: Int32((lon * Polyline.coordinateScale).rounded()), distance: distance))
        }
        if grouped {
            if lastShape >= 0 { try writeShape(feed, ids.string(at: lastShape), &rows[...], tally, insert) }
            return true
        }
        // Group by shape (stable, O(n)): counts, then offsets.
        var starts = [Int](repeating: 0, count: ids.count + 1)
        for row in rows { starts[Int(row.shape) + 1] += 1 }
        for index in 0..<ids.count { starts[index + 1] += starts[index] }
        var byShape = [ShapePointRow](unsafeUninitializedCapacity: rows.count) { buffer, count in
            var next = starts
            for row in rows {
                let shape = Int(row.shape)
                (buffer.baseAddress! + next[shape]).initialize(to: row)
                next[shape] += 1
            }
            count = rows.count
        }
        rows = []
        for shape in 0..<ids.count {
            try writeShape(feed, ids.string(at: shape), &byShape[starts[shape]..<starts[shape + 1]], tally, insert)
        }
        return true
    }

    /// Orders one shape's rows by sequence and inserts it (or counts why not).
    private func writeShape(
        _ feed: FeedContext, _ rawId: String, _ rows: inout ArraySlice<ShapePointRow>, _ tally: FileTally,
        _ insert: Statement
    ) throws {
        guard let firstLine = rows.first.map({ Int($0.line) }) else { return }
        rows.sort { $0.sequence != $1.sequence ? $0.sequence < $1.sequence : $0.line < $1.line }
        var points: [(lat: Double, lon: Double)] = []
        var distances: [Double] = []
        points.reserveCapacity(rows.count)
        distances.reserveCapacity(rows.count)
        var lastSequence: UInt32?
        var distancesUsable = true
        for row in rows {
            if row.sequence == lastSequence {
                try reject(
                    "repeated shape_pt_sequence within a shape (later row skipped)", file: "shapes.txt",
                    line: Int(row.line), tally)
                continue
            }
            lastSequence = row.sequence
            points.append(
                (Double(row.latE5) / Polyline.coordinateScale, Double(row.lonE5) / Polyline.coordinateScale))
            if row.distance.isNaN || (distances.last.map { row.distance < $0 } ?? false) {
                distancesUsable = false
            }
            distances.append(row.distance)
        }
        // Valid GTFS but no line to draw: counted, never fatal (not a broken reference).
        guard points.count >= 2 else {
            tally.skip("shape with fewer than two points (skipped)", rows: rows.count)
            return
        }
        if !distancesUsable, distances.contains(where: { !$0.isNaN }) {
            tally.skip("shape_dist_traveled missing on some points or decreasing (the shape's distances dropped)")
        }
        let id = feed.prefixed(rawId)
        if let owner = shapeOwners[id] {
            let other = feeds[owner]
            throw CSVError(
                file: "shapes.txt", line: firstLine,
                reason: "shape_id \"\(id)\" of feed \"\(feed.name)\" (\(feed.path)) is also defined by feed "
                    + "\"\(other.name)\" (\(other.path)); give one of them a prefix, e.g. --prefix "
                    + "\(feed.name)=\(feed.name.uppercased()):")
        }
        shapeOwners[id] = feed.index
        shapeCount += 1
        insert.bind(1, shapeCount)
        insert.bind(2, id)
        insert.bind(3, feed.feedPk)
        insert.bind(4, points.count)
        insert.bind(5, Polyline.encode(points))
        insert.bind(6, distancesUsable ? Polyline.encode(values: distances, scale: Schema.shapeDistanceScale) : nil)
        try insert.run()
        tally.imported += points.count
    }
}
