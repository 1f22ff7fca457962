import Foundation
import NNGKit
import ProcessSupport
import StaticService
import TransitModel
import TransitProto
import TransitStore
import TransitTesting

/// A small feed: a station with two platforms, a train route, a bus route with a frequency-based trip,
/// service every day. `variant` changes the station's name, the feed version and adds a stop, so a test
/// can tell two imports apart.
struct TestFeed {
    var variant = 1

    var stationName: String { variant == 1 ? "Central Test Station" : "Central Renamed Station" }
    var version: String { "test-v\(variant)" }

    var files: [String: String] {
        var stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code,wheelchair_boarding
            STA,\(stationName),-33.8832,151.2070,1,,,1
            STA1,"\(stationName), Platform 1",-33.8830,151.2065,0,STA,1,1
            STA2,"\(stationName), Platform 2",-33.8831,151.2066,0,STA,2,0
            MID,Middle Road,-33.8731,151.2065,0,,,1
            END,Harbour End,-33.8617,151.2108,0,,,2

            """
        if variant != 1 { stops += "NEW,Brand New Stop,-33.9000,151.2000,0,,,0\n" }
        return [
            "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            A1,Test Transit,https://example.org,Australia/Sydney

            """,
            "stops.txt": stops,
            "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
            R1,A1,T1,Test Line,2,F99D1C,FFFFFF
            R2,A1,333,Test Bus,3,00B5EF,

            """,
            "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            ALL,1,1,1,1,1,1,1,20250101,20301231

            """,
            "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,direction_id,shape_id
            R1,ALL,TA,Harbour End,0,SHA
            R1,ALL,TB,Harbour End,0,
            R2,ALL,BUSF,Harbour End,1,

            """,
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            TA,08:05:00,08:05:00,STA1,1
            TA,08:10:00,08:11:00,MID,2
            TA,08:20:00,08:20:00,END,3
            TB,08:35:00,08:35:00,STA2,1
            TB,08:40:00,08:41:00,MID,2
            TB,08:50:00,08:50:00,END,3
            BUSF,00:00:00,00:00:00,MID,1
            BUSF,00:10:00,00:10:00,END,2

            """,
            "shapes.txt": """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            SHA,-33.8830,151.2065,1,0
            SHA,-33.8731,151.2065,2,1100.5
            SHA,-33.8617,151.2108,3,2400

            """,
            "frequencies.txt": """
            trip_id,start_time,end_time,headway_secs,exact_times
            BUSF,06:00:00,10:00:00,900,1

            """,
            "feed_info.txt": """
            feed_publisher_name,feed_publisher_url,feed_lang,feed_version,feed_start_date,feed_end_date
            Test Publisher,https://example.org,en,\(version),20250101,20301231

            """,
        ]
    }
}

/// Imports `feed` (a folder written into `folder`) into `db`, quietly.
@discardableResult
func importFeed(_ feed: TestFeed, folder: TemporaryFolder, into db: String, name: String = "test") throws
    -> ImportSummary
{
    let path = try folder.writeFeed(name, feed.files)
    return try runImport([.init(path: path, name: name)], into: db)
}

/// A database imported from `TestFeed`, served on an ipc URL, and a client for it.
final class ServiceFixture: Sendable {
    let folder: TemporaryFolder
    let db: String
    let url: String
    let server: StaticServer
    let client: NNGRequester
    let log = LogRecorder()

    init(feed: TestFeed = TestFeed(), contexts: Int = 8, watchdog: Watchdog? = nil) throws {
        folder = try TemporaryFolder("sst")
        db = folder.path("static.db")
        url = "ipc://\(folder.path("static.sock"))"
        try importFeed(feed, folder: folder, into: db)
        var configuration = StaticServiceConfiguration(databasePath: db, listenURL: url, contexts: contexts)
        configuration.watchdog = watchdog
        server = try StaticServer(configuration: configuration, logger: log.logger)
        client = try NNGRequester(dialing: url, defaultTimeout: .seconds(10))
    }

    deinit {
        client.close()
        server.stop()
    }

    /// Sends `query` over nng and decodes the answer.
    func ask(_ query: StaticQuery, id: UInt64 = 42) throws -> StaticResponse {
        let reply = try client.request(StaticCodec.encode(StaticRequest(requestId: id, query: query)))
        return try StaticCodec.decodeResponse(reply)
    }

    func askAsync(_ query: StaticQuery, id: UInt64) async throws -> StaticResponse {
        let reply = try await client.request(StaticCodec.encode(StaticRequest(requestId: id, query: query)))
        return try StaticCodec.decodeResponse(reply)
    }

    /// The result of `query`, or the failure thrown as an error.
    func result(_ query: StaticQuery) throws -> StaticResult {
        try ask(query).result.get()
    }

    /// Re-imports `feed` over the served database file.
    func reimport(_ feed: TestFeed) throws {
        try importFeed(feed, folder: folder, into: db)
    }
}

extension StaticResponse {
    var failure: ServiceError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

extension StaticResult {
    var stopResult: StopResult? { if case .stop(let r) = self { r } else { nil } }
    var stops: [Stop]? { if case .stops(let r) = self { r } else { nil } }
    var routes: [Route]? { if case .routes(let r) = self { r } else { nil } }
    var board: DepartureBoard? { if case .departures(let r) = self { r } else { nil } }
    var trip: TripDetail? { if case .trip(let r) = self { r } else { nil } }
    var schedules: TripSchedules? { if case .tripSchedules(let r) = self { r } else { nil } }
    var feedInfo: FeedInfo? { if case .feedInfo(let r) = self { r } else { nil } }
    var shape: Shape? { if case .shape(let r) = self { r } else { nil } }
    var routeDetail: RouteDetail? { if case .route(let r) = self { r } else { nil } }
}
