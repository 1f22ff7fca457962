import Foundation
import Testing
import TransitTesting

enum Tmux {
    static let path = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}

/// The real `transit board` (.build/debug) in a pseudo-terminal (tmux) against the three services started by
/// Services/launch from the debug build (LAUNCH_BIN) with a frozen clock: the screen shows the board, with
/// colour, and q quits.
@Suite(
    .enabled(if: BuiltExecutables.path("transit") != nil, "build the executables first (swift build)"),
    .enabled(if: Tmux.path != nil, "tmux is not installed (scripts/install-deps installs it)"),
    .timeLimit(.minutes(1))
)
struct BoardEndToEndTests {
    /// Runs a program to its end (at most 10 s) and returns its status and standard output (through a file:
    /// `tmux new-session` leaves a server behind that would keep a pipe open).
    @discardableResult
    static func run(_ path: String, _ arguments: [String], scratch: String) throws -> (status: Int32, output: String) {
        let output = scratch + "/run-\(UUID().uuidString).out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let pid = try spawn(path, arguments, environment: ProcessInfo.processInfo.environment, output: output)
        var status: Int32 = 0
        var reaped = false
        for _ in 0..<1000 {
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                break
            }
            usleep(10_000)
        }
        if !reaped {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exit, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    /// Starts `path` with its output in the file `output`, with no signal blocked and TERM, INT and HUP at
    /// their defaults: a child of Foundation's `Process` inherits the test runner's blocked signals, and a
    /// launcher that cannot get its TERM would never stop its services.
    static func spawn(_ path: String, _ arguments: [String], environment: [String: String], output: String) throws
        -> pid_t
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        return pid
    }

    /// TERM, then KILL after 10 s; reaps it.
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    @Test func theLiveBoardInATerminal() async throws {
        let tmux = try #require(Tmux.path)
        let transit = try #require(BuiltExecutables.path("transit"))
        let bin = URL(fileURLWithPath: transit).deletingLastPathComponent().path
        let state = try TemporaryFolder("transit-board-e2e")
        let port = try FreePort.tcp()

        // The services, as a user starts them, from the debug build, with the clock frozen at 20:00 (Sydney).
        var environment = ProcessInfo.processInfo.environment
        environment["LAUNCH_BIN"] = bin
        environment["TFNSW_API_KEY"] = nil
        let log = state.path + "/launch.log"
        let launcher = try Self.spawn(
            Repository.path("Services/launch"),
            [
                "--clock", "1766394000", "--clock-rate", "0", "--port", "\(port)", "--http-port",
                "\(try FreePort.tcp())", "--state", state.path + "/state",
            ],
            environment: environment, output: log)
        defer { Self.stop(launcher) }
        let ready = await eventually(timeout: .seconds(15), interval: .milliseconds(100)) {
            (try? String(contentsOfFile: log, encoding: .utf8))?.contains("Ready.") == true
        }
        try #require(ready, "the launcher did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")

        // The board in a 100×30 pseudo-terminal of a private tmux server.
        let server = "transit-e2e-\(getpid())"
        let session = "board"
        let command =
            "env -u NO_COLOR COLORTERM=truecolor \(transit) board 'Central Station' --gateway 127.0.0.1:\(port) --limit 6"
        try Self.run(
            tmux,
            ["-L", server, "-f", "/dev/null", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command],
            scratch: state.path)
        defer { try? Self.run(tmux, ["-L", server, "kill-server"], scratch: state.path) }

        var screen = ""
        let drawn = await eventually(timeout: .seconds(10), interval: .milliseconds(200)) {
            screen =
                (try? Self.run(tmux, ["-L", server, "capture-pane", "-p", "-t", session], scratch: state.path).output)
                ?? ""
            return screen.contains("Central Station · 200060") && screen.contains("Sydenham")
        }
        try #require(drawn, "the board did not appear:\n\(screen)")
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("20:00:"))  // the services' frozen clock (ticking on locally between boards)
        #expect(screen.contains("▲ Reduced service"))
        #expect(screen.contains("ROUTE  DESTINATION"))
        #expect(lines.contains { $0.hasPrefix(" M1 ") && $0.contains("20:03") })
        #expect(screen.contains("q quit · live"))
        // Colours: M1's badge in its route colour, 24-bit (COLORTERM=truecolor).
        let colored = try Self.run(
            tmux, ["-L", server, "capture-pane", "-p", "-e", "-t", session], scratch: state.path
        ).output
        #expect(colored.contains("48;2;22;131;136"), "\(colored)")

        // q quits: the program ends, so does its tmux session.
        try Self.run(tmux, ["-L", server, "send-keys", "-t", session, "q"], scratch: state.path)
        let ended = await eventually(timeout: .seconds(5), interval: .milliseconds(100)) {
            (try? Self.run(tmux, ["-L", server, "has-session", "-t", session], scratch: state.path).status) != 0
        }
        #expect(ended, "transit board did not quit on q")

        // A name that matches several stops lists them (name, id, mode) and exits 2.
        let ambiguous = try Self.run(
            transit, ["board", "central", "--gateway", "127.0.0.1:\(port)"], scratch: state.path)
        #expect(ambiguous.status == 2, "\(ambiguous.output)")
        #expect(ambiguous.output.contains("matches 2 stops"), "\(ambiguous.output)")
        #expect(ambiguous.output.contains("Central Station                     200060   train"), "\(ambiguous.output)")
        // Not a terminal: the board is printed once, without colours.
        let printed = try Self.run(
            transit, ["board", "200060", "--gateway", "127.0.0.1:\(port)", "--limit", "3"], scratch: state.path)
        #expect(
            printed.status == 0 && printed.output.contains("ROUTE  DESTINATION") && !printed.output.contains("\u{1B}["))
    }

    /// README's `transit nearby -33.8731 151.2067` reads the negative latitude as a number (it used to be taken
    /// for an option), and usage errors exit 2 as `--help` and README say (ArgumentParser's own code is 64).
    @Test func negativeCoordinatesParseAndUsageErrorsExit2() throws {
        let transit = try #require(BuiltExecutables.path("transit"))
        let scratch = try TemporaryFolder("transit-usage")
        let port = try FreePort.tcp()
        // Parsed: it gets as far as the gateway, which is not there (3).
        let parsed = try Self.run(
            transit, ["nearby", "-33.8731", "151.2067", "--gateway", "127.0.0.1:\(port)", "--timeout", "1"],
            scratch: scratch.path)
        #expect(parsed.status == 3, "\(parsed.output)")
        #expect(parsed.output.contains("cannot reach the gateway"))
        let lonFirst = try Self.run(
            transit,
            ["nearby", "--radius", "300", "-33.8731", "-70.6", "--gateway", "127.0.0.1:\(port)", "--timeout", "1"],
            scratch: scratch.path)
        #expect(lonFirst.status == 3, "\(lonFirst.output)")
        for arguments in [
            ["nearby"], ["nearby", "--bogus", "1", "2"], ["nearby", "north", "151.2"], ["no-such-command"],
        ] {
            let usage = try Self.run(transit, arguments, scratch: scratch.path)
            #expect(usage.status == 2, "\(arguments): \(usage.status) \(usage.output)")
        }
        #expect(try Self.run(transit, ["--help"], scratch: scratch.path).status == 0)
    }

    /// No gateway: a message that says how to start one, exit code 3.
    @Test func aGatewayThatIsDownIsSaidSo() throws {
        let transit = try #require(BuiltExecutables.path("transit"))
        let scratch = try TemporaryFolder("transit-down")
        let port = try FreePort.tcp()
        let start = ContinuousClock.now
        let result = try Self.run(
            transit, ["health", "--gateway", "127.0.0.1:\(port)", "--timeout", "1"], scratch: scratch.path)
        #expect(result.status == 3)
        #expect(result.output.contains("cannot reach the gateway at 127.0.0.1:\(port) (Connection refused)"))
        #expect(result.output.contains("Services/launch"))
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
