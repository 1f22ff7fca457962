import Foundation
import GTFSCSV
import SQLiteKit
import TransitCore

/// Counts of one file of one feed while it is read; becomes an `ImportSummary.FileStats`.
final class FileTally {
    let feed: String
    let file: String
    var read = 0
    var imported = 0
    var skipped: [String: Int] = [:]
    var firstPlaces: [String: String] = [:]

    init(feed: String, file: String) {
        self.feed = feed
        self.file = file
    }

    func skip(_ reason: String, rows: Int = 1) {
        skipped[reason, default: 0] += rows
    }

    /// Counts a problem the CSV reader read past, remembering where it was first seen.
    func note(_ issue: CSVIssue) {
        let reason = issue.kind.reason
        skipped[reason, default: 0] += 1
        if firstPlaces[reason] == nil {
            var place = "line \(issue.error.line)"
            if let column = issue.error.column { place += ", column \(column)" }
            if let name = issue.error.columnName { place += " (\(name))" }
            firstPlaces[reason] = place
        }
        if issue.kind == .nulByte { read += 1 }
    }

    var stats: ImportSummary.FileStats {
        ImportSummary.FileStats(
            feed: feed, file: file, rowsRead: read, rowsImported: imported, skipped: skipped,
            firstPlaces: firstPlaces)
    }
}

extension CSVIssue.Kind {
    /// The reason under which an import counts the issue.
    var reason: String {
        switch self {
        case .nulByte: "rows with a NUL byte (skipped)"
        case .invalidUTF8: "fields not valid UTF-8 (kept with U+FFFD)"
        case .strayByteOrderMark: "stray byte-order marks inside the file (removed)"
        }
    }
}

/// One feed being imported: its files, names and the ids it defined.
final class FeedContext {
    let index: Int
    let name: String
    let prefix: String
    let path: String
    let files: FeedFiles
    var feedPk: Int { index + 1 }

    var timezone = ""
    var info: [String: String] = [:]
    var infoStartDate: Int?
    var infoEndDate: Int?
    var serviceStartDate: Int?
    var serviceEndDate: Int?
    /// Prefixed agency_id -> agency_pk; the first agency takes routes without agency_id.
    var agencies: [String: Int] = [:]
    var firstAgencyPk: Int?
    /// Prefixed route_id -> route_pk.
    var routes: [String: Int] = [:]
    /// Prefixed service_id -> service_pk.
    var services: [String: Int] = [:]
    var counts = Counts()

    struct Counts {
        var agencies = 0
        var stops = 0
        var routes = 0
        var trips = 0
        var stopTimes = 0
        var patterns = 0
        var services = 0
        var frequencies = 0
    }

    init(index: Int, feed: ImportOptions.Feed, files: FeedFiles) {
        self.index = index
        self.name = feed.name
        self.prefix = feed.prefix ?? ""
        self.path = feed.path
        self.files = files
    }

    func prefixed(_ id: String) -> String { prefix.isEmpty ? id : prefix + id }

    func noteServiceDate(_ date: Int) {
        serviceStartDate = min(serviceStartDate ?? date, date)
        serviceEndDate = max(serviceEndDate ?? date, date)
    }
}

/// A route as the rest of the import needs it.
struct RouteInfo {
    var routeType: Int
    var mode: Mode
    var tripCount = 0
}

/// The whole import's state: the database being built, the id registries shared by all feeds, and the
/// rows collected for the big sorted tables (written at the end, see ImportFinish.swift).
final class ImportBuilder {
    let db: Database
    let strict: Bool
    let progressHandler: (@Sendable (ImportProgress) -> Void)?
    let isInterrupted: () -> Bool
    var feeds: [FeedContext] = []
    var tallies: [FileTally] = []
    let startTime = Date()

    // Stops of all feeds (stop_pk = index + 1).
    var stopIDs = ByteInterner(capacity: 1 << 16)
    var stops: [StopRecord] = []

    // Ids that must not collide between feeds: prefixed id -> owning feed index.
    var agencyOwners: [String: Int] = [:]
    /// Prefixed agency_id -> its row, so a feed repeating an identical agency shares it.
    var agencyRecords: [String: (pk: Int, name: String, timezone: String)] = [:]
    var routeOwners: [String: Int] = [:]
    var serviceOwners: [String: Int] = [:]
    var tripOwners: [String: Int32] = [:]
    var shapeOwners: [String: Int] = [:]
    /// shapes rows written so far (shape_pk = count).
    var shapeCount = 0

    var routes: [RouteInfo] = []  // route_pk = index + 1
    var nextServicePk = 1
    var nextTripPk = 1
    var stopTimesRead = 0

    /// stop_headsign texts of all feeds (id + 1 is stored; 0 = none).
    var headsigns = ByteInterner(capacity: 1 << 12)
    var patterns = PatternTable()
    /// (pattern_pk << 32 | route_pk) -> scheduled trips (frequency instances counted), for stop statistics.
    var patternRouteTrips: [UInt64: Int] = [:]
    var departures = DepartureRows()
    var frequencyStops: [FrequencyStopRow] = []

    var phases: [ImportSummary.Phase] = []
    private var lastProgress = Date.distantPast
    private var progressFile = ""
    private var progressFileStart = Date()

    init(
        db: Database, strict: Bool, progress: (@Sendable (ImportProgress) -> Void)?,
        isInterrupted: @escaping () -> Bool
    ) {
        self.db = db
        self.strict = strict
        self.progressHandler = progress
        self.isInterrupted = isInterrupted
    }

    /// Runs `body`, recording its wall-clock time under `name`.
    func timed<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = Date()
        defer { phases.append(ImportSummary.Phase(name: name, seconds: Date().timeIntervalSince(start))) }
        return try body()
    }

    func tally(_ feed: FeedContext, _ file: String) -> FileTally {
        let tally = FileTally(feed: feed.name, file: file)
        tallies.append(tally)
        return tally
    }

    /// Opens `file` of `feed` (nil when the feed has none) with the tally its rows and issues are counted in:
    /// NUL bytes, invalid UTF-8 and stray byte-order marks are counted (or, strict, fail the import).
    func open(_ feed: FeedContext, _ file: String, tally given: FileTally? = nil) throws -> (CSVReader, FileTally)? {
        guard feed.files.has(file) else { return nil }
        let tally = given ?? tally(feed, file)
        let strict = self.strict
        let reader = try feed.files.reader(file) { issue in
            if strict { throw issue.error }
            tally.note(issue)
        }
        return reader.map { ($0, tally) }
    }

    /// A row that breaks a reference: skipped and counted, or (strict) the import fails naming file:line.
    func reject(_ reason: String, _ reader: CSVReader, _ column: CSVColumn?, _ tally: FileTally) throws {
        if strict { throw reader.error(reason, column: column) }
        tally.skip(reason)
    }

    /// Same for problems found after reading (file and line remembered by the caller).
    func reject(_ reason: String, file: String, line: Int, rows: Int = 1, _ tally: FileTally) throws {
        if strict { throw CSVError(file: file, line: line, reason: reason) }
        tally.skip(reason, rows: rows)
    }

    /// Called every few thousand rows: honours interrupts and reports progress about ten times a second.
    /// `feed` nil for steps over all feeds; `fraction` 0…1 when known.
    func checkpoint(_ feed: FeedContext?, _ file: String, rows: Int, fraction: Double? = nil) throws {
        if isInterrupted() { throw ImportError("import interrupted; the previous database is unchanged") }
        guard let progressHandler else { return }
        let now = Date()
        let feedName = feed?.name ?? "all feeds"
        if progressFile != "\(feedName)/\(file)" {
            progressFile = "\(feedName)/\(file)"
            progressFileStart = now
        }
        guard now.timeIntervalSince(lastProgress) >= 0.1 else { return }
        lastProgress = now
        let elapsed = max(now.timeIntervalSince(progressFileStart), 0.001)
        progressHandler(
            ImportProgress(
                feed: feedName, file: file, rows: rows,
                rowsPerSecond: Double(rows) / elapsed, fraction: fraction))
    }

    /// Collision between feeds: an error naming both feeds and the way out.
    func collision(
        _ kind: String, _ id: String, feed: FeedContext, owner: Int, reader: CSVReader,
        column: CSVColumn
    ) -> CSVError {
        let other = feeds[owner]
        return reader.error(
            "\(kind) \"\(id)\" of feed \"\(feed.name)\" (\(feed.path)) is also defined by feed \"\(other.name)\""
                + " (\(other.path)); give one of them a prefix, e.g. --prefix \(feed.name)=\(feed.name.uppercased()):",
            column: column)
    }
}

extension CSVReader {
    /// The required column `name`, failing with `missing required column` naming this file.
    func required(_ name: String) throws -> CSVColumn { try requireColumn(name) }
}
