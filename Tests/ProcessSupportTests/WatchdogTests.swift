import Foundation
import ProcessSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
    private let seconds = Mutex<Double>(1000)
    func read() -> Double { seconds.withLock { $0 } }
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
}

@Suite struct WatchdogTests {
    /// Components that advance on time are never late; one that stops advancing (a loop blocked, or the whole
    /// process under SIGSTOP: then none advances) is late once `grace` past its due time, naming it and how long
    /// it has been silent; advancing again clears it.
    @Test func aComponentThatStopsAdvancingIsLateAfterItsPeriodAndTheGrace() {
        let clock = ManualClock()
        let watchdog = Watchdog(grace: 5, now: clock.read)
        watchdog.advance("event loop 1", nextWithin: .seconds(1))
        watchdog.advance("event loop 2", nextWithin: .seconds(1))
        for _ in 0..<20 {
            clock.advance(1)
            watchdog.advance("event loop 1", nextWithin: .seconds(1))
            watchdog.advance("event loop 2", nextWithin: .seconds(1))
            #expect(watchdog.late().isEmpty)
        }
        // Loop 2 blocks: due 1 s after its last advance, late 5 s after that.
        for _ in 0..<6 {
            clock.advance(1)
            watchdog.advance("event loop 1", nextWithin: .seconds(1))
            #expect(watchdog.late().isEmpty)
        }
        clock.advance(0.5)
        #expect(watchdog.late() == [Watchdog.Late(component: "event loop 2", silentFor: 6.5)])
        #expect(watchdog.late().first?.description == "event loop 2 has not advanced for 6.5 s")
        // SIGSTOP: nothing advances; every component is late, sorted by name.
        clock.advance(30)
        #expect(watchdog.late().map(\.component) == ["event loop 1", "event loop 2"])
        // Running again clears them.
        watchdog.advance("event loop 1", nextWithin: .seconds(1))
        watchdog.advance("event loop 2", nextWithin: .seconds(1))
        #expect(watchdog.late().isEmpty)
    }

    /// A long wait announced in advance (a poll loop sleeping until its next tick) is not lateness; a removed
    /// component is not watched.
    @Test func announcedWaitsAreNotLateAndRemovedComponentsAreNotWatched() {
        let clock = ManualClock()
        let watchdog = Watchdog(grace: 5, now: clock.read)
        watchdog.advance("poll trains", nextWithin: .seconds(60))
        clock.advance(64)
        #expect(watchdog.late().isEmpty)
        clock.advance(2)
        #expect(watchdog.late().map(\.component) == ["poll trains"])
        watchdog.remove("poll trains")
        #expect(watchdog.late().isEmpty)
        #expect(watchdog.componentNames.isEmpty)
    }

    #if canImport(Glibc)
    /// The notifier beats (file and systemd datagram) while nothing is late; when something is, the file keeps
    /// the last beat's time and says which component is late, no `WATCHDOG=1` is sent, and the report says it
    /// once.
    @Test func theNotifierBeatsOnlyWhileNothingIsLate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("gateway.watchdog").path
        let socketPath = folder.appendingPathComponent("notify.sock").path
        let receiver = try DatagramReceiver(path: socketPath)
        defer { receiver.close() }

        let clock = ManualClock()
        let wall = ManualClock()
        let watchdog = Watchdog(grace: 5, now: clock.read)
        let reports = Mutex<[String]>([])
        let notifier = WatchdogNotifier(
            watchdog: watchdog, file: file, systemd: SystemdNotifier(socketPath: socketPath), wallClock: wall.read
        ) { line in reports.withLock { $0.append(line) } }

        watchdog.advance("request workers", nextWithin: .seconds(1))
        #expect(notifier.check())
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "1000 ok\n")
        #expect(receiver.receive() == "WATCHDOG=1")

        clock.advance(7)
        wall.advance(7)
        #expect(!notifier.check())
        #expect(!notifier.check())
        #expect(
            try String(contentsOfFile: file, encoding: .utf8)
                == "1000 late: request workers has not advanced for 7.0 s\n")
        #expect(receiver.receive() == nil)
        #expect(reports.withLock { $0 } == ["watchdog: late: request workers has not advanced for 7.0 s; not beating"])

        watchdog.advance("request workers", nextWithin: .seconds(1))
        #expect(notifier.check())
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "1007 ok\n")
        #expect(reports.withLock { $0 }.last == "watchdog: every component moves again")
    }
    #endif
}

#if canImport(Glibc)
/// A unix datagram socket standing in for systemd's notify socket.
private final class DatagramReceiver {
    private let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (i, byte) in path.utf8.enumerated() { bytes[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// The next datagram, or nil when none is waiting.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }

    func close() {
        _ = Glibc.close(fd)
    }
}
#endif
