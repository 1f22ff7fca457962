// file:// sources: read when changed, quiet otherwise, missing files reported, replaced files never torn.
import Foundation
import Testing
import TransitTesting

@testable import RealtimeSources

@Suite struct FileSourceTests {
    private func fileSource(
        _ path: String, interval: Duration = .milliseconds(20), maxBytes: Int = SourceConfig.defaultMaxBytes
    ) -> SourceConfig {
        SourceConfig(name: "file", kind: .auto, location: .file(path: path), pollInterval: interval, maxBytes: maxBytes)
    }

    @Test func rereadOnlyWhenTheFileChanges() async throws {
        let folder = try TemporaryFolder("rtsources")
        let path = folder.path("TripUpdates.pb")
        try replaceAtomically(path, with: [1, 1])
        let recorder = EventRecorder()
        let group = try SourceGroup(
            config: testConfig([fileSource(path)]), logger: LogRecorder().logger, handler: recorder.handler)
        group.start()
        #expect(await eventually { recorder.notModifiedCount >= 3 })
        #expect(recorder.fetched.map(\.bytes) == [[1, 1]])

        try replaceAtomically(path, with: [2, 2, 2])  // renamed over: new inode
        #expect(await eventually { recorder.fetched.count == 2 })
        let quietFrom = recorder.notModifiedCount
        #expect(await eventually { recorder.notModifiedCount >= quietFrom + 3 })

        // Written in place with the same size: the modification time tells.
        try await Task.sleep(for: .milliseconds(5))
        try Data([3, 3, 3]).write(to: URL(fileURLWithPath: path))
        #expect(await eventually { recorder.fetched.count == 3 })

        try FileManager.default.removeItem(atPath: path)
        #expect(await eventually { !recorder.failures.isEmpty })
        try replaceAtomically(path, with: [4])
        #expect(await eventually { recorder.fetched.count == 4 })
        await group.stop()

        #expect(recorder.fetched.map(\.bytes) == [[1, 1], [2, 2, 2], [3, 3, 3], [4]])
        #expect(recorder.failures.allSatisfy { $0 == .fileMissing(path) })
        let status = try #require(group.status().first)
        #expect(status.lastError == "\(path) does not exist")
        #expect(status.consecutiveFailures == 0 && status.errorCount == recorder.failures.count)
        #expect(status.requestsToday == 0)  // files cost no requests
        #expect(
            !recorder.events.contains { if case .failed(_, let e) = $0 { return e.backsOff } else { return false } })
    }

    @Test func aFileReplacedWhileBeingPolledIsNeverTornNorAnError() async throws {
        let folder = try TemporaryFolder("rtsources")
        let path = folder.path("VehiclePositions.pb")
        // Versions of different sizes whose bytes all equal their version number.
        func version(_ n: Int) -> [UInt8] { [UInt8](repeating: UInt8(n), count: 50_000 + n * 3_000) }
        try replaceAtomically(path, with: version(0))
        let recorder = EventRecorder()
        let group = try SourceGroup(
            config: testConfig([fileSource(path, interval: .milliseconds(1))]), logger: LogRecorder().logger,
            handler: recorder.handler)
        group.start()
        for n in 1...40 {
            try replaceAtomically(path, with: version(n))
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(await eventually { recorder.fetched.last?.bytes.first == 40 })
        await group.stop()
        #expect(recorder.failures.isEmpty)
        for feed in recorder.fetched {
            let n = Int(feed.bytes[0])
            #expect(feed.bytes == version(n), "a torn read of version \(n)")
        }
        // Delivered in order, each version at most once.
        let order = recorder.fetched.map { Int($0.bytes[0]) }
        #expect(order == order.sorted() && Set(order).count == order.count)
    }

    @Test func tooLargeAndUnreadableFiles() async throws {
        let folder = try TemporaryFolder("rtsources")
        let big = folder.path("big.pb")
        try replaceAtomically(big, with: [UInt8](repeating: 0, count: 1001))
        let recorder = EventRecorder()
        let sources = [
            SourceConfig(
                name: "big", kind: .auto, location: .file(path: big), pollInterval: .seconds(60), maxBytes: 1000),
            SourceConfig(name: "dir", kind: .auto, location: .file(path: folder.path), pollInterval: .seconds(60)),
        ]
        let group = try SourceGroup(
            config: testConfig(sources), logger: LogRecorder().logger, handler: recorder.handler)
        group.start()
        #expect(await eventually { recorder.failures.count == 2 })
        await group.stop()
        #expect(
            recorder.events(of: "big").first.map { if case .failed(_, .tooLarge(1000)) = $0 { true } else { false } }
                == true)
        guard case .failed(_, .fileUnreadable(let path, let reason))? = recorder.events(of: "dir").first else {
            Issue.record("\(recorder.events(of: "dir"))")
            return
        }
        #expect(path == folder.path && reason.lowercased().contains("directory"), "\(reason)")
    }

    /// A FIFO in place of the feed file used to block its poller in open(2) for good, silently. Now the poll
    /// fails at once, saying what the path is; nothing blocks (the test writes to the FIFO before stopping, so a
    /// blocked opener could not hang it, and the time limit bounds it anyway).
    @Test(.timeLimit(.minutes(1))) func aFIFOInPlaceOfTheFileIsAnErrorWithinTheTimeout() async throws {
        let folder = try TemporaryFolder("rtsources")
        let path = folder.path("TripUpdates.pb")
        try #require(mkfifo(path, 0o600) == 0)
        let recorder = EventRecorder()
        let timeout = Duration.seconds(2)
        let source = SourceConfig(
            name: "fifo", kind: .auto, location: .file(path: path), pollInterval: .milliseconds(50),
            timeout: timeout)
        let group = try SourceGroup(
            config: testConfig([source]), logger: LogRecorder().logger, handler: recorder.handler)
        group.start()
        // Two failures prove no poll blocked (a blocked open would never give a second); how fast they come is
        // the machine's business, not this test's.
        let failed = await eventually(timeout: .seconds(10)) { recorder.failures.count >= 2 }
        unblockFIFOOpeners(path)
        await group.stop()
        #expect(failed, "events: \(recorder.events)")
        #expect(recorder.fetched.isEmpty && recorder.notModifiedCount == 0)
        #expect(
            recorder.failures.first == .fileUnreadable(path: path, reason: "a FIFO (named pipe), not a regular file"))
        let status = try #require(group.status().first)
        #expect(status.lastError == "cannot read \(path): a FIFO (named pipe), not a regular file")
        #expect(status.consecutiveFailures == recorder.failures.count)
    }

    /// Opens the FIFO for writing without blocking and closes it: a reader blocked in open(2) gets its open
    /// done and then end of file (no reader: ENXIO, nothing to do).
    private func unblockFIFOOpeners(_ path: String) {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 { close(fd) }
    }

    @Test func aStoppedGroupStartsAfresh() async throws {
        let folder = try TemporaryFolder("rtsources")
        let path = folder.path("Alerts.pb")
        try replaceAtomically(path, with: [8])
        let recorder = EventRecorder()
        let group = try SourceGroup(
            config: testConfig([fileSource(path)]), logger: LogRecorder().logger, handler: recorder.handler)
        group.start()
        group.start()  // no second loop
        #expect(await eventually { recorder.notModifiedCount >= 2 })
        await group.stop()
        #expect(recorder.fetched.count == 1)
        group.start()
        #expect(await eventually { recorder.fetched.count == 2 })
        await group.stop()
        #expect(recorder.fetched.map(\.bytes) == [[8], [8]])
    }

    @Test func readerSeesTheFileItOpened() throws {
        let folder = try TemporaryFolder("rtsources")
        let path = folder.path("x.pb")
        try replaceAtomically(path, with: [1, 2, 3])
        let read = try FileReader.read(path: path, maxBytes: 10).get()
        #expect(read?.bytes == [1, 2, 3])
        #expect(read?.signature == (try? FileSignature.of(path: path).get()))
        #expect(throws: FetchError.tooLarge(limit: 2)) { try FileReader.read(path: path, maxBytes: 2).get() }
        #expect(throws: FetchError.fileMissing(folder.path("nope"))) {
            try FileReader.read(path: folder.path("nope"), maxBytes: 2).get()
        }
    }
}
