import ProcessSupport
import StrictJSON
import TransitCore
import TransitModel

/// Limits and defaults of request fields (GATEWAY.md §6).
public enum GatewayLimits {
    public static let defaultLimit = 10
    /// The static service's: search and nearby pass the client's limit, radius and `at` to it unchanged.
    public static let maxLimit = StaticRequestLimits.maxLimit
    public static let defaultRadiusMetres = 500.0
    public static let maxRadiusMetres = StaticRequestLimits.maxRadiusMetres
    /// `at` must be 0 … this (2100-01-01T00:00:00Z).
    public static let maxAt: Int64 = StaticRequestLimits.atRange.upperBound
    /// Characters of a search text after trimming.
    public static let maxSearchLength = 200
    public static let maxLineBytes = 64 * 1024
    public static let modes = ["train", "metro", "tram", "ferry", "bus", "coach", "cable", "other"]
}

/// A request line that cannot be served: the error to answer with, the `id` to echo (null when the line was
/// not a JSON object with a scalar `id`) and the op when it was recognised (for per-op stats).
public struct GatewayRequestError: Error, Sendable, Hashable {
    public var id: RawJSON
    public var op: GatewayOpKind?
    public var error: GatewayError

    public init(id: RawJSON, op: GatewayOpKind?, error: GatewayError) {
        self.id = id
        self.op = op
        self.error = error
    }
}

extension GatewayRequest {
    /// True for an empty or whitespace-only line: such lines are ignored, not answered.
    public static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    }

    /// Parses one request line (its terminator may be included). Never traps on bad input.
    public static func parse(_ line: UnsafeRawBufferPointer) -> Result<GatewayRequest, GatewayRequestError> {
        let root: JSONValue
        do {
            root = try JSONParser.parse(line)
        } catch {
            return .failure(GatewayRequestError(id: .null, op: nil, error: GatewayError(.badJSON, error.description)))
        }
        guard case .object(let object) = root else {
            return .failure(
                GatewayRequestError(
                    id: .null, op: nil,
                    error: GatewayError(.badJSON, "expected a JSON object, got \(root.kindDescription)")))
        }

        var id = RawJSON.null
        if let member = object.member("id") {
            switch member.value {
            case .object, .array:
                return .failure(
                    GatewayRequestError(
                        id: .null, op: nil,
                        error: GatewayError(
                            .invalidArgument,
                            "field \"id\": expected a JSON scalar (string, number, boolean or null), got \(member.value.kindDescription)"
                        )))
            default:
                id = RawJSON(bytes: Array(line[member.range]))
            }
        }

        let kind: GatewayOpKind
        switch object["op"] {
        case nil, .null?:
            return .failure(
                GatewayRequestError(
                    id: id, op: nil,
                    error: GatewayError(
                        .invalidArgument, "missing field \"op\": expected a string, one of \(GatewayOpKind.nameList)")))
        case .string(let text)?:
            guard let named = GatewayOpKind(name: text) else {
                return .failure(GatewayRequestError(id: id, op: nil, error: unknownOp(text)))
            }
            kind = named
        case let other?:
            return .failure(
                GatewayRequestError(
                    id: id, op: nil,
                    error: GatewayError(.invalidArgument, "field \"op\": expected a string, got \(describe(other))")))
        }

        do {
            let op = try parseOp(kind, RequestArguments(object: object, op: kind))
            return .success(GatewayRequest(id: id, op: op))
        } catch {
            return .failure(GatewayRequestError(id: id, op: kind, error: error))
        }
    }

    public static func parse(_ line: [UInt8]) -> Result<GatewayRequest, GatewayRequestError> {
        line.withUnsafeBytes { parse($0) }
    }

    public static func parse(_ line: String) -> Result<GatewayRequest, GatewayRequestError> {
        parse(Array(line.utf8))
    }

    // MARK: ops

    private static func parseOp(_ kind: GatewayOpKind, _ args: RequestArguments) throws(GatewayError) -> GatewayOp {
        switch kind {
        case .health:
            try args.requireKnownFields([])
            return .health
        case .feedInfo:
            try args.requireKnownFields([])
            return .feedInfo
        case .stats:
            try args.requireKnownFields([])
            return .stats
        case .stop:
            try args.requireKnownFields(["stop_id"])
            return .stop(StopQuery(stopId: try args.requiredString("stop_id")))
        case .search:
            return .search(try parseSearch(args))
        case .nearby:
            return .nearby(try parseNearby(args))
        case .routes:
            try args.requireKnownFields(["mode"])
            return .routes(RoutesQuery(mode: try mode(args)))
        case .route:
            try args.requireKnownFields(["route_id", "date"])
            return .route(RouteQuery(routeId: try args.requiredString("route_id"), date: try serviceDate(args, "date")))
        case .shape:
            try args.requireKnownFields(["shape_id", "trip_id", "format"])
            let format = try args.optionalChoice("format", ["polyline", "geojson"]).flatMap(ShapeFormat.init(rawValue:))
            let query =
                try exactlyOne(args, ["shape_id", "trip_id"]) == "shape_id"
                ? ShapeQuery(shapeId: try args.requiredString("shape_id"))
                : ShapeQuery(tripId: try args.requiredString("trip_id"))
            return .shape(query, format: format ?? .polyline)
        case .stopsInBBox:
            try args.requireKnownFields(["min_lat", "min_lon", "max_lat", "max_lon", "mode", "limit"])
            let query = StopsInBBoxQuery(
                minLat: try args.requiredNumber("min_lat", in: -90...90),
                minLon: try args.requiredNumber("min_lon", in: -180...180),
                maxLat: try args.requiredNumber("max_lat", in: -90...90),
                maxLon: try args.requiredNumber("max_lon", in: -180...180), mode: try mode(args),
                limit: Int(
                    try args.optionalInt("limit", in: 1...Int64(GatewayLimits.maxLimit))
                        ?? Int64(GatewayLimits.maxLimit)))
            if let problem = query.problem { throw args.invalid(problem) }
            return .stopsInBBox(query)
        case .plan:
            return .plan(try parsePlan(args))
        case .departures:
            try args.requireKnownFields([
                "stop_id", "at", "direction", "limit", "cursor", "route_id", "direction_id", "mode",
            ])
            let stopId = try args.requiredString("stop_id")
            let direction = try args.optionalChoice("direction", ["future", "past"]).flatMap(
                BoardDirection.init(rawValue:))
            return .departures(
                DeparturesQuery(
                    stopId: stopId, at: try at(args), direction: direction ?? .future, limit: try limit(args),
                    cursor: try args.optionalString("cursor"), routeId: try args.optionalString("route_id"),
                    directionId: try args.optionalInt("direction_id", in: 0...1).map(Int.init), mode: try mode(args)))
        case .trip:
            try args.requireKnownFields(["trip_id", "date", "service_date", "start_time", "at"])
            let tripId = try args.requiredString("trip_id")
            // `service_date` as a board row names it, `date` as before: one date, however it is named.
            let date = try serviceDate(args, "date"), rowDate = try serviceDate(args, "service_date")
            if let date, let rowDate, date != rowDate {
                throw args.invalid(
                    "fields \"date\" and \"service_date\" name the same date (service_date is an alias), got \(date) and \(rowDate)"
                )
            }
            return .trip(
                TripQuery(
                    tripId: tripId, serviceDate: date ?? rowDate, startTime: try startTime(args), at: try at(args)))
        case .alerts:
            try args.requireKnownFields(["stop_id", "route_id", "trip_id", "at", "lang"])
            let selector: AlertsQuery.Selector
            switch try exactlyOne(args, ["stop_id", "route_id", "trip_id"]) {
            case "stop_id": selector = .stop(try args.requiredString("stop_id"))
            case "route_id": selector = .route(try args.requiredString("route_id"))
            default: selector = .trip(try args.requiredString("trip_id"))
            }
            return .alerts(AlertsQuery(selector: selector, at: try at(args), lang: try language(args)))
        case .vehicles:
            try args.requireKnownFields(["route_id", "trip_id"])
            if try exactlyOne(args, ["route_id", "trip_id"]) == "route_id" {
                return .vehicles(VehiclesQuery(selector: .route(try args.requiredString("route_id"))))
            }
            return .vehicles(VehiclesQuery(selector: .trip(try args.requiredString("trip_id"))))
        case .reliability:
            try args.requireKnownFields(["route_id", "stop_id", "hour", "day_type"])
            let routeId = try args.optionalString("route_id"), stopId = try args.optionalString("stop_id")
            guard routeId != nil || stopId != nil else { throw args.missing("route_id", "a string (or stop_id)") }
            let dayType = try args.optionalChoice("day_type", DayType.allCases.map(\.name)).flatMap(DayType.init(name:))
            return .reliability(
                DelaySlice(
                    routeId: routeId, stopId: stopId, hour: try args.optionalInt("hour", in: 0...23).map { Int($0) },
                    dayType: dayType))
        case .subscribe:
            guard
                let topic = try args.optionalChoice("topic", GatewayOpKind.subscriptionTopicNames).flatMap(
                    GatewayOpKind.init(name:))
            else {
                throw args.missing(
                    "topic", GatewayOpKind.subscriptionTopicNames.map { "\"\($0)\"" }.joined(separator: " or "))
            }
            if topic == .plan {
                return .subscribe(SubscribeQuery(plan: try parsePlan(args, subscription: true)))
            }
            try args.requireKnownFields(["topic", "stop_id", "limit"])
            let stopId = try args.requiredString("stop_id")
            return .subscribe(SubscribeQuery(topic: topic, stopId: stopId, limit: try limit(args)))
        case .unsubscribe:
            try args.requireKnownFields(["sub"])
            return .unsubscribe(sub: Int(try args.requiredInt("sub", in: 1...Int64(Int32.max))))
        case .auth:
            try args.requireKnownFields(["token"])
            return .auth(AuthToken(Array(try args.requiredString("token").utf8)))
        }
    }

    private static func parseSearch(_ args: RequestArguments) throws(GatewayError) -> SearchQuery {
        try args.requireKnownFields(["q", "limit", "mode", "include_platforms"])
        guard let value = args.value("q") else { throw args.missing("q", "a non-empty string") }
        guard case .string(let raw) = value else { throw args.mistyped("q", "a non-empty string", value) }
        try args.rejectControlCharacters("q", raw)
        let text = raw.trimmingWhitespace()
        if text.isEmpty { throw args.invalid("field \"q\": expected a non-empty string (not only spaces)") }
        let length = text.count
        if length > GatewayLimits.maxSearchLength {
            throw args.invalid(
                "field \"q\": expected at most \(GatewayLimits.maxSearchLength) characters, got \(length)")
        }
        return SearchQuery(
            query: text, limit: try limit(args), mode: try mode(args),
            includePlatforms: try args.optionalBool("include_platforms") ?? false)
    }

    private static func parseNearby(_ args: RequestArguments) throws(GatewayError) -> NearbyQuery {
        try args.requireKnownFields(["lat", "lon", "radius_m", "limit", "mode"])
        let lat = try args.requiredNumber("lat", in: -90...90)
        let lon = try args.requiredNumber("lon", in: -180...180)
        let radius = try args.optionalNumber("radius_m", in: 0...GatewayLimits.maxRadiusMetres, excludingLower: true)
        return NearbyQuery(
            lat: lat, lon: lon, radiusMetres: radius ?? GatewayLimits.defaultRadiusMetres, limit: try limit(args),
            mode: try mode(args))
    }

    // MARK: shared fields

    private static func limit(_ args: RequestArguments) throws(GatewayError) -> Int {
        Int(try args.optionalInt("limit", in: 1...Int64(GatewayLimits.maxLimit)) ?? Int64(GatewayLimits.defaultLimit))
    }

    private static func at(_ args: RequestArguments) throws(GatewayError) -> Int64? {
        do {
            return try args.optionalInt("at", in: 0...GatewayLimits.maxAt)
        } catch {
            throw atHint(args, error)
        }
    }

    /// The error of a bad `at`, with the unix seconds it probably meant when it looks like milliseconds or an
    /// ISO 8601 time (what a JavaScript or Java client sends by default).
    private static func atHint(_ args: RequestArguments, _ error: GatewayError) -> GatewayError {
        let expected = "expected unix seconds, an integer from 0 to \(GatewayLimits.maxAt)"
        switch args.value("at") {
        case .number(let number)?:
            if let ms = number.int64, ms > GatewayLimits.maxAt, ms / 1000 <= GatewayLimits.maxAt {
                return args.invalid(
                    "field \"at\": \(expected), got \(number.text): milliseconds? In seconds that is \(ms / 1000)")
            }
        case .string(let text)?:
            if let seconds = ServiceClock.parseInstant(text), seconds.isFinite, seconds >= 0,
                seconds <= Double(GatewayLimits.maxAt)
            {
                return args.invalid(
                    "field \"at\": \(expected), got the string \(quote(text)): that instant is \(Int64(seconds.rounded(.down)))"
                )
            }
        default:
            break
        }
        return error
    }

    private static func mode(_ args: RequestArguments) throws(GatewayError) -> String? {
        try args.optionalChoice("mode", GatewayLimits.modes)
    }

    private static func language(_ args: RequestArguments) throws(GatewayError) -> String? {
        guard let tag = try args.optionalString("lang", maxLength: 35) else { return nil }
        let valid = tag.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D
                || byte == 0x5F
        }
        guard valid else {
            throw args.invalid(
                "field \"lang\": expected a language tag such as \"en\" or \"zh-Hans\", got \(quote(tag))")
        }
        return tag
    }

    /// The name of the one field of `names` that is set; an error naming them all otherwise.
    private static func exactlyOne(_ args: RequestArguments, _ names: [String]) throws(GatewayError) -> String {
        let present = names.filter { args.has($0) }
        guard present.count == 1 else {
            let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let got = present.isEmpty ? "none" : present.map { "\"\($0)\"" }.joined(separator: " and ")
            throw args.invalid("op \"\(args.op.name)\" needs exactly one of \(list); got \(got)")
        }
        return present[0]
    }

    /// `"YYYYMMDD"` (or an 8-digit integer) that is a real calendar date.
    static func serviceDate(_ args: RequestArguments, _ name: String) throws(GatewayError) -> ServiceDate? {
        guard let value = args.value(name) else { return nil }
        let expected = "a date \"YYYYMMDD\""
        let digits: String
        switch value {
        case .string(let text): digits = text
        case .number(let number) where number.isInteger: digits = number.text
        default: throw args.mistyped(name, expected, value)
        }
        guard digits.utf8.count == 8, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let date = UInt32(digits)
        else {
            throw args.invalid("field \(quote(name)): expected \(expected), got \(describe(value))")
        }
        let year = Int(date / 10_000), month = Int(date / 100 % 100), day = Int(date % 100)
        guard (1900...2200).contains(year), (1...12).contains(month),
            (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
        else {
            throw args.invalid("field \(quote(name)): \(digits) is not a calendar date (YYYYMMDD)")
        }
        return date
    }

    /// `H:MM:SS` or `HH:MM:SS` (hours may pass 24, as in GTFS), returned as `HH:MM:SS`.
    static func startTime(_ args: RequestArguments) throws(GatewayError) -> String? {
        guard let value = args.value("start_time") else { return nil }
        guard case .string(let text) = value else { throw args.mistyped("start_time", "a time \"HH:MM:SS\"", value) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        func number(_ part: Substring, digits: ClosedRange<Int>) -> Int? {
            guard digits.contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            return Int(part)
        }
        guard parts.count == 3, let hours = number(parts[0], digits: 1...2),
            let minutes = number(parts[1], digits: 2...2),
            let seconds = number(parts[2], digits: 2...2), minutes < 60, seconds < 60
        else {
            throw args.invalid(
                "field \"start_time\": expected a time \"HH:MM:SS\" (minutes and seconds below 60), got \(quote(text))")
        }
        return hours < 10 ? "0\(hours):\(parts[1]):\(parts[2])" : text
    }

    private static func unknownOp(_ text: String) -> GatewayError {
        var message = "unknown op \(quote(text))"
        if let near = nearestOp(text) {
            message += "; did you mean \"\(near)\"?"
        } else {
            message += "; ops: \(GatewayOpKind.nameList)"
        }
        return GatewayError(.unknownOp, message)
    }

    /// The op within edit distance 2 (case-insensitive), if any.
    static func nearestOp(_ text: String) -> String? {
        let typed = Array(text.lowercased().utf8)
        guard typed.count <= 32 else { return nil }
        var best: (name: String, distance: Int)?
        for op in GatewayOpKind.allCases {
            let d = editDistance(typed, Array(op.name.utf8))
            if d <= 2, d < (best?.distance ?? Int.max) { best = (op.name, d) }
        }
        return best?.name
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

extension String {
    /// Without leading and trailing whitespace (Unicode white space, as a user would type it).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

// MARK: plan

extension GatewayRequest {
    /// `plan` (GATEWAY.md "plan"): every range of the op is INVALID_ARGUMENT naming it (limits are errors, not
    /// clamps). The budget is the gateway's (`--plan-budget-ms`), set by the dispatcher.
    /// `plan`'s fields (and a plan subscription's: `topic` too, no `cursor`).
    fileprivate static func parsePlan(_ args: RequestArguments, subscription: Bool = false) throws(GatewayError)
        -> PlanRequest
    {
        try args.requireKnownFields(
            [
                "from", "to", "at", "arrive_by", "max_transfers", "transfer_slack_s", "walk_radius_m", "walk_speed_mps",
                "access_radius_m", "modes", "wheelchair", "window_s", "limit", "realtime",
            ] + (subscription ? ["topic"] : ["cursor"]))
        let from = try planPlace(args, "from"), to = try planPlace(args, "to")
        if from == to { throw args.invalid("fields \"from\" and \"to\": the same place; a journey needs two") }
        var at = try args.optionalInt("at", in: 0...GatewayLimits.maxAt)
        let arriveBy = try args.optionalInt("arrive_by", in: 0...GatewayLimits.maxAt)
        var window = Int(try args.optionalInt("window_s", in: PlanLimits.window) ?? 0)
        if let cursor = try args.optionalString("cursor") {
            guard let page = PlanCursor(cursor) else {
                throw args.invalid("field \"cursor\": not a later_cursor of a plan answer")
            }
            if args.has("at") || args.has("window_s") {
                throw args.invalid("field \"cursor\": it sets at and window_s; send it without them")
            }
            at = page.at
            window = Int(page.windowEnd - page.at)
        }
        if at != nil, arriveBy != nil { throw args.invalid("fields \"at\" and \"arrive_by\": give one of them") }
        if arriveBy != nil, window > 0 {
            throw args.invalid("field \"window_s\": a range query departs at \"at\", not with \"arrive_by\"")
        }
        var modes: [String] = []
        if let value = args.value("modes") {
            guard case .array(let items) = value else { throw args.mistyped("modes", "an array of modes", value) }
            for item in items {
                guard case .string(let m) = item, GatewayLimits.modes.contains(m) else {
                    throw args.invalid(
                        "field \"modes\": expected modes among \(GatewayLimits.modes.joined(separator: ", ")), got \(describe(item))"
                    )
                }
                if !modes.contains(m) { modes.append(m) }
            }
        }
        return PlanRequest(
            from: from, to: to, at: at, arriveBy: arriveBy,
            maxTransfers: Int(
                try args.optionalInt("max_transfers", in: PlanLimits.maxTransfers)
                    ?? Int64(PlanLimits.defaultMaxTransfers)),
            transferSlackSeconds: Int(
                try args.optionalInt("transfer_slack_s", in: PlanLimits.transferSlack)
                    ?? Int64(PlanLimits.defaultTransferSlack)),
            walkRadiusMetres: try args.optionalNumber("walk_radius_m", in: PlanLimits.walkRadius)
                ?? PlanLimits.defaultWalkRadius,
            walkSpeed: try args.optionalNumber("walk_speed_mps", in: PlanLimits.walkSpeed)
                ?? PlanLimits.defaultWalkSpeed,
            accessRadiusMetres: try args.optionalNumber("access_radius_m", in: PlanLimits.accessRadius)
                ?? PlanLimits.defaultAccessRadius,
            modes: modes, wheelchair: try args.optionalBool("wheelchair") ?? false, windowSeconds: window,
            limit: Int(try args.optionalInt("limit", in: PlanLimits.limit) ?? Int64(PlanLimits.defaultLimit)),
            realtime: try args.optionalBool("realtime") ?? true)
    }

    /// `{"stop_id": string}` or `{"lat": number, "lon": number}`.
    private static func planPlace(_ args: RequestArguments, _ name: String) throws(GatewayError) -> PlanPlace {
        let expected = "{\"stop_id\": string} or {\"lat\": number, \"lon\": number}"
        guard let value = args.value(name) else { throw args.missing(name, expected) }
        guard case .object(let object) = value else { throw args.mistyped(name, expected, value) }
        let place = RequestArguments(object: object, op: args.op)
        for member in object.members where !["stop_id", "lat", "lon"].contains(member.key) {
            throw args.invalid("field \(quote(name)): unknown field \(quote(member.key)); expected \(expected)")
        }
        do throws(GatewayError) {
            if place.has("stop_id") {
                if place.has("lat") || place.has("lon") {
                    throw args.invalid("expected a stop_id or a coordinate, not both")
                }
                return .stop(try place.requiredString("stop_id"))
            }
            return .coordinate(
                lat: try place.requiredNumber("lat", in: -90...90), lon: try place.requiredNumber("lon", in: -180...180)
            )
        } catch {
            throw args.invalid("field \(quote(name)): " + error.message)
        }
    }
}

/// A plan answer's `later_cursor`: where the next page of a range query starts and where its window ends
/// ("p1-<at>-<window end>", unix seconds).
public struct PlanCursor: Sendable, Hashable {
    public var at: Int64
    public var windowEnd: Int64

    public init(at: Int64, windowEnd: Int64) {
        self.at = at
        self.windowEnd = windowEnd
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "p1", let at = Int64(parts[1]), let end = Int64(parts[2]),
            (0...GatewayLimits.maxAt).contains(at), end >= at, end - at <= PlanLimits.window.upperBound
        else { return nil }
        self.init(at: at, windowEnd: end)
    }

    public var text: String { "p1-\(at)-\(windowEnd)" }
}
