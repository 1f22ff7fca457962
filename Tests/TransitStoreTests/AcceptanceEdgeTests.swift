import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// Smaller rules on an Asia/Tokyo feed (UTC+9, no DST; 2026-06-10 is a Wednesday):
/// - stop_times.txt not sorted: trips interleaved, stop_sequence descending and with gaps;
/// - the first stop with only a departure_time, a dwell at the first stop of a plain trip, timepoint 0 with
///   times given (approximate, still the times);
/// - route names: long names only, starting with an accent or a digit;
/// - a station with a platform and an entrance for nearby.
enum EdgeFeed {
    static let files: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nJR,Test Tokyo,https://example.com,Asia/Tokyo\n",
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code,wheelchair_boarding
        TKY,Tokyo Station,35.6812,139.7671,1,,,1
        TKY1,Tokyo Station Track 1,35.6813,139.7672,0,TKY,1,2
        TKYE,Tokyo Station Marunouchi Exit,35.6815,139.7650,2,TKY,,
        K1,Kanda,35.6917,139.7709,0,,,
        K2,Akihabara,35.6984,139.7731,0,,,
        K3,Ueno,35.7138,139.7773,0,,,

        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type
        YM,JR,,yamanote Line,2
        EX,JR,,Éclair Express,2
        ST,JR,,42nd Street Shuttle,3
        ZZ,JR,,,1700

        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        D,1,1,1,1,1,1,1,20260101,20261231

        """,
        "trips.txt": """
        route_id,service_id,trip_id
        YM,D,Y1
        EX,D,X1
        ST,D,S1
        ZZ,D,Z1

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,timepoint
        Y1,09:20:00,09:20:00,K3,30,1
        X1,07:58:00,08:00:00,TKY1,5,1
        Y1,09:10:00,09:11:00,K2,20,0
        X1,08:10:00,08:10:00,K3,7,1
        Y1,,09:00:00,TKY1,10,1
        S1,10:00:00,10:00:00,K1,1,
        S1,10:05:00,10:05:00,K2,2,
        Z1,11:00:00,11:00:00,K1,1,
        Z1,11:05:00,11:05:00,K3,2,

        """,
    ]

    static let shared: Result<AcceptanceDB, any Error> = Result { try AcceptanceDB(name: "tokyo", files) }
    static func db() throws -> AcceptanceDB { try shared.get() }
}

@Suite struct AcceptanceEdgeTests {
    func store() throws -> StaticStore { try EdgeFeed.db().store }

    @Test func unsortedStopTimesAreOrderedByStopSequence() throws {
        let y = try store().trip(id: "Y1", serviceDate: 20260610, at: utc(2026, 6, 10, 0))
        #expect(y.stops.map(\.stopId) == ["TKY1", "K2", "K3"])
        #expect(y.stops.map(\.stopSequence) == [10, 20, 30])
        // The first stop has only a departure_time: arrival is the same. timepoint 0 keeps the given times.
        #expect(y.stops.map(\.arrivalSecs) == [secs(9, 0), secs(9, 10), secs(9, 20)])
        #expect(y.stops.map(\.departureSecs) == [secs(9, 0), secs(9, 11), secs(9, 20)])
        #expect(y.stops.first?.departureUnix == utc(2026, 6, 10, 0))  // 09:00 JST
        let k2 = try EdgeFeed.db().board("K2", at: utc(2026, 6, 10, 0), limit: 2)
        // S1 ends at K2 (no departure there); Y1 leaves K2 at its departure time 09:11.
        #expect(k2.departures.map { "\($0.tripId) \($0.scheduledSecs) \($0.stopSequence)" } == ["Y1 \(secs(9, 11)) 20"])
    }

    @Test func plainTripDwellingAtItsFirstStop() throws {
        // X1 arrives at 07:58 and departs at 08:00: the board and start_time use the departure.
        let x = try store().trip(id: "X1", serviceDate: 20260610, at: utc(2026, 6, 9, 23))
        #expect(x.startTime == "08:00:00")
        #expect(x.stops.map(\.arrivalSecs) == [secs(7, 58), secs(8, 10)])
        #expect(x.stops.map(\.departureSecs) == [secs(8, 0), secs(8, 10)])
        let b = try EdgeFeed.db().board("TKY", at: utc(2026, 6, 9, 22), limit: 2)  // 07:00 JST
        #expect(b.departures.map { "\($0.tripId) \($0.scheduledSecs)" } == ["X1 \(secs(8, 0))", "Y1 \(secs(9, 0))"])
        #expect(b.departures.first?.scheduledUnix == utc(2026, 6, 9, 23))
        // The bulk schedules give the first time and offsets from it (arrival 0, departure 120).
        let s = try store().tripSchedules(tripIds: ["X1"], from: 20260610, through: 20260610)
        #expect(s.trips.first?.startSecs == secs(7, 58))
        #expect(s.patterns.first?.stops.map(\.departureOffset) == [120, 720])
    }

    @Test func routeNamesAndSections() throws {
        let routes = try store().routes()
        // Sorted by the long name when there is no short name (the id when there is neither).
        #expect(routes.map(\.routeId) == ["ST", "EX", "YM", "ZZ"])
        #expect(routes.map(\.section) == ["#", "E", "Y", "Z"])
        #expect(routes.map(\.mode) == ["bus", "train", "train", "other"])
    }

    @Test func nearbyFoldsPlatformsAndSkipsEntrances() throws {
        // From the entrance's position: the station (via its platform or own point), never the entrance.
        let near = try store().nearby(lat: 35.6815, lon: 139.7650, radiusMetres: 500, limit: 10)
        #expect(near.map(\.stopId) == ["TKY"])
        let d = try #require(near.first?.distanceMetres)
        #expect(d > 150 && d < 250, "\(d)")  // ≈ 192 m to the station's own point (35.6812, 139.7671)
        #expect(try store().stop(id: "TKY1").stop.wheelchairBoarding == 2)  // its own value, not the station's
    }
}
