// The full checks of the map ops' and reliability's answers (protocol/GATEWAY.md: shape, route, stops_in_bbox,
// reliability) on the parsed `data` object, run on every `fullCheckEvery`-th answer.
import StrictJSON

enum MapAndReliabilityShapes {
    /// `shape`: where the line comes from, `points` points in a non-empty polyline, distances per point or
    /// null, and the GeoJSON LineString of as many points when asked for (absent otherwise).
    static func shapeHolds(_ data: JSONObject, points: Int?, geojson: Bool) -> Bool {
        guard let points, case .number(let count)? = data["point_count"], count.int64 == Int64(points),
            data["source"] == .string("shapes") || data["source"] == .string("stops"),
            data["shape_id"]?.isStringOrNull == true, data["trip_id"]?.isStringOrNull == true,
            case .string(let polyline)? = data["polyline"], !polyline.isEmpty
        else { return false }
        switch data["distances"] {
        case .null?: break
        case .array(let d)? where d.count == points: break
        default: return false
        }
        guard geojson else { return data["geojson"] == nil }
        guard case .object(let g)? = data["geojson"], g["type"] == .string("LineString"),
            case .array(let coordinates)? = g["coordinates"], coordinates.count == points
        else { return false }
        return coordinates.allSatisfy { c in
            guard case .array(let pair) = c, pair.count == 2, case .number(let lon) = pair[0],
                case .number(let lat) = pair[1]
            else { return false }
            return abs(lon.double) <= 180 && abs(lat.double) <= 90
        }
    }

    /// `route`: the route, its span on the date asked, and `patterns` patterns, each with its stops in order.
    static func routeHolds(_ data: JSONObject, patterns: Int?) -> Bool {
        guard case .object(let route)? = data["route"], case .string? = route["route_id"],
            case .object(let span)? = data["service_span"], case .string? = span["date"],
            case .object? = data["spans_by_day_type"], case .array(let list)? = data["patterns"],
            list.count == patterns
        else { return false }
        return list.allSatisfy { item in
            guard case .object(let p) = item, case .array? = p["headsigns"], case .array? = p["shape_ids"],
                case .number? = p["trip_count"], case .array(let stops)? = p["stops"], !stops.isEmpty
            else { return false }
            return stops.allSatisfy { stop in
                guard case .object(let s) = stop, case .string? = s["stop_id"] else { return false }
                return true
            }
        }
    }

    /// `stops_in_bbox`: every stop's point in the box, grown by `margin` degrees.
    static func stopsLie(in box: MapBox, margin: Double, _ stops: [JSONValue]) -> Bool {
        stops.allSatisfy { stop in
            guard case .object(let s) = stop, case .number(let lat)? = s["lat"], case .number(let lon)? = s["lon"]
            else { return false }
            return box.contains(lat: lat.double, lon: lon.double, margin: margin)
        }
    }

    /// `reliability`: the sample count, shares that are fractions (null exactly when nothing was counted),
    /// the on-time window, and `buckets` buckets whose counts add up to the samples.
    static func reliabilityHolds(_ data: JSONObject, buckets: Int?) -> Bool {
        guard case .number(let samplesNumber)? = data["samples"], let samples = samplesNumber.int64, samples >= 0,
            case .object(let window)? = data["on_time_window"], case .number? = window["early_s"],
            case .number? = window["late_s"], case .string? = data["first_date"], case .string? = data["last_date"],
            case .number? = data["days"], case .array(let list)? = data["buckets"], list.count == buckets
        else { return false }
        for key in ["on_time_share", "early_share", "late_share"] {
            switch data[key] {
            case .null?: guard samples == 0 else { return false }
            case .number(let share)?: guard samples > 0, (0...1).contains(share.double) else { return false }
            default: return false
            }
        }
        for key in ["p10_s", "p50_s", "p90_s"] {
            switch data[key] {
            case .null?, .number?: break
            default: return false
            }
        }
        var counted: Int64 = 0
        for item in list {
            guard case .object(let b) = item, case .number(let n)? = b["count"], let c = n.int64, c > 0 else {
                return false
            }
            counted += c
        }
        return counted == samples
    }
}

extension JSONValue {
    var isStringOrNull: Bool {
        switch self {
        case .string, .null: true
        default: false
        }
    }
}
