import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// Boards filtered by route, direction and mode at Central (200060) on the sample feed, Monday 20:00, with
/// the board cache on and off; a trip asked with a board row's own fields.
@Suite struct FilteredBoardTests {
    private let at = SampleTimes.mondayEvening
    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    private func rows(_ answer: JSONLine) -> [[String: Any]] { answer.data["departures"] as? [[String: Any]] ?? [] }

    private func board(_ client: LineClient, _ filters: String, limit: Int = 6, cursor: String? = nil) async throws
        -> JSONLine
    {
        let paging = cursor.map { #","cursor":"\#($0)""# } ?? ""
        return try await client.ask(
            #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":\#(limit)\#(filters)\#(paging)}"#)
    }

    /// The answers of one gateway to the same sequence: unfiltered, filtered, each filtered board's next page.
    private func answers(cacheStops: Int) async throws -> [String] {
        let view = RealtimeView(configured: true)
        return try await withGateway(realtime: view, configure: { $0.boardCacheStops = cacheStops }) { fixture in
            let client = try fixture.client()
            // An added T2 run at Central's platform 19 (its update names route and direction) and a delayed T1.
            var assembler = LiveStateAssembler()
            assembler.applySnapshot(
                .tripUpdates(
                    LiveTripBatch(trips: [
                        LiveFixtures.trip(
                            "X.ADDED.1", relationship: .new, routeId: "ST_T2",
                            stops: [("20006019", nil, at + 300), ("20007004", nil, at + 500)])
                    ])))
            assembler.applySnapshot(.sources([LiveFixtures.freshSource(now: now)]))
            view.replace(assembler.state)
            _ = try await board(client, "")
            try await Task.sleep(for: .milliseconds(100))  // the cache confirms the database version

            var out: [String] = []
            let unfiltered = try await board(client, "")
            out.append(unfiltered.text)
            for filters in [
                #","route_id":"ST_T1""#, #","mode":"metro""#, #","direction_id":1"#, #","route_id":"ST_T2""#,
            ] {
                let first = try await board(client, filters)
                #expect(first.ok, "\(filters): \(first)")
                #expect(rows(first).count == 6, "\(filters): a filtered board fills its limit")
                let page = try #require(first.data["page"] as? [String: Any])
                let next = try await board(client, filters, cursor: page["later_cursor"] as? String)
                for row in rows(first) + rows(next) {
                    switch filters {
                    case #","route_id":"ST_T1""#: #expect(row["route_id"] as? String == "ST_T1")
                    case #","mode":"metro""#: #expect(row["mode"] as? String == "metro")
                    case #","direction_id":1"#: #expect(row["direction_id"] as? Int == 1)
                    default: #expect(row["route_id"] as? String == "ST_T2")
                    }
                }
                // The next page continues after the first, in time.
                let last = rows(first).last?["scheduled_unix"] as? Int ?? 0
                #expect(rows(next).allSatisfy { ($0["scheduled_unix"] as? Int ?? Int.max) >= last })
                out.append(first.text)
                out.append(next.text)
            }
            // The added T2 run is on the T2 board, and on no other filtered board.
            #expect(out[7].contains("X.ADDED.1") && !out[1].contains("X.ADDED.1"))
            // The unfiltered board again: the filtered ones left the stop's cached rows alone.
            #expect(withoutWallClockFields(try await board(client, "").text) == withoutWallClockFields(unfiltered.text))
            return out.map(withoutWallClockFields)
        }
    }

    /// An answer without the fields that follow the wall clock, not the board (the clock is frozen, the
    /// machine's is not): the time taken, and the feed's and predictions' ages.
    private func withoutWallClockFields(_ text: String) -> String {
        text.replacingOccurrences(of: #""elapsed_us":[0-9]+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""feed_age_s":[0-9]+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""prediction_age_s":[0-9]+"#, with: "", options: .regularExpression)
    }

    @Test func filteredBoardsWithAndWithoutTheCacheAreTheSame() async throws {
        let uncached = try await answers(cacheStops: 0)
        let cached = try await answers(cacheStops: 64)
        #expect(cached == uncached)
    }

    @Test func badFilters() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let unknown = try await board(client, #","route_id":"NOPE""#)
            #expect(unknown.errorCode == "NOT_FOUND")
            #expect(unknown.errorMessage?.contains("route NOPE") == true)
            #expect(unknown.errorMessage?.contains("search") == false)  // not the stop-name hint
            let mode = try await board(client, #","mode":"spaceship""#)
            #expect(mode.errorCode == "INVALID_ARGUMENT")
            let direction = try await board(client, #","direction_id":2"#)
            #expect(direction.errorCode == "INVALID_ARGUMENT")
        }
    }

    @Test func aBoardRowsFieldsNameItsTrip() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let metro = try await board(client, #","mode":"metro""#, limit: 1)
            let row = try #require(rows(metro).first)
            let tripId = try #require(row["trip_id"] as? String)
            let date = try #require(row["service_date"] as? String)
            let start = try #require(row["start_time"] as? String)
            let trip = try await client.ask(
                #"{"op":"trip","trip_id":"\#(tripId)","service_date":"\#(date)","start_time":"\#(start)"}"#)
            #expect(trip.ok, "\(trip)")
            #expect(trip.data["start_time"] as? String == start && trip.data["service_date"] as? String == date)
            let clash = try await client.ask(
                #"{"op":"trip","trip_id":"\#(tripId)","service_date":"\#(date)","date":"20251223"}"#)
            #expect(clash.errorCode == "INVALID_ARGUMENT")
        }
    }
}
