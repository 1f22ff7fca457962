import CSQLite

/// One SQLite connection. Thin on purpose: open, exec, prepare, transactions.
///
/// `@unchecked Sendable`: Debian's SQLite runs in serialized threading mode, so a connection may be handed
/// between threads; a `Statement` must still be used by one thread at a time.
public final class Database: @unchecked Sendable {
    public enum OpenMode: Sendable {
        case readOnly
        case readWrite
        /// Read-write, creating the file when missing.
        case create
    }

    /// The raw `sqlite3*`, for the rare call this wrapper does not cover.
    public let handle: OpaquePointer
    public let path: String

    /// Opens `path`. `singleThread`: the connection will only ever be used by one thread at a time, so
    /// SQLite can skip its per-call mutex (SQLITE_OPEN_NOMUTEX; a few percent on bulk inserts).
    public init(path: String, mode: OpenMode = .create, singleThread: Bool = false) throws {
        var flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .create: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        flags |= SQLITE_OPEN_URI
        if singleThread { flags |= SQLITE_OPEN_NOMUTEX }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(code: rc, db: db, sql: nil)
            sqlite3_close_v2(db)
            throw SQLiteError(code: error.code, message: "\(error.message): \(path)")
        }
        sqlite3_extended_result_codes(db, 1)
        self.handle = db
        self.path = path
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that return no rows of interest.
    public func exec(_ sql: String) throws {
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(errmsg)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs `body` inside BEGIN/COMMIT; rolls back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try exec("BEGIN")
        do {
            let result = try body()
            try exec("COMMIT")
            return result
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Convenience for a single integer (first column of the first row), nil when no row or NULL.
    public func scalarInt(_ sql: String) throws -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// Convenience for a single text value (first column of the first row), nil when no row or NULL.
    public func scalarText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.string(0)
    }
}
