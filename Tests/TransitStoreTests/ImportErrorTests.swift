import Foundation
import SQLiteKit
import Testing
import TransitStore
import TransitTesting

/// Bad input: broken references (skipped and counted, or fatal with --strict), malformed files, non-GTFS zips,
/// and the guarantee that a failed import leaves the previous database as it was.
@Suite struct ImportErrorTests {
    /// The sample feed with rows that break references appended.
    static var brokenReferences: [String: String] {
        var files = SampleFeed.files
        files["stops.txt"]! += "ORPHAN,Orphan platform,-33.9,151.2,0,NOSUCHSTATION,,,\n"
        files["trips.txt"]! += "NOROUTE,WK,X1,Nowhere,0,,\nT1,NOSERVICE,X2,Nowhere,0,,\n"
        files["stop_times.txt"]! += "GHOST,08:00:00,08:00:00,TH,1,,\nT1a,08:20:00,08:20:00,NOSTOP,4,,\n"
        return files
    }

    @Test func brokenReferencesAreSkippedAndCounted() throws {
        let folder = try TemporaryFolder()
        let feed = try folder.writeFeed("broken", Self.brokenReferences)
        let summary = try runImport([.init(path: feed)], into: folder.path("t.db"))
        func skipped(_ file: String) -> [String: Int] { summary.files.first { $0.file == file }?.skipped ?? [:] }
        #expect(skipped("trips.txt") == ["unknown route_id": 1, "unknown service_id": 1])
        #expect(skipped("stop_times.txt") == ["unknown trip_id": 1, "unknown stop_id": 1])
        #expect(skipped("stops.txt") == ["unknown parent_station (stop kept without parent)": 1])
        #expect(summary.description.contains("1 unknown stop_id"))
        let db = try Database(path: folder.path("t.db"), mode: .readOnly)
        #expect(try column(db, "SELECT COUNT(*) FROM trips") == ["7"])
        #expect(
            try rows(db, "SELECT parent_pk, board_pk = stop_pk FROM stops WHERE stop_id = 'ORPHAN'") == [["NULL", "1"]])
        // T1a keeps its three valid stops.
        #expect(
            try column(
                db,
                """
                SELECT p.stop_count FROM trips t JOIN patterns p USING (pattern_pk) WHERE t.trip_id = 'T1a'
                """) == ["3"])
    }

    @Test func strictFailsAtTheFirstBrokenReference() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["stop_times.txt"]! += "T1a,08:20:00,08:20:00,NOSTOP,4,,\n"
        let feed = try folder.writeFeed("broken", files)
        let message = errorMessage { try runImport([.init(path: feed)], into: folder.path("t.db"), strict: true) }
        #expect(message == "\(feed)/stop_times.txt:21:4 (stop_id): unknown stop_id")
        #expect(!FileManager.default.fileExists(atPath: folder.path("t.db")))

        let withOrphan = try folder.writeFeed("orphan", Self.brokenReferences)
        let orphan = errorMessage { try runImport([.init(path: withOrphan)], into: folder.path("t.db"), strict: true) }
        #expect(
            orphan == "\(withOrphan)/stops.txt:9: unknown parent_station (stop kept without parent): \"NOSUCHSTATION\"")
    }

    @Test func missingRequiredColumnIsNamed() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["stops.txt"] = "id,stop_name\nA,Somewhere\n"
        let feed = try folder.writeFeed("nocolumn", files)
        let message = errorMessage { try runImport([.init(path: feed)], into: folder.path("t.db")) }
        #expect(message == "\(feed)/stops.txt:1: missing required column \"stop_id\"")
    }

    @Test func brokenQuotesAndBadTimesNameFileLineAndColumn() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["stop_times.txt"]! += "T1a,08:20:00,08:2:00,RED,4,,\n"
        let badTime = try folder.writeFeed("badtime", files)
        #expect(
            errorMessage { try runImport([.init(path: badTime)], into: folder.path("t.db")) }
                == "\(badTime)/stop_times.txt:21:3 (departure_time): bad time (expected H:MM:SS) \"08:2:00\"")

        files = SampleFeed.files
        files["stops.txt"]! += "Q1,\"Unclosed name,-33.9,151.2,0,,,,\n"
        let badQuote = try folder.writeFeed("badquote", files)
        let message = errorMessage { try runImport([.init(path: badQuote)], into: folder.path("t.db")) }
        #expect(
            message?.hasPrefix("\(badQuote)/stops.txt:9:2 (stop_name): unterminated quoted field") == true,
            "\(message ?? "")")
    }

    @Test func missingFilesAndNonGTFSZipsAreExplained() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["stop_times.txt"] = nil
        files["calendar.txt"] = nil
        files["calendar_dates.txt"] = nil
        let partial = try folder.writeFeed("partial", files)
        #expect(
            errorMessage { try runImport([.init(path: partial)], into: folder.path("t.db")) }
                == "\(partial): is not a complete GTFS feed: missing required file(s) stop_times.txt, "
                + "calendar.txt or calendar_dates.txt")

        let empty = try folder.writeZip("empty.zip", [:])
        let emptyMessage = errorMessage { try runImport([.init(path: empty)], into: folder.path("t.db")) }
        #expect(emptyMessage?.contains("empty.zip") == true)
        #expect(
            emptyMessage?.contains("missing required file(s) agency.txt, stops.txt") == true
                || emptyMessage?.contains("not a readable zip") == true, "\(emptyMessage ?? "")")

        let readme = try folder.writeZip("readme.zip", ["README.md": "hello"])
        #expect(
            errorMessage { try runImport([.init(path: readme)], into: folder.path("t.db")) }
                == "\(readme): is empty or not a GTFS feed (no .txt files): missing required file(s) agency.txt, "
                + "stops.txt, routes.txt, trips.txt, stop_times.txt, calendar.txt or calendar_dates.txt")

        let notZip = folder.path("garbage.zip")
        try Data("this is not a zip".utf8).write(to: URL(fileURLWithPath: notZip))
        #expect(
            errorMessage { try runImport([.init(path: notZip)], into: folder.path("t.db")) }?
                .hasPrefix("\(notZip): not a readable zip archive") == true)

        #expect(
            errorMessage { try runImport([.init(path: folder.path("nope"))], into: folder.path("t.db")) }
                == "\(folder.path("nope")): no such file or folder")
    }

    @Test func failedImportLeavesThePreviousDatabaseUntouched() throws {
        let folder = try TemporaryFolder()
        let good = try folder.writeFeed("good", SampleFeed.files)
        let target = folder.path("transit.db")
        let first = try runImport([.init(path: good)], into: target)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))

        var files = SampleFeed.files
        files["stop_times.txt"]! += "T1a,08:20:00,\"08:20:00,RED,4,,\n"
        let bad = try folder.writeFeed("bad", files)
        #expect(errorMessage { try runImport([.init(path: bad)], into: target) } != nil)
        #expect(errorMessage { try runImport([.init(path: bad)], into: target, strict: true) } != nil)

        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        let db = try Database(path: target, mode: .readOnly)
        #expect(try column(db, "SELECT value FROM meta WHERE key = 'db_version'") == [first.databaseVersion])
        #expect(try column(db, "SELECT COUNT(*) FROM trips") == ["7"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix(".")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func targetFolderMustExist() throws {
        let folder = try TemporaryFolder()
        let good = try folder.writeFeed("good", SampleFeed.files)
        let message = errorMessage { try runImport([.init(path: good)], into: folder.path("missing/t.db")) }
        #expect(message?.contains("does not exist") == true)
    }
}

@Suite struct ImportInterruptTests {
    /// SIGINT during an import (raised from the progress callback, i.e. mid-import) fails it cleanly.
    @Test func interruptedImportKeepsThePreviousDatabase() throws {
        let folder = try TemporaryFolder()
        let feed = try folder.writeFeed("good", SampleFeed.files)
        let target = folder.path("transit.db")
        try runImport([.init(path: feed)], into: target)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))

        let options = ImportOptions(
            feeds: [.init(path: feed)], databasePath: target,
            progress: { progress in
                guard !progress.finished else { return }
                // To the process (a test thread may block signals); give the handler time to run.
                kill(getpid(), SIGINT)
                usleep(50_000)
            }, handleInterrupts: true)
        let message = errorMessage { _ = try GTFSImporter(options: options).run() }
        #expect(message == "import interrupted; the previous database is unchanged")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix(".")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
