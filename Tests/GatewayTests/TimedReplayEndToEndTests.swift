import Foundation
import GTFSRealtime
import Testing
import TransitModel
import TransitTesting

/// A recorded sequence played at its own times through the real executables: three trip-update snapshots of the
/// sample feed, 20 s apart (committed in Tests/GatewayTests/Fixtures/timed-replay), in which train
/// T1.WKD.0.0810 gets later at Blacktown platform 1 (stop 21481001, 08:38): 1, then 3, then 5 minutes. The three services
/// run on one replayed clock started two minutes before the first snapshot (at ten times real speed, so the
/// sequence takes four seconds); a `subscribe` to that board receives each delay no earlier than its snapshot's moment, in
/// order, a board asked then shows it, and after the last snapshot the feed goes stale by its stale_after_s
/// as a stopped producer's would.
@Suite(.enabled(if: BuiltExecutables.path("transit-realtime") != nil, "build the executables first (swift build)"))
struct TimedReplayEndToEndTests {
    static let fixture = Repository.path("Tests/GatewayTests/Fixtures/timed-replay")
    /// 2025-12-22 08:00:00 in Sydney (AEDT, +11:00): the first snapshot's header time.
    static let first = SampleTimes.mondayMorning
    static let trip = "T1.WKD.0.0810"
    static let stop = "21481001"
    /// (seconds after `first`, delay at the stop).
    static let sequence: [(offset: Int64, delay: Int32)] = [(0, 60), (20, 180), (40, 300)]

    /// The snapshots as committed (rewrite them with TIMED_REPLAY_WRITE=1 after changing this).
    static func snapshots() -> [[UInt8]] {
        sequence.map { offset, delay in
            let time = UInt64(first + offset)
            let update = TripUpdate(
                trip: TripDescriptor(tripId: trip, startDate: SampleTimes.mondayDate),
                stopTimeUpdates: [
                    StopTimeUpdate(stopSequence: 2, stopId: stop, departure: StopTimeEvent(delay: delay))
                ],
                timestamp: time)
            return GTFSRealtimeCodec.encode(
                FeedMessage(
                    header: FeedHeader(incrementality: .fullDataset, timestamp: time),
                    entities: [FeedEntity(id: "tu-1", tripUpdate: update)]))
        }
    }

    @Test func theCommittedSequenceIsTheOneDescribed() throws {
        for (index, bytes) in Self.snapshots().enumerated() {
            let path = Self.fixture + String(format: "/%04d/TripUpdates.pb", index + 1)
            if ProcessInfo.processInfo.environment["TIMED_REPLAY_WRITE"] == "1" {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            }
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "\(path)")
        }
    }

    @Test func subscribersAndBoardsFollowEachSnapshotAtItsMoment() async throws {
        let folder = SampleDatabase.folder.path("timed-replay-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = #"{"sources": [{"name": "rec", "replay": "\#(Self.fixture)", "pace_s": 30, "stale_after_s": 20}]}"#
        try Data(config.utf8).write(to: URL(fileURLWithPath: folder + "/realtime.json"))
        let db = try SampleDatabase.path()

        // Two service minutes (12 real seconds, for the three services to start on a busy machine and the replay
        // to poll first) before the first snapshot, at ten times real speed, one clock for all three.
        let origin = String(format: "%.3f", Date().timeIntervalSince1970)
        let clock = ["--clock", "2025-12-22T07:58:00+11:00", "--clock-rate", "10", "--clock-origin", origin]
        let services = try await ServiceTrio.started(
            db: db, realtimeConfig: folder + "/realtime.json", clock: clock, urlPrefix: "tr")
        defer { services.kill() }
        let port = services.port

        // The board's events: (push time on the service clock, the train's delay, stale).
        let subscriber = try LineClient(port: port)
        try subscriber.sendLines([
            #"{"id":1,"op":"subscribe","topic":"departures","stop_id":"\#(Self.stop)","limit":20}"#
        ])
        var seen: [(at: Int64, delay: Int?, stale: Bool)] = []
        var stale = false
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, !stale {
            let line = try JSONLine(try await subscriber.readLine(timeout: .seconds(20)))
            guard line.event == "departures" else { continue }
            let at = try #require(line.meta["at"] as? Int)
            if seen.isEmpty {
                // Else the services took longer than the clock's lead to start: the first moment cannot be watched.
                try #require(at < Self.first, "the services started too slowly: first board at \(at)")
            }
            let row = line.list("departures").first { $0["trip_id"] as? String == Self.trip }
            let delay = row?["delay_s"] as? Int
            stale = line.meta["stale"] as? Bool == true && seen.last?.delay == 300
            seen.append((Int64(at), delay, line.meta["stale"] as? Bool == true))
            // A board asked now shows what the subscription just pushed.
            if let delay, !stale {
                let board = try await ask(#"{"id":2,"op":"departures","stop_id":"\#(Self.stop)","limit":20}"#, port)
                let now = board.list("departures").first { $0["trip_id"] as? String == Self.trip }?["delay_s"] as? Int
                #expect(now == delay || (now ?? 0) > delay, "board \(board.text) after an event with \(delay)")
            }
        }
        let delays = seen.compactMap(\.delay).reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }
        #expect(delays == [60, 180, 300], "\(seen)")
        for (offset, delay) in Self.sequence {
            let firstSeen = try #require(seen.first { $0.delay == Int(delay) }, "\(delay) never pushed: \(seen)")
            #expect(firstSeen.at >= Self.first + offset, "\(delay) pushed at \(firstSeen.at), before its moment")
            #expect(firstSeen.at < Self.first + offset + 20, "\(delay) pushed at \(firstSeen.at), long after it")
        }
        // The last snapshot stays until it is older than stale_after_s (20 s after 08:00:40).
        let staleEvent = try #require(seen.last, "\(seen)")
        #expect(staleEvent.stale && staleEvent.at >= Self.first + 40 + 20, "\(seen)")
        let health = try await ask(#"{"id":3,"op":"health"}"#, port)
        #expect(health.data["status"] as? String == "degraded", "\(health.text)")
        let reasons = health.data["reasons"] as? [[String: Any]] ?? []
        #expect(
            reasons.contains {
                $0["code"] as? String == "source_stale" && $0["source"] as? String == "rec.trip_updates"
            })

        for child in services.all {
            child.signal(SIGTERM)
            #expect(try await child.waitForExit(timeout: .seconds(10)) == 0)
        }
    }

    private func ask(_ line: String, _ port: Int) async throws -> JSONLine {
        let client = try LineClient(port: port)
        try client.send(line + "\n")
        client.shutdownWrite()
        return try JSONLine(try #require(try await client.readUntilClosed().first))
    }
}
