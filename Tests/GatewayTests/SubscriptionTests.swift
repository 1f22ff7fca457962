import Foundation
import GatewayProtocol
import ProcessSupport
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// subscribe / unsubscribe (GATEWAY.md): the ack, the first board, pushes when the live state changes it.
@Suite struct SubscriptionTests {
    @Test func subscribeAcksThenSendsTheBoardAndUnsubscribeStopsIt() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            try client.sendLines([#"{"id":11,"op":"subscribe","topic":"departures","stop_id":"200060","limit":3}"#])
            let ack = try JSONLine(try await client.readLine())
            #expect(ack.ok, "\(ack)")
            #expect(ack.data["sub"] as? Int == 1)
            #expect(ack.data["topic"] as? String == "departures")
            #expect(ack.data["stop_id"] as? String == "200060")
            #expect(ack.data["limit"] as? Int == 3)
            #expect(ack.meta["op"] as? String == "subscribe")
            let event = try JSONLine(try await client.readLine())
            #expect(event.event == "departures")
            #expect(event.object["sub"] as? Int == 1)
            #expect(event.object["id"] == nil && event.object["ok"] == nil)
            #expect(event.list("departures").count <= 3)
            #expect(event.meta["source"] as? String == "static_only")

            let second = try await client.ask(#"{"id":12,"op":"subscribe","topic":"departures","stop_id":"200070"}"#)
            #expect(second.data["sub"] as? Int == 2)
            #expect(try JSONLine(try await client.readLine()).object["sub"] as? Int == 2)

            let stats = try await client.ask(#"{"op":"health"}"#)
            #expect((stats.data["gateway"] as? [String: Any])?["subscriptions"] as? Int == 2)

            let gone = try await client.ask(#"{"id":13,"op":"unsubscribe","sub":1}"#)
            #expect(gone.ok)
            #expect(gone.data["sub"] as? Int == 1 && gone.data["unsubscribed"] as? Bool == true)
            let again = try await client.ask(#"{"id":14,"op":"unsubscribe","sub":1}"#)
            #expect(again.errorCode == "NOT_FOUND")
        }
    }

    @Test func pipelinedSubscribeAndUnsubscribeAreTakenInRequestOrder() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            try client.sendLines([
                #"{"id":1,"op":"subscribe","topic":"departures","stop_id":"200060","limit":1}"#,
                #"{"id":2,"op":"subscribe","topic":"departures","stop_id":"999999"}"#,
                #"{"id":3,"op":"subscribe","topic":"departures","stop_id":"200070","limit":1}"#,
                #"{"id":4,"op":"unsubscribe","sub":1}"#,
                #"{"id":5,"op":"unsubscribe","sub":3}"#,
                #"{"id":6,"op":"unsubscribe","sub":2}"#,
            ])
            let lines = try await client.readLines(8).map { try JSONLine($0) }
            #expect(lines[0].id as? Int == 1 && lines[0].data["sub"] as? Int == 1)
            #expect(lines[1].event == "departures" && lines[1].object["sub"] as? Int == 1)
            // A failed subscribe uses up its id: the next one is 3, as a client counting requests expects.
            #expect(lines[2].id as? Int == 2 && lines[2].errorCode == "NOT_FOUND")
            #expect(lines[3].id as? Int == 3 && lines[3].data["sub"] as? Int == 3)
            #expect(lines[4].event == "departures" && lines[4].object["sub"] as? Int == 3)
            #expect(lines[5].id as? Int == 4 && lines[5].data["unsubscribed"] as? Bool == true)
            #expect(lines[6].id as? Int == 5 && lines[6].ok)
            #expect(lines[7].id as? Int == 6 && lines[7].errorCode == "NOT_FOUND")
        }
    }

    @Test func subscribeErrors() async throws {
        try await withGateway(configure: { $0.maxSubscriptions = 2 }) { fixture in
            let client = try fixture.client()
            let unknown = try await client.ask(#"{"id":1,"op":"subscribe","topic":"departures","stop_id":"999999"}"#)
            #expect(unknown.errorCode == "NOT_FOUND")
            let topic = try await client.ask(#"{"id":2,"op":"subscribe","topic":"vehicles","stop_id":"200060"}"#)
            #expect(topic.errorCode == "INVALID_ARGUMENT")
            for id in 3...4 {
                #expect(
                    try await client.ask(#"{"id":\#(id),"op":"subscribe","topic":"departures","stop_id":"200060"}"#).ok)
                _ = try await client.readLine()  // its first event
            }
            let tooMany = try await client.ask(#"{"id":5,"op":"subscribe","topic":"departures","stop_id":"200060"}"#)
            #expect(tooMany.errorCode == "INVALID_ARGUMENT")
            #expect(tooMany.errorMessage?.contains("2 subscriptions") == true)
        }
    }

    @Test func planSubscriptionsCountInTheSameLimit() async throws {
        try await withGateway(configure: { $0.maxSubscriptions = 2 }) { fixture in
            let client = try fixture.client()
            #expect(try await client.ask(#"{"id":1,"op":"subscribe","topic":"departures","stop_id":"200060"}"#).ok)
            _ = try await client.readLine()  // its first event
            let plan =
                #"{"op":"subscribe","topic":"plan","from":{"stop_id":"200060"},"to":{"stop_id":"206710"},"#
                + #""at":1766394000}"#
            let first = try await client.ask(plan.replacingOccurrences(of: "{\"op\"", with: "{\"id\":2,\"op\""))
            #expect(first.ok, "\(first.object)")
            _ = try await client.readLine()  // its first event
            let tooMany = try await client.ask(plan.replacingOccurrences(of: "{\"op\"", with: "{\"id\":3,\"op\""))
            #expect(tooMany.errorCode == "INVALID_ARGUMENT")
            #expect(tooMany.errorMessage?.contains("2 subscriptions") == true)
            // Unsubscribing the departures board makes room for the plan.
            #expect(try await client.ask(#"{"id":4,"op":"unsubscribe","sub":1}"#).ok)
            #expect(try await client.ask(plan.replacingOccurrences(of: "{\"op\"", with: "{\"id\":5,\"op\"")).ok)
        }
    }

    @Test func aChangeOfTheLiveStateIsPushed() async throws {
        let view = RealtimeView(configured: true)
        // A subscription's board is at the gateway's now: pinned, so that the next departures (and whether the
        // delayed one stays among the first two) do not depend on the time of day.
        try await withGateway(
            realtime: view,
            configure: {
                $0.subscriptionInterval = .milliseconds(100)
                $0.clock = ServiceClock(start: Double(SampleTimes.mondayEvening), rate: 0)
            }
        ) { fixture in
            let client = try fixture.client()
            _ = try await client.ask(#"{"id":1,"op":"subscribe","topic":"departures","stop_id":"200060","limit":2}"#)
            let first = try JSONLine(try await client.readLine())
            let row = try #require(first.list("departures").first)
            let scheduled = Int64(row["scheduled_unix"] as? Int ?? 0)
            let key = TripInstanceKey(
                tripId: row["trip_id"] as? String ?? "", serviceDate: UInt32(row["service_date"] as? String ?? "") ?? 0,
                staticStartTime: row["start_time"] as? String)
            let stop = LiveStop(
                stopId: row["stop_id"] as? String ?? "", stopSequence: UInt32(row["stop_sequence"] as? Int ?? 0),
                predictedDeparture: scheduled + 90, status: .predicted)
            view.replace(
                RealtimeState(
                    trips: [TripPrediction(key: key, stops: [stop], source: "tu")],
                    sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)]))

            let pushed = try JSONLine(try await client.readLine(timeout: .seconds(3)))
            #expect(pushed.event == "departures")
            #expect(pushed.object["sub"] as? Int == 1)
            #expect(pushed.meta["source"] as? String == "static+rt")
            let updated = pushed.list("departures").first { $0["trip_id"] as? String == key.tripId }
            #expect(updated?["status"] as? String == "late")
            #expect((updated?["delay_badge"] as? [String: Any])?["text"] as? String == "+2 min")

            // The same state again changes nothing: no event.
            view.replace(
                RealtimeState(
                    trips: [TripPrediction(key: key, stops: [stop], source: "tu")],
                    sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)]))
            await #expect(throws: LineClient.TimedOut.self) {
                _ = try await client.readLine(timeout: .milliseconds(400))
            }

            // After unsubscribe no event of it follows.
            let gone = try await client.ask(#"{"id":2,"op":"unsubscribe","sub":1}"#)
            #expect(gone.ok, "\(gone)")
            view.replace(RealtimeState(sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)]))
            await #expect(throws: LineClient.TimedOut.self) {
                _ = try await client.readLine(timeout: .milliseconds(400))
            }
        }
    }
}
