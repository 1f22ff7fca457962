import Foundation
import Gateway
import ServiceLifecycle
import Testing

/// As a `Service` in a `ServiceGroup` (how `transit-gateway serve` runs it): it answers until graceful
/// shutdown, which closes the open connections and the listener before `run` returns.
@Suite struct LifecycleTests {
    @Test func servesUntilGracefulShutdown() async throws {
        let fixture = try await GatewayFixture()
        let group = ServiceGroup(
            services: [fixture.gateway], gracefulShutdownSignals: [], cancellationSignals: [],
            logger: GatewayFixture.quietLogger)
        let running = Task { try await group.run() }
        let client = try fixture.client()
        try client.send(#"{"id":1,"op":"health"}"# + "\n")
        #expect(try JSONLine(try await client.readLine()).ok)

        await group.triggerGracefulShutdown()
        try await running.value
        #expect(try await client.waitForClose(timeout: .seconds(5)))
        #expect(throws: (any Error).self) { _ = try LineClient(port: fixture.port) }
        fixture.stopStaticService()
    }
}
