import Foundation
import GTFSRealtime
import Testing
import TransitTesting

/// Typical delays end to end (protocol/README.md flow 6), on a replayed sequence driven by the service clock:
/// five trips of one route leave S1 one to five minutes late on Wednesday 12 March 2025 (Sydney); a replay
/// folder holds one trip-update snapshot per simulated minute in which the producer drops each stop once its
/// predicted time has passed, as real producers do, then an empty one. `transit-realtime` records the
/// departures in its delay store with the clock running 120 times real speed; the gateway's `reliability`
/// answers them and Thursday's board at S1 shows the typical delay and the band instead of a bare schedule.
@Suite(.enabled(if: BuiltExecutables.path("transit-realtime") != nil, "build the executables first (swift build)"))
struct TypicalDelayReplayEndToEndTests {
    static let start = "2025-03-12T07:59:00+11:00"
    static let startUnix: Int64 = 1_741_726_740
    /// Scheduled departures at S1, S2, S3 of trip i (1…5): 08:00 + 2 (i − 1) min, then 10 and 20 min later.
    static func scheduled(trip i: Int, stop: Int) -> Int { 8 * 3600 + (i - 1) * 120 + stop * 600 }

    static func writeStaticFeed(to folder: String) throws {
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        var trips = "route_id,service_id,trip_id,trip_headsign\n"
        for i in 1...5 {
            trips += "R1,WK,T\(i),Third Street\n"
            for stop in 0..<3 {
                let secs = scheduled(trip: i, stop: stop)
                let time = String(format: "%02d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60)
                stopTimes += "T\(i),\(time),\(time),S\(stop + 1),\(stop + 1)\n"
            }
        }
        let files = [
            "agency.txt":
                "agency_id,agency_name,agency_url,agency_timezone\nA1,Replay Buses,https://example.org,Australia/Sydney\n",
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            S1,First Street,-33.8700,151.2000
            S2,Second Street,-33.8710,151.2010
            S3,Third Street,-33.8720,151.2020

            """,
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A1,101,Replay Line,3\n",
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

    /// Snapshot k (1…40) is the producer's view at 07:59 + (k − 1) min: trip i runs i minutes late and lists
    /// only its stops still ahead. Snapshot 41 is empty: the trips have finished.
    static func writeReplay(to folder: String) throws {
        let serviceDay: Int64 = 1_741_698_000  // 2025-03-12 00:00 AEDT (noon − 12 h)
        for k in 1...41 {
            let now = startUnix + Int64(k - 1) * 60
            var entities: [FeedEntity] = []
            for i in 1...5 where k <= 40 {
                let updates = (0..<3).compactMap { stop -> StopTimeUpdate? in
                    let predicted = serviceDay + Int64(scheduled(trip: i, stop: stop) + 60 * i)
                    guard predicted >= now else { return nil }
                    return StopTimeUpdate(stopId: "S\(stop + 1)", departure: StopTimeEvent(delay: Int32(60 * i)))
                }
                if updates.isEmpty { continue }
                entities.append(
                    FeedEntity(
                        id: "tu-\(i)",
                        tripUpdate: TripUpdate(
                            trip: TripDescriptor(tripId: "T\(i)", routeId: "R1", startDate: "20250312"),
                            stopTimeUpdates: updates, timestamp: UInt64(now))))
            }
            let feed = FeedMessage(
                header: FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: UInt64(now)),
                entities: entities)
            let snapshot = folder + String(format: "/%04d", k)
            try FileManager.default.createDirectory(atPath: snapshot, withIntermediateDirectories: true)
            try Data(GTFSRealtimeCodec.encode(feed)).write(to: URL(fileURLWithPath: snapshot + "/TripUpdates.pb"))
        }
    }

    private func ask(_ line: String, port: Int) async throws -> JSONLine {
        let client = try LineClient(port: port)
        try client.send(line + "\n")
        client.shutdownWrite()
        return try JSONLine(try #require(try await client.readUntilClosed().first))
    }

    @Test func replayedDeparturesBecomeTypicalDelaysAndReliability() async throws {
        let folder = SampleDatabase.folder.path("typical-delay-\(UUID().uuidString.prefix(8))")
        try Self.writeStaticFeed(to: folder + "/gtfs")
        try Self.writeReplay(to: folder + "/replay")
        let db = folder + "/static.db"
        let importer = try ChildProcess(
            BuiltExecutables.path("transit-static")!, ["import", folder + "/gtfs", "--db", db, "--clock", Self.start])
        #expect(try await importer.waitForExit(timeout: .seconds(60)) == 0, "\(importer.stderr)")

        let origin = String(format: "%.3f", Date().timeIntervalSince1970)
        let clock = ["--clock", Self.start, "--clock-rate", "120", "--clock-origin", origin]
        try Data(#"{"sources": [{"name": "tu", "replay": "replay", "pace_s": 0.5, "loop": false}]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/realtime.json"))
        let services = try await ServiceTrio.started(
            db: db, realtimeConfig: folder + "/realtime.json", clock: clock,
            realtimeArguments: ["--delay-store", folder + "/delays.db"], urlPrefix: "td")
        defer { services.kill() }
        let port = services.port

        // Each trip's departure from S1 is recorded once its predicted time has passed on the service clock.
        var reliability: JSONLine?
        for _ in 0..<150 {
            let answer = try await ask(#"{"id":1,"op":"reliability","stop_id":"S1","hour":8}"#, port: port)
            reliability = answer
            if answer.data["samples"] as? Int == 5 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let stop = try #require(reliability)
        #expect(stop.data["samples"] as? Int == 5, "\(stop.text)")
        // 60, 120, 180, 240, 300 s: on time up to +299 s, one late.
        #expect(stop.data["on_time_share"] as? Double == 0.8, "\(stop.text)")
        #expect(stop.data["late_share"] as? Double == 0.2, "\(stop.text)")
        #expect(stop.data["p50_s"] as? Int == 210, "\(stop.text)")
        #expect(stop.data["last_date"] as? String == "20250312", "\(stop.text)")
        #expect((stop.data["buckets"] as? [[String: Any]])?.count == 5, "\(stop.text)")

        // Thursday's board at S1 before 08:00: no live prediction, so each row shows the typical delay
        // of route R1 at S1 at 8 o'clock on weekdays and the band it will likely leave in.
        let thursday0800: Int64 = 1_741_813_200
        let board = try await ask(
            #"{"id":2,"op":"departures","stop_id":"S1","at":\#(thursday0800 - 300),"limit":2}"#, port: port)
        let row = try #require(board.list("departures").first, "\(board.text)")
        #expect(row["realtime_unix"] is NSNull, "\(board.text)")
        let typical = try #require(row["typical_delay"] as? [String: Any], "\(board.text)")
        #expect(typical["p50_s"] as? Int == 210)
        #expect(typical["p90_s"] as? Int == 330)
        #expect(typical["samples"] as? Int == 5)
        #expect(typical["level"] as? String == "stop")
        let band = try #require(typical["expected_band"] as? [String: Any], "\(board.text)")
        #expect(band["earliest_unix"] as? Int == Int(thursday0800) + 90)
        #expect(band["latest_unix"] as? Int == Int(thursday0800) + 330)

        // The route over all its stops counts at least S1's five (S2's and S3's as the clock passes them).
        let route = try await ask(#"{"id":3,"op":"reliability","route_id":"R1","day_type":"weekday"}"#, port: port)
        #expect((route.data["samples"] as? Int ?? 0) >= 5, "\(route.text)")
        let bad = try await ask(#"{"id":4,"op":"reliability","hour":8}"#, port: port)
        #expect(bad.errorCode == "INVALID_ARGUMENT", "\(bad.text)")

        for child in services.all {
            child.signal(SIGTERM)
            #expect(try await child.waitForExit(timeout: .seconds(10)) == 0)
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/delays.db"))
    }
}
