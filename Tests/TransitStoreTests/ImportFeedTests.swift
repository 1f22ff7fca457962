import Foundation
import SQLiteKit
import Testing
import TransitCore
import TransitStore
import TransitTesting

/// Imports the sample feed once per test and checks what lands in each table.
@Suite struct ImportFeedTests {
    let folder: TemporaryFolder
    let db: Database
    let summary: ImportSummary

    init() throws {
        folder = try TemporaryFolder()
        let feed = try folder.writeFeed("sample", SampleFeed.files)
        summary = try runImport([.init(path: feed)], into: folder.path("transit.db"))
        db = try Database(path: folder.path("transit.db"), mode: .readOnly)
    }

    @Test func basicTablesHoldTheFeed() throws {
        #expect(try column(db, "SELECT agency_id FROM agency ORDER BY agency_pk") == ["SYD", "BUS"])
        #expect(
            try column(db, "SELECT stop_id FROM stops ORDER BY stop_pk")
                == ["CEN", "CEN1", "CEN2", "CEN_E", "TH", "RED", "BUS1"])
        #expect(
            try rows(db, "SELECT route_id, route_type, mode, color, text_color FROM routes ORDER BY route_pk") == [
                ["T1", "2", "train", "F99D1C", "FFFFFF"],
                ["333", "700", "bus", "00B5EF", "NULL"],
                ["F1", "3", "bus", "NULL", "NULL"],
            ])
        #expect(
            try column(db, "SELECT trip_id FROM trips ORDER BY trip_pk")
                == ["T1a", "T1b", "T1c", "T1late", "B1", "HOL1", "F1"])
        #expect(try rows(db, "SELECT name FROM stops WHERE stop_id = 'CEN1'") == [["Central Station, Platform 1"]])
        #expect(summary.totalSkipped == 0, "\(summary)")
    }

    @Test func stationsAndPlatforms() throws {
        #expect(
            try rows(
                db,
                """
                SELECT s.stop_id, p.stop_id, b.stop_id, s.platform_code, s.wheelchair_boarding
                FROM stops s LEFT JOIN stops p ON p.stop_pk = s.parent_pk JOIN stops b ON b.stop_pk = s.board_pk
                WHERE s.stop_id IN ('CEN1', 'CEN_E', 'TH') ORDER BY s.stop_pk
                """) == [
                    ["CEN1", "CEN", "CEN", "1", "1"], ["CEN_E", "CEN", "CEN_E", "NULL", "0"],
                    ["TH", "NULL", "TH", "NULL", "1"],
                ])
    }

    @Test func calendarsAndServicesFromCalendarDatesOnly() throws {
        #expect(try column(db, "SELECT service_id FROM services ORDER BY service_pk") == ["WK", "SAT", "HOL"])
        #expect(
            try rows(
                db,
                """
                SELECT s.service_id, c.monday, c.saturday, c.start_date, c.end_date
                FROM calendar c JOIN services s USING (service_pk) ORDER BY service_pk
                """) == [["WK", "1", "0", "20250101", "20301231"], ["SAT", "0", "1", "20250101", "20301231"]])
        #expect(
            try rows(
                db,
                """
                SELECT s.service_id, d.date, d.exception_type FROM calendar_dates d JOIN services s USING (service_pk)
                ORDER BY d.date
                """) == [["HOL", "20251225", "1"], ["WK", "20251226", "2"]])
    }

    @Test func tripsWithEqualOffsetsSharePatternsOthersDoNot() throws {
        let pattern = try Dictionary(
            uniqueKeysWithValues: rows(db, "SELECT trip_id, pattern_pk FROM trips").map {
                ($0[0], $0[1])
            })
        #expect(pattern["T1a"] == pattern["T1b"])
        #expect(pattern["T1a"] != pattern["T1c"])
        #expect(pattern["T1a"] != pattern["T1late"])
        #expect(try column(db, "SELECT COUNT(*) FROM patterns") == ["6"])
        #expect(
            try rows(db, "SELECT trip_count, stop_count FROM patterns WHERE pattern_pk = \(pattern["T1a"]!)")
                == [["2", "3"]])
        #expect(
            try rows(db, "SELECT start_secs, end_secs FROM trips WHERE trip_id IN ('T1a', 'T1b') ORDER BY trip_pk")
                == [["28800", "29400"], ["32400", "33000"]])
        #expect(
            try rows(
                db,
                """
                SELECT ps.stop_index, s.stop_id, ps.stop_sequence, ps.arrival_offset, ps.departure_offset
                FROM pattern_stops ps JOIN stops s USING (stop_pk) WHERE ps.pattern_pk = \(pattern["T1a"]!)
                ORDER BY ps.stop_index
                """) == [
                    ["0", "CEN1", "1", "0", "0"], ["1", "TH", "2", "300", "330"], ["2", "RED", "3", "600", "600"],
                ])
    }

    @Test func departuresIndexSkipsNoPickupAndLastStopsAndKeepsTimesPastMidnight() throws {
        let departures = try rows(
            db,
            """
            SELECT b.stop_id, d.departure_secs, t.trip_id, d.stop_index, s.stop_id
            FROM departures d JOIN stops b ON b.stop_pk = d.board_pk JOIN stops s ON s.stop_pk = d.stop_pk
            JOIN trips t USING (trip_pk)
            ORDER BY d.board_pk, d.departure_secs
            """)
        #expect(
            departures == [
                ["CEN", "28800", "T1a", "0", "CEN1"],
                ["CEN", "32400", "T1b", "0", "CEN1"],
                ["CEN", "36000", "T1c", "0", "CEN1"],
                ["CEN", "43200", "HOL1", "0", "CEN1"],
                ["CEN", "89400", "T1late", "0", "CEN2"],
                ["TH", "29130", "T1a", "1", "TH"],
                ["TH", "32730", "T1b", "1", "TH"],
                ["TH", "36420", "T1c", "1", "TH"],
                ["TH", "90600", "T1late", "1", "TH"],
                ["BUS1", "25200", "B1", "0", "BUS1"],
            ])
        // Service of each row is the trip's.
        #expect(
            try column(
                db,
                """
                SELECT COUNT(*) FROM departures d JOIN trips t USING (trip_pk) WHERE d.service_pk != t.service_pk
                """) == ["0"])
    }

    @Test func frequencyTripsAreNotExpanded() throws {
        #expect(
            try rows(
                db,
                """
                SELECT t.trip_id, t.is_frequency, f.start_secs, f.end_secs, f.headway_secs, f.exact_times
                FROM frequencies f JOIN trips t USING (trip_pk)
                """) == [["F1", "1", "21600", "32400", "600", "1"]])
        #expect(
            try rows(
                db,
                """
                SELECT b.stop_id, t.trip_id, fs.stop_index FROM frequency_stops fs
                JOIN stops b ON b.stop_pk = fs.board_pk JOIN trips t USING (trip_pk)
                """) == [["BUS1", "F1", "0"]])
        #expect(
            try column(db, "SELECT COUNT(*) FROM departures d JOIN trips t USING (trip_pk) WHERE t.is_frequency = 1")
                == ["0"])
    }

    @Test func stopRoutesAndPrimaryModes() throws {
        #expect(
            try rows(
                db,
                """
                SELECT s.stop_id, r.route_id, sr.trip_count FROM stop_routes sr
                JOIN stops s USING (stop_pk) JOIN routes r USING (route_pk) ORDER BY s.stop_pk, r.route_pk
                """) == [
                    ["CEN", "T1", "5"], ["CEN1", "T1", "4"], ["CEN2", "T1", "1"],
                    ["TH", "T1", "4"], ["TH", "333", "1"],
                    ["RED", "T1", "5"], ["RED", "333", "1"], ["RED", "F1", "18"],
                    ["BUS1", "333", "1"], ["BUS1", "F1", "18"],
                ])
        #expect(
            try rows(
                db,
                """
                SELECT stop_id, trip_count, primary_route_type, primary_mode, mode_mask FROM stops ORDER BY stop_pk
                """) == [
                    ["CEN", "5", "2", "train", "\(Mode.train.bit)"],
                    ["CEN1", "4", "2", "train", "\(Mode.train.bit)"],
                    ["CEN2", "1", "2", "train", "\(Mode.train.bit)"],
                    ["CEN_E", "0", "NULL", "NULL", "0"],
                    ["TH", "5", "2", "train", "\(Mode.train.bit | Mode.bus.bit)"],
                    // One route each of types 2, 3 and 700 (not F1's 18 instances): the tie goes to train.
                    ["RED", "24", "2", "train", "\(Mode.train.bit | Mode.bus.bit)"],
                    ["BUS1", "19", "3", "bus", "\(Mode.bus.bit)"],
                ])
    }

    @Test func searchAndSpatialIndexes() throws {
        #expect(
            try rows(
                db,
                """
                SELECT s.stop_id, f.is_platform FROM stop_search f JOIN stops s ON s.stop_pk = f.rowid
                WHERE stop_search MATCH 'cent*' ORDER BY s.stop_pk
                """) == [["CEN", "0"], ["CEN1", "1"], ["CEN2", "1"]])
        #expect(
            try column(
                db,
                """
                SELECT s.stop_id FROM stop_search f JOIN stops s ON s.stop_pk = f.rowid WHERE stop_search MATCH '200060'
                """) == ["CEN"])
        #expect(
            try column(
                db,
                """
                SELECT s.stop_id FROM stop_rtree r JOIN stops s ON s.stop_pk = r.stop_pk
                WHERE r.min_lat <= -33.87 AND r.max_lat >= -33.875 AND r.min_lon <= 151.21 AND r.max_lon >= 151.20
                ORDER BY s.stop_pk
                """) == ["TH"])
        #expect(try column(db, "SELECT COUNT(*) FROM stop_rtree") == ["6"])
    }

    @Test func feedAndMetaRecorded() throws {
        #expect(
            try rows(
                db,
                """
                SELECT name, prefix, publisher_name, version, start_date, end_date, service_start_date, service_end_date,
                       timezone, agency_count, stop_count, route_count, trip_count, stop_time_count, pattern_count,
                       service_count, frequency_count
                FROM feeds
                """) == [
                    [
                        "sample", "", "Test Publisher", "2025-12-01", "20250101", "20301231", "20250101", "20301231",
                        "Australia/Sydney", "2", "7", "3", "7", "19", "6", "3", "1",
                    ]
                ])
        #expect(
            try rows(db, "SELECT feed_name, feed_publisher_name, feed_version, feed_start_date FROM feed_info")
                == [["sample", "Test Publisher", "2025-12-01", "20250101"]])
        let version = try column(db, "SELECT value FROM meta WHERE key = 'db_version'")
        #expect(version == [summary.databaseVersion])
        #expect(try column(db, "SELECT value FROM meta WHERE key = 'schema_version'") == ["\(Schema.version)"])
        #expect(try column(db, "PRAGMA journal_mode") == ["delete"])
        #expect(summary.feeds.first?.version == "2025-12-01")
        #expect(summary.files.first { $0.file == "stop_times.txt" }?.rowsImported == 19)
    }

    @Test func reimportChangesTheDatabaseVersion() throws {
        let again = try runImport([.init(path: folder.path("sample"))], into: folder.path("transit.db"))
        #expect(again.databaseVersion != summary.databaseVersion)
        let reopened = try Database(path: folder.path("transit.db"), mode: .readOnly)
        #expect(try column(reopened, "SELECT value FROM meta WHERE key = 'db_version'") == [again.databaseVersion])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix(".")
        }
        #expect(leftovers.isEmpty)
    }
}

/// A trip calling at two platforms of one station counts once at the station (and once at each platform).
@Suite struct StationTripCountTests {
    @Test func loopThroughTwoPlatformsCountsOnceAtTheStation() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["trips.txt"]! += "T1,WK,LOOP,Central,0,,\n"
        files["stop_times.txt"]! += """
            LOOP,11:00:00,11:00:00,CEN1,1,,
            LOOP,11:05:00,11:05:00,TH,2,,
            LOOP,11:10:00,11:10:00,CEN2,3,,

            """
        let feed = try folder.writeFeed("loop", files)
        _ = try runImport([.init(path: feed)], into: folder.path("transit.db"))
        let db = try Database(path: folder.path("transit.db"), mode: .readOnly)
        // The sample alone: CEN 5 (T1a, T1b, T1c, HOL1 at CEN1; T1late at CEN2), CEN1 4, CEN2 1, TH 4.
        #expect(
            try rows(
                db,
                """
                SELECT s.stop_id, sr.trip_count FROM stop_routes sr JOIN stops s USING (stop_pk) JOIN routes r USING (route_pk)
                WHERE r.route_id = 'T1' AND s.stop_id IN ('CEN', 'CEN1', 'CEN2', 'TH') ORDER BY s.stop_pk
                """) == [["CEN", "6"], ["CEN1", "5"], ["CEN2", "2"], ["TH", "5"]])
        #expect(
            try rows(
                db, "SELECT stop_id, trip_count FROM stops WHERE stop_id IN ('CEN', 'CEN1', 'CEN2') ORDER BY stop_pk")
                == [["CEN", "6"], ["CEN1", "5"], ["CEN2", "2"]])
    }
}
