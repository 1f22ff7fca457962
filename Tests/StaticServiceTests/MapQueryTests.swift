import Foundation
import Testing
import TransitCore
import TransitModel
import TransitTesting

/// shape, route and stops_in_bbox over nng, against the imported test feed (TA has shape SHA; TB and the
/// frequency-based BUSF have none).
@Suite struct MapQueryTests {
    let service: ServiceFixture

    init() throws { service = try ServiceFixture() }

    @Test func shapeByIdAndByTrip() throws {
        let shape = try #require(try service.result(.shape(ShapeQuery(shapeId: "SHA"))).shape)
        #expect(shape.source == .shapes && shape.shapeId == "SHA" && shape.pointCount == 3)
        #expect(shape.distances == [0, 1100.5, 2400])
        let points = try #require(Polyline.decode(shape.polyline))
        #expect(points.map(\.lat) == [-33.883, -33.8731, -33.8617])

        let byTrip = try #require(try service.result(.shape(ShapeQuery(tripId: "TA"))).shape)
        #expect(byTrip.shapeId == "SHA" && byTrip.tripId == "TA" && byTrip.polyline == shape.polyline)

        // TB has no shape: a straight line through STA2, MID, END.
        let line = try #require(try service.result(.shape(ShapeQuery(tripId: "TB"))).shape)
        #expect(line.source == .stops && line.shapeId == nil && line.pointCount == 3 && line.distances.isEmpty)
        #expect(Polyline.decode(line.polyline)?.map(\.lon) == [151.2066, 151.2065, 151.2108])
    }

    @Test func shapeErrors() throws {
        #expect(try service.ask(.shape(ShapeQuery(shapeId: "NOPE"))).failure?.status == .notFound)
        #expect(try service.ask(.shape(ShapeQuery(tripId: "NOPE"))).failure?.status == .notFound)
        for query in [ShapeQuery(), ShapeQuery(shapeId: "SHA", tripId: "TA")] {
            let failure = try service.ask(.shape(query)).failure
            #expect(failure?.status == .invalidArgument)
            #expect(failure?.message.contains("exactly one of \"shape_id\" and \"trip_id\"") == true)
        }
    }

    @Test func tripNamesItsShape() throws {
        #expect(
            try service.result(.trip(TripQuery(tripId: "TA", at: SampleTimes.mondayMorning))).trip?.shapeId == "SHA")
        #expect(try service.result(.trip(TripQuery(tripId: "TB", at: SampleTimes.mondayMorning))).trip?.shapeId == nil)
    }

    @Test func routePatternsWithStopsShapesAndSpan() throws {
        let train = try #require(try service.result(.route(RouteQuery(routeId: "R1"))).routeDetail)
        #expect(train.route.shortName == "T1")
        // TA (from platform 1, shape SHA) and TB (from platform 2, no shape) are two stop sequences.
        #expect(train.patterns.count == 2)
        let first = try #require(train.patterns.first)
        #expect(first.directionId == 0 && first.headsigns == ["Harbour End"] && first.tripCount == 1)
        #expect(first.stops.map(\.stopId) == ["STA1", "MID", "END"])
        #expect(first.stops.first?.parentStation == "STA" && first.stops.last?.name == "Harbour End")
        #expect(first.shapeIds == ["SHA"] && first.firstDeparture == "08:05:00" && first.lastDeparture == "08:05:00")
        #expect(train.patterns[1].shapeIds.isEmpty && train.patterns[1].stops.first?.stopId == "STA2")

        // BUSF: every 15 min from 06:00, last instance before 10:00 departs 09:45.
        let bus = try #require(try service.result(.route(RouteQuery(routeId: "R2"))).routeDetail)
        #expect(bus.patterns.count == 1)
        #expect(bus.patterns[0].directionId == 1 && bus.patterns[0].tripCount == 1)
        #expect(bus.patterns[0].firstDeparture == "06:00:00" && bus.patterns[0].lastDeparture == "09:45:00")

        #expect(try service.ask(.route(RouteQuery(routeId: "R9"))).failure?.status == .notFound)
    }

    @Test func stopsInABoxBusiestFirst() throws {
        let box = StopsInBBoxQuery(minLat: -33.89, minLon: 151.20, maxLat: -33.86, maxLon: 151.22)
        let all = try #require(try service.result(.stopsInBBox(box)).stops)
        // MID and END have 18 trips each (TA, TB and 16 bus instances), ties by stop_id; STA has 2 (its
        // platforms' trips; the platforms fold into it).
        #expect(all.map(\.stopId) == ["END", "MID", "STA"])
        var bus = box
        bus.mode = "bus"
        #expect(try service.result(.stopsInBBox(bus)).stops?.map(\.stopId) == ["END", "MID"])
        var one = box
        one.limit = 1
        #expect(try service.result(.stopsInBBox(one)).stops?.map(\.stopId) == ["END"])
        // Only Middle Road's corner.
        let corner = StopsInBBoxQuery(minLat: -33.875, minLon: 151.206, maxLat: -33.872, maxLon: 151.207)
        #expect(try service.result(.stopsInBBox(corner)).stops?.map(\.stopId) == ["MID"])
    }

    @Test(arguments: [
        (StopsInBBoxQuery(minLat: -33.86, minLon: 151.2, maxLat: -33.89, maxLon: 151.22), "inverted box: min_lat"),
        (StopsInBBoxQuery(minLat: -33.89, minLon: 151.22, maxLat: -33.86, maxLon: 151.2), "inverted box: min_lon"),
        (StopsInBBoxQuery(minLat: -34.5, minLon: 151.0, maxLat: -33.0, maxLon: 151.2), "box too large"),
        (StopsInBBoxQuery(minLat: -95, minLon: 151.0, maxLat: -33.0, maxLon: 151.2), "field \"min_lat\""),
        (StopsInBBoxQuery(minLat: -33.9, minLon: 151.0, maxLat: -33.8, maxLon: 151.2, limit: 0), "field \"limit\""),
    ])
    func badBoxesAreInvalidArguments(box: StopsInBBoxQuery, message: String) throws {
        let failure = try service.ask(.stopsInBBox(box)).failure
        #expect(failure?.status == .invalidArgument)
        #expect(failure?.message.contains(message) == true, "\(failure?.message ?? "answered")")
    }
}
