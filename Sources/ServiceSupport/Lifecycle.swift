import Logging
import ServiceLifecycle
import UnixSignals

/// Runs `services` in one `ServiceGroup` until SIGTERM or SIGINT, which shuts them down gracefully one after
/// another, the last listed first. Throws what a service threw.
public func runUntilStopped(_ services: [any Service], logger: Logger) async throws {
    let group = ServiceGroup(
        services: services, gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [], logger: logger)
    try await group.run()
}

/// A `Service` that runs `action` each time the process receives `signal` (one at a time; a signal that
/// arrives during an action runs it once more after), until graceful shutdown.
///
/// `init` installs the handler: from then on the signal no longer has its default action (for SIGHUP, ending
/// the process). Create it before the services report ready, so a signal sent on "ready" is never lost.
public struct SignalAction: Service {
    private let signals: UnixSignalsSequence
    private let action: @Sendable () async -> Void

    public init(_ signal: UnixSignal, action: @escaping @Sendable () async -> Void) async {
        signals = await UnixSignalsSequence(trapping: signal)
        self.action = action
    }

    public func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            await action()
        }
    }
}
