import LoadGenerator
import TransitModel
import TransitProto

/// The static service's queries behind the gateway's ops (`load --mode static`): departures, trip, search,
/// stop, shape (polyline only: the gateway adds the GeoJSON), route and stops_in_bbox as the gateway asks them;
/// alerts as the stop lookup it needs. reliability is the realtime service's (`LoadCommand` refuses it here).
/// An error status or an answer of another kind is an error, by its status name.
struct StaticLoadWorkload: NNGWorkload {
    let lines: LineWorkload

    func request(id: UInt64, rng: inout SeededRandom) -> (op: LoadOp, bytes: [UInt8]) {
        let op = lines.mix.op(at: rng.unit())
        let pool = lines.pool
        func pick(_ list: [String]) -> String { list[Int(rng.next() % UInt64(list.count))] }
        let query: StaticQuery
        switch op {
        case .departures:
            let stop = pool.station(at: rng.unit())
            query = .departures(DeparturesQuery(stopId: stop, at: lines.window.at(rng.unit()), limit: lines.limit))
        case .trip: query = .trip(TripQuery(tripId: pick(pool.trips), at: lines.window.at(rng.unit())))
        case .search: query = .search(SearchQuery(query: pick(pool.searchTerms), limit: lines.limit))
        case .shape:
            let byShape = pool.shapeTrips.isEmpty || (!pool.shapes.isEmpty && rng.unit() < 0.5)
            query = .shape(byShape ? ShapeQuery(shapeId: pick(pool.shapes)) : ShapeQuery(tripId: pick(pool.shapeTrips)))
        case .route:
            query = .route(RouteQuery(routeId: pool.routes.pick(at: rng.unit())!, date: ServiceDate(lines.routeDate)))
        case .stopsInBBox:
            let box = pool.boxes[Int(rng.next() % UInt64(pool.boxes.count))]
            query = .stopsInBBox(
                StopsInBBoxQuery(
                    minLat: box.minLat, minLon: box.minLon, maxLat: box.maxLat, maxLon: box.maxLon, mode: box.mode,
                    limit: lines.mapViewLimit))
        case .stop, .alerts, .reliability, .echo: query = .stop(StopQuery(stopId: pick(pool.stops)))
        }
        return (op, StaticCodec.encode(StaticRequest(requestId: id, query: query)))
    }

    func check(op: LoadOp, request: [UInt8], reply: [UInt8]) -> AnswerVerdict {
        guard let response = try? StaticCodec.decodeResponse(reply) else { return .error(CheckCode.badShape) }
        switch response.result {
        case .failure(let e): return .error(Self.code(e.status))
        case .success(.departures(let board)):
            guard op == .departures else { return .error(CheckCode.badShape) }
            return (1...lines.limit).contains(board.departures.count)
                ? .ok(rows: board.departures.count) : .error(CheckCode.implausibleRows)
        case .success(.trip(let trip)):
            guard op == .trip else { return .error(CheckCode.badShape) }
            return trip.stops.isEmpty ? .error(CheckCode.implausibleRows) : .ok(rows: trip.stops.count)
        case .success(.stops(let stops)):
            switch op {
            case .search:
                return stops.count <= lines.limit ? .ok(rows: stops.count) : .error(CheckCode.implausibleRows)
            case .stopsInBBox:
                return (1...lines.mapViewLimit).contains(stops.count)
                    ? .ok(rows: stops.count) : .error(CheckCode.implausibleRows)
            default: return .error(CheckCode.badShape)
            }
        case .success(.shape(let shape)):
            guard op == .shape else { return .error(CheckCode.badShape) }
            return shape.pointCount >= 1 && !shape.polyline.isEmpty
                ? .ok(rows: shape.pointCount) : .error(CheckCode.implausibleRows)
        case .success(.route(let route)):
            guard op == .route else { return .error(CheckCode.badShape) }
            return !route.patterns.isEmpty && route.patterns.allSatisfy { !$0.stops.isEmpty }
                ? .ok(rows: route.patterns.count) : .error(CheckCode.implausibleRows)
        case .success(.stop):
            return op == .stop || op == .alerts ? .ok(rows: nil) : .error(CheckCode.badShape)
        case .success: return .error(CheckCode.badShape)
        }
    }

    /// The gateway's names for the static service's statuses.
    static func code(_ status: ServiceStatus) -> String {
        switch status {
        case .ok: "OK"
        case .notFound: "NOT_FOUND"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .unavailable: "UNAVAILABLE"
        case .internal: "INTERNAL"
        case .badRequest: "BAD_REQUEST"
        }
    }
}
