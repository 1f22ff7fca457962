// StaticResponse <-> transit.StaticResponse: the envelope (request id, status, error or result oneof).
//
// A success is `status = OK` plus one result; a failure is its status plus `error_message` and no result.
// Decoding: an absent status reads as OK (the proto default); an error status needs `error_message`;
// OK needs a result. A failure with status `.ok` cannot be represented: it encodes as OK without a
// result and so does not decode.
import TransitModel
import TransitProtoC

enum ResponseCodec {
    static func encode(_ response: StaticResponse) -> [UInt8] {
        // The bulk schedules are large enough (≈ 1 MB) to be written directly; see TripSchedulesWire.
        if case .success(.tripSchedules(let schedules)) = response.result {
            return TripSchedulesWire.response(
                requestId: response.requestId, servedBy: response.servedBy,
                databaseVersion: response.databaseVersion, schedules)
        }
        return encodeWithProtobufC(response)
    }

    /// Every response through protobuf-c (also the reference the direct writers are tested against).
    static func encodeWithProtobufC(_ response: StaticResponse) -> [UInt8] {
        ProtoArena.with { arena in
            let m = arena.message(transit__static_response__init) { m in arena.fill(&m, response) }
            return ProtoWire.pack(
                m, size: transit__static_response__get_packed_size, pack: transit__static_response__pack)
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ProtoDecodeError) -> StaticResponse {
        try ProtoWire.withUnpacked(
            bytes, messageName: "transit.StaticResponse",
            unpack: transit__static_response__unpack
        ) { (m) throws(ProtoDecodeError) in try StaticResponse(proto: m.pointee) }
    }
}

// MARK: encoding

extension ProtoArena {
    fileprivate func fill(_ m: inout Transit__StaticResponse, _ response: StaticResponse) {
        (m.has_request_id, m.request_id) = present(response.requestId)
        m.served_by = string(response.servedBy)
        m.database_version = string(response.databaseVersion)
        switch response.result {
        case .failure(let error):
            (m.has_status, m.status) = present(error.status.proto)
            m.error_message = string(error.message)
        case .success(let result):
            (m.has_status, m.status) = present(TRANSIT__STATUS__OK)
            switch result {
            case .stop(let r):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_STOP
                m.stop = proto(r)
            case .stops(let stops):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_STOPS
                m.stops = proto(stops: stops)
            case .routes(let routes):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_ROUTES
                m.routes = proto(routes: routes)
            case .departures(let board):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_DEPARTURES
                m.departures = proto(board)
            case .trip(let trip):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_TRIP
                m.trip = proto(trip)
            case .tripSchedules(let schedules):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_TRIP_SCHEDULES
                m.trip_schedules = proto(schedules)
            case .feedInfo(let info):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_FEED_INFO
                m.feed_info = proto(info)
            case .shape(let shape):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_SHAPE
                m.shape = proto(shape)
            case .route(let route):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_ROUTE
                m.route = proto(route)
            case .plan(let plan):
                m.result_case = TRANSIT__STATIC_RESPONSE__RESULT_PLAN
                m.plan = proto(plan)
            }
        }
    }
}

// MARK: decoding

extension StaticResponse {
    fileprivate init(proto m: borrowing Transit__StaticResponse) throws(ProtoDecodeError) {
        let requestId = try requiredValue(m.has_request_id, m.request_id, "request_id")
        let status = m.has_status != 0 ? try ServiceStatus(proto: m.status, field: "status") : .ok
        let servedBy = optionalString(m.served_by)
        let version = optionalString(m.database_version)
        guard status == .ok else {
            let message = try requiredString(m.error_message, "error_message")
            self.init(
                requestId: requestId, result: .failure(ServiceError(status, message)), servedBy: servedBy,
                databaseVersion: version)
            return
        }
        self.init(
            requestId: requestId, result: .success(try StaticResult(proto: m)), servedBy: servedBy,
            databaseVersion: version)
    }
}

extension StaticResult {
    fileprivate init(proto m: borrowing Transit__StaticResponse) throws(ProtoDecodeError) {
        switch m.result_case {
        case TRANSIT__STATIC_RESPONSE__RESULT_STOP:
            self = .stop(try requiredMessage(m.stop, "stop", StopResult.init(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_STOPS:
            self = .stops(try requiredMessage(m.stops, "stops", stops(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_ROUTES:
            self = .routes(try requiredMessage(m.routes, "routes", routes(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_DEPARTURES:
            self = .departures(try requiredMessage(m.departures, "departures", DepartureBoard.init(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_TRIP:
            self = .trip(try requiredMessage(m.trip, "trip", TripDetail.init(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_TRIP_SCHEDULES:
            self = .tripSchedules(try requiredMessage(m.trip_schedules, "trip_schedules", TripSchedules.init(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_FEED_INFO:
            self = .feedInfo(try requiredMessage(m.feed_info, "feed_info", FeedInfo.init(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_SHAPE:
            self = .shape(try requiredMessage(m.shape, "shape", Shape.init(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_ROUTE:
            self = .route(try requiredMessage(m.route, "route", RouteDetail.init(proto:)))
        case TRANSIT__STATIC_RESPONSE__RESULT_PLAN:
            self = .plan(try requiredMessage(m.plan, "plan", PlanAnswer.init(proto:)))
        default:
            throw .missing("result")
        }
    }
}
