import Testing
import TransitModel

/// The table of the static service's query kinds (`StaticQueryKind`): distinct names, unchanged metric labels,
/// raw values that are positions in `allCases` (the service's metric handles are arrays indexed by them).
@Suite struct QueryKindTableTests {
    @Test func everyKindHasADistinctNameAndItsPositionAsRawValue() {
        let names = StaticQueryKind.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        for (position, kind) in StaticQueryKind.allCases.enumerated() {
            #expect(kind.rawValue == position, "\(kind.name)")
        }
        // The `query` labels of transit_static_answers_total and transit_static_answer_duration_seconds.
        #expect(
            names == [
                "stop", "search", "nearby", "routes", "departures", "trip", "trip_schedules", "feed_info", "shape",
                "route", "stops_in_bbox", "plan",
            ])
    }

    @Test func everyQueryHasItsKind() {
        let queries: [(StaticQuery, StaticQueryKind)] = [
            (.stop(StopQuery(stopId: "A")), .stop), (.search(SearchQuery(query: "a")), .search),
            (.nearby(NearbyQuery(lat: 0, lon: 0)), .nearby), (.routes(RoutesQuery()), .routes),
            (.departures(DeparturesQuery(stopId: "A")), .departures), (.trip(TripQuery(tripId: "T")), .trip),
            (
                .tripSchedules(TripSchedulesQuery(tripIds: ["T"], fromDate: 20_250_101, toDate: 20_250_101)),
                .tripSchedules
            ), (.feedInfo, .feedInfo),
            (.shape(ShapeQuery(shapeId: "S")), .shape), (.route(RouteQuery(routeId: "R")), .route),
            (.stopsInBBox(StopsInBBoxQuery(minLat: 0, minLon: 0, maxLat: 1, maxLon: 1)), .stopsInBBox),
            (.plan(PlanRequest(from: .stop("A"), to: .stop("B"))), .plan),
        ]
        #expect(queries.map(\.1) == StaticQueryKind.allCases)
        for (query, kind) in queries {
            #expect(query.kind == kind)
        }
    }

    @Test func statusesAreTheirPositions() {
        for (position, status) in ServiceStatus.allCases.enumerated() {
            #expect(status.rawValue == position, "\(status)")
        }
    }
}
