import TransitModel

/// Where an answer's live data came from (GATEWAY.md §2, `meta.source`).
public enum DataSource: String, Sendable, Hashable {
    case staticAndRealtime = "static+rt"
    case staticOnly = "static_only"
    case realtimeOnly = "rt_only"
}

/// The `meta` fields of ops that read live state.
public struct LiveMeta: Sendable, Hashable {
    /// The unix time the answer was computed for.
    public var at: Int64
    public var source: DataSource
    public var stale: Bool
    public var feedAgeSeconds: Int64?
    /// The realtime publisher's epoch the answer's live data came from (the highest heard); nil: none heard.
    public var epoch: UInt64?

    public init(
        at: Int64, source: DataSource, stale: Bool = false, feedAgeSeconds: Int64? = nil, epoch: UInt64? = nil
    ) {
        self.at = at
        self.source = source
        self.stale = stale
        self.feedAgeSeconds = feedAgeSeconds
        self.epoch = epoch
    }

    /// What the static debug client (or a gateway without realtime) reports.
    public static func staticOnly(at: Int64) -> LiveMeta {
        LiveMeta(at: at, source: .staticOnly, stale: false, feedAgeSeconds: nil)
    }
}

public struct ResponseMeta: Sendable, Hashable {
    public var op: GatewayOpKind
    public var elapsedMicros: Int64
    /// Set for departures, trip, alerts, vehicles and subscription events.
    public var live: LiveMeta?
    /// Something the rider should know about an answer that looks ordinary (an empty board, or a route without
    /// service, for a date no feed covers; GATEWAY.md §2); written only when set.
    public var note: String?
    /// `health`'s `meta.epoch` (answers with `live` carry theirs there): nil: no such field; `.some(nil)`: null.
    public var epoch: UInt64??

    public init(
        op: GatewayOpKind, elapsedMicros: Int64, live: LiveMeta? = nil, note: String? = nil, epoch: UInt64?? = nil
    ) {
        self.op = op
        self.elapsedMicros = elapsedMicros
        self.live = live
        self.note = note
        self.epoch = epoch
    }
}

/// Whole answer lines (each ends with "\n"): success and error envelopes, pushed events.
public enum GatewayResponse {
    /// `{"id":…,"ok":true,"data":…,"meta":…}`; `data` writes exactly one JSON value.
    public static func success(
        id: RawJSON, meta: ResponseMeta, capacity: Int = 1024, data: (inout JSONWriter) -> Void
    ) -> [UInt8] {
        var w = JSONWriter(capacity: capacity)
        w.beginObject()
        w.key("id"); w.raw(id)
        w.key("ok"); w.bool(true)
        w.key("data"); data(&w)
        w.key("meta"); w.meta(meta)
        w.endObject()
        w.newline()
        return w.finish()
    }

    /// `{"id":…,"ok":false,"error":{"code":…,"message":…}}`.
    public static func error(id: RawJSON, _ error: GatewayError) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + error.message.utf8.count)
        w.beginObject()
        w.key("id"); w.raw(id)
        w.key("ok"); w.bool(false)
        w.key("error"); w.beginObject()
        w.key("code"); w.string(error.code.rawValue)
        w.key("message"); w.string(error.message)
        w.endObject()
        w.endObject()
        w.newline()
        return w.finish()
    }

    public static func error(_ failure: GatewayRequestError) -> [UInt8] {
        error(id: failure.id, failure.error)
    }

    /// A pushed subscription event: `{"event":"departures","sub":…,"data":…,"meta":…}`.
    /// The line a subscriber gets when the gateway shuts down gracefully: its subscriptions have ended, the
    /// connection closes after the answers still due; reconnect (to another gateway) and subscribe again.
    public static let closingEvent: [UInt8] = Array("{\"event\":\"closing\",\"reason\":\"shutdown\"}\n".utf8)

    public static func departuresEvent(sub: Int, answer: DeparturesAnswer, meta: ResponseMeta) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("event"); w.string("departures")
        w.key("sub"); w.int(sub)
        w.key("data"); w.departuresData(answer, at: meta.live?.at ?? 0)
        w.key("meta"); w.meta(meta)
        w.endObject()
        w.newline()
        return w.finish()
    }

    /// The answer line to a static op from the static service's result, without realtime: what
    /// `transit-static query` prints, and the gateway's answer for static-only ops. `at` is the request's
    /// (or now) for `trip`; a departure board carries its own.
    public static func staticAnswer(
        id: RawJSON, op: GatewayOpKind, result: Result<StaticResult, ServiceError>, at: Int64, elapsedMicros: Int64
    ) -> [UInt8] {
        switch result {
        case .failure(let failure):
            return error(id: id, GatewayError(staticError: failure))
        case .success(.tripSchedules):
            return error(id: id, GatewayError(.internal, "trip_schedules is not an op of the line protocol"))
        case .success(.departures(let board)):
            let meta = ResponseMeta(op: op, elapsedMicros: elapsedMicros, live: .staticOnly(at: board.at))
            return success(id: id, meta: meta, capacity: 1024 + 900 * board.departures.count) {
                $0.departuresData(DeparturesAnswer(board: board), at: board.at)
            }
        case .success(.trip(let trip)):
            let meta = ResponseMeta(op: op, elapsedMicros: elapsedMicros, live: .staticOnly(at: at))
            return success(id: id, meta: meta, capacity: 1024 + 700 * trip.stops.count) {
                $0.tripData(trip, realtime: nil, at: at)
            }
        case .success(let other):
            return success(id: id, meta: ResponseMeta(op: op, elapsedMicros: elapsedMicros), capacity: 4096) {
                $0.staticData(other)
            }
        }
    }
}

extension JSONWriter {
    public mutating func meta(_ meta: ResponseMeta) {
        beginObject()
        key("op"); string(meta.op.name)
        key("elapsed_us"); int(meta.elapsedMicros)
        if let live = meta.live {
            key("at"); int(live.at)
            key("source"); string(live.source.rawValue)
            key("stale"); bool(live.stale)
            key("feed_age_s"); int(live.feedAgeSeconds)
            key("epoch"); int(live.epoch.map { Int64(clamping: $0) })
        }
        if let epoch = meta.epoch {
            key("epoch"); int(epoch.map { Int64(clamping: $0) })
        }
        if let note = meta.note { key("note"); string(note) }
        endObject()
    }

    /// The `data` of a static result that needs no `at`: stop, stops (search, nearby), routes, feed_info.
    /// Departures and trips go through `departuresData` / `tripData`.
    mutating func staticData(_ result: StaticResult) {
        switch result {
        case .stop(let r): stopData(r)
        case .stops(let stops): stopListData(stops)
        case .routes(let routes): routeListData(routes)
        case .feedInfo(let info): feedInfoData(info)
        case .departures(let board): departuresData(DeparturesAnswer(board: board), at: board.at)
        case .trip(let trip): tripData(trip, realtime: nil, at: 0)
        case .tripSchedules: null()
        case .shape(let shape): shapeData(shape, geojson: false)
        case .route(let detail): routeDetailData(detail)
        case .plan(let plan): planData(PlanView(schedule: plan), at: 0)
        }
    }
}
