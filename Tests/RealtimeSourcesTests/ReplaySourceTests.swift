// Replay folders: snapshots in numeric order, one kind per source, looping, re-stamped when played.
import Foundation
import ProcessSupport
import Synchronization
import Testing
import TransitTesting

@testable import RealtimeSources

@Suite struct ReplaySourceTests {
    /// Removed after each test (the suite is made again for every test).
    private let temporary: TemporaryFolder

    init() throws { temporary = try TemporaryFolder("rtsources") }

    /// 0001: all three kinds; 0002: no alerts, odd file name case; 0010 after 0002 (numeric order);
    /// a non-numeric folder and a stray file that are ignored. Each file's bytes: [kind number, snapshot].
    private func makeReplayFolder() throws -> String {
        let folder = temporary.path("replay")
        func write(_ snapshot: String, _ name: String, _ bytes: [UInt8]) throws {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(snapshot)", withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(snapshot)/\(name)"))
        }
        try write("0001", "TripUpdates.pb", [1, 1])
        try write("0001", "VehiclePositions.pb", [2, 1])
        try write("0001", "Alerts.pb", [3, 1])
        try write("0002", "tripupdates.PB", [1, 2])
        try write("0002", "VEHICLEPOSITIONS.pb", [2, 2])
        try write("0010", "TripUpdates.pb", [1, 10])
        try write("0010", "Alerts.pb", [3, 10])
        try write("notes", "TripUpdates.pb", [9, 9])
        try Data([0]).write(to: URL(fileURLWithPath: "\(folder)/0003"))  // a file, not a snapshot folder
        return folder
    }

    private func load(_ folder: String, extra: String = "") throws -> RealtimeConfig {
        let json = #"{"sources": [{"name": "demo", "replay": "replay", "pace_s": 0.05\#(extra)}]}"#
        let base = (folder as NSString).deletingLastPathComponent
        return try RealtimeConfig.parse(json: Data(json.utf8), file: "r.json", baseDirectory: base, environment: [:])
    }

    @Test func entryExpandsToOneSourcePerKindPresent() throws {
        let folder = try makeReplayFolder()
        let config = try load(folder)
        #expect(config.sources.map(\.name) == ["demo.trip_updates", "demo.vehicle_positions", "demo.alerts"])
        #expect(config.sources.map(\.kind) == [.tripUpdates, .vehiclePositions, .alerts])
        #expect(config.sources.allSatisfy { $0.pollInterval == .milliseconds(50) && !$0.isNetwork })
        #expect(config.dailyRequests == 0)
        let only = try RealtimeConfig.parse(
            json: Data(
                #"{"sources": [{"name": "d", "kind": "alerts", "replay": "replay", "pace_s": 1, "loop": false}]}"#.utf8),
            baseDirectory: (folder as NSString).deletingLastPathComponent, environment: [:]
        )
        #expect(only.sources.map(\.name) == ["d.alerts"])
        #expect(only.sources.first?.staleAfterSecs == nil)
        // A replay entry's stale_after_s goes to every source it expands to.
        let stale = try load(folder, extra: #", "stale_after_s": 120"#)
        #expect(stale.sources.map(\.staleAfterSecs) == [120, 120, 120])
        #expect(
            only.sources.first?.location
                == .replay(folder: (folder as NSString).deletingLastPathComponent + "/replay", loop: false))
    }

    @Test func playsInOrderLoopsAndRestamps() async throws {
        let folder = try makeReplayFolder()
        let config = try load(folder)
        let stamps = Mutex<[UInt64]>([])
        let restamp: FeedRestamp = { bytes, timestamp in
            stamps.withLock { $0.append(timestamp) }
            return bytes + [0xEE]
        }
        let recorder = EventRecorder()
        let group = try SourceGroup(
            config: config, restamp: restamp, logger: LogRecorder().logger, handler: recorder.handler)
        let before = UInt64(Date().timeIntervalSince1970)
        group.start()
        #expect(await eventually { recorder.events(of: "demo.trip_updates").count >= 7 })
        await group.stop()
        let after = UInt64(Date().timeIntervalSince1970)

        func played(_ source: String) -> [UInt8] {
            recorder.fetched.filter { $0.source == source }.map { feed in
                #expect(feed.bytes.last == 0xEE, "restamped")
                return feed.bytes[1]
            }
        }
        #expect(Array(played("demo.trip_updates").prefix(7)) == [1, 2, 10, 1, 2, 10, 1])
        #expect(Array(played("demo.vehicle_positions").prefix(4)) == [1, 2, 1, 2])
        #expect(Array(played("demo.alerts").prefix(4)) == [1, 10, 1, 10])
        #expect(recorder.failures.isEmpty)
        let restamped = stamps.withLock { $0 }
        #expect(!restamped.isEmpty && restamped.allSatisfy { $0 >= before && $0 <= after })
        // Every delivered snapshot was restamped; stopping may cut off at most one restamped snapshot per
        // source (3) before its delivery.
        let stamped = stamps.withLock { $0.count }, delivered = recorder.fetched.count
        #expect(stamped >= delivered && stamped <= delivered + 3, "\(stamped) restamped, \(delivered) delivered")
    }

    /// With a replay clock (`--clock`), headers are re-stamped to the service clock's time, and the fetch
    /// times and statuses are on it too; a frozen clock (`--clock-rate 0`) stamps its start every time.
    @Test func restampsToTheServiceClock() async throws {
        let folder = try makeReplayFolder()
        let config = try load(folder)
        let stamps = Mutex<[UInt64]>([])
        let restamp: FeedRestamp = { bytes, timestamp in
            stamps.withLock { $0.append(timestamp) }
            return bytes
        }
        let start: Int64 = 1_741_727_100  // 2025-03-12 08:05 in Sydney
        let recorder = EventRecorder()
        let group = try SourceGroup(
            config: config, options: PollingOptions(clock: ServiceClock(start: Double(start), rate: 0)),
            restamp: restamp,
            logger: LogRecorder().logger, handler: recorder.handler)
        group.start()
        #expect(await eventually { recorder.events(of: "demo.trip_updates").count >= 3 })
        await group.stop()
        let restamped = stamps.withLock { $0 }
        #expect(!restamped.isEmpty && restamped.allSatisfy { $0 == UInt64(start) }, "\(restamped)")
        #expect(recorder.fetched.allSatisfy { $0.fetchedAt == Date(timeIntervalSince1970: TimeInterval(start)) })
        #expect(group.status().allSatisfy { $0.lastSuccess == Date(timeIntervalSince1970: TimeInterval(start)) })
    }

    @Test func withoutLoopItStopsAfterTheLastSnapshot() async throws {
        let folder = try makeReplayFolder()
        let config = try load(folder, extra: #", "loop": false, "kind": "trip_updates""#)
        let recorder = EventRecorder()
        let group = try SourceGroup(config: config, logger: LogRecorder().logger, handler: recorder.handler)
        group.start()
        #expect(await eventually { group.status().first?.finished == true })
        try await Task.sleep(for: .milliseconds(120))
        await group.stop()
        // Without a restamp closure the bytes play unchanged.
        #expect(recorder.fetched.map(\.bytes) == [[1, 1], [1, 2], [1, 10]])
        #expect(group.status().first?.nextPoll == nil)
    }

    @Test func aRestampFailureIsReportedAndPlayContinues() async throws {
        let folder = try makeReplayFolder()
        let config = try load(folder, extra: #", "kind": "trip_updates""#)
        struct NotAFeed: Error, CustomStringConvertible { var description: String { "not a feed" } }
        let recorder = EventRecorder()
        let group = try SourceGroup(
            config: config,
            restamp: { bytes, _ in
                if bytes[1] == 2 { throw NotAFeed() }
                return bytes
            }, logger: LogRecorder().logger, handler: recorder.handler)
        group.start()
        #expect(await eventually { recorder.fetched.count >= 3 })
        await group.stop()
        guard case .failed(_, .restampFailed(let path, let reason))? = recorder.events.dropFirst().first else {
            Issue.record("\(recorder.events)")
            return
        }
        #expect(path.hasSuffix("0002/tripupdates.PB") && reason == "not a feed")
        #expect(recorder.fetched.prefix(3).map { $0.bytes[1] } == [1, 10, 1])
    }

    @Test func aFolderEmptiedWhilePlayingIsAnErrorNotACrash() async throws {
        let folder = try makeReplayFolder()
        let config = try load(folder, extra: #", "kind": "trip_updates""#)
        guard case .replay(let moved, _) = config.sources[0].location else { return }
        let recorder = EventRecorder()
        let group = try SourceGroup(config: config, logger: LogRecorder().logger, handler: recorder.handler)
        group.start()
        #expect(await eventually { recorder.fetched.count >= 1 })
        for name in try FileManager.default.contentsOfDirectory(atPath: moved) {
            try FileManager.default.removeItem(atPath: moved + "/" + name)
        }
        #expect(await eventually { !recorder.failures.isEmpty })
        await group.stop()
        #expect(
            recorder.failures.allSatisfy {
                $0 == .replayEmpty(folder: moved) || $0 == .fileMissing(moved + "/0002/tripupdates.PB")
                    || $0 == .fileMissing(moved + "/0010/TripUpdates.pb")
            })
        #expect(recorder.failures.contains(.replayEmpty(folder: moved)))
    }

    @Test func aFolderWithoutSnapshotsIsRefusedAtLoad() throws {
        let folder = temporary.path
        try FileManager.default.createDirectory(atPath: folder + "/notes", withIntermediateDirectories: true)
        let json = #"{"sources": [{"name": "demo", "replay": "\#(folder)", "pace_s": 1}]}"#
        #expect {
            try RealtimeConfig.parse(json: Data(json.utf8), environment: [:])
        } throws: { error in
            (error as? RealtimeConfigError)?.description.contains("holds no numbered snapshot folders") == true
        }
        try FileManager.default.createDirectory(atPath: folder + "/0001", withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: folder + "/0001/other.pb"))
        #expect {
            try RealtimeConfig.parse(json: Data(json.utf8), environment: [:])
        } throws: { error in
            (error as? RealtimeConfigError)?.description.contains("no snapshot in \(folder) holds TripUpdates.pb")
                == true
        }
    }
}
