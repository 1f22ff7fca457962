// A recorded sequence played at its own times: with the service clock replayed (`--clock`) at or before the first
// snapshot's header timestamp, each snapshot becomes current when the clock reaches it, unchanged; the last one
// then stays (the replay finishes). Folders of numbered snapshots or of plain .pb files ordered by their headers.
import Foundation
import ProcessSupport
import Testing
import TransitTesting

@testable import RealtimeSources

@Suite struct TimedReplayTests {
    private let temporary: TemporaryFolder

    init() throws { temporary = try TemporaryFolder("timed-replay") }

    /// 2025-12-22 08:00 in Sydney.
    static let t0: UInt64 = 1_766_350_800

    /// A FeedMessage with a header timestamp and one entity of the kind (3 trip_update, 4 vehicle, 5 alert).
    static func feed(at timestamp: UInt64, kindField: Int, tag: String) -> [UInt8] {
        WireWriter.build { w in
            w.message(1) { h in
                h.string(1, "2.0")
                h.varint(3, timestamp)
            }
            w.message(2) { e in
                e.string(1, tag)
                e.message(kindField) { $0.string(1, tag) }
            }
        }
    }

    /// Plain .pb files named against their order: the header timestamps order them.
    private func writeFlatFolder() throws -> String {
        let folder = temporary.path("flat")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files: [(String, UInt64, Int, String)] = [
            ("c.pb", Self.t0, 3, "tu-1"), ("a.pb", Self.t0 + 60, 3, "tu-2"), ("b.pb", Self.t0 + 120, 3, "tu-3"),
            ("vp-late.pb", Self.t0 + 30, 4, "vp-1"), ("notes.txt", 0, 0, ""),
        ]
        for (name, timestamp, kind, tag) in files {
            let bytes = kind == 0 ? Array("not a feed".utf8) : Self.feed(at: timestamp, kindField: kind, tag: tag)
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        return folder
    }

    private func date(_ unix: UInt64) -> Date { Date(timeIntervalSince1970: TimeInterval(unix)) }

    private func tag(_ outcome: FetchOutcome) -> String? {
        guard case .fetched(let bytes, _) = outcome else { return nil }
        return String(decoding: bytes.suffix(4), as: UTF8.self)
    }

    @Test func thePeekReadsTheHeaderTimeAndTheKinds() {
        let peek = FeedPeek(Self.feed(at: 42, kindField: 4, tag: "v"))
        #expect(peek.timestamp == 42 && peek.kinds == [.vehiclePositions])
        #expect(FeedPeek(Array("not a feed".utf8)).timestamp == nil)
        #expect(FeedPeek(Array(Self.feed(at: 42, kindField: 3, tag: "t").prefix(5))).kinds.isEmpty)  // cut off
    }

    @Test func aFlatFolderIsOrderedByHeaderTimeWithKindsFromTheEntities() throws {
        let folder = try writeFlatFolder()
        let snapshots = try ReplayFolder.snapshots(in: folder)
        #expect(snapshots.map { ($0 as NSString).lastPathComponent } == ["c.pb", "vp-late.pb", "a.pb", "b.pb"])
        #expect(ReplayFolder.kindsPresent(in: snapshots) == [.tripUpdates, .vehiclePositions])
        #expect(
            ReplayFolder.timedFiles(of: .tripUpdates, in: snapshots).map(\.timestamp)
                == [0, 60, 120].map { Self.t0 + $0 })
        let json = #"{"sources": [{"name": "rec", "replay": "flat", "pace_s": 30, "loop": false}]}"#
        let config = try RealtimeConfig.parse(
            json: Data(json.utf8), file: "r.json", baseDirectory: temporary.path(""), environment: [:])
        #expect(config.sources.map(\.name) == ["rec.trip_updates", "rec.vehicle_positions"])
        #expect(config.sources.allSatisfy { $0.replayAtOwnTimes })
        let paced = try RealtimeConfig.parse(
            json: Data(json.replacingOccurrences(of: #""loop": false"#, with: #""own_times": false"#).utf8),
            file: "r.json", baseDirectory: temporary.path(""), environment: [:])
        #expect(paced.sources.allSatisfy { !$0.replayAtOwnTimes })
    }

    @Test func eachSnapshotBecomesCurrentAtItsHeaderTimeAndTheLastStays() throws {
        let folder = try writeFlatFolder()
        var fetcher = ReplayFetcher(
            folder: folder, kind: .tripUpdates, loop: true, maxBytes: 1 << 20,
            restamp: { _, _ in
                Issue.record("a timed replay does not re-stamp"); return []
            }, clockIsReplayed: true)
        #expect(fetcher.nextDue == nil)  // decided at the first fetch
        #expect(tag(fetcher.fetch(now: date(Self.t0 - 10))) == nil)
        #expect(fetcher.isTimed)
        #expect(fetcher.nextDue == date(Self.t0))
        #expect(tag(fetcher.fetch(now: date(Self.t0))) == "tu-1")
        #expect(fetcher.nextDue == date(Self.t0 + 60))
        #expect(tag(fetcher.fetch(now: date(Self.t0 + 59))) == nil)
        #expect(tag(fetcher.fetch(now: date(Self.t0 + 60))) == "tu-2")
        #expect(tag(fetcher.fetch(now: date(Self.t0 + 119))) == nil)
        #expect(tag(fetcher.fetch(now: date(Self.t0 + 125))) == "tu-3")
        #expect(fetcher.nextDue == date(Self.t0 + 120))  // past: the next poll finishes the replay
        // The last one stays as a stopped producer's feed: the replay finishes (no loop at recorded times).
        guard case .finished = fetcher.fetch(now: date(Self.t0 + 600)) else {
            Issue.record("expected the replay to finish")
            return
        }
    }

    @Test func aSnapshotWhoseMomentPassedBetweenPollsIsSkippedForTheLatest() throws {
        let folder = try writeFlatFolder()
        var fetcher = ReplayFetcher(
            folder: folder, kind: .tripUpdates, loop: false, maxBytes: 1 << 20, restamp: nil, clockIsReplayed: true)
        #expect(tag(fetcher.fetch(now: date(Self.t0))) == "tu-1")
        #expect(tag(fetcher.fetch(now: date(Self.t0 + 130))) == "tu-3")
    }

    @Test func aClockPastTheFirstSnapshotOrTheMachinesClockKeepTodaysPacedReplay() throws {
        let folder = try writeFlatFolder()
        var late = ReplayFetcher(
            folder: folder, kind: .tripUpdates, loop: true, maxBytes: 1 << 20, restamp: { b, _ in b + [0xEE] },
            clockIsReplayed: true)
        let outcome = late.fetch(now: date(Self.t0 + 1))
        #expect(!late.isTimed)
        guard case .fetched(let bytes, _) = outcome else {
            Issue.record("expected a fetch")
            return
        }
        #expect(bytes.last == 0xEE)  // re-stamped, played at the pace
        var machine = ReplayFetcher(
            folder: folder, kind: .tripUpdates, loop: true, maxBytes: 1 << 20, restamp: nil, clockIsReplayed: false)
        #expect(tag(machine.fetch(now: date(Self.t0 - 100))) == "tu-1")
        #expect(tag(machine.fetch(now: date(Self.t0 - 100))) == "tu-2")
        #expect(!machine.isTimed)
    }

    /// Through the poller: a pace of 30 s, but the replayed clock (10× real time) wakes it at each snapshot's
    /// moment; the fetch times, on the service clock, are the header times (within the poller's wake-up slack).
    @Test func thePollerWakesAtEachSnapshotsMoment() async throws {
        let folder = temporary.path("numbered")
        for (n, offset) in [(1, 0), (2, 20), (3, 40)] {
            try FileManager.default.createDirectory(atPath: "\(folder)/000\(n)", withIntermediateDirectories: true)
            let bytes = Self.feed(at: Self.t0 + UInt64(offset), kindField: 3, tag: "tu-\(n)")
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/000\(n)/TripUpdates.pb"))
        }
        let json = #"{"sources": [{"name": "rec", "replay": "numbered", "pace_s": 30}]}"#
        let config = try RealtimeConfig.parse(
            json: Data(json.utf8), file: "r.json", baseDirectory: temporary.path(""), environment: [:])
        let recorder = EventRecorder()
        // A minute of service time (six real seconds) before the first: the first poll must come before it for
        // the replay to play at its own times, also on a busy machine (suites decoding big real feeds in
        // parallel stall other threads for a second or more).
        let clock = ServiceClock(start: Double(Self.t0) - 60, rate: 10)
        let group = try SourceGroup(
            config: config, options: PollingOptions(clock: clock), restamp: nil, logger: LogRecorder().logger,
            handler: recorder.handler)
        group.start()
        #expect(await eventually(timeout: .seconds(60)) { group.status().first?.finished == true })
        await group.stop()
        let fetched = recorder.fetched
        #expect(fetched.map { String(decoding: $0.bytes.suffix(4), as: UTF8.self) } == ["tu-1", "tu-2", "tu-3"])
        for (feed, offset) in zip(fetched, [0.0, 20, 40]) {
            let moment = Double(Self.t0) + offset
            let at = feed.fetchedAt.timeIntervalSince1970
            // At its moment, give or take the poller's wake-up slack on a loaded machine (15 s here: 1.5 s real),
            // well before the next snapshot's (20 s later).
            #expect(at >= moment && at < moment + 15, "played at \(at - moment) s after its moment")
        }
    }
}

/// Two consecutive TfNSW bus snapshots of trip updates and of vehicle positions (../shared/realdata/, a flat
/// folder of .pb files read in place; skipped when absent), each played by the replay at its own header time.
@Suite(.enabled(if: RealCaptures.available, .init(rawValue: RealCaptures.absentReason)))
struct TfNSWBusSequenceReplayTests {
    static let folder = RealCaptures.path("tfnsw-buses-2020-09-01-rtonly")
    static let tripUpdates: [(name: String, header: UInt64)] = [
        ("GTFS_TU2020-09-01_08_00.pb", 1_598_911_191), ("GTFS_TU2020-09-01_08_01.pb", 1_598_911_251),
    ]
    static let vehicles: [(name: String, header: UInt64)] = [
        ("GTFS_VP2020-09-01_08_00.pb", 1_598_911_225), ("GTFS_VP2020-09-01_08_01.pb", 1_598_911_275),
    ]

    @Test func theFolderBecomesOneSourcePerKindTimedByTheHeaders() throws {
        let json = #"{"sources": [{"name": "buses", "replay": "\#(Self.folder)", "pace_s": 30}]}"#
        let config = try RealtimeConfig.parse(
            json: Data(json.utf8), file: "r.json", baseDirectory: "/", environment: [:])
        #expect(config.sources.map(\.name) == ["buses.trip_updates", "buses.vehicle_positions"])
        let snapshots = try ReplayFolder.snapshots(in: Self.folder)
        for (kind, files) in [(SourceKind.tripUpdates, Self.tripUpdates), (.vehiclePositions, Self.vehicles)] {
            let timed = ReplayFolder.timedFiles(of: kind, in: snapshots)
            #expect(timed.map { ($0.path as NSString).lastPathComponent } == files.map(\.name))
            #expect(timed.map(\.timestamp) == files.map(\.header))
        }
    }

    /// The trip updates (8 MB each) through the fetcher on explicit clock readings: each one is delivered from
    /// its header time on, not before. (Not through a running poller: holding 8 MB feeds while the other suites'
    /// engines trim the heap stalls unrelated timing tests of the same process.)
    @Test func eachTripUpdatesSnapshotBecomesCurrentAtItsHeaderTime() throws {
        let (first, second) = (Self.tripUpdates[0], Self.tripUpdates[1])
        var fetcher = ReplayFetcher(
            folder: Self.folder, kind: .tripUpdates, loop: true, maxBytes: 64 << 20, restamp: nil,
            clockIsReplayed: true)
        func delivered(at unix: UInt64) -> UInt64? {
            guard case .fetched(let bytes, _) = fetcher.fetch(now: Date(timeIntervalSince1970: TimeInterval(unix)))
            else { return nil }
            return FeedPeek(bytes).timestamp
        }
        #expect(delivered(at: first.header - 1) == nil)
        #expect(fetcher.isTimed)
        #expect(delivered(at: first.header) == first.header)
        #expect(delivered(at: second.header - 1) == nil)
        #expect(delivered(at: second.header) == second.header)
    }

    /// The vehicle positions through the poller on a replayed clock at 10× real time: it wakes at each one's
    /// header time (pace 30 s notwithstanding) and delivers it unchanged.
    @Test func eachVehiclePositionsSnapshotIsPlayedAtItsHeaderTime() async throws {
        let json =
            #"{"sources": [{"name": "buses", "kind": "vehicle_positions", "replay": "\#(Self.folder)", "pace_s": 30}]}"#
        let config = try RealtimeConfig.parse(
            json: Data(json.utf8), file: "r.json", baseDirectory: "/", environment: [:])
        let recorder = EventRecorder()
        // A minute before the first (six real seconds for the first poll to come before it, also while other
        // suites decode big feeds).
        let clock = ServiceClock(start: Double(Self.vehicles[0].header) - 60, rate: 10)
        let group = try SourceGroup(
            config: config, options: PollingOptions(clock: clock), restamp: nil, logger: LogRecorder().logger,
            handler: recorder.handler)
        group.start()
        #expect(await eventually(timeout: .seconds(60)) { group.status().allSatisfy { $0.finished } })
        await group.stop()
        let fetched = recorder.fetched
        #expect(fetched.count == Self.vehicles.count)
        for (feed, file) in zip(fetched, Self.vehicles) {
            // Compared as Data (memcmp): a debug build's element-wise [UInt8] == is slow.
            let recorded = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + file.name))
            #expect(Data(feed.bytes) == recorded, "\(file.name)")
            let at = feed.fetchedAt.timeIntervalSince1970
            // At its header time (the poller's wake-up slack on a loaded machine: 2 s real is 20 s at 10×; the
            // next snapshot is 50 s later).
            #expect(
                at >= Double(file.header) && at < Double(file.header) + 20,
                "\(file.name): \(at - Double(file.header)) s")
        }
    }
}
