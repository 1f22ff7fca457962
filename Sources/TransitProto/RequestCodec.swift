// StaticRequest <-> transit.StaticRequest.
//
// Decoding is structural: every non-optional Swift field must be on the wire (else `.missingField`),
// except the query fields whose proto comment documents a default (limit, include_platforms, radius_m,
// direction); those take the TransitModel initialisers' defaults when absent. Ranges are the service's job.
import TransitModel
import TransitProtoC

enum RequestCodec {
    static func encode(_ request: StaticRequest) -> [UInt8] {
        ProtoArena.with { arena in
            let m = arena.message(transit__static_request__init) { m in arena.fill(&m, request) }
            return ProtoWire.pack(
                m, size: transit__static_request__get_packed_size, pack: transit__static_request__pack)
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ProtoDecodeError) -> StaticRequest {
        try ProtoWire.withUnpacked(
            bytes, messageName: "transit.StaticRequest",
            unpack: transit__static_request__unpack
        ) { (m) throws(ProtoDecodeError) in try StaticRequest(proto: m.pointee) }
    }
}

// MARK: encoding

extension ProtoArena {
    fileprivate func fill(_ m: inout Transit__StaticRequest, _ request: StaticRequest) {
        (m.has_request_id, m.request_id) = present(request.requestId)
        switch request.query {
        case .stop(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_STOP
            m.stop = message(transit__stop_query__init) { m in m.stop_id = string(q.stopId) }
        case .search(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_SEARCH
            m.search = message(transit__search_query__init) { m in
                m.query = string(q.query)
                (m.has_limit, m.limit) = present(UInt32(clamping: q.limit))
                m.mode = string(q.mode)
                (m.has_include_platforms, m.include_platforms) = present(cBool(q.includePlatforms))
            }
        case .nearby(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_NEARBY
            m.nearby = message(transit__nearby_query__init) { m in
                (m.has_lat, m.lat) = present(q.lat)
                (m.has_lon, m.lon) = present(q.lon)
                (m.has_radius_m, m.radius_m) = present(q.radiusMetres)
                (m.has_limit, m.limit) = present(UInt32(clamping: q.limit))
                m.mode = string(q.mode)
            }
        case .routes(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_ROUTES
            m.routes = message(transit__routes_query__init) { m in m.mode = string(q.mode) }
        case .departures(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_DEPARTURES
            m.departures = message(transit__departures_query__init) { m in
                m.stop_id = string(q.stopId)
                (m.has_at, m.at) = ifPresent(q.at)
                (m.has_direction, m.direction) = present(q.direction.proto)
                (m.has_limit, m.limit) = present(UInt32(clamping: q.limit))
                m.cursor = string(q.cursor)
                m.route_id = string(q.routeId)
                (m.has_direction_id, m.direction_id) = ifPresent(q.directionId.map { Int32(clamping: $0) })
                m.mode = string(q.mode)
            }
        case .trip(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_TRIP
            m.trip = message(transit__trip_query__init) { m in
                m.trip_id = string(q.tripId)
                (m.has_service_date, m.service_date) = ifPresent(q.serviceDate)
                m.start_time = string(q.startTime)
                (m.has_at, m.at) = ifPresent(q.at)
            }
        case .tripSchedules(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_TRIP_SCHEDULES
            m.trip_schedules = message(transit__trip_schedules_query__init) { m in
                (m.n_trip_ids, m.trip_ids) = strings(q.tripIds)
                (m.has_from_date, m.from_date) = present(q.fromDate)
                (m.has_to_date, m.to_date) = present(q.toDate)
                (m.n_known_pattern_ids, m.known_pattern_ids) = values(q.knownPatternIds)
                m.known_database_version = string(q.knownDatabaseVersion)
                (m.n_descriptors, m.descriptors) = messages(q.descriptors) { d in
                    message(transit__trip_start_descriptor__init) { m in
                        m.route_id = string(d.routeId)
                        (m.has_direction_id, m.direction_id) = present(Int32(clamping: d.directionId))
                        (m.has_start_date, m.start_date) = present(d.startDate)
                        m.start_time = string(d.startTime)
                    }
                }
            }
        case .feedInfo:
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_FEED_INFO
            m.feed_info = message(transit__feed_info_query__init)
        case .shape(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_SHAPE
            m.shape = proto(q)
        case .route(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_ROUTE
            m.route = proto(q)
        case .stopsInBBox(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_STOPS_IN_BBOX
            m.stops_in_bbox = proto(q)
        case .plan(let q):
            m.query_case = TRANSIT__STATIC_REQUEST__QUERY_PLAN
            m.plan = proto(q)
        }
    }
}

// MARK: decoding

extension StaticRequest {
    fileprivate init(proto m: borrowing Transit__StaticRequest) throws(ProtoDecodeError) {
        let requestId = try requiredValue(m.has_request_id, m.request_id, "request_id")
        let query: StaticQuery
        switch m.query_case {
        case TRANSIT__STATIC_REQUEST__QUERY_STOP:
            query = .stop(try requiredMessage(m.stop, "stop", StopQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_SEARCH:
            query = .search(try requiredMessage(m.search, "search", SearchQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_NEARBY:
            query = .nearby(try requiredMessage(m.nearby, "nearby", NearbyQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_ROUTES:
            query = .routes(try requiredMessage(m.routes, "routes", RoutesQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_DEPARTURES:
            query = .departures(try requiredMessage(m.departures, "departures", DeparturesQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_TRIP:
            query = .trip(try requiredMessage(m.trip, "trip", TripQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_TRIP_SCHEDULES:
            query = .tripSchedules(
                try requiredMessage(m.trip_schedules, "trip_schedules", TripSchedulesQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_FEED_INFO:
            query = .feedInfo
        case TRANSIT__STATIC_REQUEST__QUERY_SHAPE:
            query = .shape(try requiredMessage(m.shape, "shape", ShapeQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_ROUTE:
            query = .route(try requiredMessage(m.route, "route", RouteQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_STOPS_IN_BBOX:
            query = .stopsInBBox(
                try requiredMessage(m.stops_in_bbox, "stops_in_bbox", StopsInBBoxQuery.init(proto:)))
        case TRANSIT__STATIC_REQUEST__QUERY_PLAN:
            query = .plan(try requiredMessage(m.plan, "plan", PlanRequest.init(proto:)))
        default:
            throw .missing("query")
        }
        self.init(requestId: requestId, query: query)
    }
}

extension StopQuery {
    fileprivate init(proto m: borrowing Transit__StopQuery) throws(ProtoDecodeError) {
        self.init(stopId: try requiredString(m.stop_id, "stop_id"))
    }
}

extension SearchQuery {
    fileprivate init(proto m: borrowing Transit__SearchQuery) throws(ProtoDecodeError) {
        self.init(query: try requiredString(m.query, "query"), mode: optionalString(m.mode))
        if m.has_limit != 0 { limit = Int(m.limit) }
        if m.has_include_platforms != 0 { includePlatforms = m.include_platforms != 0 }
    }
}

extension NearbyQuery {
    fileprivate init(proto m: borrowing Transit__NearbyQuery) throws(ProtoDecodeError) {
        self.init(
            lat: try requiredValue(m.has_lat, m.lat, "lat"),
            lon: try requiredValue(m.has_lon, m.lon, "lon"),
            mode: optionalString(m.mode)
        )
        if m.has_radius_m != 0 { radiusMetres = m.radius_m }
        if m.has_limit != 0 { limit = Int(m.limit) }
    }
}

extension RoutesQuery {
    fileprivate init(proto m: borrowing Transit__RoutesQuery) throws(ProtoDecodeError) {
        self.init(mode: optionalString(m.mode))
    }
}

extension DeparturesQuery {
    fileprivate init(proto m: borrowing Transit__DeparturesQuery) throws(ProtoDecodeError) {
        self.init(
            stopId: try requiredString(m.stop_id, "stop_id"),
            at: optionalValue(m.has_at, m.at),
            cursor: optionalString(m.cursor),
            routeId: optionalString(m.route_id),
            directionId: optionalValue(m.has_direction_id, m.direction_id).map(Int.init),
            mode: optionalString(m.mode)
        )
        if m.has_direction != 0 { direction = try BoardDirection(proto: m.direction, field: "direction") }
        if m.has_limit != 0 { limit = Int(m.limit) }
    }
}

extension TripQuery {
    fileprivate init(proto m: borrowing Transit__TripQuery) throws(ProtoDecodeError) {
        self.init(
            tripId: try requiredString(m.trip_id, "trip_id"),
            serviceDate: optionalValue(m.has_service_date, m.service_date),
            startTime: optionalString(m.start_time),
            at: optionalValue(m.has_at, m.at)
        )
    }
}

extension TripSchedulesQuery {
    fileprivate init(proto m: borrowing Transit__TripSchedulesQuery) throws(ProtoDecodeError) {
        self.init(
            tripIds: repeatedStrings(m.n_trip_ids, m.trip_ids),
            fromDate: try requiredValue(m.has_from_date, m.from_date, "from_date"),
            toDate: try requiredValue(m.has_to_date, m.to_date, "to_date"),
            knownPatternIds: repeatedValues(m.n_known_pattern_ids, m.known_pattern_ids),
            knownDatabaseVersion: optionalString(m.known_database_version),
            descriptors: try repeatedMessages(
                m.n_descriptors, m.descriptors, "descriptors", TripStartDescriptor.init(proto:))
        )
    }
}

extension TripStartDescriptor {
    fileprivate init(proto m: borrowing Transit__TripStartDescriptor) throws(ProtoDecodeError) {
        self.init(
            routeId: try requiredString(m.route_id, "route_id"),
            directionId: Int(try requiredValue(m.has_direction_id, m.direction_id, "direction_id")),
            startDate: try requiredValue(m.has_start_date, m.start_date, "start_date"),
            startTime: try requiredString(m.start_time, "start_time")
        )
    }
}
