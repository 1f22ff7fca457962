import Foundation
import Testing
import TransitPresentation

@testable import TransitClient

/// Answers captured from the launcher (`LAUNCH_BIN=.build/debug Services/launch --clock 1766394000
/// --clock-rate 0`, the bundled sample feed and its generated realtime fixtures) decode into the models,
/// also with optional fields missing (an older gateway) and fields added (a newer one).
@Suite struct ModelTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func capture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    static func decode<T: Decodable & Sendable>(_ type: T.Type, _ data: Data) throws -> Answer<T> {
        try LineCoding.decoder().decode(Answer<T>.self, from: data)
    }

    @Test func everyCapturedAnswerDecodes() throws {
        let health = try Self.decode(Health.self, Self.capture("health.json"))
        #expect(health.data.status == "ok")
        #expect(health.data.static?.feeds.first?.name == "sample-gtfs")
        #expect(health.data.realtime?.sources.isEmpty == false)

        let feed = try Self.decode(FeedInfo.self, Self.capture("feed_info.json"))
        #expect(feed.data.stops == 208)

        let stop = try Self.decode(StopDetails.self, Self.capture("stop.json"))
        #expect(stop.data.stop.stopId == "200060")
        #expect(stop.data.stop.accessibilityLabel == ModePresentation(mode: stop.data.stop.mode).stopAccessibilityLabel)
        #expect(!stop.data.platforms.isEmpty && !stop.data.routes.isEmpty)

        let search = try Self.decode(StopList.self, Self.capture("search.json"))
        #expect(search.data.stops.first?.name == "Central Station")
        let nearby = try Self.decode(StopList.self, Self.capture("nearby.json"))
        #expect(nearby.data.stops.allSatisfy { $0.distanceM != nil })

        let routes = try Self.decode(RouteList.self, Self.capture("routes.json"))
        #expect(routes.data.routes.count == 15)
        #expect(routes.data.sections.first?.key == "#")

        let board = try Self.decode(Board.self, Self.capture("departures.json"))
        #expect(board.data.departures.count == 8)
        #expect(board.meta.at == 1_766_394_000)
        #expect(board.meta.source == "static+rt")
        let late = try #require(board.data.departures.first { $0.status == "late" })
        #expect(late.delayBadge?.color == "orange")
        #expect(late.delayS != nil && late.realtimeUnix != nil)

        let trip = try Self.decode(Trip.self, Self.capture("trip.json"))
        #expect(trip.data.route?.shortName == "T4")
        #expect(!trip.data.stops.isEmpty)

        let alerts = try Self.decode(AlertList.self, Self.capture("alerts.json"))
        #expect(alerts.data.alerts.first?.banner?.color == "orange")
        #expect(alerts.data.alerts.first?.activePeriods.first?.end == 1_766_480_400)

        let vehicles = try Self.decode(VehicleList.self, Self.capture("vehicles.json"))
        #expect(vehicles.data.vehicles.first?.routeId == "SMNW_M1")

        let stats = try Self.decode(Stats.self, Self.capture("stats.json"))
        #expect(stats.data.uptimeS != nil)
        let auth = try Self.decode(AuthAck.self, Self.capture("auth.json"))
        #expect(auth.data.authenticated && auth.data.required == false)
    }

    @Test func theSubscriptionCaptureIsAnAnswerThenAnEvent() throws {
        let lines = String(decoding: try Self.capture("subscribe.jsonl"), as: UTF8.self)
            .split(separator: "\n").map { Data($0.utf8) }
        try #require(lines.count >= 2)
        let ack = try Self.decode(SubscriptionAck.self, lines[0])
        #expect(ack.data.sub == 1 && ack.data.stopId == "200060")
        let head = try LineCoding.decoder().decode(LineHead.self, from: lines[1])
        #expect(head.event == "departures" && head.sub == 1 && head.id == nil)
        let event = try Self.decode(Board.self, lines[1])
        #expect(event.data.departures.count == 3)
    }

    @Test func errorCapturesCarryTheirCodes() throws {
        for (name, code) in [("error-not-found.json", "NOT_FOUND"), ("error-unknown-op.json", "UNKNOWN_OP")] {
            let head = try LineCoding.decoder().decode(LineHead.self, from: Self.capture(name))
            #expect(head.ok == false)
            #expect(head.error?.code == code)
        }
    }

    /// Every key whose value is null or a list, removed everywhere (an older gateway that did not send them),
    /// and an unknown key added to every object (a newer one).
    static func mutate(_ value: Any, dropOptional: Bool, addUnknown: Bool) -> Any {
        if var object = value as? [String: Any] {
            for (key, child) in object {
                if dropOptional, child is NSNull || child is [Any] {
                    object[key] = nil
                } else {
                    object[key] = mutate(child, dropOptional: dropOptional, addUnknown: addUnknown)
                }
            }
            if addUnknown { object["added_in_a_later_version"] = ["nested": [1, 2, 3]] }
            return object
        }
        if let array = value as? [Any] {
            return array.map { mutate($0, dropOptional: dropOptional, addUnknown: addUnknown) }
        }
        return value
    }

    static func mutated(_ name: String, dropOptional: Bool, addUnknown: Bool) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: capture(name))
        return try JSONSerialization.data(
            withJSONObject: mutate(object, dropOptional: dropOptional, addUnknown: addUnknown))
    }

    @Test(arguments: [(false, true), (true, false), (true, true)])
    func olderAndNewerAnswersStillDecode(dropOptional: Bool, addUnknown: Bool) throws {
        let board = try Self.decode(
            Board.self, Self.mutated("departures.json", dropOptional: dropOptional, addUnknown: addUnknown))
        #expect(board.data.departures.count == (dropOptional ? 0 : 8))  // the rows list itself is a list
        let trip = try Self.decode(
            Trip.self, Self.mutated("trip.json", dropOptional: dropOptional, addUnknown: addUnknown))
        #expect(trip.data.tripId == "T4.WKD.0.2007")
        _ = try Self.decode(
            Health.self, Self.mutated("health.json", dropOptional: dropOptional, addUnknown: addUnknown))
        _ = try Self.decode(
            StopDetails.self, Self.mutated("stop.json", dropOptional: dropOptional, addUnknown: addUnknown))
        _ = try Self.decode(
            RouteList.self, Self.mutated("routes.json", dropOptional: dropOptional, addUnknown: addUnknown))
        _ = try Self.decode(
            AlertList.self, Self.mutated("alerts.json", dropOptional: dropOptional, addUnknown: addUnknown))
        _ = try Self.decode(
            VehicleList.self, Self.mutated("vehicles.json", dropOptional: dropOptional, addUnknown: addUnknown))
        _ = try Self.decode(
            FeedInfo.self, Self.mutated("feed_info.json", dropOptional: dropOptional, addUnknown: addUnknown))
    }

    /// A board row of an older gateway, without any of the nullable or list fields, keeps its required ones.
    @Test func aBareRowDecodes() throws {
        let line = #"{"data":{"stop_id":"S","departures":[{"trip_id":"t","route_id":"r","stop_id":"S"}]},"meta":{}}"#
        let board = try Self.decode(Board.self, Data(line.utf8))
        let row = try #require(board.data.departures.first)
        #expect(row.carriages.isEmpty && row.delayBadge == nil && row.time == nil)
        #expect(board.meta.at == nil)
    }

    /// A detour on a row and on a trip (GATEWAY.md "Detours") decodes; an older gateway's answers have none.
    @Test func detoursDecode() throws {
        let row =
            #"{"data":{"stop_id":"S","departures":[{"trip_id":"t","route_id":"r","stop_id":"S","#
            + #""detour":{"modifications_id":"M1","alert_ids":["A1"]}}]},"meta":{}}"#
        let board = try Self.decode(Board.self, Data(row.utf8))
        #expect(board.data.departures.first?.detour?.modificationsId == "M1")
        #expect(board.data.departures.first?.detour?.alertIds == ["A1"])
        let trip =
            #"{"data":{"trip_id":"t","detour":{"modifications_id":"M1","alert_ids":[],"shape_id":"SH","#
            + #""polyline":"_p~iF"},"stops":[{"stop_id":"r1","stop_sequence":null,"detour_role":"replacement","#
            + #""status":"late"}]},"meta":{}}"#
        let answer = try Self.decode(Trip.self, Data(trip.utf8))
        #expect(answer.data.detour?.shapeId == "SH" && answer.data.detour?.polyline == "_p~iF")
        #expect(answer.data.stops.first?.detourRole == "replacement" && answer.data.stops.first?.stopSequence == nil)
    }
}
