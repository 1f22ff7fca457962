import SQLiteKit
import TransitModel

/// Why a static query failed. `notFound` and `invalidArgument` are the caller's problem (the gateway's
/// NOT_FOUND / INVALID_ARGUMENT); `database` is ours (a broken or incompatible database file).
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An unknown stop, trip, … or a trip that does not run on the asked date.
    case notFound(String)
    /// A malformed or out-of-range argument (limit, radius, cursor, date range, time text, mode …).
    case invalidArgument(String)
    /// The database could not answer (I/O error, wrong schema version, corrupt file).
    case database(String)

    public var description: String {
        switch self {
        case .notFound(let m): "not found: \(m)"
        case .invalidArgument(let m): "invalid argument: \(m)"
        case .database(let m): "database error: \(m)"
        }
    }

    /// The protocol status of this error (protocol/transit.proto `Status`).
    public var serviceError: ServiceError {
        switch self {
        case .notFound(let m): ServiceError(.notFound, m)
        case .invalidArgument(let m): ServiceError(.invalidArgument, m)
        case .database(let m): ServiceError(.internal, m)
        }
    }

    /// Wraps SQLite (or other unexpected) errors as `.database`; store errors pass through.
    static func wrap(_ error: any Error) -> StoreError {
        if let e = error as? StoreError { return e }
        if let e = error as? SQLiteError { return .database(e.description) }
        return .database(String(describing: error))
    }
}
