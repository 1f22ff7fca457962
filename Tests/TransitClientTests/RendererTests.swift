import Foundation
import Testing
import TransitPresentation

@testable import TransitClient
@testable import TransitTerminal

/// The board and the lists drawn from captured answers, compared with golden text (ANSI colours included).
/// `TRANSIT_RECORD_GOLDEN=1 swift test --filter RendererTests` rewrites the golden files; read the diff.
@Suite struct RendererTests {
    static let golden = ModelTests.fixtures.appendingPathComponent("golden")

    /// The captured board of Central (200060) at 20:00 with its alert, plus what the capture lacks: the
    /// fourth row cancelled and the second with per-carriage occupancy, as Transport for NSW sends it.
    static func centralBoard() throws -> (Board, AnswerMeta, [Alert]) {
        var object = try JSONSerialization.jsonObject(with: ModelTests.capture("departures.json")) as! [String: Any]
        var data = object["data"] as! [String: Any]
        var rows = data["departures"] as! [[String: Any]]
        rows[3]["status"] = "cancelled"
        rows[3]["delay_badge"] = NSNull()
        rows[1]["carriages"] = ["EMPTY", "FEW_SEATS_AVAILABLE", "STANDING_ROOM_ONLY", "FULL", "MANY_SEATS_AVAILABLE"]
            .enumerated().map { ["position": $0.offset + 1, "occupancy_status": $0.element] }
        data["departures"] = rows
        object["data"] = data
        let board = try ModelTests.decode(Board.self, try JSONSerialization.data(withJSONObject: object))
        let alerts = try ModelTests.decode(AlertList.self, ModelTests.capture("alerts.json")).data.alerts
        return (board.data, board.meta, alerts)
    }

    static func renderCentral(_ mode: ColorMode) throws -> String {
        let (board, meta, alerts) = try centralBoard()
        let context = BoardRenderer.Context(
            stopName: "Central Station", now: meta.at!, alerts: alerts, meta: meta, footer: "q quit · live")
        return BoardRenderer(mode: mode, width: 100).render(board, context).joined(separator: "\n") + "\n"
    }

    func check(_ text: String, golden name: String) throws {
        let url = Self.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["TRANSIT_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.golden, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "\(name) differs from its golden file:\n\(text)")
    }

    @Test func plainBoard() throws {
        let text = try Self.renderCentral(.none)
        try check(text, golden: "board-plain.txt")
        #expect(!text.contains("\u{1B}"))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("Central Station · 200060") && lines[0].hasSuffix("20:00:00"))
        #expect(lines[1].hasPrefix("▲ Reduced service: Reduced service on every route of type 2"))
        // The countdowns are the gateway's (now = meta.at) and the delay badges its texts.
        let board = try Self.centralBoard().0
        for (row, line) in zip(board.departures, lines[3...]) where row.status != "cancelled" {
            #expect(line.contains(row.countdownText!), "\(line)")
            if let badge = row.delayBadge?.text { #expect(line.contains(badge), "\(line)") }
        }
        #expect(lines[3 + 3].contains("Cancelled"))
        #expect(lines[3 + 1].contains("▁▃▅▇▁"))
    }

    @Test func trueColorBoard() throws {
        let text = try Self.renderCentral(.trueColor)
        try check(text, golden: "board-truecolor.txt")
        // M1's badge: white bold on its route colour #168388; T1's on #F99D1C.
        #expect(text.contains("\u{1B}[1;38;2;255;255;255;48;2;22;131;136m M1 \u{1B}[0m"))
        #expect(text.contains("48;2;249;157;28m T1 "))
        #expect(text.contains("\u{1B}[2;9m"))  // the cancelled row struck through
        #expect(text.contains("\u{1B}[1;38;2;255;159;10m+3 min"))  // an orange delay badge
    }

    @Test func palette256Board() throws {
        let text = try Self.renderCentral(.palette256)
        try check(text, golden: "board-256.txt")
        #expect(text.contains("48;5;37m M1 "))  // #168388 → cube (0, 3, 3): index 37
        #expect(!text.contains(";2;"))
    }

    @Test func colorModeFromTheEnvironment() {
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor"], isTerminal: true) == .trueColor)
        #expect(ColorMode.detect(environment: ["COLORTERM": "24bit"], isTerminal: true) == .trueColor)
        #expect(ColorMode.detect(environment: [:], isTerminal: true) == .palette256)
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor"], isTerminal: false) == .none)
        #expect(ColorMode.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], isTerminal: true) == .none)
        #expect(ColorMode.detect(environment: ["NO_COLOR": ""], isTerminal: true) == .palette256)
    }

    @Test func countdownsMoveWithTheClockBetweenAnswers() throws {
        let (board, meta, _) = try Self.centralBoard()
        let later = BoardRenderer(mode: .none, width: 100).render(board, .init(now: meta.at! + 120))
        let first = try #require(later.first { $0.hasPrefix(" M1 ") })
        #expect(first.contains("20:03") && first.contains("1 min"))  // 3 min at 20:00, 1 min at 20:02
    }

    /// At 80 and 60 columns no row runs past the width (the occupancy shrinks to its glyph; it used to wrap at
    /// 60), and a destination too long for its column ends in "…" and a blank, never running into the time.
    @Test(arguments: [80, 60])
    func narrowTerminalsKeepEveryRowWithinTheWidth(width: Int) throws {
        let (board, meta, _) = try Self.centralBoard()
        var long = board
        long.departures[0].headsign = String(repeating: "Very Long Destination Name ", count: 4)
        let lines = BoardRenderer(mode: .none, width: width).render(long, .init(now: meta.at!, meta: meta))
        func columns(_ line: String) -> Int { line.reduce(0) { $0 + ($1 == "♿" ? 2 : 1) } }
        for line in lines where !line.hasPrefix("▲") {
            #expect(columns(line) <= width, "\(width): \(columns(line)) columns: \(line)")
        }
        let first = try #require(lines.first { $0.contains("Very Long") })
        #expect(first.contains("… "), "\(first)")
        let header = try #require(lines.first { $0.hasPrefix("ROUTE") })
        #expect(header.contains("STATUS") && header.contains("PLAT") && !header.contains("SEATS"), "\(header)")
    }

    /// The live screen's footer says "live" only while the answer is live.
    @Test func theFooterSaysLiveOnlyWhileTheBoardIs() {
        #expect(BoardRenderer.liveState(AnswerMeta(source: "static+rt", stale: false)) == "live")
        #expect(BoardRenderer.liveState(AnswerMeta(source: "static+rt", stale: true)) == "live data out of date")
        #expect(BoardRenderer.liveState(AnswerMeta(source: "static_only")) == "timetable only")
        #expect(BoardRenderer.liveState(AnswerMeta(source: "rt_only", stale: true)) == "live data out of date")
    }

    @Test func aBoardFromAnOlderGatewayComputesWhatItLacks() throws {
        // No badge, countdown, colours or status text from the gateway: computed from delay_s and the times.
        let line =
            #"{"data":{"stop_id":"S","timezone":"Australia/Sydney","departures":[{"trip_id":"t","route_id":"r","#
            + #""route_short_name":"333","stop_id":"S","scheduled_unix":1766394180,"realtime_unix":1766394780,"#
            + #""delay_s":600,"status":"very_late"}]},"meta":{"at":1766394000}}"#
        let board = try ModelTests.decode(Board.self, Data(line.utf8))
        let text = BoardRenderer(mode: .none, width: 80).render(board.data, .init(now: 1_766_394_000))
        let row = try #require(text.first { $0.hasPrefix(" 333 ") })
        #expect(row.contains("20:13") && row.contains("13 min") && row.contains("+10 min"), "\(row)")
    }

    @Test func lists() throws {
        let routes = try ModelTests.decode(RouteList.self, ModelTests.capture("routes.json")).data.routes
        try check(ListRenderer(mode: .none).routes(routes).joined(separator: "\n") + "\n", golden: "routes-plain.txt")
        let trains = ListRenderer(mode: .none).routes(routes, filter: .train)
        #expect(trains.first == "T")
        #expect(trains.dropFirst().allSatisfy { $0.hasSuffix("train") })
        let search = try ModelTests.decode(StopList.self, ModelTests.capture("search.json")).data.stops
        try check(ListRenderer(mode: .none).stops(search).joined(separator: "\n") + "\n", golden: "search-plain.txt")
        let trip = try ModelTests.decode(Trip.self, ModelTests.capture("trip.json"))
        try check(
            ListRenderer(mode: .trueColor).trip(trip.data, now: trip.meta.at!).joined(separator: "\n") + "\n",
            golden: "trip-truecolor.txt")
        let health = try ModelTests.decode(Health.self, ModelTests.capture("health.json")).data
        #expect(ListRenderer(mode: .none).health(health).first == "Gateway: ok")
    }

    /// `transit plan`: a captured answer (Blacktown to Wolli Creek at 20:00, one change at Town Hall) read at 80
    /// columns: the summary, each ride's line, headsign, stops and times, the walk between the platforms.
    @Test func planFitsEightyColumns() throws {
        let plan = try ModelTests.decode(Plan.self, ModelTests.capture("plan.json")).data
        let journey = try #require(plan.journeys.first)
        #expect(journey.transfers == 1 && journey.legs.filter { !$0.isWalk }.count == 2)
        let lines = ListRenderer(mode: .none).plan(plan)
        for line in lines { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
        #expect(lines.first == "1. 20:08 → 21:30  82 min, 1 change", "\(lines)")
        #expect(lines.contains { $0.contains("T1") && $0.contains("Hornsby") && $0.contains("Blacktown Station") })
        #expect(lines.contains { $0.contains("21:30") && $0.contains("→ Wolli Creek Station") })
        #expect(lines.contains { $0.hasSuffix("walk 12 m, 1 min to Town Hall Station, Platform 1") }, "\(lines)")
        #expect(!lines.contains { $0.contains("now Plat") })
        // The same answer with the first ride moved to platform 4 live: said after the stop's shortened name.
        var moved = plan
        moved.journeys[0].legs[0].board?.platform = "4"
        moved.journeys[0].legs[0].board?.platformChanged = true
        let movedLines = ListRenderer(mode: .none).plan(moved)
        for line in movedLines { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
        #expect(movedLines.contains { $0.contains("Blacktown Station, Plat…, now Plat 4") }, "\(movedLines)")
        // A ride on an added trip has no delay badge: its status in words, as a board says it.
        var added = plan
        added.journeys[0].legs[0].board?.delayBadge = nil
        added.journeys[0].legs[0].board?.status = "added"
        let addedLines = ListRenderer(mode: .none).plan(added)
        for line in addedLines { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
        #expect(addedLines.contains { $0.contains("Blacktown Station") && $0.contains("Extra") }, "\(addedLines)")
        let empty = try ModelTests.decode(
            Plan.self, Data(#"{"data":{"journeys":[],"reason":"nothing connects within 24 h"},"meta":{}}"#.utf8))
        #expect(ListRenderer(mode: .none).plan(empty.data) == ["No journey: nothing connects within 24 h"])
    }

    /// `transit plan --watch`: each change of a plan event in a line (numbers as the rider reads them, the ride
    /// counted among rides, its route named; seconds when the minutes did not move), within 80 columns.
    @Test func planChangesSayWhatMoved() throws {
        let plan = try ModelTests.decode(Plan.self, ModelTests.capture("plan.json")).data
        let rides = plan.journeys[0].legs.enumerated().filter { !$0.element.isWalk }.map(\.offset)
        let second = try #require(rides.last)
        let departure = try #require(plan.journeys[0].legs[second].departureUnix)
        let arrival = try #require(plan.journeys[0].legs[second].arrivalUnix)
        let route = try #require(plan.journeys[0].legs[second].board?.routeShortName)
        let lines = ListRenderer(mode: .none).planChanges(
            [
                .times(
                    journey: 0, leg: second, tripId: "X", departureUnix: departure + 120, arrivalUnix: arrival + 120,
                    previousDepartureUnix: departure, previousArrivalUnix: arrival),
                .times(
                    journey: 0, leg: second, tripId: "X", departureUnix: departure + 30, arrivalUnix: arrival + 30,
                    previousDepartureUnix: departure, previousArrivalUnix: arrival),
                .broken(
                    previousJourney: 1,
                    reason: "ride 2: the change to trip U1 broke (-180 s between the rides live, 60 s needed)"),
                .replaced(previousJourney: 0), .new(journey: 0), .other("rerouted"),
            ], in: plan)
        let clock = DepartureClock(timeZone: plan.timezone)
        #expect(
            lines.first
                == "Journey 1, ride 2 (\(route)): now \(clock.time(departure + 120)) → \(clock.time(arrival + 120)), "
                + "was \(clock.time(departure)) → \(clock.time(arrival))")
        #expect(lines[1].contains("now \(clock.timeWithSeconds(departure + 30))"), "\(lines)")
        #expect(lines.contains("Journey 2 of the last list is no longer possible: ride 2: the change to trip U1"))
        #expect(lines.contains("  broke (-180 s between the rides live, 60 s needed)"), "a long reason wraps")
        #expect(lines.contains("Journey 1 of the last list is no longer among the best"))
        #expect(lines.contains("Journey 1 is new") && lines.contains("A change this client does not know (rerouted)"))
        for line in lines { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
    }

    /// The planner's and the gateway's long reasons and a broken change in `live_dropped` (GATEWAY.md's example)
    /// wrap at spaces within 80 columns, every word kept.
    @Test(arguments: [
        "the time is outside the timetable's service dates (20261130 to 20261203)",
        "the live state made every journey found impossible: ride 2: the change to trip U1 broke (-180 s between "
            + "the rides live, 60 s needed); ride 1: trip 2034-T1-sj2-22.1451.128.104.T.8.88432115 is cancelled",
    ])
    func planWrapsLongTextWithinEightyColumns(reason: String) throws {
        let broken = "ride 2: the change to trip U1 broke (-180 s between the rides live, 60 s needed)"
        let json = try JSONSerialization.data(withJSONObject: [
            "data": ["journeys": [], "reason": reason, "live_dropped": [broken, broken]], "meta": [:],
        ])
        let lines = ListRenderer(mode: .none).plan(try ModelTests.decode(Plan.self, json).data)
        for line in lines { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
        let noJourney = lines.prefix { !$0.hasPrefix("Not offered") }
        let notOffered = lines.drop { !$0.hasPrefix("Not offered") }
        func joined(_ lines: some Sequence<String>) -> String {
            lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        }
        #expect(joined(noJourney) == "No journey: " + reason)
        #expect(joined(notOffered) == "Not offered (live data): \(broken); \(broken)")
        #expect(noJourney.count > 1 && notOffered.count > 1)
    }
}
