import Testing
import TransitModel

@testable import GatewayProtocol

/// The table of ops (`GatewayOpKind`): every op has a distinct name that round-trips, the names are GATEWAY.md's,
/// and the parser and `GatewayOp.kind` agree with the table.
@Suite struct GatewayOpKindTests {
    @Test func everyOpHasADistinctNameThatRoundTrips() {
        let names = GatewayOpKind.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        for op in GatewayOpKind.allCases {
            #expect(!op.name.isEmpty)
            #expect(GatewayOpKind(name: op.name) == op, "\(op.name)")
        }
        #expect(GatewayOpKind(name: "feedInfo") == nil, "the Swift case name is not the wire name")
        #expect(GatewayOpKind(name: "") == nil)
    }

    /// The wire names are a contract (GATEWAY.md): the list, in its order, as it was before the table.
    @Test func theNamesAreTheProtocols() {
        #expect(
            GatewayOpKind.allCases.map(\.name) == [
                "health", "feed_info", "stop", "search", "nearby", "routes", "route", "shape", "stops_in_bbox",
                "departures", "trip", "alerts", "vehicles", "reliability", "plan", "subscribe", "unsubscribe", "stats",
                "auth",
            ])
        #expect(GatewayOpKind.nameList.hasPrefix("health, feed_info, stop, "))
        #expect(GatewayOpKind.subscriptionTopicNames == ["departures", "plan"])
    }

    /// A line naming each op parses to that op (or fails with that op recognised, for the ops with required
    /// fields): the parser's name → op and `GatewayOp.kind` give back the table's op.
    @Test func everyOpParsesFromItsName() {
        for op in GatewayOpKind.allCases {
            switch GatewayRequest.parse(#"{"op":"\#(op.name)"}"#) {
            case .success(let request): #expect(request.op.kind == op)
            case .failure(let failure): #expect(failure.op == op, "\(op.name): \(failure.error)")
            }
        }
    }

    @Test func theAnswerNamesItsOp() throws {
        for op in GatewayOpKind.allCases {
            let object = try answer(op) { $0.null() }
            #expect(try sub(object, "meta")["op"] as? String == op.name)
        }
    }
}
