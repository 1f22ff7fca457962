import Foundation
import SQLiteKit
import Testing
import TransitStore
import TransitTesting

/// A second feed sharing stop ids with the sample feed (CEN1, TH: Sydney's per-mode feeds share stops) and
/// reusing its route, trip and service ids.
private enum SecondFeed {
    static var files: [String: String] {
        [
            "agency.txt": """
            agency_name,agency_url,agency_timezone
            Metro,https://metro,Australia/Sydney

            """,
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code,wheelchair_boarding
            CEN1,"Central Station, Platform 1",-33.8830,151.2065,0,CEN,1,1
            TH,Town Hall (renamed),-33.8731,151.2065,,,,
            M1,Metro Martin Place,-33.8680,151.2110,,,,

            """,
            "routes.txt": """
            route_id,route_short_name,route_type
            T1,M1,401

            """,
            "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,1,1,20250101,20301231

            """,
            "trips.txt": """
            route_id,service_id,trip_id,block_id
            T1,WK,T1a,BLK

            """,
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1a,06:00:00,06:00:00,M1,1
            T1a,06:03:00,06:03:00,TH,2
            T1a,06:06:00,06:06:00,CEN1,3

            """,
        ]
    }
}

@Suite struct ImportMultiFeedTests {
    @Test func collidingIdsBetweenFeedsNameBothFeeds() throws {
        let folder = try TemporaryFolder()
        let first = try folder.writeFeed("trains", SampleFeed.files)
        let second = try folder.writeFeed("metro", SecondFeed.files)
        let message = errorMessage {
            try runImport([.init(path: first), .init(path: second)], into: folder.path("t.db"))
        }
        #expect(message?.contains("route_id \"T1\" of feed \"metro\"") == true, "\(message ?? "")")
        #expect(message?.contains("feed \"trains\"") == true)
        #expect(message?.contains("metro/routes.txt:2") == true)
        #expect(message?.contains("--prefix") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path("t.db")))
    }

    @Test func prefixSeparatesIdsButNotStops() throws {
        let folder = try TemporaryFolder()
        let first = try folder.writeFeed("trains", SampleFeed.files)
        let second = try folder.writeFeed("metro", SecondFeed.files)
        let summary = try runImport([.init(path: first), .init(path: second, prefix: "M:")], into: folder.path("t.db"))
        let db = try Database(path: folder.path("t.db"), mode: .readOnly)

        #expect(try column(db, "SELECT route_id FROM routes ORDER BY route_pk") == ["T1", "333", "F1", "M:T1"])
        #expect(try column(db, "SELECT agency_id FROM agency ORDER BY agency_pk") == ["SYD", "BUS", "M:metro"])
        #expect(try rows(db, "SELECT trip_id, block_id FROM trips WHERE feed_pk = 2") == [["M:T1a", "M:BLK"]])
        #expect(try column(db, "SELECT service_id FROM services WHERE feed_pk = 2") == ["M:WK"])
        // Stops are shared: CEN1 and TH once (first feed wins), M1 added, no prefix.
        #expect(
            try column(db, "SELECT stop_id FROM stops ORDER BY stop_pk")
                == ["CEN", "CEN1", "CEN2", "CEN_E", "TH", "RED", "BUS1", "M1"])
        #expect(try column(db, "SELECT name FROM stops WHERE stop_id = 'TH'") == ["Town Hall"])
        let stopsFile = summary.files.first { $0.feed == "metro" && $0.file == "stops.txt" }
        #expect(stopsFile?.skipped["stop_id already defined by an earlier feed (same values; first kept)"] == 1)
        #expect(
            stopsFile?.skipped["stop_id already defined by an earlier feed with different values (first kept)"] == 1)
        // The metro trip departs at the shared stops, under the station for CEN1.
        #expect(
            try rows(
                db,
                """
                SELECT b.stop_id, d.departure_secs FROM departures d JOIN stops b ON b.stop_pk = d.board_pk
                JOIN trips t USING (trip_pk) WHERE t.trip_id = 'M:T1a' ORDER BY d.departure_secs
                """) == [["M1", "21600"], ["TH", "21780"]])
        // Central now serves a metro route too.
        #expect(
            try column(
                db,
                """
                SELECT r.route_id FROM stop_routes sr JOIN routes r USING (route_pk)
                WHERE sr.stop_pk = (SELECT stop_pk FROM stops WHERE stop_id = 'CEN') ORDER BY r.route_pk
                """) == ["T1", "M:T1"])
        #expect(
            try rows(db, "SELECT name, prefix, timezone FROM feeds ORDER BY feed_pk")
                == [["trains", "", "Australia/Sydney"], ["metro", "M:", "Australia/Sydney"]])
        #expect(summary.feeds.map(\.name) == ["trains", "metro"])
    }

    @Test func feedNamesComeFromPathsOrArguments() throws {
        #expect(ImportOptions.Feed(path: "feeds/sydneytrains.zip").name == "sydneytrains")
        #expect(ImportOptions.Feed(path: "data/sample-gtfs/").name == "sample-gtfs")
        let named = ImportOptions.Feed(argument: "metro=feeds/m.zip")
        #expect(named.name == "metro")
        #expect(named.path == "feeds/m.zip")
        #expect(ImportOptions.Feed(argument: "feeds/a=b.zip").path == "feeds/a=b.zip")

        var options = ImportOptions(feeds: [.init(path: "a.zip"), .init(path: "b.zip")], databasePath: "x.db")
        try options.applyPrefixes(["b=B:"])
        #expect(options.feeds.map(\.prefix) == [nil, "B:"])
        #expect(throws: ImportError.self) { try options.applyPrefixes(["c=C:"]) }
    }

    @Test func twoFeedsWithTheSameNameAreRejected() throws {
        let folder = try TemporaryFolder()
        let feed = try folder.writeFeed("gtfs", SampleFeed.files)
        let message = errorMessage { try runImport([.init(path: feed), .init(path: feed)], into: folder.path("t.db")) }
        #expect(message?.contains("two feeds are named \"gtfs\"") == true)
    }
}
