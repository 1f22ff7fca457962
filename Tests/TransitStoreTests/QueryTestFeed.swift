import Foundation
import Testing
import TransitCore

@testable import TransitStore

/// Two small feeds written as GTFS text files and imported with the real importer into one database:
///
/// `syd` (Australia/Sydney)
/// - Central Station (STA, a station) with platforms P1 ("1", wheelchair inherited) and P2 ("2") and an
///   entrance E1; parentless stops Town Hall (S2), Museum (S3), Kings Cross (S4), Café Sydney (CAFE),
///   loop stops L1–L3, and far away Kings (K0) and Old Kings Road (K2) without trips.
/// - Services: WK Mon–Fri 2025–2030 (removed 2025-12-25, added Saturday 2025-10-11), SA Saturdays,
///   HOL only in calendar_dates (2025-12-25), DST only in calendar_dates (2025-10-05 DST start, 2026-04-05
///   DST end).
/// - Trips: T1_0800 WK P1 08:00 → S2 08:05 → S3 08:10; T1_HOL HOL P1 09:00 → S2; T2_LATE WK P2 25:10 → S2
///   25:20; PU1 WK S2 07:00 (pickup_type 1) → S3 07:05 → S4 07:10; LOOP WK L1 10:00 → L2 → L3 → L1 10:15 →
///   L2 10:20; FREQ (metro M1) WK S4 → S2 (+7 min) → S3 (+12 min), every 10 min 06:00–07:00 (exact) and
///   every 20 min 07:00–08:00 (not exact); DST_EARLY/DST_LATE DST P1 01:30 / 08:00 → S2;
///   SAT_T1 SA P2 08:00 → S2; BUS333 WK S2 12:00 → S3; SCHOOL 712 WK S3 08:30 → S4.
/// `nyc` (America/New_York): NY1 Times Sq, NY2 Grand Central; NY_EARLY/NY_9 on DST days (2026-03-08,
/// 2025-11-02) at 01:00 / 09:00, NY_LATE weekdays 24:30.
enum QueryTestFeed {
    static let syd: [String: String] = [
        "agency.txt": """
        agency_id,agency_name,agency_url,agency_timezone
        SYD,Sydney Test Transit,https://example.com,Australia/Sydney
        """,
        "feed_info.txt": """
        feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version
        Test,https://example.com,en,20250101,20301231,syd-1
        """,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code,wheelchair_boarding,stop_code
        STA,Central Station,-33.8832,151.2070,1,,,1,
        P1,Central Station Platform 1,-33.8833,151.2071,0,STA,1,0,
        P2,Central Station Platform 2,-33.8834,151.2072,0,STA,2,2,
        E1,Central Station Entrance,-33.8830,151.2068,2,STA,,,
        S2,Town Hall,-33.8731,151.2069,0,,,1,200070
        S3,Museum,-33.8766,151.2094,0,,,0,
        S4,Kings Cross,-33.8748,151.2216,0,,,0,
        CAFE,Café Sydney,-33.8610,151.2110,0,,,0,
        L1,Loop Street,-33.8900,151.2000,0,,,0,
        L2,Loop Avenue,-33.8910,151.2010,0,,,0,
        L3,Loop Road,-33.8920,151.2020,0,,,0,
        K0,Kings,-33.9500,151.1000,0,,,0,
        K2,Old Kings Road,-33.9510,151.1010,0,,,0,
        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
        R_T1,SYD,T1,North Shore Line,2,F99D1C,000000
        R_T2,SYD,T2,Inner West Line,2,0098CD,FFFFFF
        R_T10,SYD,T10,Test Line,2,,
        R_333,SYD,333,Bondi Beach,700,00B5EF,
        R_L90,SYD,L90,Palm Beach,700,,
        R_2,SYD,2,Two,3,,
        R_10,SYD,10,Ten,3,,
        R_M1,SYD,M1,Metro North West,1,168388,
        R_F1,SYD,F1,Manly,4,00774B,
        R_712,SYD,712S,School Special,712,,
        R_LOOP,SYD,,Loop Service,3,zz12,
        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        WK,1,1,1,1,1,0,0,20250101,20301231
        SA,0,0,0,0,0,1,0,20250101,20301231
        """,
        "calendar_dates.txt": """
        service_id,date,exception_type
        WK,20251225,2
        WK,20251011,1
        HOL,20251225,1
        DST,20251005,1
        DST,20260405,1
        """,
        "trips.txt": """
        route_id,service_id,trip_id,trip_headsign,direction_id,wheelchair_accessible
        R_T1,WK,T1_0800,Hornsby,0,1
        R_T1,HOL,T1_HOL,Hornsby Holiday,0,0
        R_T2,WK,T2_LATE,Parramatta,1,2
        R_2,WK,PU1,Kings Cross,0,0
        R_LOOP,WK,LOOP,Loop,0,0
        R_M1,WK,FREQ,Tallawong,0,1
        R_T1,DST,DST_EARLY,Early,0,0
        R_T1,DST,DST_LATE,Late,0,0
        R_T1,SA,SAT_T1,Saturday,0,0
        R_333,WK,BUS333,Bondi,0,0
        R_712,WK,SCHOOL,School,0,0
        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,stop_headsign
        T1_0800,08:00:00,08:00:00,P1,1,,,
        T1_0800,08:05:00,08:05:00,S2,2,,,Via Museum
        T1_0800,08:10:00,08:10:00,S3,3,,,
        T1_HOL,09:00:00,09:00:00,P1,1,,,
        T1_HOL,09:05:00,09:05:00,S2,2,,,
        T2_LATE,25:10:00,25:10:00,P2,1,,,
        T2_LATE,25:20:00,25:20:00,S2,2,,,
        PU1,07:00:00,07:00:00,S2,1,1,,
        PU1,07:05:00,07:05:00,S3,2,,,
        PU1,07:10:00,07:10:00,S4,3,,,
        LOOP,10:00:00,10:00:00,L1,1,,,
        LOOP,10:05:00,10:05:00,L2,2,,,
        LOOP,10:10:00,10:10:00,L3,3,,,
        LOOP,10:15:00,10:15:00,L1,4,,,
        LOOP,10:20:00,10:20:00,L2,5,,,
        FREQ,06:00:00,06:00:00,S4,1,,,
        FREQ,06:07:00,06:07:00,S2,2,,,
        FREQ,06:12:00,06:12:00,S3,3,,,
        DST_EARLY,01:30:00,01:30:00,P1,1,,,
        DST_EARLY,01:40:00,01:40:00,S2,2,,,
        DST_LATE,08:00:00,08:00:00,P1,1,,,
        DST_LATE,08:10:00,08:10:00,S2,2,,,
        SAT_T1,08:00:00,08:00:00,P2,1,,,
        SAT_T1,08:10:00,08:10:00,S2,2,,,
        BUS333,12:00:00,12:00:00,S2,1,,,
        BUS333,12:10:00,12:10:00,S3,2,,,
        SCHOOL,08:30:00,08:30:00,S3,1,,,
        SCHOOL,08:40:00,08:40:00,S4,2,,,
        """,
        "frequencies.txt": """
        trip_id,start_time,end_time,headway_secs,exact_times
        FREQ,06:00:00,07:00:00,600,1
        FREQ,07:00:00,08:00:00,1200,0
        """,
    ]

    static let nyc: [String: String] = [
        "agency.txt": """
        agency_id,agency_name,agency_url,agency_timezone
        NYCT,New York Test,https://example.com,America/New_York
        """,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        NY1,Times Sq,40.7559,-73.9871
        NY2,Grand Central,40.7527,-73.9772
        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type
        NY7,NYCT,7,Flushing Local,1
        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        NYWK,1,1,1,1,1,0,0,20250101,20301231
        """,
        "calendar_dates.txt": """
        service_id,date,exception_type
        NYDST,20260308,1
        NYDST,20251102,1
        """,
        "trips.txt": """
        route_id,service_id,trip_id,trip_headsign
        NY7,NYDST,NY_EARLY,Flushing
        NY7,NYDST,NY_9,Flushing
        NY7,NYWK,NY_LATE,Flushing
        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        NY_EARLY,01:00:00,01:00:00,NY1,1
        NY_EARLY,01:10:00,01:10:00,NY2,2
        NY_9,09:00:00,09:00:00,NY1,1
        NY_9,09:10:00,09:10:00,NY2,2
        NY_LATE,24:30:00,24:30:00,NY1,1
        NY_LATE,24:40:00,24:40:00,NY2,2
        """,
    ]

    /// Writes the feeds, imports them, opens the store; shared by all tests (built once).
    static let shared: Result<StaticStore, any Error> = Result { try build() }

    static func store() throws -> StaticStore { try shared.get() }

    static func build() throws -> StaticStore {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("query-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var feeds: [ImportOptions.Feed] = []
        for (name, files) in [("syd", syd), ("nyc", nyc)] {
            let feedDir = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: feedDir, withIntermediateDirectories: true)
            for (file, text) in files {
                try (text + "\n").write(to: feedDir.appendingPathComponent(file), atomically: true, encoding: .utf8)
            }
            feeds.append(ImportOptions.Feed(path: feedDir.path, name: name))
        }
        let dbPath = dir.appendingPathComponent("transit.db").path
        _ = try GTFSImporter(
            options: ImportOptions(feeds: feeds, databasePath: dbPath, strict: true, handleInterrupts: false)
        ).run()
        return try StaticStore(path: dbPath, connections: 2)
    }
}

/// Expected instants written as UTC wall times, via Foundation's calendar (independent of the code under test).
func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return Int64(
        calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!.timeIntervalSince1970)
}
