import Foundation
import Logging
import NNGKit
import ProcessSupport
import ServiceLifecycle
import StaticService
import Testing
import TransitModel
import TransitProto

/// As a `Service` in a `ServiceGroup` (how `transit-static serve` runs it): it serves until graceful shutdown,
/// then `run` returns and nothing answers any more.
@Suite struct LifecycleTests {
    @Test func servesUntilGracefulShutdown() async throws {
        let service = try ServiceFixture()
        let group = ServiceGroup(
            services: [service.server], gracefulShutdownSignals: [], cancellationSignals: [],
            logger: Logger(label: "group") { _ in SwiftLogNoOpLogHandler() })
        let running = Task { try await group.run() }
        #expect(try await service.askAsync(.feedInfo, id: 1).failure == nil)
        await group.triggerGracefulShutdown()
        try await running.value
        let messages = service.log.all.map(\.message)
        #expect(messages.contains("ready") && messages.last == "stopped")
        #expect(throws: NNGError.self) {
            _ = try service.client.request(
                StaticCodec.encode(StaticRequest(requestId: 2, query: .feedInfo)),
                timeout: .milliseconds(300))
        }
    }

    /// Hang detection: while it serves, a probe answered by a worker advances the watchdog's "request workers"
    /// every second; once the workers are gone (the socket closed, as stuck as they can be) nothing advances it
    /// and it turns late. (Real clock, grace 1.5 s: a probe that ran only once would be late after 4 s.)
    @Test func theWorkerProbeAdvancesTheWatchdogOnlyWhileWorkersAnswer() async throws {
        let watchdog = Watchdog(grace: 1.5)
        let service = try ServiceFixture(contexts: 1, watchdog: watchdog)
        let group = ServiceGroup(
            services: [service.server], gracefulShutdownSignals: [], cancellationSignals: [],
            logger: Logger(label: "group") { _ in SwiftLogNoOpLogHandler() })
        let running = Task { try await group.run() }
        try await Task.sleep(for: .seconds(4))
        #expect(watchdog.componentNames == ["request workers"])
        #expect(watchdog.late().isEmpty)
        service.server.stop()
        try await Task.sleep(for: .seconds(4))
        #expect(watchdog.late().map(\.component) == ["request workers"])
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(watchdog.componentNames.isEmpty)
    }
}
