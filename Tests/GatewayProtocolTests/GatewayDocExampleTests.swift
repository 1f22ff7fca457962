import Foundation
import Testing
import TransitModel

@testable import GatewayProtocol

/// The encoder writes exactly the examples of EncoderExamples.md for the same values, and their requests
/// parse into the queries they describe; protocol/GATEWAY.md's examples (the launcher's real answers, kept
/// current by scripts/gateway-examples --check) have the same fields and show every documented value: the
/// contract and the code cannot drift apart.
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
        try GatewayRequest.parse(try ExampleBlocks.encoder.request(name)).get()
    }

    @Test func stop() throws {
        let r = try request("stop")
        #expect(r.op == .stop(StopQuery(stopId: "200060")))
        let mine = try encoded(r.id.description, ResponseMeta(op: .stop, elapsedMicros: 180)) {
            $0.stopData(F.stopResult)
        }
        expectSame(mine, try ExampleBlocks.encoder.answer("stop"))
    }

    @Test func departures() throws {
        let r = try request("departures")
        #expect(r.id.description == "\"board-1\"")
        #expect(r.op == .departures(DeparturesQuery(stopId: "200060", at: F.at, direction: .future, limit: 3)))
        let meta = ResponseMeta(op: .departures, elapsedMicros: 640, live: F.liveMeta12)
        let mine = try encoded(r.id.description, meta) { $0.departuresData(F.departuresAnswerWithAlerts, at: F.at) }
        expectSame(mine, try ExampleBlocks.encoder.answer("departures"))
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
        expectSame(mine, try ExampleBlocks.encoder.answer("trip"))
    }

    @Test func reliability() throws {
        let r = try request("reliability")
        let query = DelaySlice(routeId: "T1", stopId: "2000331", hour: 19, dayType: .weekday)
        #expect(r.op == .reliability(query))
        let meta = ResponseMeta(op: .reliability, elapsedMicros: 380, live: F.liveMeta12)
        let mine = try encoded(r.id.description, meta) {
            $0.reliabilityData(ReliabilityAnswer(query: query, window: F.reliabilityWindow))
        }
        expectSame(mine, try ExampleBlocks.encoder.answer("reliability"))
    }

    @Test func search() throws {
        let r = try request("search")
        #expect(r.op == .search(SearchQuery(query: "central", limit: 2)))
        let mine = try encoded(r.id.description, ResponseMeta(op: .search, elapsedMicros: 260)) {
            $0.stopListData([F.central, F.railwaySquare])
        }
        expectSame(mine, try ExampleBlocks.encoder.answer("search"))
    }

    @Test func nearby() throws {
        let r = try request("nearby")
        #expect(r.op == .nearby(NearbyQuery(lat: -33.8612, lon: 151.2108, radiusMetres: 300, limit: 1)))
        let mine = try encoded(r.id.description, ResponseMeta(op: .nearby, elapsedMicros: 240)) {
            $0.stopListData([F.circularQuay])
        }
        expectSame(mine, try ExampleBlocks.encoder.answer("nearby"))
    }

    @Test func routes() throws {
        let r = try request("routes")
        #expect(r.op == .routes(RoutesQuery(mode: "bus")))
        let mine = try encoded(r.id.description, ResponseMeta(op: .routes, elapsedMicros: 300)) {
            $0.routeListData([F.bus333, F.busL90])
        }
        expectSame(mine, try ExampleBlocks.encoder.answer("routes"))
    }

    @Test func feedInfo() throws {
        let r = try request("feed_info")
        #expect(r.op == .feedInfo)
        let mine = try encoded(r.id.description, ResponseMeta(op: .feedInfo, elapsedMicros: 220)) {
            $0.feedInfoData(F.feedInfo)
        }
        expectSame(mine, try ExampleBlocks.encoder.answer("feed_info"))
    }

    @Test func alerts() throws {
        let r = try request("alerts")
        #expect(r.op == .alerts(AlertsQuery(selector: .stop("200060"), at: F.at)))
        let meta = ResponseMeta(
            op: .alerts, elapsedMicros: 90, live: LiveMeta(at: F.at, source: .staticAndRealtime, feedAgeSeconds: 40))
        let mine = try encoded(r.id.description, meta) { $0.alertListData([F.liftAlert]) }
        expectSame(mine, try ExampleBlocks.encoder.answer("alerts"))
    }

    @Test func vehicles() throws {
        let r = try request("vehicles")
        #expect(r.op == .vehicles(VehiclesQuery(selector: .route("T1"))))
        let meta = ResponseMeta(
            op: .vehicles, elapsedMicros: 70, live: LiveMeta(at: F.at, source: .staticAndRealtime, feedAgeSeconds: 10))
        let mine = try encoded(r.id.description, meta) { $0.vehicleListData([F.vehicle]) }
        expectSame(mine, try ExampleBlocks.encoder.answer("vehicles"))
    }

    /// GATEWAY.md's answers name the fields the encoder writes, no more and no fewer, wherever both show an
    /// object at the same place.
    @Test func docAnswersHaveTheEncodersFields() throws {
        let names = try ExampleBlocks.encoder.names()
        #expect(names.count >= 13)
        for name in names {
            let doc = fieldNames(try ExampleBlocks.gatewayDoc.answer(name))
            let encoder = fieldNames(try ExampleBlocks.encoder.answer(name))
            for (path, fields) in encoder.sorted(by: { $0.key < $1.key }) {
                guard let documented = doc[path] else { continue }
                let lacks = fields.subtracting(documented).sorted(), more = documented.subtracting(fields).sorted()
                let place = path.isEmpty ? "top" : path
                #expect(documented == fields, "\(name) at \(place): GATEWAY.md lacks \(lacks), has more \(more)")
            }
            #expect(doc[""] == encoder[""] && doc["data"] == encoder["data"], "\(name): the envelope and data")
        }
    }

    /// Together, GATEWAY.md's answers show every prediction source, rows with alerts (and the boards' alerts),
    /// typical delays of both levels, with and without an expected band, and recorded reliability.
    @Test func docAnswersShowEveryValue() throws {
        let doc = ExampleBlocks.gatewayDoc
        var rows: [[String: Any]] = []
        var boards: [[String: Any]] = []
        for name in try doc.names() {
            for answer in try doc.answers(name) {
                guard let data = answer["data"] as? [String: Any] else { continue }
                for key in ["departures", "stops"] {
                    rows += (data[key] as? [[String: Any]] ?? []).filter { $0["prediction_source"] != nil }
                }
                if data["alerts"] != nil && (data["departures"] != nil || data["trip_id"] != nil) {
                    boards.append(data)
                }
            }
        }
        let sources = Set(rows.compactMap { $0["prediction_source"] as? String })
        #expect(sources == ["stop_update", "propagated", "trip_delay", "vehicle", "schedule"], "\(sources)")
        for source in sources where source != "schedule" {
            #expect(
                rows.contains {
                    $0["prediction_source"] as? String == source && ($0["prediction_age_s"] as? Int) != nil
                })
        }
        #expect(rows.contains { ($0["alert_ids"] as? [String])?.isEmpty == false })
        #expect(boards.contains { ($0["alerts"] as? [Any])?.isEmpty == false })
        let typical = rows.compactMap { $0["typical_delay"] as? [String: Any] }
        #expect(Set(typical.compactMap { $0["level"] as? String }) == ["stop", "route"])
        #expect(typical.contains { ($0["expected_band"] as? [String: Any]) != nil })
        #expect(typical.contains { $0["expected_band"] is NSNull })
        // The typical delays quoted in "typical delay" are rows' of the examples.
        let text = try String(contentsOf: doc.url, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### typical delay").dropFirst().first)
            .components(separatedBy: "### alert")[0]
        let quoted = section.split(separator: "\n").filter { $0.hasPrefix("{\"p50_s\"") }
        #expect(!quoted.isEmpty)
        for line in quoted {
            let value = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
            #expect(typical.contains { NSDictionary(dictionary: $0) == value }, "\(line) is no example row's")
        }
        let reliability = try #require(doc.answer("reliability")["data"] as? [String: Any])
        #expect((reliability["samples"] as? Int ?? 0) >= 5)
    }

    /// Every request line shown in GATEWAY.md parses (the ops without an encoder here included).
    @Test func everyRequestLineParses() throws {
        let text = try String(contentsOf: ExampleBlocks.gatewayDoc.url, encoding: .utf8)
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
