import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// A feed that is valid GTFS but written unlike the project's samples: CRLF + BOM, quoted and padded header
/// names, columns in odd order, an unknown column, quotes and commas inside fields, empty and extra empty
/// trailing fields, a header-only file without line end, a station-level transfers.txt row, a shapes.txt whose one
/// shape has a single point (no line to draw: skipped and counted, even strict), no
/// calendar.txt (services only in calendar_dates), no feed_info.txt, one agency without agency_id and routes
/// without it, intermediate stops without times (timepoint 0, interpolated), times written "5:07:00", an
/// empty route_color, a route with only a long name, and a station with platforms, an entrance and a node.
/// America/Chicago; 2026-06-10 is a CDT day (UTC-5).
enum OddFeed {
    static let files: [String: String] = [
        "agency.txt": windowsText(
            """
            agency_name,agency_url,agency_timezone,agency_lang
            "Prairie Transit, Inc.",https://example.com,America/Chicago,en

            """),
        "stops.txt": windowsText(
            """
            "stop_lat", "stop_id" , stop_name ,"location_type",stop_lon,parent_station,platform_code,stop_foo,wheelchair_boarding
            41.8789,US,Union Station,1,-87.6403,,,,1
            41.8790,US1,"Union Station, Track 1",0,-87.6404,US,1,,
            41.8791,US2,"Union Station, Track 2",0,-87.6405,US,2,,0
            41.8792,USE,Union Station Canal St Entrance,2,-87.6390,US,,,
            41.8793,USN,Union Station Concourse,3,-87.6400,US,,,
            41.8800,X1,"Main St ""North"", Gate 2",0,-87.6300,,,x,
            41.8810,X2,Elm,0,-87.6310,,,,
            41.8820,X3,Oak,0,-87.6320,,,,,,
            41.8830,X4,Pine,0,-87.6330

            """),
        "routes.txt": """
        route_id,route_short_name,route_long_name,route_type,route_color,route_text_color
        LSX,,Lakeshore Express,3,,
        10,10,Ten,3,,
        2,2,Two,3,FFCC00,

        """,
        "trips.txt": #"""
        trip_headsign,trip_id,service_id,route_id
        "Downtown, via ""Elm""",T1,S1,LSX
        Suburbs,T2,S1,10
        ,T3,S2,2

        """#,
        "stop_times.txt": windowsText(
            """
            trip_id,stop_sequence,stop_id,arrival_time,departure_time,timepoint,shape_dist_traveled
            T1,1,US1,5:07:00,5:07:00,1,
            T1,2,X1,,,0,
            T1,3,X2,,,0,
            T1,4,X3,5:19:00,5:19:00,1,
            T2,1,US2,10:00:00,10:00:00,1,0
            T2,2,X2,,,0,1.0
            T2,3,X3,,,0,3.0
            T2,4,X4,10:08:00,10:08:00,1,4.0
            T3,1,X4,7:00:00,7:00:00,,
            T3,2,X1,07:10:00,07:10:00,,

            """),
        "calendar_dates.txt": windowsText(
            """
            service_id,date,exception_type
            S1,20260610,1
            S1,20260611,1
            S2,20260610,1

            """),
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs",
        "shapes.txt": """
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
        SH1,41.0,-87.0,1

        """,
        "transfers.txt": """
        from_stop_id,to_stop_id,transfer_type
        US,X1,2

        """,
    ]

    static let shared: Result<AcceptanceDB, any Error> = Result { try AcceptanceDB(name: "odd", files) }
    static func db() throws -> AcceptanceDB { try shared.get() }
}

@Suite struct AcceptanceCSVTests {
    func store() throws -> StaticStore { try OddFeed.db().store }

    @Test func quotedFieldsAndOddColumns() throws {
        let x1 = try store().stop(id: "X1")
        #expect(x1.stop.name == #"Main St "North", Gate 2"#)
        #expect(x1.stop.lat == 41.88 && x1.stop.lon == -87.63)
        #expect(try store().stop(id: "X4").stop.name == "Pine")  // a record shorter than the header
        #expect(try store().stop(id: "X3").stop.name == "Oak")  // extra empty trailing fields
        let t1 = try store().trip(id: "T1", serviceDate: 20260610, at: utc(2026, 6, 10, 10))
        #expect(t1.headsign == #"Downtown, via "Elm""#)
        let t3 = try store().trip(id: "T3", serviceDate: 20260610, at: utc(2026, 6, 10, 12))
        #expect(t3.headsign == nil)
    }

    @Test func stationWithPlatformsEntranceAndNode() throws {
        let station = try store().stop(id: "US")
        #expect(station.stop.locationType == 1)
        #expect(station.platforms.map(\.stopId) == ["US1", "US2"])
        #expect(Set(station.routes.map(\.routeId)) == ["LSX", "10"])
        let track = try store().stop(id: "US2")
        #expect(track.parent?.stopId == "US")
        #expect(track.stop.wheelchairBoarding == 1)  // 0 on a platform: inherited from the station
        #expect(try store().search("union", limit: 10).map(\.stopId) == ["US"])
        let withPlatforms = Set(try store().search("union", limit: 10, includePlatforms: true).map(\.stopId))
        #expect(withPlatforms == ["US", "US1", "US2"])
        #expect(try store().search("canal", limit: 10).isEmpty)  // entrance
        #expect(try store().search("concourse", limit: 10).isEmpty)  // generic node
    }

    @Test func routesWithoutAgencyIdShortNameOrColour() throws {
        let routes = try store().routes()
        #expect(routes.map(\.routeId) == ["2", "10", "LSX"])
        #expect(routes.map(\.section) == ["#", "#", "L"])
        let lsx = try #require(routes.last)
        #expect(lsx.shortName == nil && lsx.longName == "Lakeshore Express")
        #expect(lsx.color == nil && lsx.textColor == nil)
        #expect(routes.first?.color == "#FFCC00")
        #expect(routes.allSatisfy { $0.agencyId != nil && $0.agencyId == routes[0].agencyId })
    }

    @Test func intermediateStopsWithoutTimesAreInterpolated() throws {
        // T1: 5:07 → (X1, X2 untimed) → 5:19: evenly, 5:11 and 5:15.
        let t1 = try store().trip(id: "T1", serviceDate: 20260610, at: utc(2026, 6, 10, 10))
        #expect(t1.stops.map(\.departureSecs) == [secs(5, 7), secs(5, 11), secs(5, 15), secs(5, 19)])
        #expect(t1.startTime == "05:07:00")
        #expect(t1.stops.first?.departureUnix == utc(2026, 6, 10, 10, 7))
        // T2: 10:00 → 10:08 by shape_dist_traveled 0, 1, 3, 4: 10:02 and 10:06.
        let t2 = try store().trip(id: "T2", serviceDate: 20260610, at: utc(2026, 6, 10, 15))
        #expect(t2.stops.map(\.arrivalSecs) == [secs(10, 0), secs(10, 2), secs(10, 6), secs(10, 8)])
        // The interpolated stop is on the board at its interpolated time.
        let x1 = try OddFeed.db().board("X1", at: utc(2026, 6, 10, 10), limit: 5)
        #expect(lines(x1) == ["T1@X1 20260610 \(secs(5, 11)) \(utc(2026, 6, 10, 10, 11))"])
    }

    @Test func servicesOnlyInCalendarDates() throws {
        // From 05:00 CDT: both S1 trips of the 10th; the 11th's first (05:07) is just beyond 24 h.
        let station = try OddFeed.db().board("US", at: utc(2026, 6, 10, 10), limit: 10)
        #expect(
            station.departures.map { "\($0.tripId)@\($0.stopId) \($0.serviceDate)" }
                == ["T1@US1 20260610", "T2@US2 20260610"])
        let next = try OddFeed.db().board("US", at: 0, limit: 1, cursor: station.laterCursor)
        #expect(next.departures.map { "\($0.tripId) \($0.serviceDate)" } == ["T1 20260611"])
        #expect(throws: StoreError.self) {
            try store().trip(id: "T1", serviceDate: 20260612, at: utc(2026, 6, 12, 10))
        }
        let info = try store().feedInfo()
        #expect(info.feeds.map(\.name) == ["odd"])
        #expect(info.feeds.first?.startDate == 20260610 && info.feeds.first?.endDate == 20260611)
        #expect(info.feeds.first?.version == nil && info.feeds.first?.publisher == nil)
        #expect(info.feeds.first?.timezone == "America/Chicago")
        #expect(info.trips == 3)
    }
}
