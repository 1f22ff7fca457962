import Foundation
import GTFSCSV
import SQLiteKit
import Synchronization

/// Set by SIGINT/SIGTERM while an import runs (a signal handler may only touch an atomic).
private let interruptRequested = Atomic<Bool>(false)

/// Imports one or more GTFS feeds (zip archives or folders) into one new SQLite database (see `Schema`).
///
/// Atomic: the database is built in a temporary file next to the target (journal off, never WAL) and renamed
/// over the target only when complete, indexes included; a failed or interrupted import deletes the temporary
/// file and leaves the previous database untouched. The temporary file holds an exclusive `flock` and the
/// importing process's id in its name; one left behind by an import that was killed (SIGKILL, power loss) is
/// removed by the next import into the same target, see `StaleImportFiles`.
///
/// Broken or hostile input is refused by the caps of `ImportLimits`, each refusal naming the file, the cap and
/// the flag that raises it.
///
///     let summary = try GTFSImporter(options: ImportOptions(
///         feeds: [.init(path: "sydneytrains.zip"), .init(path: "buses.zip", prefix: "B:")],
///         databasePath: "transit.db", progress: TerminalProgress.standardErrorIfTerminal())).run()
public final class GTFSImporter {
    public let options: ImportOptions

    public init(options: ImportOptions) {
        self.options = options
    }

    public func run() throws -> ImportSummary {
        guard !options.feeds.isEmpty else { throw ImportError("no feed to import") }
        var names = Set<String>()
        for feed in options.feeds where !names.insert(feed.name).inserted {
            throw ImportError("two feeds are named \"\(feed.name)\"; name them apart with name=path")
        }
        // Open every feed first: a missing file or a non-GTFS zip fails before anything is written.
        let contexts = try options.feeds.enumerated().map { index, feed in
            FeedContext(index: index, feed: feed, files: try FeedFiles(path: feed.path, limits: options.limits))
        }

        let target = URL(fileURLWithPath: options.databasePath)
        let directory = target.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw ImportError("\(options.databasePath): folder \(directory.path) does not exist") }
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ImportError("\(options.databasePath) is a folder, not a database file")
        }
        let staleFiles = StaleImportFiles(directory: directory.path, target: target.lastPathComponent)
        let removedStaleFiles = staleFiles.removeDead()
        let temporary = try staleFiles.createLocked()

        var previousHandlers: [(Int32, sighandler_t?)] = []
        if options.handleInterrupts {
            interruptRequested.store(false, ordering: .relaxed)
            for signalNumber in [SIGINT, SIGTERM] {
                previousHandlers.append(
                    (
                        signalNumber,
                        signal(signalNumber) { _ in
                            interruptRequested.store(true, ordering: .relaxed)
                        }
                    ))
            }
        }
        defer {
            for (signalNumber, handler) in previousHandlers { signal(signalNumber, handler) }
        }

        defer { close(temporary.lockDescriptor) }
        do {
            var summary = try build(at: temporary.path, feeds: contexts)
            summary.removedStaleFiles = removedStaleFiles
            if options.handleInterrupts, interruptRequested.load(ordering: .relaxed) {
                throw ImportError("import interrupted; the previous database is unchanged")
            }
            // The import ran with synchronous OFF: flush the file before it replaces the old one, so a crash
            // right after the rename cannot leave a half-written database in place.
            try flushToDisk(temporary.path)
            guard rename(temporary.path, target.path) == 0 else {
                throw ImportError(
                    "cannot move the new database into place at \(target.path): "
                        + String(cString: strerror(errno)))
            }
            try? flushToDisk(directory.path)
            return summary
        } catch {
            StaleImportFiles.remove(temporary.path)
            options.progress?(ImportProgress(feed: "", file: "", rows: 0, rowsPerSecond: 0, finished: true))
            if var refusal = error as? CSVError, let limit = refusal.exceededLimit {
                refusal.hint = "raise it with \(ImportLimits.flag(for: limit))"
                throw refusal
            }
            throw error
        }
    }

    private func flushToDisk(_ path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ImportError("cannot open \(path) to flush it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw ImportError("cannot flush \(path): \(String(cString: strerror(errno)))") }
    }

    private func build(at path: String, feeds: [FeedContext]) throws -> ImportSummary {
        let db = try Database(path: path, mode: .create, singleThread: true)
        try db.exec(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA temp_store = MEMORY; PRAGMA cache_size = -262144;
            """)
        for sql in Schema.tables { try db.exec(sql) }
        let handleInterrupts = options.handleInterrupts
        let builder = ImportBuilder(db: db, strict: options.strict, progress: options.progress) {
            handleInterrupts && interruptRequested.load(ordering: .relaxed)
        }
        builder.feeds = feeds
        let importedAt = Int(Date().timeIntervalSince1970)
        let databaseVersion = "\(UUID().uuidString)-\(importedAt)"

        try db.exec("BEGIN")
        try builder.timed("stops") {
            for feed in feeds {
                try builder.importAgencies(feed)
                try builder.importFeedInfo(feed)
                try builder.readStops(feed)
            }
            try builder.resolveStopParents()
            for feed in feeds { try builder.importTransfers(feed) }
        }
        for feed in feeds {
            var trips = try builder.timed("routes, calendars, trips") {
                try builder.importRoutes(feed)
                try builder.importCalendars(feed)
                var trips = try builder.readTrips(feed)
                try builder.readFrequencies(feed, &trips)
                return trips
            }
            let tripsTally =
                builder.tallies.last { $0.feed == feed.name && $0.file == "trips.txt" }
                ?? builder.tally(feed, "trips.txt")
            let stopTimesTally = builder.tally(feed, "stop_times.txt")
            let rows = try builder.timed("read stop_times") {
                try builder.readStopTimes(feed, trips, stopTimesTally)
            }
            try builder.timed("patterns") {
                try builder.buildTrips(feed, &trips, rows, stopTimesTally: stopTimesTally, tripsTally: tripsTally)
            }
            try builder.timed("write trips") { try builder.writeTrips(feed, trips, tripsTally) }
            try builder.timed("shapes") { try builder.importShapes(feed) }
        }
        try builder.finish(databaseVersion: databaseVersion, importedAt: importedAt)
        try builder.timed("commit") {
            try db.exec("COMMIT")
            try db.exec("PRAGMA journal_mode = DELETE")
        }
        options.progress?(ImportProgress(feed: "", file: "", rows: 0, rowsPerSecond: 0, finished: true))

        let seconds = Date().timeIntervalSince(builder.startTime)
        var summary = ImportSummary(databasePath: options.databasePath, databaseVersion: databaseVersion)
        summary.seconds = seconds
        summary.stopTimesPerSecond = Double(builder.stopTimesRead) / max(seconds, 0.001)
        summary.files = builder.tallies.map(\.stats)
        summary.phases = builder.phases
        summary.feeds = feeds.map { feed in
            var stats = ImportSummary.FeedStats(
                name: feed.name, prefix: feed.prefix, path: feed.path, version: feed.info["feed_version"],
                startDate: feed.infoStartDate, endDate: feed.infoEndDate, serviceStartDate: feed.serviceStartDate,
                serviceEndDate: feed.serviceEndDate, timezone: feed.timezone)
            stats.stops = feed.counts.stops
            stats.routes = feed.counts.routes
            stats.trips = feed.counts.trips
            stats.stopTimes = feed.counts.stopTimes
            stats.patterns = feed.counts.patterns
            return stats
        }
        return summary
    }
}
