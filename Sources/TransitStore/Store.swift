import Foundation
import SQLiteKit
import Synchronization
import TransitCore
import TransitModel

/// The static queries over one imported database file (read-only).
///
/// Thread-safe: it keeps a fixed pool of connections opened together when the store opens (each with its
/// own reused prepared statements), so many queries run at once; a query waits only when all
/// `connections` are busy. The small tables (feeds, routes, calendars) and every pattern's stops are held
/// in memory.
/// To pick up a new import, open a new store and drop the old one (in-flight queries finish on the old file).
public final class StaticStore: Sendable {
    public let path: String
    let catalog: StoreCatalog
    let patterns: StorePatterns
    let pool: StoreConnectionPool
    /// The names in memory for the search's infix and typo tiers, built on the first search that needs it
    /// (or by `prepareSearch`).
    let nameIndex = Mutex<StopNameIndex?>(nil)
    /// `trip`'s stop rows per pattern_pk, with times relative to the instance (base 0, reference 0): trips
    /// of one pattern share them, so a trip answer joins stops once per pattern. Emptied when it holds
    /// `tripStopTemplateCapacity` patterns; a new import opens a new store, so they never outlive their file.
    let tripStopTemplates = Mutex<[Int: [TripStop]]>([:])
    static let tripStopTemplateCapacity = 8192

    /// Opens `path` read-only with `connections` connections (at least 1).
    public init(path: String, connections: Int = 8) throws(StoreError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { throw .database("no database at \(path)") }
        do {
            let first = try StoreConnection(path: path)
            let catalog = try StoreCatalog(db: first.db)
            patterns = try StorePatterns(db: first.db, stopId: catalog.stopId)
            var all = [first]
            for _ in 1..<max(1, connections) {
                let c = try StoreConnection(path: path)
                // All connections must read the same file (an import could rename a new one in meanwhile).
                let version = try c.db.scalarText("SELECT value FROM meta WHERE key = '\(Schema.MetaKey.dbVersion)'")
                guard version ?? "" == catalog.databaseVersion else {
                    throw StoreError.database("database \(path) was replaced while opening; open it again")
                }
                all.append(c)
            }
            self.catalog = catalog
            pool = StoreConnectionPool(connections: all)
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// Builds the in-memory name index of the forgiving search now, so the first search does not wait for it
    /// (the static service calls it when it opens a database; other users of a store never pay for it).
    public func prepareSearch() throws(StoreError) {
        _ = try run { c in try stopNameIndex(c) }
    }

    func stopNameIndex(_ c: StoreConnection) throws -> StopNameIndex {
        try nameIndex.withLock { held in
            if let held { return held }
            let built = try StopNameIndex(c)
            held = built
            return built
        }
    }

    /// Changes on every import (`meta.db_version`).
    public var databaseVersion: String { catalog.databaseVersion }

    /// Runs `body` on a pooled connection, mapping every failure to a `StoreError`.
    func run<T>(_ body: (StoreConnection) throws -> T) throws(StoreError) -> T {
        do {
            return try pool.with(body)
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// Answers one protocol query (`at` nil means now).
    public func answer(_ query: StaticQuery, now: Int64 = Int64(Date().timeIntervalSince1970)) throws(StoreError)
        -> StaticResult
    {
        switch query {
        case .stop(let q):
            return .stop(try stop(id: q.stopId))
        case .search(let q):
            return .stops(try search(q.query, limit: q.limit, mode: q.mode, includePlatforms: q.includePlatforms))
        case .nearby(let q):
            return .stops(
                try nearby(lat: q.lat, lon: q.lon, radiusMetres: q.radiusMetres, limit: q.limit, mode: q.mode))
        case .routes(let q):
            return .routes(try routes(mode: q.mode))
        case .departures(let q):
            return .departures(
                try departures(
                    stopId: q.stopId, at: q.at ?? now, direction: q.direction,
                    limit: q.limit, cursor: q.cursor, routeId: q.routeId, directionId: q.directionId, mode: q.mode))
        case .trip(let q):
            return .trip(try trip(id: q.tripId, serviceDate: q.serviceDate, startTime: q.startTime, at: q.at ?? now))
        case .tripSchedules(let q):
            return .tripSchedules(
                try tripSchedules(
                    tripIds: q.tripIds, from: q.fromDate, through: q.toDate,
                    knownPatternIds: q.knownPatternIds,
                    knownDatabaseVersion: q.knownDatabaseVersion,
                    descriptors: q.descriptors))
        case .feedInfo:
            return .feedInfo(feedInfo())
        case .shape(let q):
            return .shape(try shape(shapeId: q.shapeId, tripId: q.tripId))
        case .route(let q):
            return .route(try route(id: q.routeId, date: q.date, now: now))
        case .stopsInBBox(let q):
            return .stops(
                try stopsInBBox(
                    minLat: q.minLat, minLon: q.minLon, maxLat: q.maxLat, maxLon: q.maxLon, mode: q.mode,
                    limit: q.limit))
        case .plan:
            // The static service's planner answers it (StaticService.JourneyPlanning), not a database query.
            throw .invalidArgument("plan is answered by the static service's planner, not by the database")
        }
    }

    // MARK: argument checks shared by the queries

    static func checkLimit(_ limit: Int) throws(StoreError) {
        guard StaticRequestLimits.limitRange.contains(limit) else {
            throw .invalidArgument("limit must be between 1 and \(StaticRequestLimits.maxLimit), got \(limit)")
        }
    }

    /// Instants beyond ±3,000 years are refused (they would only overflow the date arithmetic).
    static let timeRange: ClosedRange<Int64> = -100_000_000_000...100_000_000_000

    static func checkTime(_ at: Int64, _ what: String = "at") throws(StoreError) {
        guard timeRange.contains(at) else { throw .invalidArgument("\(what) \(at) is not a plausible unix time") }
    }

    static func parseMode(_ mode: String?) throws(StoreError) -> Mode? {
        guard let mode, !mode.isEmpty else { return nil }
        guard let m = Mode(rawValue: mode.lowercased()) else {
            throw .invalidArgument(
                "unknown mode \"\(mode)\" (one of \(Mode.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return m
    }

    static func parseDate(_ value: UInt32, _ what: String) throws(StoreError) -> GTFSDate {
        guard let d = GTFSDate(yyyymmdd: Int(value)) else {
            throw .invalidArgument("\(what) \(value) is not a YYYYMMDD date")
        }
        return d
    }
}
