import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a `Watchdog` into a heartbeat a supervisor can watch. Every `interval`, on a thread of its own (not
/// the Swift task pool, which a hang may be starving), it asks the watchdog: when no component is late it
/// beats — rewrites the heartbeat file (`--watchdog-file`, what `Services/launch` reads) and sends
/// `WATCHDOG=1` to systemd when `NOTIFY_SOCKET` is set; when one is late it stops beating, writes why into the
/// file and reports it (once per change), so the supervisor's restart comes with the reason.
///
/// The heartbeat file holds one line, `<unix seconds of the last beat> <ok | late: why>`, replaced atomically
/// (rename), so a reader never sees half of it. A stopped process (SIGSTOP) writes nothing: the time ages.
public final class WatchdogNotifier: @unchecked Sendable {
    // @unchecked: `lastBeat`, `lastReport` and `stopped` are touched only under `condition`.
    public let watchdog: Watchdog
    public let file: String?
    public let interval: Double
    private let systemd: SystemdNotifier?
    private let report: @Sendable (String) -> Void
    private let wallClock: @Sendable () -> Double
    private let condition = NSCondition()
    private var lastBeat: Double?
    private var lastReport = ""
    private var stopped = false
    private var started = false

    /// `report` receives a line when a component turns late and when all move again (the service's log).
    public init(
        watchdog: Watchdog, file: String?, systemd: SystemdNotifier? = SystemdNotifier.fromEnvironment(),
        interval: Double = 1, wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        report: @escaping @Sendable (String) -> Void
    ) {
        self.watchdog = watchdog
        self.file = file
        self.systemd = systemd
        self.interval = interval
        self.wallClock = wallClock
        self.report = report
    }

    /// Tells systemd the service is ready (`READY=1`) and starts beating.
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !started else { return }
        started = true
        systemd?.send("READY=1")
        let thread = Thread { [self] in
            condition.lock()
            while !stopped {
                condition.unlock()
                check()
                condition.lock()
                if !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            }
            condition.unlock()
        }
        thread.name = "watchdog"
        thread.start()
    }

    /// Stops beating and tells systemd the service is stopping (`STOPPING=1`).
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        systemd?.send("STOPPING=1")
    }

    /// One round: beat when nothing is late, otherwise say why in the file and the report. Returns whether it
    /// beat. (The thread calls it every `interval`; tests call it directly.)
    @discardableResult
    public func check() -> Bool {
        let late = watchdog.late()
        let now = wallClock()
        condition.lock()
        let status: String
        if late.isEmpty {
            lastBeat = now
            status = "ok"
        } else {
            status = "late: " + late.map(\.description).joined(separator: "; ")
        }
        // Seconds change each round; report only when which components are late changes.
        let key = late.map(\.component).joined(separator: ",")
        let changed = key != lastReport
        lastReport = key
        let beat = lastBeat
        condition.unlock()
        if changed {
            report(late.isEmpty ? "watchdog: every component moves again" : "watchdog: \(status); not beating")
        }
        if late.isEmpty { systemd?.send("WATCHDOG=1") }
        if let file { Self.write("\(Int(beat ?? 0)) \(status)\n", to: file) }
        return late.isEmpty
    }

    private static func write(_ line: String, to path: String) {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(line.utf8)) else { return }
        rename(temporary, path)
    }
}

/// systemd's notification protocol (`sd_notify(3)`): one datagram of `KEY=VALUE` lines to the unix socket named
/// by `NOTIFY_SOCKET`. Written here rather than linking libsystemd: it is a dozen lines, and the services then
/// build and run the same where systemd is absent (the launcher, macOS, containers).
public struct SystemdNotifier: Sendable {
    /// The socket path; a leading `@` names Linux's abstract namespace.
    public let socketPath: String

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// The notifier of `NOTIFY_SOCKET`, or nil when systemd did not set it.
    public static func fromEnvironment() -> SystemdNotifier? {
        guard let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        return SystemdNotifier(socketPath: path)
    }

    /// Sends `state` (e.g. `READY=1`); returns whether the datagram went out. Failures are not errors: the
    /// service runs on, and systemd, missing the beats, restarts it.
    @discardableResult
    public func send(_ state: String) -> Bool {
        #if os(Linux)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !path.isEmpty, path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (i, byte) in path.enumerated() { bytes[i] = byte }
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        let bytes = Array(state.utf8)
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, bytes, bytes.count, flags, socketAddress, length)
            }
        }
        return sent == bytes.count
    }
}
