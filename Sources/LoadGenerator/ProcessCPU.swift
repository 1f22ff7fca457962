// CPU time of processes from /proc (the services) and of this process (getrusage): CPU per answer, the
// measure that holds on any machine, and the generator's own share.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum ProcessCPU {
    /// utime + stime of `pid` in nanoseconds, from /proc/PID/stat; nil when unreadable.
    public static func nanos(pid: Int32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return nanos(statLine: text)
    }

    /// The CPU of a /proc/PID/stat line: fields 14 and 15 (after the parenthesised command, which may hold spaces).
    public static func nanos(statLine text: String) -> UInt64? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state): utime is field 14, stime 15.
        guard fields.count > 13, let utime = UInt64(fields[11]), let stime = UInt64(fields[12]) else { return nil }
        let ticks = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        return (utime + stime) * 1_000_000_000 / ticks
    }

    /// This process's user + system CPU in nanoseconds.
    public static func selfNanos() -> UInt64 {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1000 }
        return ns(usage.ru_utime) + ns(usage.ru_stime)
    }

    /// The processes named `names` (their /proc/PID/comm, which the kernel cuts to 15 bytes), the first found
    /// of each; a name not running is left out.
    public static func discover(_ names: [String]) -> [(name: String, pid: Int32)] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var found: [String: Int32] = [:]
        for entry in entries {
            guard let pid = Int32(entry), pid != getpid(),
                let comm = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)
            else { continue }
            let name = comm.trimmingCharacters(in: .whitespacesAndNewlines)
            for wanted in names where String(wanted.prefix(15)) == name {
                if found[wanted].map({ pid < $0 }) ?? true { found[wanted] = pid }
            }
        }
        return names.compactMap { name in found[name].map { (name, $0) } }
    }

    /// `static=123,realtime=456,gateway=789`.
    public static func parsePids(_ text: String) throws(WorkloadError) -> [(name: String, pid: Int32)] {
        var out: [(String, Int32)] = []
        for item in text.split(separator: ",") {
            let p = item.split(separator: "=").map(String.init)
            guard p.count == 2, !p[0].isEmpty, let pid = Int32(p[1]), pid > 0 else {
                throw WorkloadError("--pids \(text): expected NAME=PID[,NAME=PID…], e.g. static=123,gateway=789")
            }
            out.append((p[0], pid))
        }
        guard !out.isEmpty else { throw WorkloadError("--pids: no NAME=PID given") }
        return out
    }
}

/// CPU of the services and of the generator over the measured window.
public struct CPUMeter: Sendable {
    public var services: [(name: String, pid: Int32)]
    private var before: [UInt64?] = []
    private var after: [UInt64?] = []
    private var selfBefore: UInt64 = 0
    private var selfAfter: UInt64 = 0
    private var wallBefore: UInt64 = 0
    private var wallAfter: UInt64 = 0

    /// The wall clock (unix seconds) when the window started: second `i` of the timeline is
    /// [windowStartUnix + i, windowStartUnix + i + 1), to line it up with the services' logs.
    public private(set) var windowStartUnix: Double?

    public init(services: [(name: String, pid: Int32)]) { self.services = services }

    public mutating func start(now: UInt64) {
        before = services.map { ProcessCPU.nanos(pid: $0.pid) }
        selfBefore = ProcessCPU.selfNanos()
        wallBefore = now
        windowStartUnix = Date().timeIntervalSince1970
    }

    public mutating func stop(now: UInt64) {
        after = services.map { ProcessCPU.nanos(pid: $0.pid) }
        selfAfter = ProcessCPU.selfNanos()
        wallAfter = now
    }

    /// Per service: CPU seconds in the window (nil when /proc could not be read at both ends).
    public var serviceSeconds: [(name: String, pid: Int32, seconds: Double?)] {
        services.enumerated().map { i, s in
            guard i < before.count, i < after.count, let b = before[i], let a = after[i], a >= b else {
                return (s.name, s.pid, nil)
            }
            return (s.name, s.pid, Double(a - b) / 1e9)
        }
    }

    public var generatorSeconds: Double { Double(selfAfter &- selfBefore) / 1e9 }
    public var wallSeconds: Double { Double(wallAfter &- wallBefore) / 1e9 }
}
