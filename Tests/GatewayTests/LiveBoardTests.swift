import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// Departure boards in predicted time over the sample feed (GATEWAY.md "departures").
///
/// Central (200060) on the sample Monday, at 20:00 (`at`), has these departures (seconds after `at`):
/// before: M1.WKD.0.FREQ 19:00 −420 (P26), T8.WKD.1.1845 −360 (P23), T4.WKD.1.1907 −240 (P25),
///         M1.WKD.1.FREQ 19:50 −180 (P27), T2.WKD.0.1922 −120 (P18, seq 6);
/// after:  M1.WKD.0.FREQ 19:10 +180, M1.WKD.1.FREQ 20:00 +420, M1.WKD.0.FREQ 19:20 +780,
///         T1.WKD.1.1940 +900 (P17, seq 6), M1.WKD.1.FREQ 20:10 +1020, T4.WKD.0.2007 +1140 (P24, seq 6),
///         T1.WKD.0.1910 +1380 (P16, seq 5), M1.WKD.0.FREQ 19:30 +1380, M1.WKD.1.FREQ 20:20 +1620, …
@Suite struct LiveBoardTests {
    private let at = SampleTimes.mondayEvening
    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// The live state of the scenario: one trip delayed into the window, one added, one cancelled, one
    /// skipping Central, one early, one delayed but still before `at`.
    private func scenario() -> RealtimeState {
        let trips: [LiveTrip] = [
            // 19:58 from P18, 400 s late: leaves at +280.
            LiveFixtures.trip(
                "T2.WKD.0.1922", routeId: "ST_T2",
                stops: [
                    ("20006018", at - 120, at + 280), ("20005002", at + 60, at + 460),
                ], firstSequence: 6),
            // Not in the schedule: P19 at +300, then Redfern.
            LiveFixtures.trip(
                "X.ADDED.1", relationship: .new, routeId: "ST_T2",
                stops: [
                    ("20006019", nil, at + 300), ("20007004", nil, at + 500),
                ]),
            LiveFixtures.trip(
                "T1.WKD.1.1940", relationship: .canceled, routeId: "ST_T1",
                stops: [
                    ("20006017", at + 900, nil), ("21351004", at + 1800, nil),
                ], firstSequence: 6),
            LiveFixtures.trip(
                "T4.WKD.0.2007", routeId: "ST_T4",
                stops: [
                    ("20006024", at + 1140, nil), ("next", at + 1500, at + 1500),
                ], firstSequence: 6, skipped: ["20006024"]),
            // 380 s early: +1000 instead of +1380.
            LiveFixtures.trip(
                "T1.WKD.0.1910", routeId: "ST_T1",
                stops: [
                    ("20006016", at + 1380, at + 1000), ("next", at + 1600, at + 1300),
                ], firstSequence: 5),
            // 19:56 from P25, 100 s late: still before `at`.
            LiveFixtures.trip(
                "T4.WKD.1.1907", routeId: "ST_T4",
                stops: [
                    ("20006025", at - 240, at - 140), ("next", at, at + 100),
                ], firstSequence: 7),
        ]
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: trips)))
        assembler.applySnapshot(.sources([LiveFixtures.freshSource(now: now)]))
        return assembler.state
    }

    private func ask(_ client: LineClient, _ fields: String) async throws -> JSONLine {
        let answer = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(at),\#(fields)}"#)
        #expect(answer.ok, "\(answer)")
        return answer
    }

    private func trips(_ answer: JSONLine) -> [String] {
        answer.list("departures").map { $0["trip_id"] as? String ?? "?" }
    }

    private func offsets(_ answer: JSONLine) -> [Int] {
        answer.list("departures").map { row in
            (row["realtime_unix"] as? Int ?? row["scheduled_unix"] as? Int ?? 0) - Int(at)
        }
    }

    @Test func theWindowIsInPredictedTime() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            view.replace(scenario())
            let board = try await ask(client, #""limit":8"#)
            #expect(board.meta["source"] as? String == "static+rt")
            #expect(
                trips(board) == [
                    "M1.WKD.0.FREQ", "T2.WKD.0.1922", "X.ADDED.1", "M1.WKD.1.FREQ", "M1.WKD.0.FREQ", "T1.WKD.1.1940",
                    "T1.WKD.0.1910", "M1.WKD.1.FREQ",
                ])
            #expect(offsets(board) == [180, 280, 300, 420, 780, 900, 1000, 1020])
            let rows = board.list("departures")

            // Delayed into the window: its static details, its prediction.
            let delayed = rows[1]
            #expect(delayed["status"] as? String == "very_late")
            #expect(delayed["delay_s"] as? Int == 400)
            #expect(delayed["scheduled_unix"] as? Int == Int(at) - 120)
            #expect(delayed["stop_id"] as? String == "20006018" && delayed["platform"] as? String == "18")
            #expect(delayed["route_short_name"] as? String == "T2")
            #expect(delayed["headsign"] as? String != nil)
            #expect(delayed["minutes_until"] as? Int == 4)

            // Added: no scheduled time, the route's names from the static data, P19's platform code.
            let added = rows[2]
            #expect(added["status"] as? String == "added")
            #expect(added["scheduled_unix"] is NSNull && added["scheduled_secs"] is NSNull)
            #expect(added["realtime_unix"] as? Int == Int(at) + 300)
            #expect(added["realtime_secs"] as? Int == 72_000 + 300)
            #expect(added["delay_s"] is NSNull && added["delay_badge"] is NSNull)
            #expect(added["route_short_name"] as? String == "T2" && added["mode"] as? String == "train")
            #expect(added["platform"] as? String == "19")
            #expect(added["realtime"] as? Bool == true)

            // Cancelled keeps its place and status; early moves up.
            #expect(rows[5]["status"] as? String == "cancelled" && rows[5]["realtime_unix"] is NSNull)
            #expect(rows[6]["status"] as? String == "early" && rows[6]["delay_s"] as? Int == -380)

            // The skipped stop is on the next page, at its scheduled time.
            let cursor = try #require((board.data["page"] as? [String: Any])?["later_cursor"] as? String)
            let next = try await ask(client, #""limit":3,"cursor":"\#(cursor)""#)
            #expect(trips(next) == ["T4.WKD.0.2007", "M1.WKD.0.FREQ", "M1.WKD.1.FREQ"])
            #expect(offsets(next) == [1140, 1380, 1620])
            #expect(next.list("departures").first?["status"] as? String == "skipped")

            // A past board ends at `at` in predicted time: the 19:58 run (now at +280) is not on it, the
            // 19:56 one (now at −140) is, after the 19:50 one.
            let past = try await ask(client, #""limit":3,"direction":"past""#)
            #expect(trips(past) == ["T8.WKD.1.1845", "M1.WKD.1.FREQ", "T4.WKD.1.1907"])
            #expect(offsets(past) == [-360, -180, -140])
        }
    }

    @Test func pagingForwardThenBackGivesTheSameRowsWithRealtime() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            view.replace(scenario())
            var pages: [[String]] = []
            var cursors: [String] = []
            var page = try await ask(client, #""limit":4"#)
            for _ in 0..<4 {
                pages.append(trips(page).enumerated().map { "\($0.element)@\(offsets(page)[$0.offset])" })
                let info = try #require(page.data["page"] as? [String: Any])
                #expect(info["has_more_future"] as? Bool == true)
                cursors.append(try #require(info["earlier_cursor"] as? String))
                let later = try #require(info["later_cursor"] as? String)
                page = try await ask(client, #""limit":4,"cursor":"\#(later)""#)
            }
            let all = pages.flatMap { $0 }
            #expect(Set(all).count == all.count, "no repeats: \(all)")
            #expect(
                all.map { Int($0.split(separator: "@")[1])! } == all.map { Int($0.split(separator: "@")[1])! }.sorted())
            // Back from each page's earlier cursor: the page before it, exactly.
            for index in 1..<pages.count {
                let back = try await ask(client, #""limit":4,"cursor":"\#(cursors[index])""#)
                #expect(
                    trips(back).enumerated().map { "\($0.element)@\(offsets(back)[$0.offset])" } == pages[index - 1])
            }
            // A cursor stays usable when predictions change.
            view.replace(RealtimeState(sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)]))
            let changed = try await ask(client, #""limit":4,"cursor":"\#(cursors[2])""#)
            #expect(changed.list("departures").count == 4)
            let bad = try await client.ask(#"{"op":"departures","stop_id":"200060","cursor":"nope"}"#)
            #expect(bad.errorCode == "INVALID_ARGUMENT")
        }
    }

    @Test func oneBigPageIsTheSmallPagesOneAfterTheOther() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            let client = try fixture.client()
            view.replace(scenario())
            func rows(_ answer: JSONLine) -> [String] {
                answer.list("departures").map {
                    "\($0["trip_id"] as? String ?? "")@\($0["service_date"] as? String ?? "")+\($0["stop_sequence"] as? Int ?? 0)@\($0["realtime_unix"] as? Int ?? $0["scheduled_unix"] as? Int ?? 0)"
                }
            }
            for direction in ["future", "past"] {
                // 100 rows at once (more than one static page: the gateway fetches on) …
                let big = try await ask(client, #""limit":100,"direction":"\#(direction)""#)
                let all = rows(big)
                #expect(all.count == 100)
                // … are the pages of 7, one after the other.
                var small: [String] = []
                var page = try await ask(client, #""limit":7,"direction":"\#(direction)""#)
                while small.count < 100 {
                    let these = rows(page)
                    try #require(!these.isEmpty)
                    small = direction == "future" ? small + these : these + small
                    let info = try #require(page.data["page"] as? [String: Any])
                    let cursor = try #require(
                        info[direction == "future" ? "later_cursor" : "earlier_cursor"] as? String)
                    page = try await ask(client, #""limit":7,"cursor":"\#(cursor)""#)
                }
                let cut = direction == "future" ? Array(small.prefix(100)) : Array(small.suffix(100))
                #expect(cut == all, "\(direction)")
            }
        }
    }

    @Test func withTheStaticServiceDownTheLiveStateAloneAnswersWhereItCan() async throws {
        let view = RealtimeView(configured: true)
        // Without the board window cache: whether the first board's window is kept depends on whether the
        // background version check it starts answers before its first static page (a race), and a kept window
        // would answer the board below from static rows.
        try await withGateway(
            realtime: view,
            configure: {
                $0.staticTimeout = .milliseconds(300)
                $0.boardCacheStops = 0
            }
        ) { fixture in
            let client = try fixture.client()
            view.replace(scenario())
            _ = try await ask(client, #""limit":8"#)  // the gateway has met the station once
            fixture.stopStaticService()

            let board = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(at),"limit":4}"#)
            #expect(board.ok, "\(board)")
            #expect(board.meta["source"] as? String == "rt_only")
            // Only trips the live state knows, by predicted time; the cancelled one keeps its schedule.
            #expect(trips(board) == ["T2.WKD.0.1922", "X.ADDED.1", "T1.WKD.1.1940", "T1.WKD.0.1910"])
            #expect(offsets(board) == [280, 300, 900, 1000])
            let rows = board.list("departures")
            #expect(rows[0]["delay_s"] as? Int == 400 && rows[0]["route_short_name"] as? String == "T2")
            #expect(rows[1]["status"] as? String == "added" && rows[1]["scheduled_unix"] is NSNull)
            #expect(rows[2]["status"] as? String == "cancelled")

            // A stop the live state knows nothing about: the static service is needed.
            let elsewhere = try await client.ask(#"{"op":"departures","stop_id":"200070","at":\#(at)}"#)
            #expect(elsewhere.errorCode == "STATIC_UNAVAILABLE")
            // An empty live state cannot answer either.
            view.replace(RealtimeState(), heard: true)
            let empty = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(at)}"#)
            #expect(empty.errorCode == "STATIC_UNAVAILABLE")
        }
    }
}
