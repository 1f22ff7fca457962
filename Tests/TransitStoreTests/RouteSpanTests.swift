import Foundation
import Testing
import TransitModel

@testable import TransitStore

/// The `route` answer's service spans: per date (from calendar and calendar_dates) and per day type of the
/// calendar's typical week, for a route with weekday and weekend services, a trip after midnight, a
/// weekday-only direction and a weekend-only route.
/// Calendar (America/New_York): WK Monday–Friday and WE Saturday–Sunday, 2026-11-01…2026-12-31; Thursday
/// 2026-11-26 (a holiday) has WE instead of WK. The first whole week, 2026-11-02, is the typical week (every
/// whole week has seven service days; ties go to the earliest).
@Suite struct RouteSpanTests {
    static let files: [String: String] = [
        "agency.txt": """
        agency_id,agency_name,agency_url,agency_timezone
        SPAN,Span Transit,https://example.com,America/New_York

        """,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        A,Alpha,40.70,-74.00
        B,Bravo,40.71,-74.01

        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type
        R,SPAN,1,Every Day,3
        RWE,SPAN,2,Weekends,3

        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        WK,1,1,1,1,1,0,0,20261101,20261231
        WE,0,0,0,0,0,1,1,20261101,20261231

        """,
        "calendar_dates.txt": """
        service_id,date,exception_type
        WK,20261126,2
        WE,20261126,1

        """,
        "trips.txt": """
        route_id,service_id,trip_id,direction_id
        R,WK,W0512,0
        R,WK,W2441,0
        R,WE,S0700,0
        R,WE,S2200,0
        R,WK,BACK0600,1
        RWE,WE,BEACH0900,0

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        W0512,05:12:00,05:12:00,A,1
        W0512,05:30:00,05:30:00,B,2
        W2441,24:41:00,24:41:00,A,1
        W2441,24:59:00,24:59:00,B,2
        S0700,07:00:00,07:00:00,A,1
        S0700,07:18:00,07:18:00,B,2
        S2200,22:00:00,22:00:00,A,1
        S2200,22:18:00,22:18:00,B,2
        BACK0600,06:00:00,06:00:00,B,1
        BACK0600,06:18:00,06:18:00,A,2
        BEACH0900,09:00:00,09:00:00,A,1
        BEACH0900,09:20:00,09:20:00,B,2

        """,
    ]

    static let shared: Result<AcceptanceDB, any Error> = Result { try AcceptanceDB(name: "span", files) }
    func store() throws -> StaticStore { try Self.shared.get().store }

    func span(_ first: String, _ last: String) -> ServiceSpan { ServiceSpan(first: first, last: last) }

    @Test func spansOnAWeekdayWithATripAfterMidnight() throws {
        let route = try store().route(id: "R", date: 20_261_125)  // a Wednesday
        #expect(route.date == 20_261_125 && route.typicalWeek == 20_261_102)
        let out = try #require(route.patterns.first { $0.directionId == 0 })
        // W2441 leaves at 24:41 of the Wednesday's service day: it belongs to the Wednesday.
        #expect(out.dateSpan == span("05:12:00", "24:41:00"))
        #expect(
            out.dayTypeSpans
                == DayTypeSpans(
                    weekday: span("05:12:00", "24:41:00"), saturday: span("07:00:00", "22:00:00"),
                    sunday: span("07:00:00", "22:00:00")))
        // The old fields stay: over every day.
        #expect(out.firstDeparture == "05:12:00" && out.lastDeparture == "24:41:00")
        // The route's own span covers both directions.
        #expect(route.dateSpan == span("05:12:00", "24:41:00"))
    }

    @Test func weekdayOnlyDirectionHasNoWeekendSpans() throws {
        let back = try #require(try store().route(id: "R", date: 20_261_125).patterns.first { $0.directionId == 1 })
        #expect(back.dateSpan == span("06:00:00", "06:00:00"))
        #expect(back.dayTypeSpans == DayTypeSpans(weekday: span("06:00:00", "06:00:00")))
        let saturday = try #require(
            try store().route(id: "R", date: 20_261_128).patterns.first { $0.directionId == 1 })
        #expect(saturday.dateSpan == nil)
    }

    @Test func weekendOnlyRoute() throws {
        let beach = try store().route(id: "RWE", date: 20_261_125)
        #expect(beach.dateSpan == nil && beach.patterns[0].dateSpan == nil)
        #expect(
            beach.dayTypeSpans
                == DayTypeSpans(saturday: span("09:00:00", "09:00:00"), sunday: span("09:00:00", "09:00:00")))
        #expect(try store().route(id: "RWE", date: 20_261_129).dateSpan == span("09:00:00", "09:00:00"))  // Sunday
    }

    @Test func calendarDatesDecideTheDate() throws {
        // The Thursday holiday runs the weekend service; after the calendar's end nothing runs.
        #expect(try store().route(id: "R", date: 20_261_126).dateSpan == span("07:00:00", "22:00:00"))
        #expect(try store().route(id: "RWE", date: 20_261_126).dateSpan == span("09:00:00", "09:00:00"))
        let after = try store().route(id: "R", date: 20_270_105)
        #expect(after.dateSpan == nil && after.patterns.allSatisfy { $0.dateSpan == nil })
        // The typical-week spans do not depend on the date asked for.
        #expect(after.dayTypeSpans == (try store().route(id: "R", date: 20_261_125).dayTypeSpans))
    }

    @Test func defaultDateIsTodayInTheFeedTimezone() throws {
        // 2026-11-29 03:00 UTC is Saturday 2026-11-28 22:00 in New York.
        let now: Int64 = 1_795_921_200
        let route = try store().route(id: "R", now: now)
        #expect(route.date == 20_261_128)
        #expect(route.dateSpan == span("07:00:00", "22:00:00"))
        // The protocol query without a date answers the same.
        #expect(try store().answer(.route(RouteQuery(routeId: "R")), now: now) == .route(route))
    }

    @Test func badDateIsRefused() throws {
        #expect(throws: StoreError.invalidArgument("date 20261332 is not a YYYYMMDD date")) {
            try store().route(id: "R", date: 20_261_332)
        }
    }
}
