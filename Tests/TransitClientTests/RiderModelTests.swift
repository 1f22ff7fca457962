import Foundation
import Testing
import TransitTesting

@testable import TransitClient

/// The answers of the map, provenance, alert and delay work decode into the models: captured from the
/// launcher (`LAUNCH_BIN=.build/debug Services/launch --clock 1766394000 --clock-rate 0`) before it recorded
/// delays, plus a recorded typical delay; and GATEWAY.md's examples, the launcher's answers with its recorded
/// delays.
@Suite struct RiderModelTests {
    private func decode<T: Decodable & Sendable>(_ type: T.Type, _ name: String) throws -> Answer<T> {
        try ModelTests.decode(type, ModelTests.capture(name))
    }

    @Test func aBoardCarriesProvenanceAndItsAlertsOnTheRightRows() throws {
        let board = try decode(Board.self, "departures-rider.json")
        let sources = Set(board.data.departures.compactMap(\.predictionSource))
        #expect(sources.isSuperset(of: ["schedule", "propagated"]), "\(sources)")
        let predicted = try #require(board.data.departures.first { $0.predictionSource == "propagated" })
        #expect(predicted.predictionAgeS != nil)
        #expect(board.data.departures.first { $0.predictionSource == "schedule" }?.predictionAgeS == nil)
        let alerted = try #require(board.data.departures.first { !$0.alertIds.isEmpty })
        let ids = Set(board.data.alerts.map(\.id))
        #expect(alerted.alertIds.allSatisfy(ids.contains), "every row's alert is on the board once")
    }

    @Test func mapAnswersDecode() throws {
        let shape = try decode(Shape.self, "shape.json")
        #expect(shape.data.source == "shapes" && !shape.data.polyline.isEmpty)
        #expect(shape.data.geojson?.type == "LineString")
        #expect(shape.data.geojson?.coordinates.count == shape.data.pointCount)
        #expect(shape.data.distances?.count == shape.data.pointCount)

        let route = try decode(RouteDetails.self, "route.json")
        #expect(route.data.route.routeId == "ST_T1")
        let pattern = try #require(route.data.patterns.first)
        #expect(pattern.stops.count >= 2 && (pattern.tripCount ?? 0) > 0)
        #expect(pattern.firstDeparture != nil)
        // Captured on Monday 2025-12-22: T1 runs every day.
        #expect(route.data.serviceSpan?.date == "20251222" && route.data.serviceSpan?.first == "05:10:00")
        #expect(route.data.spansByDayType?.sunday?.first == "06:40:00" && route.data.typicalWeek == "20250303")
        #expect(pattern.serviceSpan?.date == "20251222" && pattern.spansByDayType?.weekday?.last != nil)

        let box = try decode(StopList.self, "stops_in_bbox.json")
        #expect(box.data.stops.count == 5)
    }

    @Test func reliabilityAndTypicalDelayDecode() throws {
        let fresh = try decode(Reliability.self, "reliability.json")
        #expect(fresh.data.routeId == "ST_T1")
        #expect(fresh.data.samples == 0 && fresh.data.p50S == nil && fresh.data.buckets.isEmpty)
        #expect(fresh.data.onTimeWindow?.earlyS == -60 && fresh.data.onTimeWindow?.lateS == 299)

        let recorded = Data(
            #"""
            {"p50_s":60,"p90_s":240,"samples":41,"level":"stop",
             "expected_band":{"earliest_unix":1766394240,"latest_unix":1766394480},"added_later":true}
            """#.utf8)
        let typical = try LineCoding.decoder().decode(TypicalDelay.self, from: recorded)
        #expect(typical.p50S == 60 && typical.p90S == 240 && typical.samples == 41 && typical.level == "stop")
        #expect(typical.expectedBand?.latestUnix == 1_766_394_480)
    }

    /// The answer block of a GATEWAY.md example (the launcher's answer at a pinned moment).
    private func documented<T: Decodable & Sendable>(_ type: T.Type, _ name: String) throws -> Answer<T> {
        let text = try String(contentsOf: Repository.url("protocol/GATEWAY.md"), encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- example:\(name):answer -->"), "GATEWAY.md has \(name)")
        let open = try #require(text.range(of: "```json\n", range: marker.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "\n```", range: open.upperBound..<text.endIndex))
        return try ModelTests.decode(type, Data(text[open.upperBound..<close.lowerBound].utf8))
    }

    @Test func gatewayDocAnswersDecode() throws {
        let board = try documented(Board.self, "departures")
        #expect(Set(board.data.departures.compactMap(\.predictionSource)) == ["schedule", "propagated"])
        #expect(
            board.data.departures.contains { $0.typicalDelay?.level == "route" && $0.typicalDelay?.expectedBand != nil }
        )
        #expect(board.data.departures.contains { !$0.alertIds.isEmpty })
        #expect(board.data.alerts.map(\.id) == ["alert-route-type"])
        let filtered = try documented(Board.self, "departures_filtered")
        #expect(filtered.data.departures.first?.predictionSource == "stop_update")
        let byVehicle = try documented(Board.self, "departures_mode")
        #expect(byVehicle.data.departures.first?.predictionSource == "vehicle")
        let trip = try documented(Trip.self, "trip")
        #expect(trip.data.stops.allSatisfy { $0.predictionSource == "trip_delay" })
        #expect(trip.data.vehicle?.routeShortName == "F1")
        let reliability = try documented(Reliability.self, "reliability")
        #expect(
            (reliability.data.samples ?? 0) >= 5 && reliability.data.p50S != nil && !reliability.data.buckets.isEmpty)
        #expect(try documented(Health.self, "health").data.status == "ok")
        #expect(try documented(VehicleList.self, "vehicles").data.vehicles.isEmpty == false)
        #expect(try documented(AlertList.self, "alerts").data.alerts.count == 2)
        #expect(try documented(Shape.self, "shape").data.geojson?.type == "LineString")
        #expect(try documented(RouteDetails.self, "route").data.patterns.count == 2)
        #expect(try documented(StopDetails.self, "stop").data.platforms.count == 2)
    }
}
