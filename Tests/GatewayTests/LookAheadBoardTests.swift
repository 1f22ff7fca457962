import Foundation
import Testing
import TransitModel
import TransitStore
import TransitTesting

@testable import Gateway

/// Boards of stops with no weekend service asked at the weekend (GATEWAY.md "departures": the look-ahead):
/// whatever the time of day of `at`, the board holds `limit` rows of Monday with the paging flags and cursors
/// of a board asked at Monday's first departure. Every `at` is pinned.
@Suite struct LookAheadBoardTests {
    /// Midnight AEST (no daylight saving in June) of Friday 2026-06-05 and the days after it.
    static let friday: Int64 = 1_780_581_600
    static let saturday = friday + day
    static let sunday = friday + 2 * day
    static let monday = friday + 3 * day
    static let tuesday = friday + 4 * day
    static let day: Int64 = 86_400

    /// WD: a scheduled trip every 30 min from 07:13 to 21:43, Monday to Friday.
    static let scheduledSecs = Array(stride(from: Int64(7 * 3600 + 13 * 60), through: 21 * 3600 + 43 * 60, by: 1800))
    /// FQ: a frequency-based trip every 10 min from 07:00 until 20:00 (the last at 19:50), Monday to Friday.
    static let frequencySecs = Array(stride(from: Int64(7 * 3600), to: 20 * 3600, by: 600))

    /// Saturday and Sunday times of day with no departure in the 24 h after them. Saturday 07:14 is the
    /// reported case: its second 24 h window (Sunday 07:14 to Monday 07:14) ends just after Monday's first
    /// departure.
    static let weekendTimes: [Int64] = [
        saturday + 30 * 60, saturday + 7 * 3600 + 14 * 60, saturday + 12 * 3600, saturday + 23 * 3600 + 50 * 60,
        sunday + 30 * 60, sunday + 6 * 3600,
    ]

    static let files: [String: String] = {
        func hhmm(_ secs: Int64) -> String { String(format: "%02d%02d", secs / 3600, secs / 60 % 60) }
        func time(_ secs: Int64) -> String {
            String(format: "%02d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60)
        }
        var trips = "route_id,service_id,trip_id,trip_headsign,direction_id\n"
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for secs in scheduledSecs {
            trips += "R1,WK,S\(hhmm(secs)),End,0\n"
            stopTimes += "S\(hhmm(secs)),\(time(secs)),\(time(secs)),WD,1\n"
            stopTimes += "S\(hhmm(secs)),\(time(secs + 600)),\(time(secs + 600)),END,2\n"
        }
        trips += "R1,WK,FREQ,End,0\n"
        stopTimes += "FREQ,00:00:00,00:00:00,FQ,1\nFREQ,00:10:00,00:10:00,END,2\n"
        return [
            "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            A1,Weekday Transit,https://example.org,Australia/Sydney

            """,
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            WD,Weekday Street,-33.8800,151.2000
            FQ,Frequent Street,-33.8810,151.2010
            END,End Street,-33.8900,151.2100

            """,
            "routes.txt": """
            route_id,agency_id,route_short_name,route_type
            R1,A1,100,3

            """,
            "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,0,0,20260501,20260731

            """,
            "trips.txt": trips,
            "stop_times.txt": stopTimes,
            "frequencies.txt": """
            trip_id,start_time,end_time,headway_secs,exact_times
            FREQ,07:00:00,20:00:00,600,1

            """,
        ]
    }()

    /// A gateway in front of a static service over the weekday-only feed.
    private func withWeekdayGateway(_ body: (LineClient) async throws -> Void) async throws {
        let folder = try TemporaryFolder("lookahead")
        let gtfs = try folder.writeFeed("gtfs", Self.files)
        let db = folder.path("weekday.db")
        _ = try GTFSImporter(options: ImportOptions(feeds: [.init(path: gtfs, name: "weekday")], databasePath: db))
            .run()
        try await withGateway(databasePath: db) { fixture in try await body(try fixture.client()) }
    }

    private func board(_ client: LineClient, _ stopId: String, at: Int64, _ extra: String = "") async throws
        -> JSONLine
    {
        let answer = try await client.ask(#"{"op":"departures","stop_id":"\#(stopId)","at":\#(at)\#(extra)}"#)
        #expect(answer.ok, "\(answer)")
        return answer
    }

    private func page(_ answer: JSONLine) -> [String: Any] { answer.data["page"] as? [String: Any] ?? [:] }
    private func times(_ answer: JSONLine) -> [Int64] {
        answer.list("departures").compactMap { ($0["scheduled_unix"] as? Int).map(Int64.init) }
    }

    /// The stop's departures on the day starting at `midnight`.
    private func departures(_ secs: [Int64], on midnight: Int64) -> [Int64] { secs.map { midnight + $0 } }

    /// At each weekend time: `limit` rows of Monday, `has_more_future`, countdowns from `at`; paging on with
    /// `later_cursor` gives Monday then Tuesday without repeats or gaps, and `earlier_cursor` Friday's last rows.
    private func checkWeekendBoards(stopId: String, secs: [Int64], limit: Int) async throws {
        try await withWeekdayGateway { client in
            let friday = departures(secs, on: Self.friday)
            let following = departures(secs, on: Self.monday) + departures(secs, on: Self.tuesday)
            for at in Self.weekendTimes {
                let answer = try await board(client, stopId, at: at, #","limit":\#(limit)"#)
                #expect(times(answer) == Array(following.prefix(limit)), "at \(at)")
                #expect(page(answer)["has_more_future"] as? Bool == true, "at \(at)")
                // The other side of `at`: whether Friday's departures fall in the 24 h before it.
                let fridayBehind = friday.contains { $0 > at - DepartureBoard.horizon && $0 < at }
                #expect(page(answer)["has_more_past"] as? Bool == fridayBehind, "at \(at)")
                let first = try #require(answer.list("departures").first)
                #expect(first["minutes_until"] as? Int == Int((following[0] - at) / 60), "at \(at)")
                #expect(answer.meta["at"] as? Int == Int(at))

                // Forward pages: Monday, then Tuesday's first rows.
                var seen = times(answer)
                var cursor = try #require(page(answer)["later_cursor"] as? String)
                while seen.count < secs.count + limit {
                    let next = try await board(client, stopId, at: at, #","limit":\#(limit),"cursor":"\#(cursor)""#)
                    #expect(times(next).count == limit, "at \(at) after \(seen.count) rows")
                    #expect(page(next)["has_more_future"] as? Bool == true, "at \(at) after \(seen.count) rows")
                    seen += times(next)
                    cursor = try #require(page(next)["later_cursor"] as? String)
                }
                #expect(seen == Array(following.prefix(seen.count)), "at \(at)")

                // Back from Monday's first row: Friday's last departures (the 48 h before Monday hold none).
                let earlier = try #require(page(answer)["earlier_cursor"] as? String)
                let back = try await board(client, stopId, at: at, #","limit":\#(limit),"cursor":"\#(earlier)""#)
                #expect(times(back) == Array(friday.suffix(limit)), "at \(at)")
                #expect(page(back)["has_more_past"] as? Bool == true, "at \(at)")
            }
        }
    }

    @Test func aWeekendBoardOfScheduledTripsHoldsLimitRowsOfMonday() async throws {
        try await checkWeekendBoards(stopId: "WD", secs: Self.scheduledSecs, limit: 5)
    }

    @Test func aWeekendBoardOfAFrequencyBasedTripHoldsLimitRowsOfMonday() async throws {
        try await checkWeekendBoards(stopId: "FQ", secs: Self.frequencySecs, limit: 5)
    }

    /// A page with room for all of Monday: every departure of the 24 h from Monday's first, and no more.
    @Test func aWeekendBoardHoldsTheWholeNextServiceDayWhenLimitAllows() async throws {
        try await withWeekdayGateway { client in
            for (stopId, secs) in [("WD", Self.scheduledSecs), ("FQ", Self.frequencySecs)] {
                let answer = try await board(client, stopId, at: Self.saturday + 7 * 3600 + 14 * 60, #","limit":100"#)
                #expect(times(answer) == departures(secs, on: Self.monday), "\(stopId)")
            }
        }
    }

    /// A past board with nothing in the 24 h before `at` answers the last `limit` departures before it, not
    /// only those its found window holds (Sunday 20:00: Friday from 20:00 holds four of WD's; Sunday 19:30:
    /// three of FQ's).
    @Test func aPastBoardAtTheWeekendHoldsLimitRowsOfFriday() async throws {
        try await withWeekdayGateway { client in
            for (stopId, secs) in [("WD", Self.scheduledSecs), ("FQ", Self.frequencySecs)] {
                for at in [
                    Self.sunday + 19 * 3600 + 30 * 60, Self.sunday + 20 * 3600, Self.sunday + 7 * 3600 + 14 * 60,
                    Self.saturday + 23 * 3600,
                ] {
                    let answer = try await board(client, stopId, at: at, #","limit":5,"direction":"past""#)
                    #expect(times(answer) == Array(departures(secs, on: Self.friday).suffix(5)), "\(stopId) at \(at)")
                    #expect(page(answer)["has_more_past"] as? Bool == true, "\(stopId) at \(at)")
                    let mondayAhead = departures(secs, on: Self.monday).contains { $0 < at + DepartureBoard.horizon }
                    #expect(page(answer)["has_more_future"] as? Bool == mondayAhead, "\(stopId) at \(at)")
                }
            }
        }
    }
}
