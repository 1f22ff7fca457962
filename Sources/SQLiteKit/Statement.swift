import CSQLite

/// `SQLITE_TRANSIENT` is a macro Swift does not import: SQLite copies the bound bytes.
let sqliteTransient = unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)

/// A prepared statement, meant to be prepared once and reused (`reset`, bind, `step`) in hot loops.
/// Bind and column indices follow SQLite: binds count from 1, columns from 0.
public final class Statement {
    public let handle: OpaquePointer
    public let sql: String
    // Keeps the connection alive as long as the statement exists.
    private let database: Database

    init(database: Database, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: rc, db: database.handle, sql: sql)
        }
        self.handle = stmt
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Binding

    public func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    public func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    public func bind(_ index: Int32, _ value: Int?) {
        if let value { sqlite3_bind_int64(handle, index, Int64(value)) } else { sqlite3_bind_null(handle, index) }
    }

    public func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
    }

    public func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    public func bind(_ index: Int32, _ value: String?) {
        if let value {
            sqlite3_bind_text(handle, index, value, -1, sqliteTransient)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    public func bindBlob(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
    }

    public func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Binds every value of `values` in order from index 1 (Int, Int64, Double, String, nil).
    public func bind(_ values: [(any Sendable)?]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case nil: bindNull(index)
            case let v as Int: bind(index, v)
            case let v as Int64: bind(index, v)
            case let v as Int32: bind(index, Int64(v))
            case let v as Double: bind(index, v)
            case let v as String: bind(index, v)
            case let v as Bool: bind(index, v ? 1 : 0)
            default:
                throw SQLiteError(code: SQLITE_MISUSE, message: "unsupported bind type \(type(of: value!))", sql: sql)
            }
        }
    }

    // MARK: Stepping

    /// Advances to the next row: true when a row is available, false when done.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: rc, db: sqlite3_db_handle(handle), sql: sql)
        }
    }

    /// Steps to completion (for INSERT/UPDATE/DELETE), then resets so the statement can be reused.
    public func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Resets for re-execution; bindings are kept (use `clearBindings` to drop them).
    public func reset() {
        sqlite3_reset(handle)
    }

    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func columnName(_ index: Int32) -> String {
        String(cString: sqlite3_column_name(handle, index))
    }

    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    public func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    public func int(_ index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    public func optionalInt(_ index: Int32) -> Int? {
        isNull(index) ? nil : Int(sqlite3_column_int64(handle, index))
    }

    public func double(_ index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    public func optionalDouble(_ index: Int32) -> Double? {
        isNull(index) ? nil : sqlite3_column_double(handle, index)
    }

    /// The column as text, nil when NULL.
    public func string(_ index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's bytes without copying; valid until the next step/reset.
    public func bytes(_ index: Int32) -> UnsafeRawBufferPointer {
        guard let blob = sqlite3_column_blob(handle, index) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(handle, index)))
    }
}
