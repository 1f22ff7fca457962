import SQLiteKit
import TransitCore
import TransitModel

/// The realtime service's store of recorded departure delays (protocol/README.md flow 6): SQLite, one row
/// per (stop, route, day type) holding every hour's histograms for the current and the previous block of
/// `blockDays` service days, so nothing older than 28 days is ever counted. Route and stop ids are interned
/// to integers; a route's own histograms (over all its stops) are the rows of stop 0.
///
/// Not thread-safe: its owner serializes the calls.
public final class DelayStore {
    /// Service days per block; the window is the current block and the previous one.
    public static let blockDays = 14
    /// Routes the key leaves room for.
    static let maxRoutes: Int64 = 1 << 22

    public let path: String
    private let db: Database
    private var routes: [String: Int64] = [:]
    private var stops: [String: Int64] = [:]
    private let selectRow: Statement
    private let upsertRow: Statement

    /// Opens (or creates) the store at `path`.
    public init(path: String) throws {
        self.path = path
        db = try Database(path: path, mode: .create, singleThread: true)
        try db.exec(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS route (id INTEGER PRIMARY KEY, route_id TEXT NOT NULL UNIQUE);
            CREATE TABLE IF NOT EXISTS stop (id INTEGER PRIMARY KEY, stop_id TEXT NOT NULL UNIQUE);
            CREATE TABLE IF NOT EXISTS delay (key INTEGER PRIMARY KEY, block INTEGER NOT NULL, hours BLOB NOT NULL);
            """)
        let names = try db.prepare("SELECT id, route_id FROM route")
        while try names.step() { routes[names.string(1) ?? ""] = names.int64(0) }
        let stopNames = try db.prepare("SELECT id, stop_id FROM stop")
        while try stopNames.step() { stops[stopNames.string(1) ?? ""] = stopNames.int64(0) }
        selectRow = try db.prepare("SELECT block, hours FROM delay WHERE key = ?")
        upsertRow = try db.prepare("INSERT OR REPLACE INTO delay (key, block, hours) VALUES (?, ?, ?)")
    }

    /// The block of a service day number.
    public static func block(ofDay day: Int) -> Int { day >= 0 ? day / blockDays : (day - blockDays + 1) / blockDays }

    /// Adds samples (each to its stop's row and to its route's), in one transaction. Returns how many were
    /// kept (samples older than their row's previous block are dropped).
    @discardableResult
    public func add(_ samples: [DelaySample]) throws -> Int {
        guard !samples.isEmpty else { return 0 }
        return try db.transaction {
            var rows: [Int64: DelayRow] = [:]
            var kept = 0
            for sample in samples {
                let route = try intern(route: sample.routeId)
                guard route < Self.maxRoutes else { continue }
                let stop = try intern(stop: sample.stopId)
                let block = Self.block(ofDay: sample.serviceDay)
                var added = false
                for key in [
                    Self.key(stop: stop, route: route, dayType: sample.dayType),
                    Self.key(stop: 0, route: route, dayType: sample.dayType),
                ] {
                    if rows[key] == nil { rows[key] = try read(key) ?? DelayRow(block: block) }
                    added = rows[key]!.add(delay: sample.delay, hour: sample.hour, sampleBlock: block) || added
                }
                if added { kept += 1 }
            }
            for (key, row) in rows { try write(key, row) }
            return kept
        }
    }

    /// The histogram of a slice over the window of `today` (its block and the one before); ids the store
    /// has never seen give an empty one.
    public func histogram(_ slice: DelaySlice, today: GTFSDate) throws -> DelayWindowHistogram {
        let todayBlock = Self.block(ofDay: today.dayNumber)
        var sum = DelayHistogram()
        let dayTypes = slice.dayType.map { [$0] } ?? DayType.allCases
        let route = slice.routeId.map { routes[$0] ?? -1 }
        let stop = slice.stopId.map { stops[$0] ?? -1 }
        if route == -1 || stop == -1 {
            // unknown id: nothing recorded
        } else if let route {
            for type in dayTypes {
                if let row = try read(Self.key(stop: stop ?? 0, route: route, dayType: type)) {
                    sum.merge(row.histogram(hour: slice.hour, todayBlock: todayBlock))
                }
            }
        } else if let stop {
            let scan = try db.prepare("SELECT key, block, hours FROM delay WHERE key >= ? AND key < ?")
            scan.bind(1, stop << 24)
            scan.bind(2, (stop + 1) << 24)
            while try scan.step() {
                guard let type = DayType(rawValue: Int(scan.int64(0) & 3)), dayTypes.contains(type),
                    let row = DelayRow(block: scan.int(1), bytes: scan.bytes(2))
                else { continue }
                sum.merge(row.histogram(hour: slice.hour, todayBlock: todayBlock))
            }
        }
        let first = GTFSDate(dayNumber: (todayBlock - 1) * Self.blockDays)
        return DelayWindowHistogram(
            histogram: sum, firstDate: ServiceDate(first.yyyymmdd), lastDate: ServiceDate(today.yyyymmdd))
    }

    /// Drops what fell out of the window of `today`: rows whose blocks are both older are deleted, rows
    /// whose current block is the previous one lose their older half. Runs once per block (remembered in
    /// the store); returns the rows deleted or rewritten.
    @discardableResult
    public func prune(today: GTFSDate) throws -> Int {
        let todayBlock = Self.block(ofDay: today.dayNumber)
        if let done = try db.scalarInt("SELECT value FROM meta WHERE key = 'pruned_block'"), done >= todayBlock {
            return 0
        }
        return try db.transaction {
            let delete = try db.prepare("DELETE FROM delay WHERE block < ?")
            delete.bind(1, todayBlock - 1)
            try delete.run()
            var changed = db.changes
            let scan = try db.prepare("SELECT key, hours FROM delay WHERE block = ?")
            scan.bind(1, todayBlock - 1)
            var rewrites: [(Int64, DelayRow)] = []
            while try scan.step() {
                guard var row = DelayRow(block: todayBlock - 1, bytes: scan.bytes(1)) else { continue }
                guard row.hours.values.contains(where: { !$0.previous.isEmpty }) else { continue }
                for hour in row.hours.keys { row.hours[hour]!.previous = DelayHistogram() }
                rewrites.append((scan.int64(0), row))
            }
            for (key, row) in rewrites { try write(key, row) }
            changed += rewrites.count
            let mark = try db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('pruned_block', ?)")
            mark.bind(1, todayBlock)
            try mark.run()
            return changed
        }
    }

    /// Rows held (tests, measurements).
    public func rowCount() throws -> Int { Int(try db.scalarInt("SELECT count(*) FROM delay") ?? 0) }

    /// Runs `body` in one transaction (bulk fills in measurements).
    func transaction(_ body: () throws -> Void) throws { try db.transaction(body) }

    /// Writes the WAL back into the main file (at shutdown, and before measuring the file).
    public func checkpoint() throws { try db.exec("PRAGMA wal_checkpoint(TRUNCATE)") }

    // MARK: rows

    static func key(stop: Int64, route: Int64, dayType: DayType) -> Int64 {
        stop << 24 | route << 2 | Int64(dayType.rawValue)
    }

    private func read(_ key: Int64) throws -> DelayRow? {
        selectRow.reset()
        selectRow.bind(1, key)
        defer { selectRow.reset() }
        guard try selectRow.step() else { return nil }
        return DelayRow(block: selectRow.int(0), bytes: selectRow.bytes(1))
    }

    func write(_ key: Int64, _ row: DelayRow) throws {
        let bytes = row.encoded()
        upsertRow.bind(1, key)
        upsertRow.bind(2, row.block)
        bytes.withUnsafeBytes { upsertRow.bindBlob(3, $0) }
        try upsertRow.run()
    }

    func intern(route id: String) throws -> Int64 {
        if let known = routes[id] { return known }
        let insert = try db.prepare("INSERT INTO route (route_id) VALUES (?)")
        insert.bind(1, id)
        try insert.run()
        routes[id] = db.lastInsertRowID
        return db.lastInsertRowID
    }

    func intern(stop id: String) throws -> Int64 {
        if let known = stops[id] { return known }
        let insert = try db.prepare("INSERT INTO stop (stop_id) VALUES (?)")
        insert.bind(1, id)
        try insert.run()
        stops[id] = db.lastInsertRowID
        return db.lastInsertRowID
    }
}
