import Foundation
import JourneyPlanner
import Testing
import TransitCore
import TransitStore
import TransitTesting

/// `StaticStore.plannerInput` over a small imported feed: stops by stop_pk with their stations, the trips of the
/// window's services, frequencies, and transfers.txt's stop-to-stop rows; a plan through them.
@Suite struct StoreInputTests {
    static let files = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Australia/Sydney\n",
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
        S,Station,-33.87,151.2,1,,1
        S1,Platform 1,-33.87,151.2,0,S,0
        S2,Platform 2,-33.8701,151.2005,0,S,2
        X,Far,-33.9,151.3,0,,1
        Y,Other,-33.95,151.35,0,,1

        """,
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,2\n",
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        WD,1,1,1,1,1,0,0,20251201,20251231

        """,
        "trips.txt": "route_id,service_id,trip_id,wheelchair_accessible\nR1,WD,T1,1\nR2,WD,T2,0\nR2,WD,F,0\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
        T1,08:00:00,08:00:00,X,1,0,0
        T1,08:20:00,08:20:00,S1,2,0,0
        T2,08:30:00,08:30:00,S2,1,0,0
        T2,08:50:00,08:50:00,Y,2,0,0
        F,07:00:00,07:00:00,S2,1,0,0
        F,07:10:00,07:10:00,Y,2,0,0

        """,
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF,09:00:00,10:00:00,1200\n",
        "transfers.txt": """
        from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_trip_id
        S1,S2,2,900,
        S,S,3,,
        X,Y,1,,T1
        Y,X,5,,
        Q,X,0,,

        """,
    ]

    @Test func loadsAWindowWithTransfersAndPlansThroughThem() throws {
        let folder = try TemporaryFolder("planner-store")
        let feed = try folder.writeFeed("feed", Self.files)
        let db = folder.path("feed.db")
        try runImport([.init(path: feed, name: "small")], into: db)
        let store = try StaticStore(path: db, connections: 1)
        let monday = GTFSDate(yyyymmdd: 20_251_222)!
        let input = try store.plannerInput(dates: monday.adding(days: -1)...monday)
        let index = { (id: String) in input.stopIds.firstIndex(of: id)! }
        let (s, s1, s2, x, y) = (index("S"), index("S1"), index("S2"), index("X"), index("Y"))
        #expect(input.source.stops[s1].station == s && input.source.stops[s2].station == s)
        #expect(input.source.stops[s2].wheelchairBoarding == 2)
        // Only the stop-to-stop rows: the trip-scoped, in-seat and unknown-stop rows are not imported.
        #expect(
            Set(input.source.transfers.map { "\($0.from)>\($0.to):\($0.type):\($0.minTime ?? -1)" }) == [
                "\(s1)>\(s2):2:900", "\(s)>\(s):3:-1",
            ])
        #expect(input.tripIds.sorted() == ["F", "T1", "T2"])
        #expect(input.source.trips[input.tripIds.firstIndex(of: "F")!].frequencies.count == 1)
        #expect(input.source.days.map(\.date) == [monday], "Sunday has no service")
        let zone = try ServiceTimeZone(identifier: "Australia/Sydney")
        #expect(input.source.days[0].referenceUnix == zone.referenceUnix(of: monday))

        let timetable = Timetable(input.source)
        let at = zone.unix(of: monday, secs: 7 * 3600 + 1800)
        let q = PlanQuery(from: .stops([x]), to: .stops([y]), time: .departAt(at))
        let journeys = try JourneyPlanner.plan(q, on: timetable).journeys
        // 08:20 at S1, the walk to S2 takes the transfer's 15 minutes (not the distance): the 08:30 is missed
        // and the 09:00 frequency instance (which lets riders off at Y) is taken.
        #expect(journeys.map(\.arrival) == [zone.unix(of: monday, secs: 9 * 3600 + 600)])
        #expect(journeys.first?.walkSeconds == 900)
    }
}
