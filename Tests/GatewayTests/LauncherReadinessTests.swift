import Foundation
import Testing
import TransitTesting

/// A service that runs but does not answer at start (CI saw a static service that never answered over its ipc
/// listener): the launcher restarts it once, after writing its threads into its log, and gets ready; one that never
/// answers makes the launch fail, saying which. The static service here is a wrapper that stops itself
/// (SIGSTOP) before serving: always, or on its first start only. LAUNCH_READY_S=8: short, yet ample for the
/// services that do start on a loaded machine (they answer within about a second); the watchdog off.
@Suite(.launcherStack)
struct LauncherReadinessTests {
    /// A folder of the built executables with `transit-static serve` stopping itself: on its first start (a marker
    /// folder made once) or on every start.
    private static func binaries(in folder: TemporaryFolder, stopsEveryTime: Bool) throws -> String {
        let stopWhen = stopsEveryTime ? "true" : "mkdir '\(folder.path("stopped-once"))' 2>/dev/null"
        return try LauncherProcess.binaries(
            in: folder, staticPrefix: "if [ \"$1\" = serve ] && \(stopWhen); then kill -STOP $$; fi")
    }

    private static func launch(_ folder: TemporaryFolder, bin: String) throws -> ChildProcess {
        let port = try FreePort.block(offsets: [0, 1])
        return try LauncherProcess.start(
            bin: bin,
            [
                "--state", folder.path("state"), "--port", "\(port)", "--http-port", "\(port + 1)", "--clock",
                "2026-11-23T08:00:00+11:00",
            ],
            environment: ["LAUNCH_READY_S=8", "LAUNCH_WATCHDOG_S=0"])
    }

    @Test func aServiceThatDoesNotAnswerAtStartIsRestartedOnce() async throws {
        let folder = try TemporaryFolder("launch-ready")
        let launcher = try Self.launch(folder, bin: try Self.binaries(in: folder, stopsEveryTime: false))
        defer { LauncherProcess.kill(launcher) }
        let ended = await eventually(timeout: .seconds(90), interval: .milliseconds(100)) {
            launcher.stdout.contains("Ready.") || !launcher.process.isRunning
        }
        try #require(ended && launcher.process.isRunning, "\(launcher.stdout)\(launcher.stderr)")
        #expect(
            launcher.stdout.contains("static did not become ready within 8 s; restarting it once"), "\(launcher.stdout)"
        )
        let log = try String(contentsOfFile: folder.path("state/logs/static.log"), encoding: .utf8)
        #expect(log.contains("not ready: its threads"), "\(log)")
        #expect(log.contains("killed by its supervisor: launch: not ready within 8 s of its start"), "\(log)")
        #expect(log.contains("[StaticService] ready"), "the second start serves: \(log)")
    }

    @Test func aServiceThatNeverAnswersFailsTheLaunch() async throws {
        let folder = try TemporaryFolder("launch-never-ready")
        let launcher = try Self.launch(folder, bin: try Self.binaries(in: folder, stopsEveryTime: true))
        defer { LauncherProcess.kill(launcher) }
        let status = try await launcher.waitForExit(timeout: .seconds(90))
        #expect(status == 1, "\(launcher.stdout)\(launcher.stderr)")
        #expect(launcher.stdout.contains("restarting it once"), "\(launcher.stdout)")
        #expect(launcher.stderr.contains("static did not become ready within 8 s"), "\(launcher.stderr)")
        #expect(!launcher.stdout.contains("Ready."))
    }
}
