import Foundation
import Logging
import NNGKit
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
}
