import Foundation
import GTFSRealtime
import Testing
import TransitModel
import TransitTesting

/// `plan` through the real executables (static service with its planner following the realtime trip updates,
/// realtime service, gateway) on one service clock: a journey with one change, the errors of the op, live data
/// searched by the planner itself (a delay breaking the change and the later connection found instead; a journey
/// that exists only because its second trip is late; a cancelled trip left out of the search; the schedule with
/// `realtime: false`; `realtime_stale` while the publisher is silent), and a new database whose timetable
/// replaces the old one without a pause in answers.
@Suite(.enabled(if: BuiltExecutables.path("transit-realtime") != nil, "build the executables first (swift build)"))
struct PlanEndToEndTests {
    /// 2025-03-12 07:55:00 in Sydney (AEDT, +11:00).
    static let clockTime = "2025-03-12T07:55:00+11:00"
    static let clockUnix: Int64 = 1_741_726_500

    /// A → B on T1 (08:00–08:10), B → C on U1 (08:15–08:25) or U2 (08:30–08:40); with `direct`, also V1 from A
    /// straight to C (08:00–08:20). Valid 10–16 March 2025.
    static func writeFeed(to folder: String, direct: Bool) throws {
        var trips = "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Bee\nR2,WK,U1,Sea\nR2,WK,U2,Sea\n"
        var stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,A,1
            T1,08:10:00,08:10:00,B,2
            U1,08:15:00,08:15:00,B,1
            U1,08:25:00,08:25:00,C,2
            U2,08:30:00,08:30:00,B,1
            U2,08:40:00,08:40:00,C,2

            """
        if direct {
            trips += "R3,WK,V1,Sea direct\n"
            stopTimes += "V1,08:00:00,08:00:00,A,1\nV1,08:20:00,08:20:00,C,2\n"
        }
        let files = [
            "agency.txt":
                "agency_id,agency_name,agency_url,agency_timezone\nA1,Plan Buses,https://example.org,Australia/Sydney\n",
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            A,Alpha,-33.8700,151.2000
            B,Bravo,-33.8800,151.2100
            C,Charlie,-33.8900,151.2200

            """,
            "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            R1,A1,101,First Line,3
            R2,A1,202,Second Line,3
            R3,A1,303,Direct Line,3

            """,
            "trips.txt": trips,
            "stop_times.txt": stopTimes,
            "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,1,1,20250310,20250316

            """,
        ]
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
    }

    /// The trip updates feed the realtime service polls: `entities` replace the previous ones.
    static func writeTripUpdates(_ entities: [FeedEntity], to path: String) throws {
        let header = FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: UInt64(clockUnix))
        try Data(GTFSRealtimeCodec.encode(FeedMessage(header: header, entities: entities)))
            .write(to: URL(fileURLWithPath: path + ".tmp"))
        // Renamed into place: the poller reads the old file or the new one, never half of one.
        #expect(rename(path + ".tmp", path) == 0)
    }

    static func delayed(_ tripId: String, at stopId: String, by seconds: Int32) -> FeedEntity {
        FeedEntity(
            id: "tu-\(tripId)",
            tripUpdate: TripUpdate(
                trip: TripDescriptor(tripId: tripId, startDate: "20250312"),
                stopTimeUpdates: [
                    StopTimeUpdate(
                        stopId: stopId, arrival: StopTimeEvent(delay: seconds), departure: StopTimeEvent(delay: seconds)
                    )
                ],
                timestamp: UInt64(clockUnix)))
    }

    static func cancelled(_ tripId: String) -> FeedEntity {
        FeedEntity(
            id: "tu-\(tripId)",
            tripUpdate: TripUpdate(
                trip: TripDescriptor(tripId: tripId, startDate: "20250312", scheduleRelationship: .canceled),
                stopTimeUpdates: [], timestamp: UInt64(clockUnix)))
    }

    private func run(_ name: String, _ arguments: [String]) async throws {
        let child = try ChildProcess(BuiltExecutables.path(name)!, arguments)
        #expect(try await child.waitForExit(timeout: .seconds(60)) == 0, "\(name) \(arguments): \(child.stderr)")
    }

    private func ask(_ line: String, port: Int) async throws -> JSONLine {
        let client = try LineClient(port: port)
        try client.send(line + "\n")
        client.shutdownWrite()
        return try JSONLine(try #require(try await client.readUntilClosed(timeout: .seconds(30)).first))
    }

    static let planAtoC = #"{"id":1,"op":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"at":1741726500}"#
    static let planAtoCScheduled =
        #"{"id":1,"op":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"at":1741726500,"realtime":false}"#

    /// Asks `plan` A → C until `done` holds for its answer (every answer must be ok), at most 20 s.
    private func planUntil(
        port: Int, _ what: String, line: String = planAtoC, _ done: (JSONLine) -> Bool
    ) async throws -> JSONLine {
        var last: JSONLine?
        for _ in 0..<200 {
            let answer = try await ask(line, port: port)
            #expect(answer.ok, "plan failed: \(answer.text)")
            last = answer
            if done(answer) { return answer }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("\(what): never came; last answer \(last?.text ?? "none")")
        return try #require(last)
    }

    /// Reads `plan` events of a subscription until `done` holds for the changes seen so far and the last event,
    /// at most 20 s.
    private func events(
        _ client: LineClient, _ what: String, until done: ([[String: Any]], JSONLine) -> Bool
    ) async throws -> ([[String: Any]], JSONLine) {
        var changes: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(20)
        var last: JSONLine?
        while ContinuousClock.now < deadline {
            guard let line = try? await client.readLine(timeout: .seconds(2)) else { continue }
            let event = try JSONLine(line)
            guard event.event == "plan" else { continue }
            changes += event.object["changes"] as? [[String: Any]] ?? []
            last = event
            if done(changes, event) { return (changes, event) }
        }
        Issue.record("\(what): never came; changes \(changes), last event \(last?.text ?? "none")")
        return (changes, try #require(last))
    }

    private static func dropped(_ answer: JSONLine) -> [String] { answer.data["live_dropped"] as? [String] ?? [] }

    private static func tripIds(_ journey: [String: Any]) -> [String] {
        (journey["legs"] as? [[String: Any]] ?? []).compactMap {
            ($0["board"] as? [String: Any])?["trip_id"] as? String
        }
    }

    @Test func plansAChangeThenLiveDataBreaksItThenANewDatabaseIsPlannedOn() async throws {
        let folder = SampleDatabase.folder.path("plan-e2e-\(UUID().uuidString.prefix(8))")
        try Self.writeFeed(to: folder + "/gtfs", direct: false)
        try FileManager.default.createDirectory(atPath: folder + "/rt", withIntermediateDirectories: true)
        let tripUpdates = folder + "/rt/TripUpdates.pb"
        try Self.writeTripUpdates([], to: tripUpdates)
        let db = folder + "/static.db"
        try await run("transit-static", ["import", folder + "/gtfs", "--db", db, "--clock", Self.clockTime])

        let origin = String(format: "%.3f", Date().timeIntervalSince1970)
        let clock = ["--clock", Self.clockTime, "--clock-origin", origin]
        try Data(
            #"{"sources": [{"name": "TripUpdates", "kind": "auto", "url": "file://\#(tripUpdates)", "poll_interval_s": 1}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: folder + "/realtime.json"))
        // The planner counts the publisher silent after 5 s (heartbeats come every 2 s), not 15: the test pauses it.
        let services = try await ServiceTrio.started(
            db: db, realtimeConfig: folder + "/realtime.json", clock: clock,
            staticArguments: ["--realtime-silence", "5"], urlPrefix: "pl")
        defer { services.kill() }
        let port = services.port

        // On schedule: T1 then U1, one change at B, arriving 08:25.
        let first = try await planUntil(port: port, "the journey T1 → U1 on the live timetable") {
            $0.list("journeys").count == 1 && $0.data["realtime_stale"] as? Bool == false
        }
        let journey = try #require(first.list("journeys").first)
        #expect(Self.tripIds(journey) == ["T1", "U1"], "\(first.text)")
        #expect(journey["transfers"] as? Int == 1)
        #expect(journey["departure_unix"] as? Int == 1_741_726_800)  // 08:00
        #expect(journey["arrival_unix"] as? Int == 1_741_728_300)  // 08:25
        let legs = journey["legs"] as? [[String: Any]] ?? []
        let board = try #require(legs.first?["board"] as? [String: Any])
        #expect(board["route_short_name"] as? String == "101")
        #expect(board["headsign"] as? String == "Bee")
        #expect(board["stop_id"] as? String == "A")
        #expect((legs.first?["alight"] as? [String: Any])?["stop_id"] as? String == "B")
        #expect(legs.first?["polyline"] is String)

        // A subscription to the plan: the ack, then the first event with the journey and no changes.
        let subscriber = try LineClient(port: port)
        try subscriber.send(
            #"{"id":7,"op":"subscribe","topic":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"at":1741726500}"#
                + "\n")
        let ack = try JSONLine(try await subscriber.readLine(timeout: .seconds(10)))
        #expect(ack.ok && ack.data["sub"] as? Int == 1 && ack.data["topic"] as? String == "plan", "\(ack.text)")
        let firstEvent = try JSONLine(try await subscriber.readLine(timeout: .seconds(10)))
        #expect(firstEvent.event == "plan" && (firstEvent.object["changes"] as? [Any])?.isEmpty == true)
        #expect(firstEvent.list("journeys").map(Self.tripIds) == [["T1", "U1"]], "\(firstEvent.text)")

        // The errors of the op, each naming what is wrong; the connection's next request is answered.
        let unknown = try await ask(#"{"id":2,"op":"plan","from":{"stop_id":"ZZ"},"to":{"stop_id":"C"}}"#, port: port)
        #expect(unknown.errorCode == "NOT_FOUND" && unknown.errorMessage?.contains("ZZ") == true, "\(unknown.text)")
        let same = try await ask(#"{"id":3,"op":"plan","from":{"stop_id":"A"},"to":{"stop_id":"A"}}"#, port: port)
        #expect(same.errorCode == "INVALID_ARGUMENT", "\(same.text)")
        let range = try await ask(
            #"{"id":4,"op":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"max_transfers":9}"#, port: port)
        #expect(
            range.errorCode == "INVALID_ARGUMENT" && range.errorMessage?.contains("0 to 8") == true, "\(range.text)")
        let sea = try await ask(#"{"id":5,"op":"plan","from":{"lat":0,"lon":0},"to":{"stop_id":"C"}}"#, port: port)
        #expect(sea.errorCode == "INVALID_ARGUMENT" && sea.errorMessage?.contains("outside") == true, "\(sea.text)")
        let later = try await ask(
            #"{"id":6,"op":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"at":1800000000}"#, port: port)
        #expect(later.ok && later.list("journeys").isEmpty && later.data["reason"] is String, "\(later.text)")

        // A range pages by its cursor (B → C: U1 at 08:15, then U2 at 08:30); arrive_by searches backwards.
        let page1 = try await ask(
            #"{"id":8,"op":"plan","from":{"stop_id":"B"},"to":{"stop_id":"C"},"at":1741726500,"window_s":3600,"limit":1}"#,
            port: port)
        #expect(page1.list("journeys").map(Self.tripIds) == [["U1"]], "\(page1.text)")
        let cursor = try #require(page1.data["later_cursor"] as? String, "\(page1.text)")
        let page2 = try await ask(
            #"{"id":9,"op":"plan","from":{"stop_id":"B"},"to":{"stop_id":"C"},"cursor":"\#(cursor)","limit":1}"#,
            port: port)
        #expect(page2.list("journeys").map(Self.tripIds) == [["U2"]], "\(page2.text)")
        #expect(page2.data["later_cursor"] is NSNull, "\(page2.text)")
        let arriving = try await ask(
            #"{"id":10,"op":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"arrive_by":1741728600}"#, port: port)
        #expect(arriving.list("journeys").map(Self.tripIds) == [["T1", "U1"]], "\(arriving.text)")
        // 16 March, the feed's last day, is beyond the planner's window (11 to 14 March): planned on its own dates
        // (the first asks may be told to try again while they are built).
        var sunday: JSONLine?
        for _ in 0..<50 {
            let answer = try await ask(
                #"{"id":11,"op":"plan","from":{"stop_id":"A"},"to":{"stop_id":"C"},"at":1742072100}"#, port: port)
            if answer.ok {
                sunday = answer
                break
            }
            #expect(answer.errorCode == "STATIC_UNAVAILABLE", "\(answer.text)")
            try await Task.sleep(for: .milliseconds(100))
        }
        let sundayJourney = try #require(sunday?.list("journeys").first, "\(sunday?.text ?? "no answer")")
        #expect(Self.tripIds(sundayJourney) == ["T1", "U1"])
        #expect(sundayJourney["departure_unix"] as? Int == 1_741_726_800 + 4 * 86_400)
        #expect(sunday?.data["realtime_stale"] as? Bool == false, "no live trips on those dates to miss")

        // The planner follows the live trips: an answer on the live timetable says realtime_stale false, and its
        // meta names the publisher's epoch.
        #expect(first.data["realtime_stale"] as? Bool == false, "\(first.text)")
        #expect(first.meta["epoch"] is Int, "meta.epoch of plan: \(first.text)")

        // T1 8 minutes late at B (08:18): the change to U1 (08:15) is broken, and the planner finds the later
        // connection itself: T1 then U2, arriving 08:40, nothing dropped by the gateway's check.
        try Self.writeTripUpdates([Self.delayed("T1", at: "B", by: 480)], to: tripUpdates)
        let late = try await planUntil(port: port, "T1 → U2 replacing the broken change") {
            $0.list("journeys").contains { Self.tripIds($0) == ["T1", "U2"] }
        }
        let replacement = try #require(late.list("journeys").first)
        #expect(late.list("journeys").count == 1 && Self.tripIds(replacement) == ["T1", "U2"], "\(late.text)")
        #expect(replacement["arrival_unix"] as? Int == 1_741_729_200, "\(late.text)")  // 08:40
        #expect(Self.dropped(late).isEmpty && late.data["realtime_stale"] as? Bool == false, "\(late.text)")
        #expect(late.meta["source"] as? String == "static+rt")
        // The subscription's event says which change broke and brings the new journey.
        let (lateChanges, lateEvent) = try await events(subscriber, "the broken change and its replacement") {
            changes, event in
            changes.contains { $0["type"] as? String == "broken" }
                && event.list("journeys").contains { Self.tripIds($0) == ["T1", "U2"] }
        }
        let broken = try #require(lateChanges.first { $0["type"] as? String == "broken" })
        #expect(broken["previous_journey"] as? Int == 0, "\(lateChanges)")
        #expect((broken["reason"] as? String)?.contains("change to trip U1 broke") == true, "\(lateChanges)")
        #expect(lateChanges.contains { $0["type"] as? String == "new" && $0["journey"] as? Int == 0 })
        #expect(lateEvent.meta["op"] as? String == "plan")

        // U1 5 minutes late as well (B 08:20, C 08:30): T1 (at B 08:18) makes it again: a journey that exists
        // only because of the delay, at the predicted times.
        try Self.writeTripUpdates(
            [Self.delayed("T1", at: "B", by: 480), Self.delayed("U1", at: "B", by: 300)], to: tripUpdates)
        let both = try await planUntil(port: port, "T1 → U1 on the late U1") {
            $0.list("journeys").contains { Self.tripIds($0) == ["T1", "U1"] }
        }
        let onLateU1 = try #require(both.list("journeys").first { Self.tripIds($0) == ["T1", "U1"] })
        #expect(onLateU1["arrival_unix"] as? Int == 1_741_728_600, "\(both.text)")  // 08:30
        let secondRide = try #require((onLateU1["legs"] as? [[String: Any]])?.last)
        #expect(secondRide["departure_unix"] as? Int == 1_741_728_000 && secondRide["live"] as? Bool == true)
        #expect(Self.dropped(both).isEmpty, "\(both.text)")
        // (The subscription is not asked again: the update names U1, which none of its journeys rides.)

        // U1 cancelled, T1 on time: the planner leaves U1 out of the search and offers T1 then U2 (before the
        // overlay the Pareto set had only T1 → U1, which the gateway then dropped).
        try Self.writeTripUpdates([Self.cancelled("U1")], to: tripUpdates)
        let cancelled = try await planUntil(port: port, "T1 → U2 with U1 cancelled") {
            $0.list("journeys").contains { Self.tripIds($0) == ["T1", "U2"] } && Self.dropped($0).isEmpty
        }
        #expect(cancelled.list("journeys").allSatisfy { !Self.tripIds($0).contains("U1") }, "\(cancelled.text)")
        // The update names T1 (back on time): the subscription's journey T1 → U2 keeps its rides, and the event
        // says T1's times changed (arriving at B 08:10, not 08:18).
        let (timesChanges, _) = try await events(subscriber, "T1's times back on schedule") { changes, _ in
            changes.contains { $0["type"] as? String == "times" }
        }
        let times = try #require(timesChanges.first { $0["type"] as? String == "times" })
        #expect(times["trip_id"] as? String == "T1" && times["journey"] as? Int == 0 && times["leg"] as? Int == 0)
        #expect(
            times["arrival_unix"] as? Int == 1_741_727_400 && times["previous_arrival_unix"] as? Int == 1_741_727_880,
            "\(timesChanges)")

        // realtime false: the schedule, T1 then U1, no live check.
        let scheduled = try await ask(Self.planAtoCScheduled, port: port)
        #expect(
            scheduled.list("journeys").map(Self.tripIds) == [["T1", "U1"]]
                && scheduled.data["realtime_stale"] as? Bool == false, "\(scheduled.text)")

        // The publisher paused past the planner's silence limit: plans use the schedule and say so (the
        // gateway's own view, 15 s, still drops the cancelled ride); heard again: live plans again.
        services.realtime.signal(SIGSTOP)
        let stale = try await planUntil(port: port, "realtime_stale while the publisher is paused") {
            $0.data["realtime_stale"] as? Bool == true
        }
        services.realtime.signal(SIGCONT)
        #expect(Self.dropped(stale).joined().contains("cancelled"), "\(stale.text)")
        _ = try await planUntil(port: port, "live plans again once the publisher is heard") {
            $0.data["realtime_stale"] as? Bool == false
                && $0.list("journeys").contains { Self.tripIds($0) == ["T1", "U2"] }
        }

        // A new database with a direct trip: its timetable is built and swapped in while plans keep being
        // answered (planUntil requires every answer ok), and the direct trip is planned on.
        try Self.writeTripUpdates([], to: tripUpdates)
        try Self.writeFeed(to: folder + "/gtfs", direct: true)
        try await run("transit-static", ["import", folder + "/gtfs", "--db", db, "--clock", Self.clockTime])
        services.staticService.signal(SIGHUP)
        let direct = try await planUntil(port: port, "the direct trip of the new database") {
            $0.list("journeys").contains { Self.tripIds($0) == ["V1"] }
        }
        let v1 = try #require(direct.list("journeys").first { Self.tripIds($0) == ["V1"] })
        #expect(v1["transfers"] as? Int == 0 && v1["arrival_unix"] as? Int == 1_741_728_000, "\(direct.text)")
    }
}
