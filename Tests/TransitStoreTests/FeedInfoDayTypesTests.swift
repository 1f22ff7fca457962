import Foundation
import Testing
import TransitCore
import TransitModel
import TransitTesting

@testable import TransitStore

/// `feed_info`'s `timetable_days` from an imported calendar: Monday 26 January 2026 drops the weekday
/// service for the Sunday one (protocol/README.md flow 6, "Day types from the calendar").
@Suite struct FeedInfoDayTypesTests {
    static let files: [String: String] = [
        "agency.txt": """
        agency_id,agency_name,agency_url,agency_timezone
        A,Holiday Transit,https://example.com,Australia/Sydney
        """,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        S1,First,-33.88,151.20
        S2,Second,-33.87,151.21
        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type
        R1,A,1,One,3
        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        WK,1,1,1,1,1,0,0,20260101,20260228
        SA,0,0,0,0,0,1,0,20260101,20260228
        SU,0,0,0,0,0,0,1,20260101,20260228
        """,
        "calendar_dates.txt": """
        service_id,date,exception_type
        WK,20260126,2
        SU,20260126,1
        """,
        "trips.txt": """
        route_id,service_id,trip_id
        R1,WK,T_WK
        R1,SA,T_SA
        R1,SU,T_SU
        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T_WK,08:00:00,08:00:00,S1,1
        T_WK,08:10:00,08:10:00,S2,2
        T_SA,09:00:00,09:00:00,S1,1
        T_SA,09:10:00,09:10:00,S2,2
        T_SU,10:00:00,10:00:00,S1,1
        T_SU,10:10:00,10:10:00,S2,2
        """,
    ]

    @Test func theHolidayMondayRunsAsSunday() throws {
        let folder = try TemporaryFolder("day-types")
        let feed = folder.path("feed")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        for (file, text) in Self.files {
            try (text + "\n").write(toFile: feed + "/" + file, atomically: true, encoding: .utf8)
        }
        let db = folder.path("transit.db")
        _ = try GTFSImporter(
            options: ImportOptions(
                feeds: [ImportOptions.Feed(path: feed, name: "h")], databasePath: db, strict: true,
                handleInterrupts: false)
        ).run()
        let store = try StaticStore(path: db, connections: 1)
        let dayTypes = store.feedInfo().dayTypes
        #expect(dayTypes.runsAs == [20_260_126: 7])
        #expect(dayTypes.dayType(of: 20_260_126, isoWeekday: 1) == .sunday)
        #expect(dayTypes.dayType(of: 20_260_119, isoWeekday: 1) == .weekday)
    }
}
