import Foundation
import GTFSRealtime
import Testing
import TransitTesting

/// Two gateway processes on one realtime publisher, every link over loopback tcp (protocol/README.md
/// "Replicas"): a realtime update (a new feed file the realtime service polls) reaches both gateways' boards,
/// and the gap between them is measured. The feed and the clock are ReplayClockEndToEndTests' recorded minute.
@Suite(.enabled(if: BuiltExecutables.path("transit-realtime") != nil, "build the executables first (swift build)"))
struct TwoGatewayProcessesTests {
    /// The capture's trip update for T1 with `delay` at S2, stamped `timestamp`, written over `path` at once
    /// (a rename, so the poller never reads half a file).
    private static func writeTripUpdates(delay: Int32, timestamp: Int64, to path: String) throws {
        let header = FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: UInt64(timestamp))
        let feed = FeedMessage(
            header: header,
            entities: [
                FeedEntity(
                    id: "tu-1",
                    tripUpdate: TripUpdate(
                        trip: TripDescriptor(tripId: "T1", routeId: "R1", startDate: "20250312"),
                        stopTimeUpdates: [StopTimeUpdate(stopId: "S2", departure: StopTimeEvent(delay: delay))],
                        timestamp: UInt64(timestamp)))
            ])
        try Data(GTFSRealtimeCodec.encode(feed)).write(to: URL(fileURLWithPath: path + ".new"))
        #expect(rename(path + ".new", path) == 0)
    }

    /// T1's delay at S2 on the gateway's board (nil: no prediction yet).
    private static func delay(_ client: LineClient) async throws -> Int? {
        let board = try await client.ask(#"{"id":1,"op":"departures","stop_id":"S2","limit":3}"#)
        return board.list("departures").first { $0["trip_id"] as? String == "T1" }?["delay_s"] as? Int
    }

    @Test func twoGatewayProcessesOverTCPShowTheSameUpdate() async throws {
        let folder = try TemporaryFolder("two-gateways")
        try ReplayClockEndToEndTests.writeStaticFeed(to: folder.path + "/gtfs")
        let db = folder.path + "/static.db"
        let importer = try ChildProcess(
            BuiltExecutables.path("transit-static")!,
            ["import", folder.path + "/gtfs", "--db", db, "--clock", ReplayClockEndToEndTests.captureTime])
        #expect(try await importer.waitForExit(timeout: .seconds(60)) == 0, "\(importer.stderr)")

        // One service clock for all, at the capture's time.
        let origin = Date().timeIntervalSince1970
        let clock = [
            "--clock", ReplayClockEndToEndTests.captureTime, "--clock-origin", String(format: "%.3f", origin),
        ]
        func serviceNow() -> Int64 {
            ReplayClockEndToEndTests.captureUnix + Int64(Date().timeIntervalSince1970 - origin)
        }
        let feedPath = folder.path + "/TripUpdates.pb"
        try Self.writeTripUpdates(delay: 120, timestamp: ReplayClockEndToEndTests.captureUnix, to: feedPath)
        try Data(
            #"{"sources": [{"name": "trips", "kind": "auto", "url": "file://\#(feedPath)", "poll_interval_s": 1}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: folder.path + "/realtime.json"))
        let staticURL = try FreePort.tcpURL()
        let repURL = try FreePort.tcpURL()
        let pubURL = try FreePort.tcpURL()

        let staticService = try await ChildProcess.started(
            "transit-static", ["serve", "--db", db, "--listen", staticURL] + clock)
        defer { staticService.signal(SIGKILL) }
        let realtime = try await ChildProcess.started(
            "transit-realtime",
            [
                "serve", "--config", folder.path + "/realtime.json", "--static", staticURL, "--listen", repURL,
                "--publish", pubURL,
            ] + clock)
        defer { realtime.signal(SIGKILL) }
        var gateways: [ChildProcess] = []
        defer { for gateway in gateways { gateway.signal(SIGKILL) } }
        var clients: [LineClient] = []
        for _ in 0..<2 {
            let gateway = try await ChildProcess.started(
                "transit-gateway",
                [
                    "serve", "--static", staticURL, "--realtime", repURL, "--subscribe", pubURL, "--listen",
                    "127.0.0.1:0",
                ] + clock)
            gateways.append(gateway)
            let port = try #require(gateway.stderr.firstMatch(of: /\bport=(\d+)/).flatMap { Int($0.1) })
            clients.append(try LineClient(port: port))
        }

        // Both show the first feed's prediction.
        for (i, client) in clients.enumerated() {
            let live = try await eventually(timeout: .seconds(15), interval: .milliseconds(100)) {
                try await Self.delay(client) == 120
            }
            try #require(live, "gateway \(i + 1) shows the first prediction: \(gateways[i].stderr.suffix(800))")
        }

        // A new feed: T1 4 minutes late. Each gateway is asked in turn until both show it.
        let written = ContinuousClock.now
        try Self.writeTripUpdates(delay: 240, timestamp: serviceNow(), to: feedPath)
        var seen: [ContinuousClock.Instant?] = [nil, nil]
        let both = try await eventually(timeout: .seconds(10), interval: .milliseconds(5)) {
            for (i, client) in clients.enumerated() where seen[i] == nil {
                if try await Self.delay(client) == 240 { seen[i] = .now }
            }
            return seen.allSatisfy { $0 != nil }
        }
        #expect(both, "both gateways show the update: \(seen)")
        if let a = seen[0], let b = seen[1] {
            let apart = a > b ? a - b : b - a
            print(
                "two gateway processes over tcp: the update shown \(written.duration(to: a)) and \(written.duration(to: b)) after the feed file was written (polled every 1 s), \(apart) apart"
            )
            // Generous slack: the target is 100 ms; this machine also runs builds.
            #expect(apart < .seconds(10))
        }
    }
}
