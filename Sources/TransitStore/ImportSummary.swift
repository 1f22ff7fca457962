import Foundation

/// What an import did: per file rows read, imported and skipped (with reasons), per feed version and
/// validity, and the new database's version.
public struct ImportSummary: Sendable, CustomStringConvertible {
    public struct FileStats: Sendable {
        public var feed: String
        public var file: String
        public var rowsRead = 0
        public var rowsImported = 0
        /// Reason -> rows skipped (or, for reasons saying so, rows kept with the reference dropped).
        public var skipped: [String: Int] = [:]
        /// Reason -> where it was first seen (`line 12, column 2 (stop_name)`), for the reasons that keep it.
        public var firstPlaces: [String: String] = [:]

        public var skippedCount: Int { skipped.values.reduce(0, +) }
    }

    public struct FeedStats: Sendable {
        public var name: String
        public var prefix: String
        public var path: String
        public var version: String?
        /// feed_info.txt validity, YYYYMMDD.
        public var startDate: Int?
        public var endDate: Int?
        /// First and last date any service may run (from calendar and calendar_dates).
        public var serviceStartDate: Int?
        public var serviceEndDate: Int?
        public var timezone: String
        public var stops = 0
        public var routes = 0
        public var trips = 0
        public var stopTimes = 0
        public var patterns = 0
    }

    /// Wall-clock time of one step of the import (for benchmarks).
    public struct Phase: Sendable {
        public var name: String
        public var seconds: Double
    }

    public var databasePath: String
    public var databaseVersion: String
    public var feeds: [FeedStats] = []
    public var files: [FileStats] = []
    public var seconds: Double = 0
    /// stop_times rows read per second over the whole import.
    public var stopTimesPerSecond: Double = 0
    /// Steps in order: read stops, stop_times per feed, build trips, write departures, indexes…
    public var phases: [Phase] = []
    /// Temporary files of earlier imports that had died (killed mid-import), removed before this one.
    public var removedStaleFiles: [String] = []

    public var totalSkipped: Int { files.reduce(0) { $0 + $1.skippedCount } }

    public var description: String {
        var lines: [String] = []
        let rate = Int(stopTimesPerSecond)
        lines.append(
            "imported \(feeds.count) feed(s) into \(databasePath) in \(String(format: "%.1f", seconds)) s"
                + " (\(rate) stop_times/s), version \(databaseVersion)")
        for feed in feeds {
            var validity = ""
            if let start = feed.startDate ?? feed.serviceStartDate, let end = feed.endDate ?? feed.serviceEndDate {
                validity = ", valid \(start)–\(end)"
            }
            let prefix = feed.prefix.isEmpty ? "" : " prefix \(feed.prefix)"
            lines.append(
                "  \(feed.name)\(prefix): version \(feed.version ?? "-")\(validity), \(feed.timezone);"
                    + " \(feed.stops) stops, \(feed.routes) routes, \(feed.trips) trips, \(feed.stopTimes) stop_times,"
                    + " \(feed.patterns) patterns")
        }
        if !phases.isEmpty {
            lines.append(
                "  phases: "
                    + phases.map { "\($0.name) \(String(format: "%.2f", $0.seconds)) s" }
                    .joined(separator: ", "))
        }
        if !removedStaleFiles.isEmpty {
            lines.append(
                "  removed \(removedStaleFiles.count) temporary file(s) of dead imports: "
                    + removedStaleFiles.joined(separator: ", "))
        }
        for file in files {
            var line = "  \(file.feed)/\(file.file): \(file.rowsRead) read, \(file.rowsImported) imported"
            if !file.skipped.isEmpty {
                let reasons = file.skipped.sorted { $0.key < $1.key }.map { reason, count in
                    "\(count) \(reason)" + (file.firstPlaces[reason].map { ", first at \($0)" } ?? "")
                }
                line += "; " + reasons.joined(separator: "; ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
