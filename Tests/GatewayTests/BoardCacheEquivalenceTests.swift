import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// A departure board answered from the board window cache is the board the gateway answers without it:
/// the same rows, page flags and cursors, with realtime moving rows in and out, at many times and limits,
/// paging forward and back, also with windows so small that pages run past them.
@Suite struct BoardCacheEquivalenceTests {
    private let at = SampleTimes.mondayEvening
    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// Delays into and out of Central's window (a frequency-based run too), an added trip, a cancelled one, a
    /// skipped stop.
    private func scenario() -> RealtimeState {
        let trips: [LiveTrip] = [
            LiveFixtures.trip(
                "T2.WKD.0.1922", routeId: "ST_T2",
                stops: [
                    ("20006018", at - 120, at + 280), ("20005002", at + 60, at + 460),
                ], firstSequence: 6),
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
            LiveFixtures.trip(
                "T1.WKD.0.1910", routeId: "ST_T1",
                stops: [
                    ("20006016", at + 1380, at + 1000), ("next", at + 1600, at + 1300),
                ], firstSequence: 5),
            // A frequency-based run (started 19:50) leaving P27 at −180, 380 s late.
            LiveFixtures.trip(
                "M1.WKD.1.FREQ", startSecs: 71_400, routeId: "SMNW_M1",
                stops: [
                    ("20006027", at - 180, at + 200), ("20007202", at - 60, at + 320),
                ], firstSequence: 3),
            // Delayed by an hour: leaves many pages later.
            LiveFixtures.trip(
                "T4.WKD.1.1907", routeId: "ST_T4",
                stops: [
                    ("20006025", at - 240, at + 3360), ("next", at, at + 3600),
                ], firstSequence: 7),
        ]
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: trips)))
        assembler.applySnapshot(.sources([LiveFixtures.freshSource(now: now)]))
        return assembler.state
    }

    /// The answer without what differs between two gateways (elapsed time, feed age).
    private func comparable(_ answer: JSONLine) -> String {
        answer.text.replacingOccurrences(of: #""elapsed_us":[0-9]+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""feed_age_s":[0-9]+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""prediction_age_s":[0-9]+"#, with: "", options: .regularExpression)
    }

    private func requests() -> [String] {
        var lines: [String] = []
        for stopId in ["200060", "20006016", "10101103", "200070"] {
            for offset: Int64 in [0, 45, 61, 600, 1799, 3000, 7200] {
                for limit in [1, 4, 10, 30] {
                    lines.append(#"{"op":"departures","stop_id":"\#(stopId)","at":\#(at + offset),"limit":\#(limit)}"#)
                }
            }
        }
        lines.append(#"{"op":"departures","stop_id":"200060","at":\#(at),"limit":100}"#)
        return lines
    }

    /// Every answer of both gateways, then the pages after and before each first page by its cursors.
    private func answers(_ client: LineClient) async throws -> [String] {
        var out: [String] = []
        for line in requests() {
            let first = try await client.ask(line)
            out.append(comparable(first))
            guard let page = first.data["page"] as? [String: Any] else { continue }
            var later = page["later_cursor"] as? String
            for _ in 0..<3 {
                guard let cursor = later else { break }
                let next = try await client.ask(
                    #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":7,"cursor":"\#(cursor)"}"#)
                out.append(comparable(next))
                later = (next.data["page"] as? [String: Any])?["later_cursor"] as? String
            }
            if let earlier = page["earlier_cursor"] as? String {
                let back = #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":5,"cursor":"\#(earlier)"}"#
                out.append(comparable(try await client.ask(back)))
            }
        }
        return out
    }

    /// Most of the first 60 departures from Central after `at` made late by 5 to 60 minutes (a few left early):
    /// delays push many rows off each page, so its rows come from several window slices.
    private func manyDelays(_ client: LineClient) async throws -> RealtimeState {
        let board = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(at),"limit":60}"#)
        let rows = try #require(board.data["departures"] as? [[String: Any]])
        var generator = SplitMix64(seed: 28)
        var trips: [LiveTrip] = []
        for (index, row) in rows.enumerated() where index % 5 != 4 {
            guard let tripId = row["trip_id"] as? String, let stopId = row["stop_id"] as? String,
                let sequence = row["stop_sequence"] as? Int, let scheduled = row["scheduled_unix"] as? Int,
                let date = (row["service_date"] as? String).flatMap({ UInt32($0) })
            else { continue }
            let delay = index % 7 == 3 ? -120 : Int64.random(in: 300...3_600, using: &generator)
            trips.append(
                LiveFixtures.trip(
                    tripId, date: date, routeId: row["route_id"] as? String,
                    stops: [
                        (stopId, Int64(scheduled), Int64(scheduled) + delay),
                        ("next", Int64(scheduled) + 600, Int64(scheduled) + 600 + delay),
                    ], firstSequence: UInt32(sequence)))
        }
        #expect(trips.count > 40)
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: trips)))
        assembler.applySnapshot(.sources([LiveFixtures.freshSource(now: now)]))
        return assembler.state
    }

    private func run(
        cacheStops: Int, windowRows: Int = 100, delaysMany: Bool = false
    ) async throws -> (answers: [String], hits: Int) {
        let view = RealtimeView(configured: true)
        return try await withGateway(
            realtime: view,
            configure: {
                $0.boardCacheStops = cacheStops
                $0.boardWindowRows = windowRows
            }
        ) { fixture in
            let client = try fixture.client()
            view.replace(delaysMany ? try await manyDelays(client) : scenario())
            if cacheStops > 0 { try await keepAWindow(client) }
            let answers = try await answers(client)
            let stats = try await client.ask(#"{"op":"stats"}"#)
            let cache = try #require(stats.data["board_cache"] as? [String: Any])
            return (answers, cache["hits"] as? Int ?? -1)
        }
    }

    @Test(arguments: [100, 9])
    func answersWithAndWithoutTheCacheAreTheSame(windowRows: Int) async throws {
        let uncached = try await run(cacheStops: 0)
        let cached = try await run(cacheStops: 64, windowRows: windowRows)
        #expect(uncached.hits == 0)
        #expect(cached.hits > 50, "the cache answered \(cached.hits) pages")
        #expect(cached.answers.count == uncached.answers.count)
        // The delayed frequency-based run is on the boards (described from the window's rows when cached).
        #expect(cached.answers.contains { $0.contains(#""start_time":"19:50:00""#) && $0.contains(#""delay_s":380"#) })
        for (index, (a, b)) in zip(cached.answers, uncached.answers).enumerated() where a != b {
            Issue.record("answer \(index) differs:\ncached   \(a)\nuncached \(b)")
            break
        }
    }

    /// Many delayed trips: the pages sliced from a window come without the margin for them, and more slices
    /// follow while delays push rows out; the boards are those of the gateway that asks the static service.
    @Test(arguments: [100, 9])
    func answersWithManyDelaysAreTheSameWithAndWithoutTheCache(windowRows: Int) async throws {
        let uncached = try await run(cacheStops: 0, delaysMany: true)
        let cached = try await run(cacheStops: 64, windowRows: windowRows, delaysMany: true)
        #expect(cached.hits > 50, "the cache answered \(cached.hits) pages")
        #expect(cached.answers.count == uncached.answers.count)
        #expect(cached.answers.contains { $0.contains(#""status":"late""#) || $0.contains(#""status":"very_late""#) })
        for (index, (a, b)) in zip(cached.answers, uncached.answers).enumerated() where a != b {
            Issue.record("answer \(index) differs:\ncached   \(a)\nuncached \(b)")
            break
        }
    }

    /// Boards asked at many different times of a busy stop share windows: anchored on the stop's grid
    /// (`BoardWindow.anchorGrid`), a second round at other times of the same two hours is answered from the
    /// windows the first fetched. (Anchored at each board's own time, windows overlapped at random and left
    /// gaps: the NSW-scale peak asked the static service again for one board in 27.)
    @Test func boardsAskedAtOtherTimesOfTheSameHoursShareWindows() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(
            realtime: view,
            configure: {
                $0.boardCacheStops = 64
                // Windows of 12 rows (about 36 minutes of the sample's Central) and room for 16 of them:
                // enough for two hours on a grid, too few at random anchors.
                $0.boardWindowRows = 12
                $0.boardWindowsPerStop = 16
            }
        ) { fixture in
            let client = try fixture.client()
            try await keepAWindow(client)
            var generator = SplitMix64(seed: 7)
            func round() async throws -> Int {
                let before = try await misses(client)
                for _ in 0..<150 {
                    let t = at + Int64(generator.next() % 7200)
                    _ = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(t),"limit":3}"#)
                }
                return try await misses(client) - before
            }
            let first = try await round()
            let second = try await round()
            #expect(first > 10, "the first round fetched \(first) windows")
            #expect(second * 10 <= first, "the second round missed \(second) times (the first \(first))")
        }
    }

    /// A board whose live margin reads past its window's last row asks the static service for the next page
    /// once: the window is kept with that page, and the same board asked again is sliced from it, so it is the
    /// same board with the static service gone. (Each asked again, and a busy station's boards paid a round trip
    /// each: most of the NSW-scale open loop's p99.)
    @Test func aBoardReadingPastItsWindowAsksTheStaticServiceOnce() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(
            realtime: view,
            configure: {
                $0.boardCacheStops = 64
                // The windows stay usable after the static service stops (no check due for a minute).
                $0.staticVersionCheck = .seconds(60)
            }
        ) { fixture in
            let client = try fixture.client()
            view.replace(try await manyDelays(client))
            try await keepAWindow(client)
            // A whole window's worth of rows: delays push some out, so more are read past the window.
            let board = #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":100}"#
            let first = try await client.ask(board)
            #expect(first.list("departures").count == 100)
            fixture.stopStaticService()
            for _ in 0..<3 {
                let again = try await client.ask(board)
                #expect(comparable(again) == comparable(first))
            }
        }
    }

    /// Asks Central's board until the gateway keeps its window. Windows are kept only once the static database
    /// version is confirmed, by a background check the first board starts: waited for by what the cache holds,
    /// not by a fixed sleep, so a slow machine only takes longer.
    private func keepAWindow(_ client: LineClient) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            _ = try await client.ask(#"{"op":"departures","stop_id":"200060","at":\#(at)}"#)
            let stats = try await client.ask(#"{"op":"stats"}"#)
            let cache = try #require(stats.data["board_cache"] as? [String: Any])
            if (cache["windows"] as? Int ?? 0) > 0 { return }
            guard ContinuousClock.now < deadline else {
                Issue.record("no board window kept within 10 s")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private func misses(_ client: LineClient) async throws -> Int {
        let stats = try await client.ask(#"{"op":"stats"}"#)
        let cache = try #require(stats.data["board_cache"] as? [String: Any])
        return try #require(cache["misses"] as? Int)
    }
}
