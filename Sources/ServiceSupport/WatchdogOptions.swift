import ArgumentParser
import Logging
import ProcessSupport
import ServiceLifecycle

/// `--watchdog-file`: where a service writes its heartbeat (`WatchdogNotifier`) for a supervisor to watch
/// (Services/launch). Under systemd (`NOTIFY_SOCKET` set, `Type=notify`, `WatchdogSec=`) the same beats go to
/// systemd as `WATCHDOG=1`, with or without the file.
public struct WatchdogOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "Write a heartbeat line here every second while every loop of the service moves ('<unix seconds> ok'; "
                + "'late: …' naming the stuck loop when one does not), for a supervisor to restart a hung service.",
            valueName: "file"))
    public var watchdogFile: String?

    public init() {}

    /// The service that beats for `watchdog` while the process runs.
    public func service(_ watchdog: Watchdog, logger: Logger) -> WatchdogService {
        WatchdogService(
            notifier: WatchdogNotifier(watchdog: watchdog, file: watchdogFile) { line in logger.warning("\(line)") })
    }
}

/// Runs a `WatchdogNotifier` from the start of the service group until graceful shutdown (`READY=1` at the start,
/// `STOPPING=1` at the end, for systemd).
public struct WatchdogService: Service {
    public let notifier: WatchdogNotifier

    public init(notifier: WatchdogNotifier) {
        self.notifier = notifier
    }

    public func run() async throws {
        notifier.start()
        try? await gracefulShutdown()
        notifier.stop()
    }
}
