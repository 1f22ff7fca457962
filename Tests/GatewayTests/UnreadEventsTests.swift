import Foundation
import ProcessSupport
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// A subscriber that does not read its events holds its place only up to `maxUnreadEventBytes` of them
/// (GATEWAY.md §1 "idle").
@Suite struct UnreadEventsTests {
    @Test func aSubscriberThatDoesNotReadIsClosedPastItsUnreadBytes() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(
            realtime: view,
            configure: {
                $0.subscriptionInterval = .milliseconds(50)
                $0.maxUnreadEventBytes = 64 * 1024
                $0.clock = ServiceClock(start: Double(SampleTimes.mondayEvening), rate: 0)
            }
        ) { fixture in
            // Sixteen boards of 100 rows, then nothing read (a small receive buffer: the system takes little).
            let client = try LineClient(port: fixture.port, receiveBuffer: 4096)
            try client.sendLines(
                (1...16).map { #"{"id":\#($0),"op":"subscribe","topic":"departures","stop_id":"200060","limit":100}"# })
            let reader = try fixture.client()
            let board = try await reader.ask(#"{"op":"departures","stop_id":"200060","limit":1}"#)
            let row = try #require(board.list("departures").first)
            let key = TripInstanceKey(
                tripId: row["trip_id"] as? String ?? "", serviceDate: UInt32(row["service_date"] as? String ?? "") ?? 0,
                staticStartTime: row["start_time"] as? String)
            let scheduled = Int64(row["scheduled_unix"] as? Int ?? 0)
            // Every change moves the first row's prediction: each board differs from the last, each is pushed.
            let deadline = ContinuousClock.now + .seconds(20)
            var delay: Int64 = 60
            while fixture.gateway.services.stats.summary().closedUnreadEvents == 0, ContinuousClock.now < deadline {
                delay += 60
                let stop = LiveStop(
                    stopId: row["stop_id"] as? String ?? "", stopSequence: UInt32(row["stop_sequence"] as? Int ?? 0),
                    predictedDeparture: scheduled + delay, status: .predicted)
                view.replace(
                    RealtimeState(
                        trips: [TripPrediction(key: key, stops: [stop], source: "tu")],
                        sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)]))
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(fixture.gateway.services.stats.summary().closedUnreadEvents == 1)
            #expect(try await client.waitForClose(timeout: .seconds(5)))
            // The gateway and another client are unaffected.
            #expect(try await reader.ask(#"{"op":"health"}"#).ok)
        }
    }
}
