import Foundation
import Testing
import TransitModel

@testable import GatewayProtocol

/// The map ops' examples of EncoderExamples.md (answers once taken from the launcher over the sample feed)
/// are what the encoder writes for the same values, and their requests parse into the queries they describe.
@Suite struct MapDocExampleTests {
    private func check(_ name: String, _ op: GatewayOpKind, elapsed: Int64, _ data: (inout JSONWriter) -> Void) throws
        -> GatewayRequest
    {
        let request = try GatewayRequest.parse(try ExampleBlocks.encoder.request(name)).get()
        let line = GatewayResponse.success(
            id: RawJSON(bytes: Array(request.id.description.utf8)), meta: ResponseMeta(op: op, elapsedMicros: elapsed),
            data: data)
        let diffs = differences(try parseLine(line) as NSDictionary, try ExampleBlocks.encoder.answer(name))
        #expect(diffs.isEmpty, "encoder ≠ GATEWAY.md: \(diffs.joined(separator: "; "))")
        return request
    }

    @Test func shape() throws {
        // The geojson coordinates the encoder writes are this polyline decoded.
        let shape = Shape(
            shapeId: "SF_F1.1", source: .shapes, polyline: "vktmE{s|y[id@acAcg@u_A{i@i|@wl@{x@oo@mu@ir@ar@au@un@}w@gk@",
            pointCount: 9,
            distances: [0, 1205.3, 2398.1, 3582.5, 4762.6, 5942.7, 7127.1, 8319.9, 9525.2])
        let request = try check("shape", .shape, elapsed: 800) { $0.shapeData(shape, geojson: true) }
        #expect(request.op == .shape(ShapeQuery(shapeId: "SF_F1.1"), format: .geojson))
    }

    @Test func route() throws {
        func stop(_ id: String, _ name: String, _ lat: Double, _ lon: Double) -> PatternStopSummary {
            PatternStopSummary(stopId: id, name: name, lat: lat, lon: lon)
        }
        let stops = [
            stop("2126201", "Castle Hill Rd opp Cherrybrook Station", -33.7363, 151.047),
            stop("2126187", "New Line Rd, Cherrybrook", -33.7252, 151.0445),
            stop("2120310", "Boundary Rd, Pennant Hills", -33.7354, 151.0688),
            stop("2120399", "Pennant Hills High School, Laurence St", -33.7411, 151.0669),
        ]
        func span(_ first: String, _ last: String) -> ServiceSpan { ServiceSpan(first: first, last: last) }
        let detail = RouteDetail(
            route: Route(
                routeId: "2440_2519", agencyId: "2440", shortName: "2519",
                longName: "Cherrybrook to Pennant Hills High School", routeType: 712, mode: "bus", color: "#FDB913",
                textColor: "#000000", section: "#", feed: "sample-gtfs"),
            patterns: [
                RoutePattern(
                    directionId: 0, headsigns: ["Pennant Hills High School"], shapeIds: [], tripCount: 1,
                    firstDeparture: "08:05:00", lastDeparture: "08:05:00", stops: stops,
                    dateSpan: span("08:05:00", "08:05:00"),
                    dayTypeSpans: DayTypeSpans(weekday: span("08:05:00", "08:05:00"))),
                RoutePattern(
                    directionId: 1, headsigns: ["Cherrybrook Station"], shapeIds: [], tripCount: 1,
                    firstDeparture: "15:20:00", lastDeparture: "15:20:00", stops: stops.reversed(),
                    dateSpan: span("15:20:00", "15:20:00"),
                    dayTypeSpans: DayTypeSpans(weekday: span("15:20:00", "15:20:00"))),
            ], date: 20_260_303, dateSpan: span("08:05:00", "15:20:00"),
            dayTypeSpans: DayTypeSpans(weekday: span("08:05:00", "15:20:00")), typicalWeek: 20_250_303)
        let request = try check("route", .route, elapsed: 1996) { $0.routeDetailData(detail) }
        #expect(request.op == .route(RouteQuery(routeId: "2440_2519", date: 20_260_303)))
    }

    @Test func stopsInBBox() throws {
        func stop(_ id: String, _ name: String, _ lat: Double, _ lon: Double) -> Stop {
            Stop(
                stopId: id, code: id, name: name, lat: lat, lon: lon, wheelchairBoarding: 1, primaryRouteType: 900,
                mode: "tram", timezone: "Australia/Sydney")
        }
        let stops = [
            stop("2000440", "Circular Quay Light Rail", -33.8619, 151.2096),
            stop("2000441", "Bridge Street Light Rail", -33.864, 151.2079),
        ]
        let request = try check("stops_in_bbox", .stopsInBBox, elapsed: 1142) { $0.stopListData(stops) }
        #expect(
            request.op
                == .stopsInBBox(
                    StopsInBBoxQuery(minLat: -33.87, minLon: 151.2, maxLat: -33.86, maxLon: 151.215, limit: 2)))
    }
}
