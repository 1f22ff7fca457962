import Foundation
import Testing
import TransitTesting

/// Stopping leaves nothing behind, even a process that outlived the one that started it. Here the static service
/// is a wrapper that starts a stray (`sleep`, with an argument no other process has) before it serves: when the
/// service stops, the stray is an orphan. SIGTERM to the launcher kills it and names it. (CI once saw a process
/// outlive its supervisor; it kept the launcher's output open for 20 s.)
@Suite(.launcherStack)
struct LauncherStopTests {
    @Test func aProcessLeftBehindIsKilledAndNamed() async throws {
        let folder = try TemporaryFolder("launch-stray")
        let seconds = "\(Int.random(in: 1_000...9_999)).5"
        let bin = try LauncherProcess.binaries(
            in: folder, staticPrefix: "if [ \"$1\" = serve ]; then sleep \(seconds) & fi")

        let port = try FreePort.block(offsets: [0, 1])
        let launcher = try LauncherProcess.start(
            bin: bin,
            [
                "--state", folder.path("state"), "--port", "\(port)", "--http-port", "\(port + 1)", "--clock",
                "2026-11-23T08:00:00+11:00",
            ])
        defer { LauncherProcess.kill(launcher) }
        let ended = await eventually(timeout: .seconds(60), interval: .milliseconds(100)) {
            launcher.stdout.contains("Ready.") || !launcher.process.isRunning
        }
        try #require(ended && launcher.process.isRunning, "\(launcher.stdout)\(launcher.stderr)")
        let stray = try #require(
            LauncherProcess.descendants(of: launcher.process.processIdentifier).first {
                LauncherProcess.describe($0).contains("] sleep \(seconds)")
            }, "the wrapper's sleep runs")

        launcher.signal(SIGTERM)
        let status = try await launcher.waitForExit(timeout: .seconds(20))
        #expect(status == 0, "\(launcher.stdout.suffix(800))")
        #expect(
            launcher.stdout.contains("a process was left behind, killed: \(stray) sleep \(seconds)"),
            "\(launcher.stdout.suffix(800))")
        #expect(!LauncherProcess.alive(stray))
    }
}
