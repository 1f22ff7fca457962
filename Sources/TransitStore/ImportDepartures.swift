import SQLiteKit

/// Rows of the `departures` table, collected from all feeds (one array per column, 24 bytes a row) and
/// written at the end in primary-key order: a WITHOUT ROWID B-tree filled in key order is appended to, not
/// split at random.
struct DepartureRows {
    private var board: [UInt32] = []
    private var secs: [Int32] = []
    private var trip: [UInt32] = []
    private var stopIndex: [UInt32] = []
    private var stop: [UInt32] = []
    private var service: [UInt32] = []

    var count: Int { board.count }

    mutating func append(board: UInt32, secs: Int32, trip: UInt32, stopIndex: UInt32, stop: UInt32, service: UInt32) {
        self.board.append(board)
        self.secs.append(secs)
        self.trip.append(trip)
        self.stopIndex.append(stopIndex)
        self.stop.append(stop)
        self.service.append(service)
    }

    /// Row numbers in (board, secs, trip, stop index) order: a counting sort by board, then each board's rows
    /// sorted by (secs, trip, stop index).
    func sortedOrder(boardCount: Int) -> [Int32] {
        var bucketStart = [Int](repeating: 0, count: boardCount + 2)
        for b in board { bucketStart[Int(b) + 1] += 1 }
        for i in 0...boardCount { bucketStart[i + 1] += bucketStart[i] }
        var order = [Int32](repeating: 0, count: count)
        var fill = bucketStart
        for row in 0..<count {
            let b = Int(board[row])
            order[fill[b]] = Int32(row)
            fill[b] += 1
        }
        order.withUnsafeMutableBufferPointer { order in
            for b in 0...boardCount where bucketStart[b + 1] - bucketStart[b] > 1 {
                var slice = UnsafeMutableBufferPointer(rebasing: order[bucketStart[b]..<bucketStart[b + 1]])
                slice.sort { x, y in
                    let a = Int(x), c = Int(y)
                    if secs[a] != secs[c] { return secs[a] < secs[c] }
                    if trip[a] != trip[c] { return trip[a] < trip[c] }
                    return stopIndex[a] < stopIndex[c]
                }
            }
        }
        return order
    }

    func write(to db: Database, boardCount: Int, checkpoint: () throws -> Void) throws {
        let order = sortedOrder(boardCount: boardCount)
        let insert = try db.prepare("""
            INSERT INTO departures (board_pk, departure_secs, trip_pk, stop_index, stop_pk, service_pk)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        for (n, row32) in order.enumerated() {
            let row = Int(row32)
            insert.bind(1, Int(board[row]))
            insert.bind(2, Int(secs[row]))
            insert.bind(3, Int(trip[row]))
            insert.bind(4, Int(stopIndex[row]))
            insert.bind(5, Int(stop[row]))
            insert.bind(6, Int(service[row]))
            try insert.run()
            if n & 0xFFFF == 0 { try checkpoint() }
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
