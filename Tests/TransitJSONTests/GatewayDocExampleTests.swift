import Foundation
import Testing
import TransitModel

@testable import TransitJSON

/// The examples in protocol/GATEWAY.md are what the encoder writes for the same values, and the example
/// requests parse into the queries they describe: the contract and the code cannot drift apart.
@Suite struct GatewayDocExampleTests {
    typealias F = Fixtures

    private func encoded(_ id: String, _ meta: ResponseMeta, _ data: (inout JSONWriter) -> Void) throws -> NSDictionary
    {
        let line = GatewayResponse.success(id: RawJSON(bytes: Array(id.utf8)), meta: meta, data: data)
        return try parseLine(line) as NSDictionary
    }

    private func expectSame(
        _ mine: NSDictionary, _ documented: NSDictionary, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let diffs = differences(mine, documented)
        #expect(diffs.isEmpty, "encoder ≠ GATEWAY.md: \(diffs.joined(separator: "; "))", sourceLocation: sourceLocation)
    }

    private func request(_ name: String) throws -> GatewayRequest {
        try GatewayRequest.parse(try GatewayDoc.request(name)).get()
    }

    @Test func stop() throws {
        let r = try request("stop")
        #expect(r.op == .stop(StopQuery(stopId: "200060")))
        let mine = try encoded(r.id.description, ResponseMeta(op: .stop, elapsedMicros: 180)) {
            $0.stopData(F.stopResult)
        }
        expectSame(mine, try GatewayDoc.answer("stop"))
    }

    @Test func departures() throws {
        let r = try request("departures")
        #expect(r.id.description == "\"board-1\"")
        #expect(r.op == .departures(DeparturesQuery(stopId: "200060", at: F.at, direction: .future, limit: 3)))
        let meta = ResponseMeta(op: .departures, elapsedMicros: 640, live: F.liveMeta12)
        let mine = try encoded(r.id.description, meta) { $0.departuresData(F.departuresAnswerWithAlerts, at: F.at) }
        expectSame(mine, try GatewayDoc.answer("departures"))
    }

    @Test func trip() throws {
        let r = try request("trip")
        #expect(r.op == .trip(TripQuery(tripId: "T1.1234.20251222", serviceDate: 20_251_222, at: F.at)))
        let meta = ResponseMeta(op: .trip, elapsedMicros: 410, live: F.liveMeta12)
        let mine = try encoded(r.id.description, meta) {
            $0.tripData(
                F.trip, realtime: F.tripRealtime, at: F.at, alerts: [F.liftAlert], alertIds: [["alert-17"], []],
                typicalDelays: F.tripTypicalDelays)
        }
        expectSame(mine, try GatewayDoc.answer("trip"))
    }

    @Test func reliability() throws {
        let r = try request("reliability")
        let query = ReliabilityQuery(routeId: "T1", stopId: "2000331", hour: 19, dayType: .weekday)
        #expect(r.op == .reliability(query))
        let meta = ResponseMeta(op: .reliability, elapsedMicros: 380, live: F.liveMeta12)
        let mine = try encoded(r.id.description, meta) {
            $0.reliabilityData(ReliabilityAnswer(query: query, window: F.reliabilityWindow))
        }
        expectSame(mine, try GatewayDoc.answer("reliability"))
    }

    @Test func search() throws {
        let r = try request("search")
        #expect(r.op == .search(SearchQuery(query: "central", limit: 2)))
        let mine = try encoded(r.id.description, ResponseMeta(op: .search, elapsedMicros: 260)) {
            $0.stopListData([F.central, F.railwaySquare])
        }
        expectSame(mine, try GatewayDoc.answer("search"))
    }

    @Test func nearby() throws {
        let r = try request("nearby")
        #expect(r.op == .nearby(NearbyQuery(lat: -33.8612, lon: 151.2108, radiusMetres: 300, limit: 1)))
        let mine = try encoded(r.id.description, ResponseMeta(op: .nearby, elapsedMicros: 240)) {
            $0.stopListData([F.circularQuay])
        }
        expectSame(mine, try GatewayDoc.answer("nearby"))
    }

    @Test func routes() throws {
        let r = try request("routes")
        #expect(r.op == .routes(RoutesQuery(mode: "bus")))
        let mine = try encoded(r.id.description, ResponseMeta(op: .routes, elapsedMicros: 300)) {
            $0.routeListData([F.bus333, F.busL90])
        }
        expectSame(mine, try GatewayDoc.answer("routes"))
    }

    @Test func feedInfo() throws {
        let r = try request("feed_info")
        #expect(r.op == .feedInfo)
        let mine = try encoded(r.id.description, ResponseMeta(op: .feedInfo, elapsedMicros: 220)) {
            $0.feedInfoData(F.feedInfo)
        }
        expectSame(mine, try GatewayDoc.answer("feed_info"))
    }

    @Test func alerts() throws {
        let r = try request("alerts")
        #expect(r.op == .alerts(AlertsQuery(selector: .stop("200060"), at: F.at)))
        let meta = ResponseMeta(
            op: .alerts, elapsedMicros: 90, live: LiveMeta(at: F.at, source: .staticAndRealtime, feedAgeSeconds: 40))
        let mine = try encoded(r.id.description, meta) { $0.alertListData([F.liftAlert]) }
        expectSame(mine, try GatewayDoc.answer("alerts"))
    }

    @Test func vehicles() throws {
        let r = try request("vehicles")
        #expect(r.op == .vehicles(VehiclesQuery(selector: .route("T1"))))
        let meta = ResponseMeta(
            op: .vehicles, elapsedMicros: 70, live: LiveMeta(at: F.at, source: .staticAndRealtime, feedAgeSeconds: 10))
        let mine = try encoded(r.id.description, meta) { $0.vehicleListData([F.vehicle]) }
        expectSame(mine, try GatewayDoc.answer("vehicles"))
    }

    /// Every request line shown in GATEWAY.md parses (the ops without an encoder here included).
    @Test func everyRequestLineParses() throws {
        let text = try String(contentsOf: GatewayDoc.url, encoding: .utf8)
        var count = 0
        for line in text.split(separator: "\n")
        where line.hasPrefix("{\"id\":") && line.contains("\"op\":") && !line.contains("\"ok\":") {
            let result = GatewayRequest.parse(String(line))
            if case .failure(let failure) = result { Issue.record("\(line): \(failure.error)") }
            count += 1
        }
        #expect(count >= 13)
    }
}
