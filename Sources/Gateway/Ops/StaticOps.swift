import TransitJSON
import TransitModel

// stop, search, nearby, stops_in_bbox, routes, route, shape, feed_info: one static round trip each, encoded as the static service says.

extension RequestDispatcher {
    func staticOp(_ request: GatewayRequest, received: ContinuousClock.Instant) async -> Answer {
        guard let query = request.op.staticQuery else {
            return failure(
                request, GatewayError(.internal, "op \(request.op.name.rawValue) has no static query"),
                received: received)
        }
        switch await staticClient.query(query) {
        case .failure(let error):
            return failure(request, error, received: received)
        case .success(let result):
            switch (request.op, result) {
            case (.stop, .stop(let stop)):
                return .success(
                    id: request.id, op: .stop, received: received,
                    capacity: 1024 + 400 * (stop.platforms.count + stop.routes.count)
                ) {
                    $0.stopData(stop)
                }
            case (.search, .stops(let stops)), (.nearby, .stops(let stops)), (.stopsInBBox, .stops(let stops)):
                return .success(
                    id: request.id, op: request.op.name, received: received, capacity: 512 + 400 * stops.count
                ) {
                    $0.stopListData(stops)
                }
            case (.routes, .routes(let routes)):
                return .success(id: request.id, op: .routes, received: received, capacity: 512 + 300 * routes.count) {
                    $0.routeListData(routes)
                }
            case (.route, .route(let detail)):
                let stops = detail.patterns.reduce(0) { $0 + $1.stops.count }
                return .success(
                    id: request.id, op: .route, received: received,
                    capacity: 1024 + 300 * detail.patterns.count + 200 * stops
                ) {
                    $0.routeDetailData(detail)
                }
            case (.shape(_, let format), .shape(let shape)):
                return .success(
                    id: request.id, op: .shape, received: received,
                    capacity: 512 + shape.polyline.utf8.count + 48 * shape.pointCount
                ) {
                    $0.shapeData(shape, geojson: format == .geojson)
                }
            case (.feedInfo, .feedInfo(let info)):
                return .success(id: request.id, op: .feedInfo, received: received) { $0.feedInfoData(info) }
            default:
                return unexpected(request, result, received: received)
            }
        }
    }
}
