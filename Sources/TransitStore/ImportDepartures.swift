import SQLiteKit

/// Rows of the `departures` table, collected from all feeds (24 bytes a row) and written at the end in
/// primary-key order: a WITHOUT ROWID B-tree filled in key order is appended to, not split at random.
/// Rows are moved (not indexed through a permutation) so the sort and the insert loop read memory in order.
struct DepartureRows {
    struct Row {
        var board: UInt32
        var secs: Int32
        var trip: UInt32
        var stopIndex: UInt32
        var stop: UInt32
        var service: UInt32
    }

    private var rows: [Row] = []

    var count: Int { rows.count }

    mutating func append(board: UInt32, secs: Int32, trip: UInt32, stopIndex: UInt32, stop: UInt32, service: UInt32) {
        rows.append(Row(board: board, secs: secs, trip: trip, stopIndex: stopIndex, stop: stop, service: service))
    }

    /// Sorts by (board, secs, trip, stop index): a counting sort by board into a new array, then each
    /// board's contiguous run sorted by (secs, trip, stop index). Empties `self`.
    mutating func takeSorted(boardCount: Int) -> [Row] {
        var bucketStart = [Int](repeating: 0, count: boardCount + 2)
        for row in rows { bucketStart[Int(row.board) + 1] += 1 }
        for i in 0...boardCount { bucketStart[i + 1] += bucketStart[i] }
        var fill = bucketStart
        let source = rows
        rows = []
        var sorted = [Row](unsafeUninitializedCapacity: source.count) { buffer, initialized in
            for row in source {
                let b = Int(row.board)
                (buffer.baseAddress! + fill[b]).initialize(to: row)
                fill[b] += 1
            }
            initialized = source.count
        }
        sorted.withUnsafeMutableBufferPointer { sorted in
            for b in 0...boardCount where bucketStart[b + 1] - bucketStart[b] > 1 {
                var slice = UnsafeMutableBufferPointer(rebasing: sorted[bucketStart[b]..<bucketStart[b + 1]])
                slice.sort { x, y in
                    if x.secs != y.secs { return x.secs < y.secs }
                    if x.trip != y.trip { return x.trip < y.trip }
                    return x.stopIndex < y.stopIndex
                }
            }
        }
        return sorted
    }

    /// Inserts `sorted` with a statement of many VALUES rows each (fewer statement executions per row).
    static func write(_ sorted: [Row], to db: Database, checkpoint: (_ rows: Int) throws -> Void) throws {
        let batch = 128
        func statement(rows: Int) throws -> Statement {
            let values = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
            return try db.prepare(
                """
                INSERT INTO departures (board_pk, departure_secs, trip_pk, stop_index, stop_pk, service_pk)
                VALUES \(values)
                """)
        }
        let full = try statement(rows: batch)
        var start = 0
        while start < sorted.count {
            let count = min(batch, sorted.count - start)
            let insert = count == batch ? full : try statement(rows: count)
            var index: Int32 = 1
            for row in sorted[start..<start + count] {
                insert.bind(index, Int(row.board))
                insert.bind(index + 1, Int(row.secs))
                insert.bind(index + 2, Int(row.trip))
                insert.bind(index + 3, Int(row.stopIndex))
                insert.bind(index + 4, Int(row.stop))
                insert.bind(index + 5, Int(row.service))
                index += 6
            }
            try insert.run()
            start += count
            if start & 0xFFFF < batch { try checkpoint(start) }
        }
    }
}

/// A row of `frequency_stops`.
struct FrequencyStopRow: Comparable {
    var board: Int32
    var trip: Int32
    var stopIndex: Int32
    var stop: Int32
    var service: Int32

    static func < (a: Self, b: Self) -> Bool {
        (a.board, a.trip, a.stopIndex) < (b.board, b.trip, b.stopIndex)
    }
}
