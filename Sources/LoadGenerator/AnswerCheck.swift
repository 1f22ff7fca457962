// Checks every answer while loading, so a fast error never counts as a fast answer: the envelope (`ok`, the
// echoed id, `meta.op`) and the row count on every answer by a byte scan (cheap enough to keep the generator
// light), and the full JSON shape of every `fullCheckEvery`-th answer with the strict parser.
import StrictJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an answer line was.
public enum AnswerVerdict: Equatable, Sendable {
    /// A success with the expected envelope; `rows` where the op has rows.
    case ok(rows: Int?)
    /// An error answer (the gateway's code) or a check that failed (the generator's code, below).
    case error(String)
}

/// What an answer must show beyond its op's shape, from the request that asked it.
public enum AnswerExpectation: Sendable, Equatable {
    case none
    /// `shape` asked with `"format":"geojson"`: the answer carries the GeoJSON LineString.
    case geojson
    /// `stops_in_bbox`: the stops lie in this box (full check).
    case inside(MapBox)
}

/// The generator's own error codes, beside the gateway's (protocol/GATEWAY.md §3).
public enum CheckCode {
    /// Not the envelope of the protocol, or the full parse found the data of another shape.
    public static let badShape = "BAD_SHAPE"
    /// A row count no such answer has (a departures board of a busy station with no row, more rows than `limit`).
    public static let implausibleRows = "IMPLAUSIBLE_ROWS"
    /// An answer to another request than the one due (answers come in request order).
    public static let idMismatch = "ID_MISMATCH"
    /// No answer before the run's drain ended.
    public static let noAnswer = "NO_ANSWER"
    /// The connection closed with requests unanswered.
    public static let connectionClosed = "CONNECTION_CLOSED"
}

public enum AnswerCheck {
    /// The integer `id` an answer line starts with (`{"id":123,`), nil for anything else (an event line, an
    /// id of another form).
    public static func id(of line: UnsafeRawBufferPointer) -> UInt64? {
        let prefix: StaticString = "{\"id\":"
        guard starts(line, with: prefix, at: 0) else { return nil }
        var i = prefix.utf8CodeUnitCount
        var value: UInt64 = 0
        let first = i
        while i < line.count, line[i] >= 0x30, line[i] <= 0x39 {
            value = value &* 10 &+ UInt64(line[i] - 0x30)
            i += 1
        }
        guard i > first, i < line.count, line[i] == UInt8(ascii: ",") else { return nil }
        return value
    }

    /// A pushed event line (after `subscribe`): not an answer.
    public static func isEvent(_ line: UnsafeRawBufferPointer) -> Bool { starts(line, with: "{\"event\":", at: 0) }

    /// How far (degrees) a stop of `stops_in_bbox` may lie outside the box: a platform inside brings its
    /// station, whose own point may be a few hundred metres away.
    static let stationMargin = 0.01

    /// The verdict on one answer line (without its `\n`) to a request of `op` with `limit`.
    public static func check(
        _ line: UnsafeRawBufferPointer, op: LoadOp, limit: Int, full: Bool, expecting: AnswerExpectation = .none
    ) -> AnswerVerdict {
        guard let comma = firstIndex(of: UInt8(ascii: ","), in: line, from: 0) else {
            return .error(CheckCode.badShape)
        }
        let after = comma + 1
        if op == .echo {
            return starts(line, with: "\"op\":\"echo\"", at: after) ? .ok(rows: nil) : .error(CheckCode.badShape)
        }
        let errorPrefix: StaticString = "\"ok\":false,\"error\":{\"code\":\""
        if starts(line, with: errorPrefix, at: after) {
            let from = after + errorPrefix.utf8CodeUnitCount
            guard let end = firstIndex(of: UInt8(ascii: "\""), in: line, from: from) else {
                return .error(CheckCode.badShape)
            }
            return .error(String(decoding: UnsafeRawBufferPointer(rebasing: line[from..<end]), as: UTF8.self))
        }
        guard starts(line, with: "\"ok\":true,\"data\":{", at: after) else { return .error(CheckCode.badShape) }
        guard metaOp(line) == op.name else { return .error(CheckCode.badShape) }
        let rows: Int?
        switch op {
        case .departures:
            let n = count(line, of: "{\"trip_id\":\"")
            guard (1...limit).contains(n) else { return .error(CheckCode.implausibleRows) }
            rows = n
        case .trip:
            let n = count(line, of: "{\"stop_id\":\"")
            guard n >= 1 else { return .error(CheckCode.implausibleRows) }
            rows = n
        case .search:
            let n = count(line, of: "{\"stop_id\":\"")
            guard n <= limit else { return .error(CheckCode.implausibleRows) }
            rows = n
        case .alerts:
            rows = count(line, of: "{\"id\":\"")
        case .shape:
            // Points, and a polyline that draws them; the GeoJSON when asked for.
            guard let points = integer(after: "\"point_count\":", in: line), points >= 1 else {
                return .error(CheckCode.implausibleRows)
            }
            guard let p = firstIndex(of: "\"polyline\":\"", in: line), p < line.count, line[p] != UInt8(ascii: "\"")
            else { return .error(CheckCode.badShape) }
            if expecting == .geojson, firstIndex(of: "\"geojson\":{", in: line) == nil {
                return .error(CheckCode.badShape)
            }
            rows = points
        case .route:
            // Patterns, each with its stops.
            let patterns = count(line, of: "{\"direction_id\":")
            guard patterns >= 1, count(line, of: "{\"stop_id\":\"") >= patterns else {
                return .error(CheckCode.implausibleRows)
            }
            rows = patterns
        case .stopsInBBox:
            // Map views are centred on served stops: an empty one is as wrong as an empty board of a busy station.
            let n = count(line, of: "{\"stop_id\":\"")
            guard (1...limit).contains(n) else { return .error(CheckCode.implausibleRows) }
            rows = n
        case .reliability:
            guard integer(after: "\"samples\":", in: line) != nil,
                firstIndex(of: "\"on_time_window\":{", in: line) != nil
            else { return .error(CheckCode.badShape) }
            rows = count(line, of: "{\"from_s\":")
        case .stop, .echo:
            rows = nil
        }
        if full, !fullShapeHolds(line, op: op, rows: rows, expecting: expecting) {
            return .error(CheckCode.badShape)
        }
        return .ok(rows: rows)
    }

    /// The whole answer parsed: the envelope's members of the right types and the op's data members, with as
    /// many rows as the byte scan counted.
    static func fullShapeHolds(
        _ line: UnsafeRawBufferPointer, op: LoadOp, rows: Int?, expecting: AnswerExpectation = .none
    ) -> Bool {
        guard case .object(let root)? = try? JSONParser.parse(line),
            case .number? = root["id"], root["ok"] == .bool(true),
            case .object(let data)? = root["data"], case .object(let meta)? = root["meta"],
            meta["op"] == .string(op.name), case .number? = meta["elapsed_us"]
        else { return false }
        func list(_ key: String) -> [JSONValue]? {
            if case .array(let a)? = data[key] { return a }
            return nil
        }
        func objects(_ key: String, each required: String) -> Int? {
            guard let a = list(key) else { return nil }
            for item in a {
                guard case .object(let o) = item, case .string? = o[required] else { return nil }
            }
            return a.count
        }
        switch op {
        case .departures:
            guard case .object? = data["page"], case .string? = data["stop_id"] else { return false }
            return objects("departures", each: "trip_id") == rows
        case .trip:
            guard case .string? = data["trip_id"], case .string? = data["service_date"] else { return false }
            return objects("stops", each: "stop_id") == rows
        case .alerts:
            return objects("alerts", each: "id") == rows
        case .search:
            return objects("stops", each: "stop_id") == rows
        case .stop:
            guard case .object(let stop)? = data["stop"], case .string? = stop["stop_id"] else { return false }
            return list("platforms") != nil && list("routes") != nil
        case .shape:
            return MapAndReliabilityShapes.shapeHolds(data, points: rows, geojson: expecting == .geojson)
        case .route:
            return MapAndReliabilityShapes.routeHolds(data, patterns: rows)
        case .stopsInBBox:
            guard objects("stops", each: "stop_id") == rows else { return false }
            guard case .inside(let box) = expecting else { return true }
            return MapAndReliabilityShapes.stopsLie(in: box, margin: stationMargin, list("stops") ?? [])
        case .reliability:
            return MapAndReliabilityShapes.reliabilityHolds(data, buckets: rows)
        case .echo:
            return true
        }
    }

    /// The integer right after the first `marker` of the line (`"point_count":9` → 9).
    static func integer(after marker: StaticString, in line: UnsafeRawBufferPointer) -> Int? {
        guard var i = firstIndex(of: marker, in: line) else { return nil }
        let first = i
        var value = 0
        while i < line.count, line[i] >= 0x30, line[i] <= 0x39, i - first < 18 {
            value = value * 10 + Int(line[i] - 0x30)
            i += 1
        }
        return i > first ? value : nil
    }

    /// The index just past the first `marker` of the line.
    static func firstIndex(of marker: StaticString, in line: UnsafeRawBufferPointer) -> Int? {
        let first = marker.utf8Start.pointee
        let n = marker.utf8CodeUnitCount
        var from = 0
        while let i = firstIndex(of: first, in: line, from: from), i <= line.count - n {
            if starts(line, with: marker, at: i) { return i + n }
            from = i + 1
        }
        return nil
    }

    /// The op named by the last `"meta":{"op":"…"` of the line.
    static func metaOp(_ line: UnsafeRawBufferPointer) -> String? {
        let marker: StaticString = "\"meta\":{\"op\":\""
        let m = marker.utf8CodeUnitCount
        var i = line.count - m
        while i >= 0 {
            if line[i] == UInt8(ascii: "\""), starts(line, with: marker, at: i) {
                guard let end = firstIndex(of: UInt8(ascii: "\""), in: line, from: i + m) else { return nil }
                return String(decoding: UnsafeRawBufferPointer(rebasing: line[(i + m)..<end]), as: UTF8.self)
            }
            i -= 1
        }
        return nil
    }

    /// How many times `marker` occurs in the line (not overlapping).
    static func count(_ line: UnsafeRawBufferPointer, of marker: StaticString) -> Int {
        let first = marker.utf8Start.pointee
        let n = marker.utf8CodeUnitCount
        var found = 0
        var from = 0
        while let i = firstIndex(of: first, in: line, from: from), i <= line.count - n {
            if starts(line, with: marker, at: i) {
                found += 1
                from = i + n
            } else {
                from = i + 1
            }
        }
        return found
    }

    static func starts(_ line: UnsafeRawBufferPointer, with text: StaticString, at offset: Int) -> Bool {
        let n = text.utf8CodeUnitCount
        guard offset >= 0, offset + n <= line.count else { return false }
        let p = text.utf8Start
        for k in 0..<n where line[offset + k] != p[k] { return false }
        return true
    }

    /// The first `byte` at or after `from`. By `memchr`, not a loop over the bytes: every answer is scanned for
    /// its row markers and trip answers are up to 76 KB, and this scan was the generator's largest cost.
    static func firstIndex(of byte: UInt8, in line: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard from >= 0, from < line.count, let base = line.baseAddress else { return nil }
        guard let hit = memchr(base + from, Int32(byte), line.count - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }
}
