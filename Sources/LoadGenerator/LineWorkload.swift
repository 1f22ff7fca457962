// Request lines of the gateway's protocol (protocol/GATEWAY.md) for a workload: the op drawn from the mix, the
// id from the pool, `at` from the window. Ids are the connection's request counter (integers), which the
// gateway echoes byte for byte, so an answer names its request.
import Foundation

/// One request line and what its answer must show beyond its op's shape.
public struct LoadRequest: Sendable {
    public var op: LoadOp
    /// The line with its `\n`.
    public var line: [UInt8]
    public var expectation: AnswerExpectation
}

/// What one connection sends: an immutable description shared by all connections; each draws with its own
/// seeded generator.
public struct LineWorkload: Sendable {
    public var mix: OpMix
    public var pool: IdPool
    public var window: TimeWindow
    /// `limit` of departures and search.
    public var limit: Int
    /// `limit` of stops_in_bbox: the op's default and most, as a map app showing every stop in view asks.
    public var mapViewLimit = 100
    /// `date` of route (its service span's day): the local date the window starts on, so an answer does not
    /// follow the machine's clock.
    public let routeDate: String
    /// The window's offset from UTC (seconds), for the hour of `reliability` by stop. Taken at the window's start:
    /// a window spanning a clock change asks one hour off for part of it, which costs the same.
    let utcOffset: Int64

    public init(mix: OpMix, pool: IdPool, window: TimeWindow, limit: Int = 10) throws(WorkloadError) {
        guard (1...100).contains(limit) else { throw WorkloadError("--limit must be 1…100, got \(limit)") }
        try pool.check(for: mix)
        self.mix = mix
        self.pool = pool
        self.window = window
        self.limit = limit
        utcOffset = Int64(window.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(window.start))))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = window.timeZone
        let day = calendar.dateComponents(
            [.year, .month, .day], from: Date(timeIntervalSince1970: Double(window.start)))
        routeDate = String(format: "%04d%02d%02d", day.year!, day.month!, day.day!)
    }

    /// The most rows an answer of `op` may hold (departures and search: `limit`; stops_in_bbox: `mapViewLimit`).
    public func limit(of op: LoadOp) -> Int { op == .stopsInBBox ? mapViewLimit : limit }

    /// The request line (with its `\n`) for request `id`.
    public func request(id: UInt64, rng: inout SeededRandom) -> LoadRequest {
        let op = mix.op(at: rng.unit())
        var s = "{\"id\":\(id),\"op\":\"\(op.name)\""
        var expectation = AnswerExpectation.none
        switch op {
        case .departures:
            s +=
                ",\"stop_id\":\(Self.quoted(pool.station(at: rng.unit()))),\"at\":\(window.at(rng.unit())),\"limit\":\(limit)"
        case .trip:
            s += ",\"trip_id\":\(Self.quoted(pick(pool.trips, &rng))),\"at\":\(window.at(rng.unit()))"
        case .alerts:
            s += ",\"stop_id\":\(Self.quoted(pick(pool.stops, &rng))),\"at\":\(window.at(rng.unit()))"
        case .search:
            s += ",\"q\":\(Self.quoted(pick(pool.searchTerms, &rng))),\"limit\":\(limit)"
        case .stop:
            s += ",\"stop_id\":\(Self.quoted(pick(pool.stops, &rng)))"
        case .shape:
            // Half by shape_id (a route's line), half by trip_id (the trip a rider opened); one in four as
            // GeoJSON (a web map), the rest as the polyline an app decodes.
            let byShape = pool.shapeTrips.isEmpty || (!pool.shapes.isEmpty && rng.unit() < 0.5)
            s +=
                byShape
                ? ",\"shape_id\":\(Self.quoted(pick(pool.shapes, &rng)))"
                : ",\"trip_id\":\(Self.quoted(pick(pool.shapeTrips, &rng)))"
            if rng.unit() < 0.25 {
                s += ",\"format\":\"geojson\""
                expectation = .geojson
            }
        case .route:
            s += ",\"route_id\":\(Self.quoted(pool.routes.pick(at: rng.unit())!)),\"date\":\"\(routeDate)\""
        case .stopsInBBox:
            let box = pool.boxes[Int(rng.next() % UInt64(pool.boxes.count))]
            s += box.requestFields + ",\"limit\":\(mapViewLimit)"
            expectation = .inside(box)
        case .reliability:
            // By route: the route page's punctuality over the whole day. By stop: how late things leave this
            // stop around the hour of `at`, as a board's drawer would ask.
            let byRoute = pool.reliabilityStops.isEmpty || (!pool.routes.isEmpty && rng.unit() < 0.5)
            if byRoute {
                s += ",\"route_id\":\(Self.quoted(pool.routes.pick(at: rng.unit())!))"
            } else {
                let stop = pool.reliabilityStops.pick(at: rng.unit())!
                s += ",\"stop_id\":\(Self.quoted(stop)),\"hour\":\(hour(of: window.at(rng.unit())))"
            }
        case .echo:
            s += ",\"pad\":\"0123456789abcdef0123456789\""
        }
        s += "}\n"
        return LoadRequest(op: op, line: Array(s.utf8), expectation: expectation)
    }

    /// The local hour (0–23) of a unix time in the window's timezone.
    func hour(of unix: Int64) -> Int {
        let local = unix + utcOffset
        return Int(((local % 86_400) + 86_400) % 86_400 / 3600)
    }

    private func pick(_ list: [String], _ rng: inout SeededRandom) -> String {
        list[Int(rng.next() % UInt64(list.count))]
    }

    /// A JSON string literal.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
