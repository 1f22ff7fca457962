import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// Two feeds sharing stop ids (S1, S2) and reusing route, trip and service ids, in different zones: `rail`
/// (Australia/Sydney, AEDT = UTC+11 in January) and `bus` (Australia/Brisbane, no DST, UTC+10).
/// Both run T1 at 08:00:00 on Wednesdays; 2026-01-14 is a Wednesday.
enum TwoFeeds {
    static func feed(agency: String, zone: String, shortName: String, stopName: String) -> [String: String] {
        [
            "agency.txt": "agency_name,agency_url,agency_timezone\n\(agency),https://example.com,\(zone)\n",
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            S1,\(stopName),-27.4698,153.0251
            S2,Second Stop,-27.4700,153.0300

            """,
            "routes.txt": "route_id,route_short_name,route_type\nR1,\(shortName),3\n",
            "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,0,0,1,0,0,0,0,20260101,20261231

            """,
            "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\n",
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S2,2

            """,
        ]
    }

    static let rail = feed(agency: "Rail", zone: "Australia/Sydney", shortName: "T1", stopName: "Shared Stop")
    static let bus = feed(agency: "Bus", zone: "Australia/Brisbane", shortName: "301", stopName: "Shared Stop (bus)")
}

@Suite struct AcceptanceMultiFeedTests {
    @Test func collidingIdsNameBothFeeds() throws {
        let message = errorMessage {
            _ = try AcceptanceDB([.init(name: "rail", files: TwoFeeds.rail), .init(name: "bus", files: TwoFeeds.bus)])
        }
        let text = try #require(message)
        #expect(text.contains("\"R1\""), "\(text)")
        #expect(text.contains("feed \"bus\"") && text.contains("feed \"rail\""), "\(text)")
    }

    @Test func prefixedFeedSharesStopsAndKeepsItsZone() throws {
        let db = try AcceptanceDB([
            .init(name: "rail", files: TwoFeeds.rail),
            .init(name: "bus", files: TwoFeeds.bus, prefix: "B:"),
        ])
        // 08:00 AEDT = 21:00Z; 08:00 AEST (Brisbane) = 22:00Z.
        let b = try db.board("S1", at: utc(2026, 1, 13, 20), limit: 2)
        #expect(b.departures.map(\.tripId) == ["T1", "B:T1"])
        #expect(b.departures.map(\.scheduledUnix) == [utc(2026, 1, 13, 21), utc(2026, 1, 13, 22)])
        #expect(b.departures.map(\.route.routeId) == ["R1", "B:R1"])
        #expect(b.departures.map(\.serviceDate) == [20260114, 20260114])

        let stop = try db.store.stop(id: "S1")
        #expect(stop.stop.name == "Shared Stop")  // the first feed defining a stop wins
        #expect(stop.routes.map(\.routeId) == ["B:R1", "R1"])  // 301 < T1

        let trip = try db.store.trip(id: "B:T1", serviceDate: 20260114, at: utc(2026, 1, 13, 22))
        #expect(trip.timezone == "Australia/Brisbane")
        #expect(trip.stops.map(\.stopId) == ["S1", "S2"])  // stop ids are never prefixed
        #expect(trip.route.agencyId?.hasPrefix("B:") == true)
        #expect(throws: StoreError.self) {
            try db.store.trip(id: "T1", serviceDate: 20260115, at: utc(2026, 1, 14, 22))
        }

        let schedules = try db.store.tripSchedules(tripIds: ["T1", "B:T1", "X"], from: 20260112, through: 20260118)
        #expect(schedules.trips.map(\.tripId) == ["T1", "B:T1"])
        #expect(schedules.trips.map(\.timezone) == ["Australia/Sydney", "Australia/Brisbane"])
        #expect(schedules.trips.map(\.serviceDates) == [[20260114], [20260114]])
        #expect(schedules.unknownTripIds == ["X"])

        let feeds = db.store.feedInfo().feeds
        #expect(feeds.map(\.name) == ["rail", "bus"])
        #expect(feeds.map(\.prefix) == [nil, "B:"])
    }

    /// Per-mode feeds of one network repeat the same agency row: shared like a stop, unless the rows differ.
    @Test func identicalAgencyInTwoFeedsIsShared() throws {
        func feed(_ suffix: String, agencyName: String) -> [String: String] {
            var files = TwoFeeds.feed(agency: "", zone: "Australia/Sydney", shortName: suffix, stopName: "Shared Stop")
            files["agency.txt"] =
                "agency_id,agency_name,agency_url,agency_timezone\nTNSW,\(agencyName),https://example.com,Australia/Sydney\n"
            files["routes.txt"] = "route_id,agency_id,route_short_name,route_type\nR\(suffix),TNSW,\(suffix),3\n"
            files["calendar.txt"] = files["calendar.txt"]!.replacingOccurrences(of: "WK,", with: "WK\(suffix),")
            files["trips.txt"] = "route_id,service_id,trip_id\nR\(suffix),WK\(suffix),T\(suffix)\n"
            files["stop_times.txt"] = files["stop_times.txt"]!.replacingOccurrences(of: "T1,", with: "T\(suffix),")
            return files
        }
        let db = try AcceptanceDB([
            .init(name: "lr1", files: feed("L1", agencyName: "Transport for NSW")),
            .init(name: "lr2", files: feed("L2", agencyName: "Transport for NSW")),
        ])
        let routes = try db.store.routes()
        #expect(routes.map(\.routeId) == ["RL1", "RL2"])
        #expect(routes.map(\.agencyId) == ["TNSW", "TNSW"])
        #expect(db.store.feedInfo().feeds.map(\.timezone) == ["Australia/Sydney", "Australia/Sydney"])
        let b = try db.board("S1", at: utc(2026, 1, 13, 20), limit: 2)
        #expect(b.departures.map(\.tripId) == ["TL1", "TL2"])

        let message = errorMessage {
            _ = try AcceptanceDB([
                .init(name: "lr1", files: feed("L1", agencyName: "Transport for NSW")),
                .init(name: "lr2", files: feed("L2", agencyName: "Someone Else")),
            ])
        }
        #expect(message?.contains("agency_id \"TNSW\" of feed \"lr2\"") == true, "\(message ?? "")")
        #expect(message?.contains("feed \"lr1\"") == true)
    }
}
