import Foundation
import Testing
import TransitTesting

extension Trait where Self == ConditionTrait {
    /// The launcher's suites run the built executables and talk to them with nc.
    static var launcherStack: Self {
        .enabled(
            if: BuiltExecutables.path("transit-realtime") != nil && BuiltExecutables.netcat != nil,
            "needs the built executables and nc")
    }
}

/// Running `Services/launch` from a test: started on built executables (LAUNCH_BIN) with the signals a shell would
/// give it, and its processes found and killed whatever the test's outcome.
enum LauncherProcess {
    /// The launcher with `arguments`, `environment` added (TFNSW_API_KEY removed: no real feed).
    static func start(bin: String, _ arguments: [String], environment: [String] = []) throws -> ChildProcess {
        // The test process ignores SIGTERM and SIGINT (swift-service-lifecycle handles them through a dispatch
        // source), a child inherits that, and bash cannot trap a signal ignored when it started: python3
        // restores the default dispositions and mask, then runs the launcher in its place.
        let restoreSignals =
            "import os, signal, sys; [signal.signal(s, signal.SIG_DFL) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)]; "
            + "signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp(sys.argv[1], sys.argv[1:])"
        return try ChildProcess(
            "/usr/bin/env",
            ["-u", "TFNSW_API_KEY", "LAUNCH_BIN=\(bin)"] + environment + [
                "python3", "-c", restoreSignals, Repository.path("Services/launch"),
            ] + arguments)
    }

    /// A folder of the built executables where `transit-static` is a shell script: `prefix` (shell lines; `$1` is
    /// the subcommand), then the built executable in its place.
    static func binaries(in folder: TemporaryFolder, staticPrefix prefix: String) throws -> String {
        let built = URL(fileURLWithPath: BuiltExecutables.path("transit-gateway")!).deletingLastPathComponent()
        let bin = folder.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in ["transit-gateway", "transit-realtime", "transit-bench", "transit-feedgen"] {
            try FileManager.default.createSymbolicLink(
                atPath: "\(bin)/\(name)", withDestinationPath: built.appendingPathComponent(name).path)
        }
        let script = """
            #!/bin/sh
            \(prefix)
            exec '\(built.appendingPathComponent("transit-static").path)' "$@"

            """
        try script.write(toFile: "\(bin)/transit-static", atomically: true, encoding: .utf8)
        chmod("\(bin)/transit-static", 0o755)
        return bin
    }

    /// SIGKILL to the launcher and every process below it (no launcher or service outlives a test).
    static func kill(_ launcher: ChildProcess) {
        let family = descendants(of: launcher.process.processIdentifier)
        launcher.signal(SIGKILL)
        for pid in family where alive(pid) { Foundation.kill(pid, SIGKILL) }
    }

    /// Every process below `pid` now (from /proc).
    static func descendants(of pid: Int32) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry), let parent = parentAndState(child)?.parent else { continue }
            children[parent, default: []].append(child)
        }
        var found: [Int32] = [], todo = [pid]
        while let next = todo.popLast() {
            for child in children[next] ?? [] {
                found.append(child)
                todo.append(child)
            }
        }
        return found
    }

    /// The parent and state letter of `pid` (nil: gone).
    static func parentAndState(_ pid: Int32) -> (parent: Int32, state: String)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
        return (parent, String(fields[0]))
    }

    /// Alive and not a zombie.
    static func alive(_ pid: Int32) -> Bool {
        guard let state = parentAndState(pid)?.state else { return false }
        return state != "Z"
    }

    /// What a process is, for a failure's message: its state and command line from /proc.
    static func describe(_ pid: Int32) -> String {
        let state = parentAndState(pid)?.state ?? "?"
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else {
            return "\(pid) [\(state)]"
        }
        let line = String(decoding: bytes.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        return "\(pid) [\(state)] \(line)"
    }

}
