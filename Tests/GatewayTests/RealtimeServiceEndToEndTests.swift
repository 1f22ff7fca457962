import Foundation
import RealtimeService
import Testing
import TransitModel
@testable import Gateway

/// The gateway's subscriber against the real realtime service's publishing side (`RealtimeSockets`: its
/// `RealtimeHub` behind real PUB and REP sockets), in process: late join, then live changes.
@Suite struct RealtimeServiceEndToEndTests {
    @Test func theGatewayFollowsTheRealPublisher() async throws {
        let pub = SampleDatabase.uniqueURL("hubpub")
        let rep = SampleDatabase.uniqueURL("hubrep")
        let sockets = try RealtimeSockets(listen: rep, publish: pub)
        defer { sockets.stop() }
        let at = SampleTimes.mondayEvening
        let now = Int64(Date().timeIntervalSince1970)
        func update(delay: Int64) -> LiveChanges {
            var changes = LiveChanges()
            changes.trips = [LiveFixtures.trip("T1.WKD.1.1940", routeId: "ST_T1", stops: [
                ("20006017", at + 900, at + 900 + delay), ("21351004", at + 1800, at + 1800 + delay),
            ], firstSequence: 6)]
            return changes
        }
        // Published before the gateway exists: it learns it from the snapshot.
        sockets.hub.publish(update(delay: 120), sources: [LiveFixtures.freshSource(now: now)])

        try await withGateway(configure: {
            $0.subscribeURL = pub
            $0.realtimeURL = rep
        }) { fixture in
            try await eventually("the gateway hears the publisher") {
                sockets.hub.heartbeat()
                return fixture.realtime.read().status == .ok
            }
            let client = try fixture.client()
            let request = #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":10}"#
            func delayOfTheT1() async throws -> Int? {
                let board = try await client.ask(request)
                #expect(board.meta["source"] as? String == "static+rt", "\(board)")
                return board.list("departures").first { $0["trip_id"] as? String == "T1.WKD.1.1940" }?["delay_s"] as? Int
            }
            #expect(try await delayOfTheT1() == 120)

            sockets.hub.publish(update(delay: 300), sources: nil)
            try await eventually("the change arrives") { try await delayOfTheT1() == 300 }

            let health = try await client.ask(#"{"op":"health"}"#)
            let realtime = health.data["realtime"] as? [String: Any]
            #expect(realtime?["status"] as? String == "ok")
            #expect((realtime?["sources"] as? [[String: Any]])?.first?["name"] as? String == "tu")
        }
    }
}
