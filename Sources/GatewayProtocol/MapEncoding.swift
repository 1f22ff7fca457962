import TransitCore
import TransitModel

// Encoders of the map answers: shape and route (GATEWAY.md "shape", "route"); stops_in_bbox writes
// `stopListData` like search and nearby.

extension JSONWriter {
    /// `data` of `shape`: the encoded polyline, and with `geojson` the same points as a GeoJSON LineString
    /// (coordinates [lon, lat], as GeoJSON orders them).
    public mutating func shapeData(_ shape: Shape, geojson: Bool) {
        beginObject()
        key("shape_id"); string(shape.shapeId)
        key("trip_id"); string(shape.tripId)
        key("source"); string(shape.source.rawValue)
        key("point_count"); int(shape.pointCount)
        key("polyline"); string(shape.polyline)
        key("distances")
        if shape.distances.isEmpty {
            null()
        } else {
            beginArray()
            for distance in shape.distances { double(distance) }
            endArray()
        }
        if geojson {
            key("geojson")
            beginObject()
            key("type"); string("LineString")
            key("coordinates"); beginArray()
            for point in Polyline.decode(shape.polyline) ?? [] {
                beginArray()
                double(point.lon)
                double(point.lat)
                endArray()
            }
            endArray()
            endObject()
        }
        endObject()
    }

    /// `data` of `route`: the route and its patterns, each with its stops in order.
    public mutating func routeDetailData(_ detail: RouteDetail) {
        beginObject()
        key("route"); route(detail.route)
        serviceSpans(date: detail.date, detail.dateSpan, detail.dayTypeSpans)
        key("typical_week"); serviceDate(detail.typicalWeek)
        key("patterns"); beginArray()
        for pattern in detail.patterns {
            beginObject()
            key("direction_id"); int(pattern.directionId)
            key("headsigns"); beginArray()
            for headsign in pattern.headsigns { string(headsign) }
            endArray()
            key("shape_ids"); beginArray()
            for shapeId in pattern.shapeIds { string(shapeId) }
            endArray()
            key("trip_count"); int(pattern.tripCount)
            key("first_departure"); string(pattern.firstDeparture)
            key("last_departure"); string(pattern.lastDeparture)
            serviceSpans(date: detail.date, pattern.dateSpan, pattern.dayTypeSpans)
            key("stops"); beginArray()
            for stop in pattern.stops {
                beginObject()
                key("stop_id"); string(stop.stopId)
                key("name"); string(stop.name)
                key("lat"); double(stop.lat)
                key("lon"); double(stop.lon)
                key("parent_station"); string(stop.parentStation)
                endObject()
            }
            endArray()
            endObject()
        }
        endArray()
        endObject()
    }

    /// `service_span` (the span on `date`, first and last null without trips) and `spans_by_day_type`.
    private mutating func serviceSpans(date: ServiceDate, _ span: ServiceSpan?, _ byDayType: DayTypeSpans) {
        key("service_span")
        beginObject()
        key("date"); serviceDate(date)
        key("first"); string(span?.first)
        key("last"); string(span?.last)
        endObject()
        key("spans_by_day_type")
        beginObject()
        for (name, daySpan) in [
            ("weekday", byDayType.weekday), ("saturday", byDayType.saturday), ("sunday", byDayType.sunday),
        ] {
            key(name)
            if let daySpan {
                beginObject()
                key("first"); string(daySpan.first)
                key("last"); string(daySpan.last)
                endObject()
            } else {
                null()
            }
        }
        endObject()
    }
}
