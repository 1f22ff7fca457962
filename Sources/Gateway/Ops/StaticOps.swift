import GatewayProtocol
import TransitCore
import TransitModel

// stop, search, nearby, stops_in_bbox, routes, route, shape, feed_info: one static round trip each, encoded as the static service says.
// stop and search depend on the database alone and repeat: their encoded `data` is kept per query while the
// database version holds (`staticAnswers`).

extension RequestDispatcher {
    func staticOp(_ request: GatewayRequest, received: ContinuousClock.Instant) async -> Answer {
        guard let query = request.op.staticQuery else {
            return failure(
                request, GatewayError(.internal, "op \(request.op.kind.name) has no static query"),
                received: received)
        }
        var generation: BoardWindowCache.Generation?
        let kept: Bool
        switch request.op {
        case .stop, .search: kept = true
        default: kept = false
        }
        if kept {
            checkStaticVersionIfDue()
            generation = boardCache.generation()
            if let data = staticAnswers.value(query, generation: generation) {
                return keptAnswer(request, data, received: received)
            }
        }
        let reply = await staticClient.reply(to: query)
        // Another version's answer (a rolling re-import) is answered but not kept.
        if !reply.cacheable { generation = nil }
        switch reply.result {
        case .failure(let error):
            if error.code == .notFound, case .shape(let shapeQuery, let format) = request.op,
                let shapeId = shapeQuery.shapeId, let shape = detourShape(shapeId)
            {
                return .success(
                    id: request.id, op: .shape, received: received,
                    capacity: 512 + shape.polyline.utf8.count + 48 * shape.pointCount
                ) {
                    $0.shapeData(shape, geojson: format == .geojson)
                }
            }
            return failure(request, await hinted(error, request), received: received)
        case .success(let result):
            switch (request.op, result) {
            case (.stop, .stop(let stop)):
                var w = JSONWriter(capacity: 1024 + 400 * (stop.platforms.count + stop.routes.count))
                w.stopData(stop)
                let data = w.finishCompact()
                staticAnswers.store(
                    data, for: query, bytes: EntryBytes.array(data.count, of: UInt8.self) + query.keyBytes,
                    generation: generation)
                return keptAnswer(request, data, received: received)
            case (.search, .stops(let stops)):
                var w = JSONWriter(capacity: 512 + 400 * stops.count)
                w.stopListData(stops)
                let data = w.finishCompact()
                staticAnswers.store(
                    data, for: query, bytes: EntryBytes.array(data.count, of: UInt8.self) + query.keyBytes,
                    generation: generation)
                return keptAnswer(request, data, received: received)
            case (.nearby, .stops(let stops)), (.stopsInBBox, .stops(let stops)):
                return .success(
                    id: request.id, op: request.op.kind, received: received, capacity: 512 + 400 * stops.count
                ) {
                    $0.stopListData(stops)
                }
            case (.routes, .routes(let routes)):
                return .success(id: request.id, op: .routes, received: received, capacity: 512 + 300 * routes.count) {
                    $0.routeListData(routes)
                }
            case (.route, .route(let detail)):
                let stops = detail.patterns.reduce(0) { $0 + $1.stops.count }
                // No service on the date: say when that is because no feed covers it.
                let note = detail.dateSpan == nil ? await validityNote(date: detail.date) : nil
                return .success(
                    id: request.id, op: .route, note: note, received: received,
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

    /// The shape `shapeId` as a detour of the live state gives it (a Shape entity of a realtime feed), when the
    /// static data has no such shape (GATEWAY.md "shape").
    private func detourShape(_ shapeId: String) -> Shape? {
        let reading = realtime.read()
        guard reading.holdsState,
            let polyline = reading.state.detours.first(where: { $0.shapeId == shapeId })?.shapePolyline,
            let points = Polyline.decode(polyline)
        else { return nil }
        return Shape(shapeId: shapeId, source: .detour, polyline: polyline, pointCount: points.count)
    }

    /// A success answer whose `data` is already encoded.
    private func keptAnswer(_ request: GatewayRequest, _ data: [UInt8], received: ContinuousClock.Instant) -> Answer {
        .success(id: request.id, op: request.op.kind, received: received, capacity: 256 + data.count) {
            $0.raw(RawJSON(bytes: data))
        }
    }

    /// A static result that depends on the database alone, kept in `staticResults` while its version holds.
    func keptStaticResult(_ query: StaticQuery) async -> Result<StaticResult, GatewayError> {
        checkStaticVersionIfDue()
        let generation = boardCache.generation()
        if let hit = staticResults.value(query, generation: generation) { return .success(hit) }
        let reply = await staticClient.reply(to: query)
        if case .success(let value) = reply.result, reply.cacheable {
            staticResults.store(value, for: query, bytes: value.keptBytes + query.keyBytes, generation: generation)
        }
        return reply.result
    }
}

extension StaticQuery {
    /// The heap bytes of the texts a kept query holds as its key (the ids and search text a client chose; its
    /// slot is counted by the cache).
    var keyBytes: Int {
        switch self {
        case .stop(let q): EntryBytes.heap(q.stopId)
        case .search(let q): EntryBytes.heap(q.query)
        default: 256
        }
    }
}

extension StaticResult {
    /// A kept static result's estimated memory (stops, routes and the like at about 320 bytes each).
    var keptBytes: Int {
        switch self {
        case .stop(let stop): StaticCache.bytes(of: stop)
        case .stops(let stops): 256 + 320 * stops.count
        case .routes(let routes): 256 + 320 * routes.count
        default: 4096
        }
    }
}
