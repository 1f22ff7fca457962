import Foundation
import GTFSRealtime
import Testing
import TransitModel
import TransitTesting

/// A recorded minute of a past day, replayed at its own time through the real executables: a small static
/// feed valid for one week of March 2025 and three .pb files recorded at 08:05 on Wednesday 12 March 2025
/// (Sydney), served by `transit-static`, `transit-realtime` and `transit-gateway` all started with the same
/// `--clock`, `--clock-origin` (what Services/launch passes). Without the clock the realtime service would
/// look for service dates around today and the board would have no prediction.
@Suite(.enabled(if: BuiltExecutables.path("transit-realtime") != nil, "build the executables first (swift build)"))
struct ReplayClockEndToEndTests {
    /// 2025-03-12 08:05:00 in Sydney (AEDT, +11:00): the capture's header time.
    static let captureTime = "2025-03-12T08:05:00+11:00"
    static let captureUnix: Int64 = 1_741_727_100

    /// Agency, three stops, one bus route, trip T1 (S1 08:00, S2 08:10, S3 08:20), a calendar and feed_info
    /// covering 10–16 March 2025 only.
    static func writeStaticFeed(to folder: String) throws {
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
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Third Street\n",
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S2,2
            T1,08:20:00,08:20:00,S3,3

            """,
            "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,1,1,20250310,20250316

            """,
            "feed_info.txt": """
            feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version
            Replay,https://example.org,en,20250310,20250316,replay-1

            """,
        ]
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
    }

    /// The capture: T1 of 12 March running 2 minutes late from S2, its bus between S1 and S2, an alert at S3.
    static func writeCapture(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let header = FeedHeader(
            gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: UInt64(captureUnix))
        let trip = TripDescriptor(tripId: "T1", routeId: "R1", startDate: "20250312")
        let feeds: [String: FeedMessage] = [
            "TripUpdates": FeedMessage(
                header: header,
                entities: [
                    FeedEntity(
                        id: "tu-1",
                        tripUpdate: TripUpdate(
                            trip: trip,
                            stopTimeUpdates: [StopTimeUpdate(stopId: "S2", departure: StopTimeEvent(delay: 120))],
                            timestamp: UInt64(captureUnix)))
                ]),
            "VehiclePositions": FeedMessage(
                header: header,
                entities: [
                    FeedEntity(
                        id: "vp-1",
                        vehicle: VehiclePosition(
                            trip: trip, position: Position(latitude: -33.8705, longitude: 151.2005), stopId: "S2",
                            timestamp: UInt64(captureUnix)))
                ]),
            "Alerts": FeedMessage(
                header: header,
                entities: [
                    FeedEntity(
                        id: "al-1",
                        alert: Alert(
                            informedEntities: [EntitySelector(stopId: "S3")],
                            headerText: TranslatedText("Stop S3 moved")))
                ]),
        ]
        for (name, feed) in feeds {
            try Data(GTFSRealtimeCodec.encode(feed)).write(to: URL(fileURLWithPath: "\(folder)/\(name).pb"))
        }
    }

    private func run(_ name: String, _ arguments: [String]) async throws -> ChildProcess {
        let child = try ChildProcess(BuiltExecutables.path(name)!, arguments)
        #expect(try await child.waitForExit(timeout: .seconds(60)) == 0, "\(name) \(arguments): \(child.stderr)")
        return child
    }

    private func ask(_ line: String, port: Int) async throws -> JSONLine {
        let client = try LineClient(port: port)
        try client.send(line + "\n")
        client.shutdownWrite()
        return try JSONLine(try #require(try await client.readUntilClosed().first))
    }

    @Test func aRecordedMinuteReplaysAtItsOwnTime() async throws {
        let folder = SampleDatabase.folder.path("replay-clock-\(UUID().uuidString.prefix(8))")
        try Self.writeStaticFeed(to: folder + "/gtfs")
        try Self.writeCapture(to: folder + "/capture")
        let db = folder + "/static.db"

        // Imported at today's clock the feed is long expired: a warning naming its dates, imported anyway.
        let expired = try await run("transit-static", ["import", folder + "/gtfs", "--db", db])
        #expect(expired.stderr.contains("warning: feed gtfs does not cover"), "\(expired.stderr)")
        #expect(expired.stderr.contains("from 20250310 to 20250316"), "\(expired.stderr)")
        // At the capture's time it is valid: no warning.
        let valid = try await run(
            "transit-static", ["import", folder + "/gtfs", "--db", db, "--clock", Self.captureTime])
        #expect(!valid.stderr.contains("warning"), "\(valid.stderr)")

        // One clock for all three, as Services/launch passes it.
        let origin = String(format: "%.3f", Date().timeIntervalSince1970)
        let clock = ["--clock", Self.captureTime, "--clock-origin", origin]
        let sources = ["TripUpdates", "VehiclePositions", "Alerts"].map {
            #"{"name": "\#($0)", "kind": "auto", "url": "file://\#(folder)/capture/\#($0).pb", "poll_interval_s": 1}"#
        }
        try Data(#"{"sources": [\#(sources.joined(separator: ", "))]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/realtime.json"))
        let services = try await ServiceTrio.started(
            db: db, realtimeConfig: folder + "/realtime.json", clock: clock, urlPrefix: "rc")
        defer { services.kill() }
        let port = services.port

        // The board at S2, asked without `at`: the service clock's now, T1 predicted 2 minutes late.
        var row: [String: Any]?
        var board: JSONLine?
        for _ in 0..<100 {
            let answer = try await ask(#"{"id":1,"op":"departures","stop_id":"S2","limit":3}"#, port: port)
            board = answer
            row = answer.list("departures").first { $0["trip_id"] as? String == "T1" && $0["delay_s"] as? Int != nil }
            if row != nil && answer.meta["source"] as? String == "static+rt" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let found = try #require(row, "no prediction for T1 at S2: \(board?.text ?? "")")
        #expect(found["delay_s"] as? Int == 120)
        #expect(found["realtime_unix"] as? Int == 1_741_727_400 + 120)  // 08:10 + 2 min
        #expect(found["status"] as? String == "late")
        let meta = try #require(board?.meta)
        #expect(meta["source"] as? String == "static+rt")
        #expect(meta["stale"] as? Bool == false)
        let at = try #require(meta["at"] as? Int)
        #expect(at >= Int(Self.captureUnix) && at < Int(Self.captureUnix) + 60, "meta.at \(at): the service clock")

        // health is on the same clock: the sources are fresh, not a year old.
        let health = try await ask(#"{"id":2,"op":"health"}"#, port: port)
        #expect(health.data["status"] as? String == "ok", "\(health.text)")

        for child in services.all {
            child.signal(SIGTERM)
            #expect(try await child.waitForExit(timeout: .seconds(10)) == 0)
        }
    }
}
