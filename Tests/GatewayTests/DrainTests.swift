import Foundation
import ProcessSupport
import Testing
import TransitTesting

@testable import Gateway

/// Graceful shutdown (GATEWAY.md §1 "shutdown (draining)"): no new connections; a request already sent is
/// still answered; subscribers hear `{"event":"closing"}`; lines sent after the drain began are not taken;
/// every connection closes; stop ends within the drain timeout.
@Suite struct DrainTests {
    @Test func aRequestInFlightIsAnsweredSubscribersHearClosingAndEveryConnectionCloses() async throws {
        let fixture = try await GatewayFixture(configure: {
            $0.staticTimeout = .seconds(4)
            $0.requestTimeout = .seconds(5)
            $0.staticProbeInterval = .zero
            $0.drainTimeout = .seconds(3)
            $0.clock = ServiceClock(start: Double(SampleTimes.mondayEvening), rate: 0)
        })
        var stopTask: Task<Void, Never>?
        do {
            let subscriber = try fixture.client()
            let ack = try await subscriber.ask(
                #"{"id":1,"op":"subscribe","topic":"departures","stop_id":"200060","limit":2}"#)
            #expect(ack.ok, "\(ack)")
            #expect(try JSONLine(try await subscriber.readLine()).event == "departures")

            // A request that waits on the static service while the drain begins: the service is down now,
            // and comes back after the drain started.
            fixture.stopStaticService()
            let asking = try fixture.client()
            try asking.sendLines([#"{"id":2,"op":"stop","stop_id":"200060"}"#])
            try await Task.sleep(for: .milliseconds(200))

            let gateway = fixture.gateway
            let began = ContinuousClock.now
            stopTask = Task { await gateway.stop() }
            try await Task.sleep(for: .milliseconds(200))
            #expect(throws: (any Error).self, "the listener is closed") { _ = try LineClient(port: fixture.port) }
            // Sent after the drain began: not taken.
            try asking.sendLines([#"{"id":3,"op":"health"}"#])
            try fixture.startStaticService()

            let answers = try await asking.readUntilClosed(timeout: .seconds(6)).map { try JSONLine($0) }
            #expect(answers.count == 1, "\(answers)")
            #expect(answers.first?.ok == true, "the request in flight got its answer: \(answers)")
            #expect(answers.first?.id as? Int == 2)

            let pushed = try await subscriber.readUntilClosed(timeout: .seconds(6)).map { try JSONLine($0) }
            #expect(pushed.last?.event == "closing", "\(pushed)")
            #expect(pushed.last?.object["reason"] as? String == "shutdown")

            await stopTask?.value
            let took = ContinuousClock.now - began
            #expect(took < .seconds(5), "stop took \(took)")
            fixture.stopStaticService()
        } catch {
            stopTask?.cancel()
            await fixture.shutdown()
            throw error
        }
    }

    @Test func aConnectionThatDoesNotReadIsClosedWhenTheDrainTimeoutEnds() async throws {
        let fixture = try await GatewayFixture(startStatic: false) {
            $0.staticTimeout = .seconds(30)
            $0.requestTimeout = .seconds(30)
            $0.staticProbeInterval = .zero
            $0.drainTimeout = .milliseconds(500)
        }
        // Its request waits on a static service that never comes: the drain cannot finish it.
        let stuck = try fixture.client()
        try stuck.sendLines([#"{"id":1,"op":"stop","stop_id":"200060"}"#])
        try await Task.sleep(for: .milliseconds(100))
        let began = ContinuousClock.now
        await fixture.shutdown()
        let took = ContinuousClock.now - began
        #expect(took >= .milliseconds(450), "stop did not wait for the drain: \(took)")
        #expect(took < .seconds(4), "stop took \(took)")
        #expect(try await stuck.waitForClose(timeout: .seconds(2)))
    }
}
