import Foundation
import SQLiteKit
import TransitStore
import TransitTesting
import ZIPFoundation

extension TemporaryFolder {
    /// Writes `files` into a zip archive `name` (optionally under a top folder) and returns its path.
    func writeZip(_ name: String, _ files: [String: String], folder: String? = nil) throws -> String {
        let zipURL = url.appendingPathComponent(name)
        let archive = try Archive(url: zipURL, accessMode: .create)
        for (file, content) in files.sorted(by: { $0.key < $1.key }) {
            let data = Data(content.utf8)
            let path = folder.map { "\($0)/\(file)" } ?? file
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count),
                compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return zipURL.path
    }
}

/// A small Sydney-shaped feed exercising the import's rules. Times in comments are service-day seconds.
enum SampleFeed {
    static let agency = """
        agency_id,agency_name,agency_url,agency_timezone
        SYD,Sydney Trains,https://transportnsw.info,Australia/Sydney
        BUS,Sydney Buses,https://transportnsw.info,Australia/Sydney

        """

    static let stops = """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code,wheelchair_boarding,stop_code
        CEN,Central Station,-33.8832,151.2070,1,,,1,200060
        CEN1,"Central Station, Platform 1",-33.8830,151.2065,0,CEN,1,1,
        CEN2,"Central Station, Platform 2",-33.8831,151.2066,0,CEN,2,0,
        CEN_E,Central Station Eddy Av Entrance,-33.8835,151.2075,2,CEN,,,
        TH,Town Hall,-33.8731,151.2065,0,,,1,
        RED,Redfern,-33.8917,151.1985,0,,,2,
        BUS1,Elizabeth St Stand A,-33.8800,151.2100,0,,,0,

        """

    static let routes = """
        route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
        T1,SYD,T1,North Shore Line,2,F99D1C,FFFFFF
        333,BUS,333,Bondi Beach via Oxford St,700,00B5EF,
        F1,BUS,F1,Frequent shuttle,3,,

        """

    static let calendar = """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        WK,1,1,1,1,1,0,0,20250101,20301231
        SAT,0,0,0,0,0,1,0,20250101,20301231

        """

    static let calendarDates = """
        service_id,date,exception_type
        HOL,20251225,1
        WK,20251226,2

        """

    static let trips = """
        route_id,service_id,trip_id,trip_headsign,direction_id,shape_id,block_id
        T1,WK,T1a,Redfern,0,SH1,BL1
        T1,WK,T1b,Redfern,0,SH1,BL1
        T1,WK,T1c,Redfern,0,SH1,
        T1,WK,T1late,Redfern,0,,
        333,SAT,B1,Redfern,1,,
        T1,HOL,HOL1,Redfern,0,,
        F1,WK,F1,Redfern,0,,

        """

    static let stopTimes = """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
        T1a,08:00:00,08:00:00,CEN1,1,,
        T1a,08:05:00,08:05:30,TH,2,,
        T1a,08:10:00,08:10:00,RED,3,,
        T1b,09:00:00,09:00:00,CEN1,1,,
        T1b,09:05:00,09:05:30,TH,2,,
        T1b,09:10:00,09:10:00,RED,3,,
        T1c,10:00:00,10:00:00,CEN1,1,,
        T1c,10:07:00,10:07:00,TH,2,,
        T1c,10:12:00,10:12:00,RED,3,,
        T1late,24:50:00,24:50:00,CEN2,1,,
        T1late,25:10:00,25:10:00,TH,2,,
        T1late,25:20:00,25:20:00,RED,3,,
        B1,07:00:00,07:00:00,BUS1,1,0,1
        B1,07:10:00,07:10:00,TH,2,1,0
        B1,07:20:00,07:20:00,RED,3,0,0
        HOL1,12:00:00,12:00:00,CEN1,1,,
        HOL1,12:10:00,12:10:00,RED,2,,
        F1,00:00:00,00:00:00,BUS1,1,,
        F1,00:10:00,00:10:00,RED,2,,

        """

    static let frequencies = """
        trip_id,start_time,end_time,headway_secs,exact_times
        F1,06:00:00,09:00:00,600,1

        """

    static let feedInfo = """
        feed_publisher_name,feed_publisher_url,feed_lang,feed_version,feed_start_date,feed_end_date
        Test Publisher,https://example.org,en,2025-12-01,20250101,20301231

        """

    static var files: [String: String] {
        [
            "agency.txt": agency, "stops.txt": stops, "routes.txt": routes, "calendar.txt": calendar,
            "calendar_dates.txt": calendarDates, "trips.txt": trips, "stop_times.txt": stopTimes,
            "frequencies.txt": frequencies, "feed_info.txt": feedInfo,
        ]
    }
}

/// All rows of `sql` as strings ("NULL" for NULL).
func rows(_ db: Database, _ sql: String) throws -> [[String]] {
    let statement = try db.prepare(sql)
    var result: [[String]] = []
    while try statement.step() {
        result.append((0..<statement.columnCount).map { statement.string($0) ?? "NULL" })
    }
    return result
}

/// The first column of every row of `sql`.
func column(_ db: Database, _ sql: String) throws -> [String] {
    try rows(db, sql).map { $0[0] }
}

/// The message of the error `body` throws, or nil when it does not throw.
func errorMessage(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}
