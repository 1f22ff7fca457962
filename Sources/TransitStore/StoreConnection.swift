import Foundation
import SQLiteKit

/// One read-only connection with its prepared statements, used by one query at a time (the pool hands it
/// out exclusively). Statements are prepared on first use and reused; `slot` tells apart several live
/// copies of the same SQL (the departures merge steps one per service day at once).
final class StoreConnection: @unchecked Sendable {
    let db: Database
    private var statements: [String: Statement] = [:]

    init(path: String) throws {
        // The pool hands a connection to one query at a time, so SQLite's per-call mutex only costs.
        db = try Database(path: StoreConnection.readOnlyURI(path), mode: .readOnly, singleThread: true)
        // The served file is never modified in place (imports build a new file and rename it over), so it
        // can be read without locking; mmap saves a copy per page read.
        try db.exec("PRAGMA query_only = 1; PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -16384")
    }

    func statement(_ sql: String, slot: Int = 0) throws -> Statement {
        let key = slot == 0 ? sql : "\(slot)\u{1}\(sql)"
        if let s = statements[key] {
            s.reset()
            return s
        }
        let s = try db.prepare(sql)
        statements[key] = s
        return s
    }

    /// `file:` URI opening the database read-only and immutable (no locks, no journal lookups).
    static func readOnlyURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return "file:\(escaped)?mode=ro&immutable=1"
    }
}

/// A fixed pool of connections, all opened up front on the same file: a connection opened later could see
/// a newer database renamed over the path while the store's in-memory catalog still describes the old one.
/// A query takes an idle connection (waiting when all are busy) and returns it afterwards.
final class StoreConnectionPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [StoreConnection]

    init(connections: [StoreConnection]) {
        precondition(!connections.isEmpty)
        idle = connections
    }

    func with<T>(_ body: (StoreConnection) throws -> T) rethrows -> T {
        let connection = checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    private func checkOut() -> StoreConnection {
        condition.lock()
        defer { condition.unlock() }
        while idle.isEmpty { condition.wait() }
        return idle.removeLast()
    }

    private func checkIn(_ connection: StoreConnection) {
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }
}
