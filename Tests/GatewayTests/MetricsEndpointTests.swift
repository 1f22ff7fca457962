import Foundation
import Testing
import TransitTesting

/// `serve --metrics`: the Prometheus text endpoint of the real processes (metrics are process-wide, so the
/// processes, not in-process servers, are tested): answers by op and code with latency histograms, the
/// static service's answers by query, scrape-time gauges; other paths 404; the realtime service's feeds.
@Suite(.enabled(if: BuiltExecutables.available, "build the executables first (swift build)"))
struct MetricsEndpointTests {
    /// One HTTP/1.1 GET (and `Connection: close`) over a plain socket: (status line, body).
    static func get(port: Int, path: String) async throws -> (String, String) {
        let client = try LineClient(port: port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let lines = try await client.readUntilClosed()
        let blank = lines.firstIndex(of: "\r") ?? lines.endIndex
        let body = lines[min(blank + 1, lines.endIndex)...].joined(separator: "\n")
        return (lines.first ?? "", body)
    }

    private static func metricsPort(_ child: ChildProcess) async throws -> Int {
        let logged = try await child.waitForStderr(timeout: .seconds(10)) {
            $0.firstMatch(of: /127\.0\.0\.1:(\d+)\/metrics/) != nil
        }
        try #require(logged, "no metrics line: \(child.stderr)")
        return try #require(child.stderr.firstMatch(of: /127\.0\.0\.1:(\d+)\/metrics/).flatMap { Int($0.1) })
    }

    @Test func theGatewayAndTheStaticServiceServePrometheusText() async throws {
        // The sample database as a refreshed URL feed whose last check failed (the refresher's state file
        // beside it, as `transit-static refresh` writes it: protocol/README.md flow 9).
        let folder = try TemporaryFolder("metrics-static")
        let db = folder.path("static.db")
        try FileManager.default.copyItem(atPath: try SampleDatabase.path(), toPath: db)
        try FileManager.default.createDirectory(atPath: db + ".refresh", withIntermediateDirectories: true)
        let state =
            #"{"feeds":[{"name":"sample","version":"sample-2025.1","validators":{},"refresh":"#
            + #"{"source":"https://example.org/gtfs.zip","lastCheck":1772000000,"lastChange":1771900000,"#
            + #""nextCheck":1772021600,"lastError":"HTTP 503","lastErrorAt":1772000000,"consecutiveFailures":2}}]}"#
        try Data(state.utf8).write(to: URL(fileURLWithPath: db + ".refresh/state.json"))
        let staticURL = UniqueURL.ipc("metrics-static")
        let staticService = try ChildProcess(
            BuiltExecutables.path("transit-static")!,
            // A pinned clock, the gateway's too (a Monday in December 2025): the planner's window is those days
            // whatever today is, so the plan below at 1800000000 (January 2027) always needs a far timetable.
            ["serve", "--db", db, "--listen", staticURL, "--metrics", "127.0.0.1:0", "--clock", "1766394000"])
        defer { staticService.signal(SIGKILL) }
        let gateway = try ChildProcess(
            BuiltExecutables.path("transit-gateway")!,
            [
                "serve", "--static", staticURL, "--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--clock",
                "1766394000",
            ])
        defer { gateway.signal(SIGKILL) }
        let staticMetrics = try await Self.metricsPort(staticService)
        let gatewayMetrics = try await Self.metricsPort(gateway)
        let ready = try await gateway.waitForStderr(timeout: .seconds(10)) { $0.contains(" ready") }
        try #require(ready)
        let port = try #require(gateway.stderr.firstMatch(of: /\bport=(\d+)/).flatMap { Int($0.1) })

        let client = try LineClient(port: port)
        #expect(try await client.ask(#"{"id":1,"op":"stop","stop_id":"200060"}"#).ok)
        // Another stop: the gateway may answer a stop it was just asked from the answer it keeps, and the static
        // service's count below would then depend on the timing.
        #expect(try await client.ask(#"{"id":2,"op":"stop","stop_id":"20006016"}"#).ok)
        #expect(try await client.ask(#"{"id":3,"op":"stop","stop_id":"NOPE"}"#).errorCode == "NOT_FOUND")
        // A plan on the clock's day, and one on a date outside the planner's window (its far timetable: a few
        // milliseconds on the sample feed, waited for).
        let plan = #""op":"plan","from":{"stop_id":"200060"},"to":{"stop_id":"202210"}"#
        #expect(try await client.ask(#"{"id":4,"# + plan + "}").ok)
        #expect(try await client.ask(#"{"id":5,"# + plan + #","at":1800000000}"#).ok)

        let (status, body) = try await Self.get(port: gatewayMetrics, path: "/metrics")
        #expect(status.contains("200"), "\(status)")
        #expect(body.contains(#"transit_gateway_answers_total{op="stop",code="OK"} 2"#), "\(body.prefix(3000))")
        #expect(body.contains(#"transit_gateway_answers_total{op="stop",code="NOT_FOUND"} 1"#))
        #expect(body.contains(#"transit_gateway_answer_duration_seconds_count{op="stop"} 3"#))
        #expect(body.contains(#"transit_gateway_answer_duration_seconds_bucket{op="stop",le="+Inf"} 3"#))
        #expect(body.contains("transit_gateway_connections_open 1"))
        #expect(body.contains("transit_gateway_static_up 1"))
        #expect(body.contains("transit_gateway_resident_bytes "))
        #expect(body.contains("transit_gateway_nng_unfinished_closes_total 0"))
        #expect(body.contains("transit_gateway_trips_from_held_instance_total "))

        let (_, staticBody) = try await Self.get(port: staticMetrics, path: "/metrics")
        #expect(
            staticBody.contains(#"transit_static_answers_total{query="stop",status="ok"} 2"#),
            "\(staticBody.prefix(3000))")
        #expect(staticBody.contains(#"transit_static_answers_total{query="stop",status="notFound"} 1"#))
        #expect(staticBody.contains("transit_static_database_info{version="))
        #expect(staticBody.contains("transit_static_nng_unfinished_closes_total 0"))
        // Each feed's version, and what the refresher last did with a URL feed (feed_info's `refresh`).
        #expect(staticBody.contains(#"transit_static_feed_info{feed="sample",version="sample-2025.1"} 1"#))
        #expect(
            staticBody.contains(
                #"transit_static_feed_refresh_info{feed="sample",source="https://example.org/gtfs.zip"} 1"#))
        #expect(staticBody.contains(#"transit_static_feed_refresh_last_check_unix{feed="sample"} 1772000000"#))
        #expect(staticBody.contains(#"transit_static_feed_refresh_last_change_unix{feed="sample"} 1771900000"#))
        #expect(staticBody.contains(#"transit_static_feed_refresh_next_check_unix{feed="sample"} 1772021600"#))
        #expect(staticBody.contains(#"transit_static_feed_refresh_consecutive_failures{feed="sample"} 2"#))
        #expect(staticBody.contains(#"transit_static_feed_refresh_failing{feed="sample"} 1"#))
        #expect(staticBody.contains(#"transit_static_feed_refresh_refused{feed="sample"} 0"#))
        // The journey planner: both timetables built and held, nothing refused or cut, no live state followed.
        #expect(staticBody.contains(#"transit_static_planner_builds_total{timetable="window",result="ok"} 1"#))
        #expect(staticBody.contains(#"transit_static_planner_builds_total{timetable="far",result="ok"} 1"#))
        #expect(staticBody.contains(#"transit_static_planner_builds_total{timetable="far",result="failed"} 0"#))
        for timetable in ["window", "far"] {
            let held = try Regex(#"transit_static_planner_timetable_bytes\{timetable="\#(timetable)"\} [1-9]"#)
            #expect(staticBody.firstMatch(of: held) != nil, "\(timetable)")
            #expect(staticBody.contains(#"transit_static_planner_build_last_seconds{timetable="\#(timetable)"} "#))
        }
        #expect(staticBody.contains(#"transit_static_plans_refused_total{reason="busy"} 0"#))
        #expect(staticBody.contains(#"transit_static_plans_refused_total{reason="far"} 0"#))
        #expect(staticBody.contains("transit_static_plans_cut_total 0"))
        #expect(staticBody.contains("transit_static_planner_live_update_duration_seconds_count 0"), "none followed")

        let (notFound, _) = try await Self.get(port: gatewayMetrics, path: "/other")
        #expect(notFound.contains("404"), "\(notFound)")
    }

    /// The realtime service's endpoint (`transit-realtime serve --metrics`): whether it is the active
    /// instance, its RSS, and per source the feed's age, staleness, entities and updates applied, scraped from
    /// the process while it replays ReplayClockEndToEndTests' recorded minute.
    @Test(.enabled(if: BuiltExecutables.path("transit-realtime") != nil))
    func theRealtimeServiceServesPrometheusText() async throws {
        let folder = try TemporaryFolder("metrics-realtime")
        try ReplayClockEndToEndTests.writeStaticFeed(to: folder.path + "/gtfs")
        try ReplayClockEndToEndTests.writeCapture(to: folder.path + "/capture")
        let db = folder.path + "/static.db"
        let clockTime = ReplayClockEndToEndTests.captureTime
        let importer = try ChildProcess(
            BuiltExecutables.path("transit-static")!,
            ["import", folder.path + "/gtfs", "--db", db, "--clock", clockTime])
        #expect(try await importer.waitForExit(timeout: .seconds(60)) == 0, "\(importer.stderr)")
        let source =
            #"{"name": "trips", "kind": "auto", "url": "file://\#(folder.path)/capture/TripUpdates.pb", "poll_interval_s": 1}"#
        try Data(#"{"sources": [\#(source)]}"#.utf8).write(to: URL(fileURLWithPath: folder.path + "/realtime.json"))
        let clock = ["--clock", clockTime, "--clock-origin", String(format: "%.3f", Date().timeIntervalSince1970)]
        let staticURL = UniqueURL.ipc("metrics-rt-static")
        let staticService = try await ChildProcess.started(
            "transit-static", ["serve", "--db", db, "--listen", staticURL] + clock)
        defer { staticService.signal(SIGKILL) }
        let realtime = try ChildProcess(
            BuiltExecutables.path("transit-realtime")!,
            [
                "serve", "--config", folder.path + "/realtime.json", "--static", staticURL, "--listen",
                UniqueURL.ipc("metrics-rt-rep"), "--publish", UniqueURL.ipc("metrics-rt-pub"), "--metrics",
                "127.0.0.1:0",
            ] + clock)
        defer { realtime.signal(SIGKILL) }
        let metricsPort = try await Self.metricsPort(realtime)

        var body = ""
        let applied = try await eventually(timeout: .seconds(15), interval: .milliseconds(200)) {
            body = try await Self.get(port: metricsPort, path: "/metrics").1
            return body.contains(#"transit_realtime_updates_applied_total{source="trips"} "#)
                && !body.contains(#"transit_realtime_updates_applied_total{source="trips"} 0"#)
        }
        #expect(applied, "the feed's update is counted: \(body.prefix(3000))")
        #expect(body.contains("transit_realtime_active 1"), "\(body.prefix(3000))")
        #expect(body.contains("transit_realtime_resident_bytes "))
        #expect(body.contains("transit_realtime_nng_unfinished_closes_total 0"))
        #expect(body.contains(#"transit_realtime_feed_stale{source="trips"} 0"#))
        #expect(body.contains(#"transit_realtime_feed_entities{source="trips"} 1"#))
        #expect(body.contains(#"transit_realtime_feed_age_seconds{source="trips"} "#))
        #expect(body.contains("transit_realtime_publish_failures_total "))
        // The capture's one trip update names a trip of the static feed: all of it matches the timetable.
        #expect(body.contains(#"transit_realtime_match_rate{source="trips"} 1"#), "\(body.prefix(3000))")
        #expect(body.contains(#"transit_realtime_match_mismatch{source="trips"} 0"#))
        #expect(body.contains("transit_realtime_match_considered{"))
    }
}
