import GTFSCSV

extension ImportBuilder {
    /// transfers.txt (optional): rows between stops. Rows naming trips or routes (`from_trip_id`, `to_trip_id`,
    /// `from_route_id`, `to_route_id`) are skipped and counted (the journey planner reads stop-to-stop rules
    /// only), as are rows of in-seat transfer types (4, 5). A repeated (from, to) pair keeps its first row.
    func importTransfers(_ feed: FeedContext) throws {
        guard let (reader, tally) = try open(feed, "transfers.txt") else { return }
        let from = try reader.required("from_stop_id")
        let to = try reader.required("to_stop_id")
        let type = try reader.required("transfer_type")
        let minTime = reader.column("min_transfer_time")
        let scoped = ["from_trip_id", "to_trip_id", "from_route_id", "to_route_id"].map { reader.column($0) }
        let insert = try db.prepare(
            "INSERT OR IGNORE INTO transfers (from_stop_pk, to_stop_pk, transfer_type, min_transfer_time) VALUES (?, ?, ?, ?)"
        )
        while try reader.next() {
            tally.read += 1
            if scoped.contains(where: { !reader.bytes($0).isEmpty }) {
                try reject("transfer naming a trip or a route", reader, nil, tally)
                continue
            }
            guard let fromStop = stopIDs.find(reader.bytes(from)) else {
                try reject("unknown stop_id", reader, from, tally)
                continue
            }
            guard let toStop = stopIDs.find(reader.bytes(to)) else {
                try reject("unknown stop_id", reader, to, tally)
                continue
            }
            let transferType = try reader.int(type, default: 0)
            guard (0...5).contains(transferType) else {
                throw reader.error("bad transfer_type \(transferType) (expected 0–5)", column: type)
            }
            if transferType > 3 {
                try reject("in-seat transfer (type 4 or 5)", reader, type, tally)
                continue
            }
            let seconds = try reader.int(minTime)
            if let seconds, seconds < 0 {
                throw reader.error("bad min_transfer_time \(seconds) (expected 0 or more seconds)", column: minTime)
            }
            insert.bind(1, fromStop + 1)
            insert.bind(2, toStop + 1)
            insert.bind(3, transferType)
            insert.bind(4, seconds)
            try insert.run()
            tally.imported += 1
        }
    }
}
