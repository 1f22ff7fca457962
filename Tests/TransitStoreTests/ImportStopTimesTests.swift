import Foundation
import SQLiteKit
import Testing
import TransitStore
import TransitTesting

/// stop_times specifics: unsorted files, missing times, duplicates, and the same feed from a zip.
@Suite struct ImportStopTimesTests {
    /// Everything the import derives from stop_times, as comparable text.
    private func scheduleSnapshot(_ path: String) throws -> [[String]] {
        let db = try Database(path: path, mode: .readOnly)
        return try rows(
            db,
            """
            SELECT 'trip', trip_id, pattern_pk, start_secs, end_secs FROM trips
            UNION ALL SELECT 'ps', pattern_pk, stop_index, stop_pk, arrival_offset || '/' || departure_offset
                FROM pattern_stops
            UNION ALL SELECT 'dep', board_pk, departure_secs, trip_pk, stop_index FROM departures
            UNION ALL SELECT 'sr', stop_pk, route_pk, trip_count, '' FROM stop_routes
            ORDER BY 1, 2, 3, 4, 5
            """)
    }

    @Test func unsortedStopTimesGiveTheSameSchedule() throws {
        let folder = try TemporaryFolder()
        let sorted = try folder.writeFeed("sorted", SampleFeed.files)
        var files = SampleFeed.files
        var lines = SampleFeed.stopTimes.split(separator: "\n").map(String.init)
        let header = lines.removeFirst()
        // Reverse the rows and interleave trips: no trip's rows are contiguous or in sequence order.
        lines.reverse()
        let shuffled =
            stride(from: 0, to: lines.count, by: 2).map { lines[$0] }
            + stride(from: 1, to: lines.count, by: 2).map { lines[$0] }
        files["stop_times.txt"] = ([header] + shuffled).joined(separator: "\r\n") + "\r\n"
        let unsorted = try folder.writeFeed("unsorted", files)

        try runImport([.init(path: sorted)], into: folder.path("a.db"))
        try runImport([.init(path: unsorted)], into: folder.path("b.db"))
        let expected = try scheduleSnapshot(folder.path("a.db"))
        #expect(expected.count > 30)
        #expect(try scheduleSnapshot(folder.path("b.db")) == expected)
    }

    @Test func zipFeedWithTopFolderMatchesTheFolderFeed() throws {
        let folder = try TemporaryFolder()
        let plain = try folder.writeFeed("plain", SampleFeed.files)
        let zipped = try folder.writeZip("sample.zip", SampleFeed.files, folder: "gtfs")
        try runImport([.init(path: plain)], into: folder.path("a.db"))
        let summary = try runImport([.init(path: zipped)], into: folder.path("b.db"))
        #expect(summary.feeds.first?.name == "sample")
        #expect(try scheduleSnapshot(folder.path("b.db")) == scheduleSnapshot(folder.path("a.db")))
    }

    @Test func bigZipEntryStreamsThroughManyChunks() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        var trips = SampleFeed.trips
        var stopTimes = SampleFeed.stopTimes
        for i in 0..<20_000 {
            trips += "T1,WK,GEN\(i),Redfern,0,,\n"
            let start = 18_000 + i
            func time(_ secs: Int) -> String {
                String(format: "%02d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60)
            }
            stopTimes += "GEN\(i),\(time(start)),\(time(start)),CEN1,1,,\n"
            stopTimes += "GEN\(i),\(time(start + 300)),\(time(start + 300)),TH,2,,\n"
            stopTimes += "GEN\(i),\(time(start + 600)),\(time(start + 600)),RED,3,,\n"
        }
        files["trips.txt"] = trips
        files["stop_times.txt"] = stopTimes
        let zipped = try folder.writeZip("big.zip", files)
        let summary = try runImport([.init(path: zipped)], into: folder.path("t.db"))
        #expect(summary.files.first { $0.file == "stop_times.txt" }?.rowsImported == 60_019)
        let db = try Database(path: folder.path("t.db"), mode: .readOnly)
        #expect(try column(db, "SELECT COUNT(*) FROM trips") == ["20007"])
        // All generated trips share one pattern (equal offsets, different starts).
        #expect(try column(db, "SELECT COUNT(DISTINCT pattern_pk) FROM trips WHERE trip_id LIKE 'GEN%'") == ["1"])
        #expect(try column(db, "SELECT COUNT(*) FROM departures") == ["40010"])
    }

    @Test func missingIntermediateTimesAreInterpolated() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["trips.txt"]! += "T1,WK,INT1,Redfern,0,,\nT1,WK,INT2,Redfern,0,,\n"
        files["stop_times.txt"] = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            INT1,10:00:00,10:00:00,CEN1,1,0
            INT1,,,TH,2,300
            INT1,,,BUS1,3,
            INT1,10:10:00,10:11:00,RED,4,1000
            INT2,10:00:00,,CEN1,1,
            INT2,,,TH,2,
            INT2,10:20:00,10:20:00,RED,3,

            """
        let feed = try folder.writeFeed("interp", files)
        try runImport([.init(path: feed)], into: folder.path("t.db"))
        let db = try Database(path: folder.path("t.db"), mode: .readOnly)
        func stops(_ trip: String) throws -> [[String]] {
            try rows(
                db,
                """
                SELECT ps.arrival_offset, ps.departure_offset, ps.timepoint FROM trips t
                JOIN pattern_stops ps USING (pattern_pk) WHERE t.trip_id = '\(trip)' ORDER BY ps.stop_index
                """)
        }
        // By distance for TH (300 of 1000 m), evenly for BUS1 (no distance): 2/3 of the way.
        #expect(
            try stops("INT1") == [["0", "0", "1"], ["180", "180", "0"], ["400", "400", "0"], ["600", "660", "1"]])
        #expect(try stops("INT2") == [["0", "0", "1"], ["600", "600", "0"], ["1200", "1200", "1"]])
    }

    @Test func tripsWithoutEndTimesOrWithDuplicateSequencesAreHandled() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["trips.txt"]! += "T1,WK,NOEND,Redfern,0,,\nT1,WK,DUP,Redfern,0,,\n"
        files["stop_times.txt"]! += """
            NOEND,10:00:00,10:00:00,CEN1,1,,
            NOEND,,,RED,2,,
            DUP,11:00:00,11:00:00,CEN1,1,,
            DUP,11:05:00,11:05:00,TH,2,,
            DUP,11:06:00,11:06:00,TH,2,,
            DUP,11:10:00,11:10:00,RED,3,,

            """
        let feed = try folder.writeFeed("odd", files)
        let summary = try runImport([.init(path: feed)], into: folder.path("t.db"))
        let stopTimes = summary.files.first { $0.file == "stop_times.txt" }
        #expect(
            stopTimes?.skipped == [
                "trip without times at its first or last stop (its stop_times skipped)": 2,
                "duplicate stop_sequence in a trip (later row skipped)": 1,
            ])
        let trips = summary.files.first { $0.file == "trips.txt" }
        #expect(trips?.skipped == ["trip without times at its first or last stop (not imported)": 1])
        let db = try Database(path: folder.path("t.db"), mode: .readOnly)
        #expect(try column(db, "SELECT COUNT(*) FROM trips WHERE trip_id = 'NOEND'") == ["0"])
        #expect(
            try rows(
                db,
                """
                SELECT ps.arrival_offset FROM trips t JOIN pattern_stops ps USING (pattern_pk)
                WHERE t.trip_id = 'DUP' ORDER BY ps.stop_index
                """) == [["0"], ["300"], ["600"]])

        let strict = errorMessage { try runImport([.init(path: feed)], into: folder.path("s.db"), strict: true) }
        #expect(
            strict == "\(feed)/stop_times.txt:22: trip without times at its first or last stop (its stop_times skipped)"
        )
    }
}
