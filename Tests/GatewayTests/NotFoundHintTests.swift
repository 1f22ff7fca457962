import Foundation
import Testing
import TransitTesting

/// Every op that takes a stop or a route says what a rider probably meant (issue 25 §3): a stop's name where
/// its id goes names the `search` op and its best match; a route's short name where its route_id goes names
/// that route_id. The error stays NOT_FOUND.
@Suite struct NotFoundHintTests {
    @Test func aStopNameOrARouteNameWhereAnIdGoesIsAnsweredWithTheId() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            for line in [
                #"{"op":"stop","stop_id":"Central Station"}"#,
                #"{"op":"departures","stop_id":"Central Station"}"#,
                #"{"op":"alerts","stop_id":"Central Station"}"#,
                #"{"op":"subscribe","topic":"departures","stop_id":"Central Station"}"#,
            ] {
                let answer = try await client.ask(line)
                #expect(answer.errorCode == "NOT_FOUND", "\(line): \(answer)")
                let message = answer.errorMessage ?? ""
                #expect(
                    message.contains("the \"search\" op") && message.contains("stop_id \"200060\""),
                    "\(line): \(message)")
            }
            for line in [
                #"{"op":"route","route_id":"T1"}"#,
                #"{"op":"alerts","route_id":"t1"}"#,
            ] {
                let answer = try await client.ask(line)
                #expect(answer.errorCode == "NOT_FOUND", "\(line): \(answer)")
                let message = answer.errorMessage ?? ""
                #expect(message.contains("route_id \"ST_T1\""), "\(line): \(message)")
            }
            // Nothing like it: the plain NOT_FOUND.
            let unknown = try await client.ask(#"{"op":"route","route_id":"NO_SUCH_ROUTE"}"#)
            #expect(unknown.errorCode == "NOT_FOUND" && unknown.errorMessage?.contains("route_id takes") == false)
        }
    }

    /// A board asked for a date no feed covers is still an empty `ok` board, and its `meta.note` says which
    /// dates the feed covers; a board inside them has no note.
    @Test func anEmptyBoardOutsideTheFeedsDatesSaysWhichDatesItCovers() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            // 2033-05-18: the sample feed states 20250101-20301231.
            let outside = try await client.ask(#"{"op":"departures","stop_id":"200060","at":2000000000}"#)
            #expect(outside.ok, "\(outside)")
            #expect(outside.list("departures").isEmpty)
            let note = outside.meta["note"] as? String ?? ""
            #expect(note.contains("20330518") && note.contains("20250101–20301231"), "\(note)")
            let inside = try await client.ask(#"{"op":"departures","stop_id":"200060","at":1766394000}"#)
            #expect(!inside.list("departures").isEmpty)
            #expect(inside.meta["note"] == nil)
            let trip = try await client.ask(#"{"op":"trip","trip_id":"T1.WKD.1.1940","date":"20350105"}"#)
            #expect(trip.errorCode == "NOT_FOUND")
            let dates = "is outside the feed's dates: sample 20250101–20301231"
            #expect(trip.errorMessage?.contains(dates) == true, "\(trip)")
            // A route without service on a date no feed covers says so; on a day it does not run, no note.
            let route = try await client.ask(#"{"op":"route","route_id":"ST_T1","date":"20350105"}"#)
            #expect(route.ok && (route.meta["note"] as? String)?.contains("20250101–20301231") == true, "\(route)")
            let routeSaturday = try await client.ask(#"{"op":"route","route_id":"2440_2519","date":"20251227"}"#)
            #expect(routeSaturday.ok && routeSaturday.meta["note"] == nil, "\(routeSaturday)")
            let tripInside = try await client.ask(#"{"op":"trip","trip_id":"T1.WKD.1.1940","date":"20251227"}"#)
            #expect(tripInside.errorMessage?.contains("outside the feed's dates") == false, "\(tripInside)")
        }
    }
}
