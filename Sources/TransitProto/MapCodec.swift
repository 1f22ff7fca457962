// The map queries and answers (shape, route, stops_in_bbox) <-> protobuf-c, like RequestCodec and the
// Results files: optional Swift fields are absent when nil; required ones must be on the wire.
import TransitModel
import TransitProtoC

extension ProtoArena {
    func proto(_ q: ShapeQuery) -> UnsafeMutablePointer<Transit__ShapeQuery> {
        message(transit__shape_query__init) { m in
            m.shape_id = string(q.shapeId)
            m.trip_id = string(q.tripId)
        }
    }

    func proto(_ q: RouteQuery) -> UnsafeMutablePointer<Transit__RouteQuery> {
        message(transit__route_query__init) { m in
            m.route_id = string(q.routeId)
            (m.has_date, m.date) = ifPresent(q.date)
        }
    }

    func proto(_ q: StopsInBBoxQuery) -> UnsafeMutablePointer<Transit__StopsInBBoxQuery> {
        message(transit__stops_in_bbox_query__init) { m in
            (m.has_min_lat, m.min_lat) = present(q.minLat)
            (m.has_min_lon, m.min_lon) = present(q.minLon)
            (m.has_max_lat, m.max_lat) = present(q.maxLat)
            (m.has_max_lon, m.max_lon) = present(q.maxLon)
            m.mode = string(q.mode)
            (m.has_limit, m.limit) = present(UInt32(clamping: q.limit))
        }
    }

    func proto(_ s: Shape) -> UnsafeMutablePointer<Transit__Shape> {
        message(transit__shape__init) { m in
            m.shape_id = string(s.shapeId)
            m.trip_id = string(s.tripId)
            m.source = string(s.source.rawValue)
            m.polyline = string(s.polyline)
            (m.has_point_count, m.point_count) = present(UInt32(clamping: s.pointCount))
            (m.n_distances, m.distances) = values(s.distances)
        }
    }

    func proto(_ r: RouteDetail) -> UnsafeMutablePointer<Transit__RouteDetail> {
        message(transit__route_detail__init) { m in
            m.route = proto(r.route)
            (m.n_patterns, m.patterns) = messages(r.patterns) { p in
                message(transit__route_pattern__init) { m in
                    (m.has_direction_id, m.direction_id) = ifPresent(p.directionId.map { Int32(clamping: $0) })
                    (m.n_headsigns, m.headsigns) = strings(p.headsigns)
                    (m.n_shape_ids, m.shape_ids) = strings(p.shapeIds)
                    (m.has_trip_count, m.trip_count) = present(UInt32(clamping: p.tripCount))
                    m.first_departure = string(p.firstDeparture)
                    m.last_departure = string(p.lastDeparture)
                    m.date_span = p.dateSpan.map { proto($0) }
                    m.day_type_spans = proto(p.dayTypeSpans)
                    (m.n_stops, m.stops) = messages(p.stops) { s in
                        message(transit__pattern_stop_summary__init) { m in
                            m.stop_id = string(s.stopId)
                            m.name = string(s.name)
                            (m.has_lat, m.lat) = ifPresent(s.lat)
                            (m.has_lon, m.lon) = ifPresent(s.lon)
                            m.parent_station = string(s.parentStation)
                        }
                    }
                }
            }
            (m.has_date, m.date) = present(r.date)
            m.date_span = r.dateSpan.map { proto($0) }
            m.day_type_spans = proto(r.dayTypeSpans)
            (m.has_typical_week, m.typical_week) = ifPresent(r.typicalWeek)
        }
    }

    func proto(_ s: ServiceSpan) -> UnsafeMutablePointer<Transit__ServiceSpan> {
        message(transit__service_span__init) { m in
            m.first = string(s.first)
            m.last = string(s.last)
        }
    }

    func proto(_ d: DayTypeSpans) -> UnsafeMutablePointer<Transit__DayTypeSpans> {
        message(transit__day_type_spans__init) { m in
            m.weekday = d.weekday.map { proto($0) }
            m.saturday = d.saturday.map { proto($0) }
            m.sunday = d.sunday.map { proto($0) }
        }
    }
}

extension ShapeQuery {
    init(proto m: borrowing Transit__ShapeQuery) throws(ProtoDecodeError) {
        self.init(shapeId: optionalString(m.shape_id), tripId: optionalString(m.trip_id))
    }
}

extension RouteQuery {
    init(proto m: borrowing Transit__RouteQuery) throws(ProtoDecodeError) {
        self.init(routeId: try requiredString(m.route_id, "route_id"), date: optionalValue(m.has_date, m.date))
    }
}

extension StopsInBBoxQuery {
    init(proto m: borrowing Transit__StopsInBBoxQuery) throws(ProtoDecodeError) {
        self.init(
            minLat: try requiredValue(m.has_min_lat, m.min_lat, "min_lat"),
            minLon: try requiredValue(m.has_min_lon, m.min_lon, "min_lon"),
            maxLat: try requiredValue(m.has_max_lat, m.max_lat, "max_lat"),
            maxLon: try requiredValue(m.has_max_lon, m.max_lon, "max_lon"),
            mode: optionalString(m.mode))
        if m.has_limit != 0 { limit = Int(m.limit) }
    }
}

extension Shape {
    init(proto m: borrowing Transit__Shape) throws(ProtoDecodeError) {
        let sourceText = try requiredString(m.source, "source")
        guard let source = ShapeSource(rawValue: sourceText) else { throw .missing("source") }
        self.init(
            shapeId: optionalString(m.shape_id), tripId: optionalString(m.trip_id), source: source,
            polyline: try requiredString(m.polyline, "polyline"),
            pointCount: Int(try requiredValue(m.has_point_count, m.point_count, "point_count")),
            distances: repeatedValues(m.n_distances, m.distances))
    }
}

extension RouteDetail {
    init(proto m: borrowing Transit__RouteDetail) throws(ProtoDecodeError) {
        self.init(
            route: try requiredMessage(m.route, "route", Route.init(proto:)),
            patterns: try repeatedMessages(m.n_patterns, m.patterns, "patterns", RoutePattern.init(proto:)),
            date: try requiredValue(m.has_date, m.date, "date"),
            dateSpan: try optionalMessage(m.date_span, "date_span", ServiceSpan.init(proto:)),
            dayTypeSpans: try optionalMessage(m.day_type_spans, "day_type_spans", DayTypeSpans.init(proto:))
                ?? DayTypeSpans(),
            typicalWeek: optionalValue(m.has_typical_week, m.typical_week))
    }
}

extension ServiceSpan {
    init(proto m: borrowing Transit__ServiceSpan) throws(ProtoDecodeError) {
        self.init(first: try requiredString(m.first, "first"), last: try requiredString(m.last, "last"))
    }
}

extension DayTypeSpans {
    init(proto m: borrowing Transit__DayTypeSpans) throws(ProtoDecodeError) {
        self.init(
            weekday: try optionalMessage(m.weekday, "weekday", ServiceSpan.init(proto:)),
            saturday: try optionalMessage(m.saturday, "saturday", ServiceSpan.init(proto:)),
            sunday: try optionalMessage(m.sunday, "sunday", ServiceSpan.init(proto:)))
    }
}

extension RoutePattern {
    init(proto m: borrowing Transit__RoutePattern) throws(ProtoDecodeError) {
        self.init(
            directionId: optionalValue(m.has_direction_id, m.direction_id).map(Int.init),
            headsigns: repeatedStrings(m.n_headsigns, m.headsigns),
            shapeIds: repeatedStrings(m.n_shape_ids, m.shape_ids),
            tripCount: Int(try requiredValue(m.has_trip_count, m.trip_count, "trip_count")),
            firstDeparture: try requiredString(m.first_departure, "first_departure"),
            lastDeparture: try requiredString(m.last_departure, "last_departure"),
            stops: try repeatedMessages(m.n_stops, m.stops, "stops", PatternStopSummary.init(proto:)),
            dateSpan: try optionalMessage(m.date_span, "date_span", ServiceSpan.init(proto:)),
            dayTypeSpans: try optionalMessage(m.day_type_spans, "day_type_spans", DayTypeSpans.init(proto:))
                ?? DayTypeSpans())
    }
}

extension PatternStopSummary {
    init(proto m: borrowing Transit__PatternStopSummary) throws(ProtoDecodeError) {
        self.init(
            stopId: try requiredString(m.stop_id, "stop_id"), name: try requiredString(m.name, "name"),
            lat: optionalValue(m.has_lat, m.lat), lon: optionalValue(m.has_lon, m.lon),
            parentStation: optionalString(m.parent_station))
    }
}
