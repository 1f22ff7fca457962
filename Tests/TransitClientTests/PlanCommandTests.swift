import ArgumentParser
import Foundation
import Synchronization
import Testing
import TransitClient
import TransitPresentation
import TransitTesting

@testable import transit

/// `transit plan FROM TO`: negative coordinates are places, not options, one time is given at most, times are
/// read as a rider writes them, and stops may be named.
@Suite struct PlanCommandTests {
    static func parse(_ arguments: [String]) throws -> PlanCommand {
        let command = try Transit.parseAsRoot(Transit.negativeNumbersAsValues(arguments))
        return try #require(command as? PlanCommand)
    }

    @Test func negativeCoordinatesArePlaces() throws {
        #expect(
            Transit.negativeNumbersAsValues(["plan", "-33.87,151.2", "200060", "--at", "1766394000"])
                == ["plan", "--at", "1766394000", "--", "-33.87,151.2", "200060"])
        let south = try Self.parse(["plan", "-33.87,151.2", "200060", "--at", "1766394000"])
        #expect(PlanCommand.coordinate(south.from) == .coordinate(lat: -33.87, lon: 151.2))
        #expect(PlanCommand.coordinate(south.to) == nil)
        #expect(south.at == "1766394000" && south.arriveBy == nil)
        let both = try Self.parse(["plan", "200060", "--plain", "-33.9,-151.1", "--arrive-by", "08:30"])
        #expect(PlanCommand.coordinate(both.from) == nil)
        #expect(PlanCommand.coordinate(both.to) == .coordinate(lat: -33.9, lon: -151.1))
        #expect(both.arriveBy == "08:30" && both.at == nil && both.options.plain)
    }

    /// Refusals as the gateway words them (GATEWAY.md `plan`: a far timetable being built; the static service down).
    static let building = TransitClientError.server(
        code: .staticUnavailable,
        message: "static service unavailable: the planner is building the timetable of 20261214 to 20261215 for this "
            + "time (it holds 20261130 to 20261203 ready); try again in a few seconds")
    static let down = TransitClientError.server(
        code: .staticUnavailable, message: "the static service is unreachable since 2026-12-03T14:00:00Z")

    @Test func aPlanOnOtherDatesWaitsWhileTheirTimetableIsBuilt() async throws {
        let tries = Mutex(0), told = Mutex(0)
        let answer = try await PlanCommand.waitingForTimetable(pause: .milliseconds(1)) {
            told.withLock { $0 += 1 }
        } plan: {
            let n = tries.withLock { n in
                n += 1
                return n
            }
            if n < 3 { throw Self.building }
            return "journeys"
        }
        #expect(answer == "journeys")
        #expect(tries.withLock { $0 } == 3)
        #expect(told.withLock { $0 } == 1, "the rider is told once")
    }

    @Test func otherRefusalsAndALongBuildAreNotWaitedFor() async {
        let tries = Mutex(0)
        do {
            _ = try await PlanCommand.waitingForTimetable(pause: .milliseconds(1)) {
            } plan: { () throws -> String in
                tries.withLock { $0 += 1 }
                throw Self.down
            }
            Issue.record("answered")
        } catch {
            #expect("\(error)" == "\(Self.down)")
        }
        #expect(tries.withLock { $0 } == 1, "the static service down is said at once")
        // A build longer than the patience: the refusal itself.
        do {
            _ = try await PlanCommand.waitingForTimetable(patience: .milliseconds(50), pause: .milliseconds(10)) {
            } plan: { () throws -> String in
                throw Self.building
            }
            Issue.record("answered")
        } catch {
            #expect("\(error)" == "\(Self.building)")
        }
    }

    @Test func atWithArriveByIsAUsageError() {
        do {
            _ = try Self.parse(["plan", "-33.87,151.2", "200060", "--at", "09:00", "--arrive-by", "10:00"])
            Issue.record("--at with --arrive-by was accepted")
        } catch {
            #expect(Transit.exitCode(for: error) == .validationFailure)
            #expect(Transit.message(for: error).contains("--at or --arrive-by, not both"), "\(error)")
        }
    }

    static let sydney = TimeZone(identifier: "Australia/Sydney")!
    /// 2025-12-22 20:00 in Sydney (AEDT, +11:00).
    static let evening: Int64 = 1_766_394_000

    @Test func timesAreReadAsARiderWritesThem() throws {
        func unix(_ text: String) throws -> Int64 {
            try PlanTime(text, option: "--at").unix(on: (DepartureClock(Self.sydney), Self.evening))
        }
        #expect(try unix("1766394000") == Self.evening)
        #expect(try unix("09:05") == Self.evening - 10 * 3600 - 55 * 60)  // today, in the places' zone
        #expect(try unix("20:00:30") == Self.evening + 30)
        #expect(try unix("2025-12-23 07:15") == Self.evening + 11 * 3600 + 15 * 60)
        #expect(try unix("2025-12-23T07:15") == Self.evening + 11 * 3600 + 15 * 60)
        #expect(try unix("2025-12-22T20:00+11:00") == Self.evening)
        #expect(try unix("2025-12-22T09:00Z") == Self.evening)
        #expect(try unix("2025-12-22T04:00-0500") == Self.evening)
        // In July Sydney is on +10:00: the zone's rules, not today's offset.
        #expect(try unix("2026-07-01 08:00") == 1_782_856_800)
        #expect(try PlanTime("09:05", option: "--at").isLocal)
        #expect(try !PlanTime("2025-12-22T09:00Z", option: "--at").isLocal)
    }

    @Test(arguments: [
        "9", "930", "24:00", "09:60", "9:5:5:5", "tomorrow", "09:05+11:00", "2025-12-22", "2025-12-22X09:00",
        "2025-12-22T09:00+25:00", "2025-13-01 09:00", "2026-02-30 09:00", "2026-02-30T09:00Z",
    ])
    func aTimeThatIsNoneOfTheFormsIsAUsageError(text: String) {
        do {
            _ = try Self.parse(["plan", "200060", "2205", "--at", text])
            Issue.record("--at \(text) was accepted")
        } catch {
            #expect(Transit.exitCode(for: error) == .validationFailure)
            #expect(Transit.message(for: error).contains("--at expects HH:MM"), "\(error)")
        }
    }

    /// The executable against a stand-in gateway: FROM named, TO an id, `--at 09:05` taken in the stop's zone on
    /// the services' date (a departures board's `meta.at`, not the machine's clock).
    @Test(.enabled(if: BuiltExecutables.path("transit") != nil, "build the executables first (swift build)"))
    func aNamedStopAndALocalTimeBecomeTheOpsFields() async throws {
        let gateway = try await Self.standIn()
        defer { Task { await gateway.stop() } }
        let run = try Self.transit(["plan", "central station", "2205", "--at", "09:05", "--json"], port: gateway.port)
        #expect(run.status == 0, "\(run.output)")
        let plans = gateway.received.filter { $0.op == "plan" }.map(\.object)
        try #require(plans.count == 1, "\(gateway.received.map(\.line))")
        #expect(plans[0]["from"] as? [String: String] == ["stop_id": "200060"])
        #expect(plans[0]["to"] as? [String: String] == ["stop_id": "2205"])
        #expect(plans[0]["at"] as? Int == Int(Self.evening - 10 * 3600 - 55 * 60))

        // A name matching several stops lists them and exits 2, before any plan is asked.
        let several = try Self.transit(["plan", "Central", "2205"], port: gateway.port)
        #expect(several.status == 2, "\(several.output)")
        #expect(several.output.contains("\"Central\" matches 2 stops"), "\(several.output)")
        #expect(gateway.received.filter { $0.op == "plan" }.count == 1)
    }

    /// The options whose value follows them, so that a negative coordinate after a flag stays a place: read from the
    /// commands' help, every command's and the shared ones, and no flag among them.
    @Test func theOptionsTakingValuesAreEveryCommandsOwn() {
        let names = Transit.optionsTakingValues
        for name in ["--gateway", "--token-file", "--timeout", "--at", "--arrive-by", "--window", "--modes", "--limit"]
        {
            #expect(names.contains(name), "\(name)")
        }
        for flag in ["--plain", "--json", "--wheelchair", "--schedule", "--help"] { #expect(!names.contains(flag)) }
    }

    @Test func theOptionsBecomeTheOpsFields() throws {
        let command = try Self.parse([
            "plan", "200060", "2205", "--at", "1766394000", "--max-transfers", "2", "--window", "90", "--wheelchair",
            "--modes", "Train, bus", "--walk-speed", "0.8", "--walk-radius", "250", "--transfer-slack", "120",
            "--access-radius", "900", "--schedule",
        ])
        #expect(
            command.planFields == [
                "max_transfers": .int(2), "window_s": .int(5400), "limit": .int(20), "wheelchair": .bool(true),
                "modes": .array([.string("train"), .string("bus")]), "walk_speed_mps": .double(0.8),
                "walk_radius_m": .double(250), "transfer_slack_s": .int(120), "access_radius_m": .double(900),
                "realtime": .bool(false),
            ])
        #expect(try Self.parse(["plan", "200060", "2205"]).planFields == [:], "the op's defaults: nothing sent")
        for (arguments, message) in [
            (["--window", "0"], "--window expects minutes from 1 to 180; got 0"),
            (["--window", "181"], "--window expects minutes from 1 to 180; got 181"),
            (["--window", "30", "--arrive-by", "09:00"], "--window goes with --at, not with --arrive-by"),
        ] {
            do {
                _ = try Self.parse(["plan", "200060", "2205"] + arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(Transit.exitCode(for: error) == .validationFailure)
                #expect(Transit.message(for: error).contains(message), "\(error)")
            }
        }
    }

    /// A window's journeys on several pages: the executable follows `later_cursor` (sent as `cursor`, without `at`
    /// and `window_s`, GATEWAY.md `plan`) and prints the journeys of every page in one list.
    @Test(.enabled(if: BuiltExecutables.path("transit") != nil, "build the executables first (swift build)"))
    func aWindowsPagesAreFollowedAndListedTogether() async throws {
        let gateway = try await FakeGateway { request, peer in
            guard request.op == "plan", let data = try? ModelTests.capture("plan.json"),
                var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                var answer = object["data"] as? [String: Any]
            else { return peer.send(FakeGateway.error(request, code: "UNKNOWN_OP", message: request.op)) }
            object["id"] = request.id
            // The first page continues on a second; the second is the last.
            if request.object["cursor"] == nil { answer["later_cursor"] = "page2" }
            object["data"] = answer
            let line = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
            peer.send(String(decoding: line, as: UTF8.self))
        }
        defer { Task { await gateway.stop() } }
        let run = try Self.transit(
            ["plan", "-33.87,151.2", "-33.9,151.1", "--at", "1766394000", "--window", "60", "--plain"],
            port: gateway.port)
        #expect(run.status == 0, "\(run.output)")
        let plans = gateway.received.filter { $0.op == "plan" }.map(\.object)
        try #require(plans.count == 2, "\(gateway.received.map(\.line))")
        #expect(plans[0]["window_s"] as? Int == 3600 && plans[0]["at"] as? Int == 1_766_394_000)
        #expect(plans[1]["cursor"] as? String == "page2")
        #expect(plans[1]["window_s"] == nil && plans[1]["at"] == nil && plans[1]["limit"] as? Int == 20)
        let summaries = run.output.split(separator: "\n").filter { $0.hasPrefix("1. ") || $0.hasPrefix("2. ") }
        #expect(summaries.count == 2, "both pages' journeys, numbered on: \(run.output)")
    }

    /// `--watch` follows the plan subscription: the first event's journeys, then each change with the journeys
    /// then, a lost connection said; it ends when the gateway refuses the plan (here its second subscription).
    @Test(.enabled(if: BuiltExecutables.path("transit") != nil, "build the executables first (swift build)"))
    func watchPrintsEachChangeAsItComes() async throws {
        let subscribes = Mutex(0)
        let gateway = try await FakeGateway { request, peer in
            guard request.op == "subscribe", let data = try? ModelTests.capture("plan.json"),
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                let answer = object["data"], let meta = object["meta"],
                let body = try? JSONSerialization.data(withJSONObject: ["data": answer, "meta": meta])
            else { return peer.send(FakeGateway.error(request, code: "UNKNOWN_OP", message: request.op)) }
            let n = subscribes.withLock { n in
                n += 1
                return n
            }
            guard n == 1 else {
                return peer.send(FakeGateway.error(request, code: "NOT_FOUND", message: "to: no stop"))
            }
            peer.send(FakeGateway.ok(request, data: #"{"sub":1,"topic":"plan"}"#))
            let rest = String(decoding: body.dropFirst(), as: UTF8.self)  // "data":…,"meta":…}
            peer.send(#"{"event":"plan","sub":1,"changes":[],"# + rest)
            peer.send(#"{"event":"plan","sub":1,"changes":[{"type":"replaced","previous_journey":0}],"# + rest)
            peer.close()
        }
        defer { Task { await gateway.stop() } }
        let run = try Self.transit(
            ["plan", "-33.87,151.2", "-33.9,151.1", "--at", "1766394000", "--watch", "--plain"], port: gateway.port)
        #expect(run.status == 1, "ends with the refusal: \(run.output)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Following live (Ctrl-C quits); journeys from 20:00:", "\(run.output)")
        #expect(lines.filter { $0.hasPrefix("1. 20:08 → 21:30") }.count == 2, "\(run.output)")
        #expect(lines.contains("Changed:") && lines.contains("Journey 1 of the last list is no longer among the best"))
        #expect(lines.contains { $0.hasPrefix("Connection lost (") }, "\(run.output)")
        #expect(run.output.contains("NOT_FOUND") && run.output.contains("to: no stop"), "\(run.output)")
        let sent = gateway.received.filter { $0.op == "subscribe" }.map(\.object)
        #expect(
            sent.count == 2 && sent.allSatisfy { $0["topic"] as? String == "plan" && $0["at"] as? Int == 1_766_394_000 }
        )
    }

    /// `--watch` on dates whose timetable is being built: the refused subscription is asked again, as a plan is.
    @Test(.enabled(if: BuiltExecutables.path("transit") != nil, "build the executables first (swift build)"))
    func watchWaitsWhileTheTimetableOfItsDatesIsBuilt() async throws {
        let subscribes = Mutex(0)
        let gateway = try await FakeGateway { request, peer in
            let n = subscribes.withLock { n in
                n += 1
                return n
            }
            switch n {
            case 1:
                if case .server(_, let message) = Self.building {
                    peer.send(FakeGateway.error(request, code: "STATIC_UNAVAILABLE", message: message))
                }
            case 2:
                peer.send(FakeGateway.ok(request, data: #"{"sub":1,"topic":"plan"}"#))
                peer.send(
                    #"{"event":"plan","sub":1,"changes":[],"data":{"timezone":"Australia/Sydney","journeys":[],"#
                        + #""reason":"nothing connects within 24 h"},"meta":{"op":"plan","at":1766394000}}"#)
                peer.close()
            default:
                peer.send(FakeGateway.error(request, code: "NOT_FOUND", message: "to: no stop"))
            }
        }
        defer { Task { await gateway.stop() } }
        let run = try Self.transit(
            ["plan", "-33.87,151.2", "-33.9,151.1", "--at", "1766394000", "--watch", "--plain"], port: gateway.port)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("building the timetable of those dates; waiting"), "\(run.output)")
        #expect(run.output.contains("Following live (Ctrl-C quits); journeys from 20:00:"), "\(run.output)")
        #expect(run.output.contains("No journey: nothing connects within 24 h"), "\(run.output)")
        #expect(subscribes.withLock { $0 } == 3)
    }

    /// Answers `stop` for ids (the captured stop, renamed), NOT_FOUND for names; `search`, `departures` and `plan`
    /// with their captures.
    static func standIn() async throws -> FakeGateway {
        @Sendable func capture(_ name: String, id: Int, stopId: String? = nil) -> String {
            guard let data = try? ModelTests.capture(name),
                var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            else { return "" }
            object["id"] = id
            if let stopId, var answer = object["data"] as? [String: Any], var stop = answer["stop"] as? [String: Any] {
                stop["stop_id"] = stopId
                answer["stop"] = stop
                object["data"] = answer
            }
            let line = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
            return String(decoding: line, as: UTF8.self)
        }
        return try await FakeGateway { request, peer in
            switch request.op {
            case "stop":
                let id = request.object["stop_id"] as? String ?? ""
                peer.send(
                    id.allSatisfy(\.isNumber)
                        ? capture("stop.json", id: request.id, stopId: id)
                        : FakeGateway.error(request, code: "NOT_FOUND", message: "stop \(id)"))
            case "search", "departures", "plan": peer.send(capture("\(request.op).json", id: request.id))
            default: peer.send(FakeGateway.error(request, code: "UNKNOWN_OP", message: request.op))
            }
        }
    }

    /// Runs the built `transit` with `--gateway` at the port; its exit status and its output and errors.
    static func transit(_ arguments: [String], port: Int) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(BuiltExecutables.path("transit")))
        process.arguments = arguments + ["--gateway", "127.0.0.1:\(port)"]
        var environment = ProcessInfo.processInfo.environment
        environment["TRANSIT_GATEWAY"] = nil
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
