// The public face of this module for the realtime service: its PUB messages (framed as topic, 0x00,
// protobuf PubMessage), its REQ/REP envelopes and snapshots (protocol/realtime.proto, protocol/README.md).
import TransitModel
import TransitProtoC

/// Encodes and decodes the realtime service's messages. Encoding never fails; decoding never traps on bad
/// input and throws a `ProtoDecodeError` naming the message and field.
public enum RealtimeCodec {
    // MARK: PUB

    /// `topic`, 0x00, then the protobuf `PubMessage`: one buffer, packed in place. Trip update batches (the
    /// big ones) are written directly (`TripUpdatesWire`), the rest through protobuf-c.
    public static func encodeFramed(_ message: PubMessage) -> [UInt8] {
        if case .tripUpdates(let batch) = message.payload { return TripUpdatesWire.framed(message, batch) }
        return encodeFramedWithProtobufC(message)
    }

    /// `encodeFramed` with `tu` trips sized and written by `tripWorkers` threads (tests: every count
    /// writes the same bytes).
    package static func encodeFramed(_ message: PubMessage, tripWorkers: Int) -> [UInt8] {
        if case .tripUpdates(let batch) = message.payload {
            return TripUpdatesWire.framed(message, batch, workers: tripWorkers)
        }
        return encodeFramed(message)
    }

    /// The same through protobuf-c for every payload: the reference `TripUpdatesWire` is tested against.
    package static func encodeFramedWithProtobufC(_ message: PubMessage) -> [UInt8] {
        ProtoArena.with(capacity: capacityEstimate(message.payload)) { arena in
            let m = arena.pubMessage(message)
            let topic = message.topic.rawValue.utf8
            let size = transit__pub_message__get_packed_size(m)
            let total = topic.count + 1 + size
            return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                var i = 0
                for byte in topic {
                    buffer[i] = byte
                    i += 1
                }
                buffer[i] = 0
                let packed = transit__pub_message__pack(m, buffer.baseAddress! + i + 1)
                precondition(packed == size, "protobuf-c packed \(packed) bytes, promised \(size)")
                initialized = total
            }
        }
    }

    /// Decodes a framed PUB message. The frame's topic must be the payload's topic.
    public static func decodeFramed(_ bytes: UnsafeRawBufferPointer) throws(ProtoDecodeError) -> PubMessage {
        guard let zero = bytes.firstIndex(of: 0) else {
            throw ProtoDecodeError(message: "transit.PubMessage", field: "topic", reason: .missingField)
        }
        let frameTopic = RealtimeTopic(rawValue: String(decoding: bytes[..<zero], as: UTF8.self))
        let body = UnsafeRawBufferPointer(rebasing: bytes[(zero + 1)...])
        let message = try ProtoWire.withUnpacked(
            body, messageName: "transit.PubMessage", unpack: transit__pub_message__unpack
        ) { (m) throws(ProtoDecodeError) in try PubMessage(proto: m.pointee) }
        guard frameTopic == message.topic else {
            throw ProtoDecodeError(message: "transit.PubMessage", field: "topic", reason: .unknownEnumValue(-1))
        }
        return message
    }

    public static func decodeFramed(_ bytes: [UInt8]) throws(ProtoDecodeError) -> PubMessage {
        try withBytes(bytes, decodeFramed)
    }

    // MARK: REQ/REP

    public static func encode(_ request: RealtimeRequest) -> [UInt8] {
        ProtoArena.with { arena in
            let m = arena.realtimeRequest(request)
            return ProtoWire.pack(
                m, size: transit__realtime_request__get_packed_size, pack: transit__realtime_request__pack)
        }
    }

    public static func decodeRequest(_ bytes: UnsafeRawBufferPointer) throws(ProtoDecodeError) -> RealtimeRequest {
        try ProtoWire.withUnpacked(
            bytes, messageName: "transit.RealtimeRequest", unpack: transit__realtime_request__unpack
        ) { (m) throws(ProtoDecodeError) in try RealtimeRequest(proto: m.pointee) }
    }

    public static func decodeRequest(_ bytes: [UInt8]) throws(ProtoDecodeError) -> RealtimeRequest {
        try withBytes(bytes, decodeRequest)
    }

    public static func encode(_ response: RealtimeResponse) -> [UInt8] {
        let capacity: Int
        if case .success(.snapshot(let s)) = response.result {
            capacity = capacityEstimate(s.payload)
        } else {
            capacity = ProtoArena.firstChunkSize
        }
        return ProtoArena.with(capacity: capacity) { arena in
            let m = arena.realtimeResponse(response)
            return ProtoWire.pack(
                m, size: transit__realtime_response__get_packed_size, pack: transit__realtime_response__pack)
        }
    }

    public static func decodeResponse(_ bytes: UnsafeRawBufferPointer) throws(ProtoDecodeError) -> RealtimeResponse {
        try ProtoWire.withUnpacked(
            bytes, messageName: "transit.RealtimeResponse", unpack: transit__realtime_response__unpack
        ) { (m) throws(ProtoDecodeError) in try RealtimeResponse(proto: m.pointee) }
    }

    public static func decodeResponse(_ bytes: [UInt8]) throws(ProtoDecodeError) -> RealtimeResponse {
        try withBytes(bytes, decodeResponse)
    }

    // MARK: helpers

    /// Roughly the C structs a payload takes, so a big batch packs from one or two arena chunks.
    private static func capacityEstimate(_ payload: LivePayload) -> Int {
        switch payload {
        case .tripUpdates(let b):
            var stops = 0
            for trip in b.trips { stops += trip.stops.count }
            return 4096 + b.trips.count * 256 + stops * 160 + b.removed.count * 64
        case .vehicles(let b): return 4096 + b.vehicles.count * 384
        case .alerts(let b): return 4096 + b.alerts.count * 1024
        case .sources(let s): return 4096 + s.count * 512
        case .heartbeat(let h): return 4096 + h.sources.count * 512
        case .detours(let b): return 4096 + b.detours.reduce(0) { $0 + 512 + $1.stops.count * 96 }
        }
    }

    private static func withBytes<T>(
        _ bytes: [UInt8], _ decode: (UnsafeRawBufferPointer) throws(ProtoDecodeError) -> T
    ) throws(ProtoDecodeError) -> T {
        try bytes.withUnsafeBytes { raw in Result { () throws(ProtoDecodeError) in try decode(raw) } }.get()
    }
}

// MARK: envelopes: encoding

extension ProtoArena {
    fileprivate func pubMessage(_ p: PubMessage) -> UnsafeMutablePointer<Transit__PubMessage> {
        message(transit__pub_message__init) { m in
            (m.has_epoch, m.epoch) = present(p.epoch)
            m.topic = string(p.topic.rawValue)
            (m.has_seq, m.seq) = present(p.seq)
            (m.has_sent_unix_ms, m.sent_unix_ms) = present(p.sentUnixMs)
            switch p.payload {
            case .tripUpdates(let b):
                m.payload_case = TRANSIT__PUB_MESSAGE__PAYLOAD_TRIP_UPDATES
                m.trip_updates = proto(b)
            case .vehicles(let b):
                m.payload_case = TRANSIT__PUB_MESSAGE__PAYLOAD_VEHICLES
                m.vehicles = proto(b)
            case .alerts(let b):
                m.payload_case = TRANSIT__PUB_MESSAGE__PAYLOAD_ALERTS
                m.alerts = proto(b)
            case .sources(let list):
                m.payload_case = TRANSIT__PUB_MESSAGE__PAYLOAD_SOURCES
                m.sources = proto(sources: list)
            case .detours(let b):
                m.payload_case = TRANSIT__PUB_MESSAGE__PAYLOAD_DETOURS
                m.detours = proto(b)
            case .heartbeat(let h):
                m.payload_case = TRANSIT__PUB_MESSAGE__PAYLOAD_HEARTBEAT
                m.heartbeat = proto(h)
            }
        }
    }

    fileprivate func realtimeRequest(_ r: RealtimeRequest) -> UnsafeMutablePointer<Transit__RealtimeRequest> {
        message(transit__realtime_request__init) { m in
            (m.has_request_id, m.request_id) = present(r.requestId)
            switch r.query {
            case .snapshot(let topic):
                m.query_case = TRANSIT__REALTIME_REQUEST__QUERY_SNAPSHOT
                m.snapshot = message(transit__snapshot_query__init) { q in q.topic = string(topic.rawValue) }
            case .trip(let t):
                m.query_case = TRANSIT__REALTIME_REQUEST__QUERY_TRIP
                m.trip = message(transit__trip_prediction_query__init) { q in
                    q.trip_id = string(t.tripId)
                    (q.has_service_date, q.service_date) = ifPresent(t.serviceDate)
                    (q.has_start_secs, q.start_secs) = ifPresent(t.startSecs)
                }
            case .stop(let s):
                m.query_case = TRANSIT__REALTIME_REQUEST__QUERY_STOP
                m.stop = message(transit__stop_predictions_query__init) { q in
                    q.stop_id = string(s.stopId)
                    (q.has_from_unix, q.from_unix) = ifPresent(s.fromUnix)
                    (q.has_to_unix, q.to_unix) = ifPresent(s.toUnix)
                    (q.has_limit, q.limit) = present(UInt32(clamping: s.limit))
                }
            case .vehicles(let v):
                m.query_case = TRANSIT__REALTIME_REQUEST__QUERY_VEHICLES
                m.vehicles = message(transit__vehicles_query__init) { q in
                    switch v {
                    case .all: break
                    case .trip(let id): q.trip_id = string(id)
                    case .route(let id): q.route_id = string(id)
                    case .vehicle(let id): q.vehicle_id = string(id)
                    }
                }
            case .alerts(let a):
                m.query_case = TRANSIT__REALTIME_REQUEST__QUERY_ALERTS
                m.alerts = message(transit__alerts_query__init) { q in
                    q.stop_id = string(a.stopId)
                    q.route_id = string(a.routeId)
                    (q.has_route_type, q.route_type) = ifPresent(a.routeType)
                    q.trip_id = string(a.tripId)
                    q.agency_id = string(a.agencyId)
                    (q.has_active_at, q.active_at) = ifPresent(a.activeAt)
                }
            case .sources:
                m.query_case = TRANSIT__REALTIME_REQUEST__QUERY_SOURCES
                m.sources = message(transit__source_status_query__init)
            case .delayHistograms(let slices):
                m.query_case = TRANSIT__REALTIME_REQUEST__QUERY_DELAY_HISTOGRAMS
                m.delay_histograms = message(transit__delay_histograms_query__init) { q in
                    (q.n_slices, q.slices) = messages(slices) { slice in
                        message(transit__delay_slice_query__init) { d in
                            d.route_id = string(slice.routeId)
                            d.stop_id = string(slice.stopId)
                            (d.has_hour, d.hour) = ifPresent(slice.hour.map { UInt32(clamping: $0) })
                            if let type = slice.dayType {
                                (d.has_day_type, d.day_type) = present(
                                    Transit__DayType(rawValue: UInt32(type.rawValue)))
                            }
                        }
                    }
                }
            }
        }
    }

    fileprivate func realtimeResponse(_ r: RealtimeResponse) -> UnsafeMutablePointer<Transit__RealtimeResponse> {
        message(transit__realtime_response__init) { m in
            (m.has_request_id, m.request_id) = present(r.requestId)
            switch r.result {
            case .failure(let error):
                (m.has_status, m.status) = present(error.status.proto)
                m.error_message = string(error.message)
            case .success(let result):
                (m.has_status, m.status) = present(TRANSIT__STATUS__OK)
                switch result {
                case .snapshot(let s):
                    m.result_case = TRANSIT__REALTIME_RESPONSE__RESULT_SNAPSHOT
                    m.snapshot = proto(s)
                case .trips(let trips):
                    m.result_case = TRANSIT__REALTIME_RESPONSE__RESULT_TRIPS
                    m.trips = message(transit__trip_prediction_list__init) { l in
                        (l.n_trips, l.trips) = messages(trips, proto)
                    }
                case .visits(let visits):
                    m.result_case = TRANSIT__REALTIME_RESPONSE__RESULT_VISITS
                    m.visits = message(transit__stop_visit_list__init) { l in
                        (l.n_visits, l.visits) = messages(visits, proto)
                    }
                case .vehicles(let vehicles):
                    m.result_case = TRANSIT__REALTIME_RESPONSE__RESULT_VEHICLES
                    m.vehicles = proto(LiveVehicleBatch(vehicles: vehicles))
                case .alerts(let alerts):
                    m.result_case = TRANSIT__REALTIME_RESPONSE__RESULT_ALERTS
                    m.alerts = proto(LiveAlertBatch(alerts: alerts))
                case .sources(let sources, let failedSends, let residentBytes):
                    m.result_case = TRANSIT__REALTIME_RESPONSE__RESULT_SOURCES
                    m.sources = proto(sources: sources, failedSends: failedSends, residentBytes: residentBytes)
                case .delayHistograms(let histograms):
                    m.result_case = TRANSIT__REALTIME_RESPONSE__RESULT_DELAY_HISTOGRAMS
                    m.delay_histograms = message(transit__delay_histogram_list__init) { l in
                        (l.n_histograms, l.histograms) = messages(histograms) { h in
                            message(transit__delay_histogram__init) { d in
                                if !h.histogram.isEmpty { (d.n_counts, d.counts) = values(h.histogram.counts) }
                                (d.has_first_date, d.first_date) = present(h.firstDate)
                                (d.has_last_date, d.last_date) = present(h.lastDate)
                            }
                        }
                    }
                }
            }
        }
    }
}

// MARK: envelopes: decoding

extension PubMessage {
    fileprivate init(proto m: borrowing Transit__PubMessage) throws(ProtoDecodeError) {
        let topic = try RealtimeTopic(wire: m.topic, field: "topic")
        let payload: LivePayload
        switch m.payload_case {
        case TRANSIT__PUB_MESSAGE__PAYLOAD_TRIP_UPDATES:
            payload = .tripUpdates(try requiredMessage(m.trip_updates, "trip_updates", LiveTripBatch.init(proto:)))
        case TRANSIT__PUB_MESSAGE__PAYLOAD_VEHICLES:
            payload = .vehicles(try requiredMessage(m.vehicles, "vehicles", LiveVehicleBatch.init(proto:)))
        case TRANSIT__PUB_MESSAGE__PAYLOAD_ALERTS:
            payload = .alerts(try requiredMessage(m.alerts, "alerts", LiveAlertBatch.init(proto:)))
        case TRANSIT__PUB_MESSAGE__PAYLOAD_SOURCES:
            payload = .sources(try requiredMessage(m.sources, "sources", liveSources(proto:)))
        case TRANSIT__PUB_MESSAGE__PAYLOAD_DETOURS:
            payload = .detours(try requiredMessage(m.detours, "detours", LiveDetourBatch.init(proto:)))
        case TRANSIT__PUB_MESSAGE__PAYLOAD_HEARTBEAT:
            payload = .heartbeat(try requiredMessage(m.heartbeat, "heartbeat", LiveHeartbeat.init(proto:)))
        default:
            throw .missing("payload")
        }
        // The topic string and the payload must agree, or a subscriber would file it under the wrong topic.
        guard payload.topic == topic else { throw .unknownEnum("topic", -1) }
        self.init(
            epoch: try requiredValue(m.has_epoch, m.epoch, "epoch"),
            seq: try requiredValue(m.has_seq, m.seq, "seq"),
            sentUnixMs: try requiredValue(m.has_sent_unix_ms, m.sent_unix_ms, "sent_unix_ms"),
            payload: payload)
    }
}

extension RealtimeRequest {
    fileprivate init(proto m: borrowing Transit__RealtimeRequest) throws(ProtoDecodeError) {
        let query: RealtimeQuery
        switch m.query_case {
        case TRANSIT__REALTIME_REQUEST__QUERY_SNAPSHOT:
            query = .snapshot(
                try requiredMessage(m.snapshot, "snapshot") { (q) throws(ProtoDecodeError) in
                    try RealtimeTopic(wire: q.topic, field: "topic")
                })
        case TRANSIT__REALTIME_REQUEST__QUERY_TRIP:
            query = .trip(
                try requiredMessage(m.trip, "trip") { (q) throws(ProtoDecodeError) in
                    LiveTripQuery(
                        tripId: try requiredString(q.trip_id, "trip_id"),
                        serviceDate: optionalValue(q.has_service_date, q.service_date),
                        startSecs: optionalValue(q.has_start_secs, q.start_secs))
                })
        case TRANSIT__REALTIME_REQUEST__QUERY_STOP:
            query = .stop(
                try requiredMessage(m.stop, "stop") { (q) throws(ProtoDecodeError) in
                    LiveStopQuery(
                        stopId: try requiredString(q.stop_id, "stop_id"),
                        fromUnix: optionalValue(q.has_from_unix, q.from_unix),
                        toUnix: optionalValue(q.has_to_unix, q.to_unix),
                        limit: optionalValue(q.has_limit, q.limit).map { Int($0) } ?? LiveStopQuery.defaultLimit)
                })
        case TRANSIT__REALTIME_REQUEST__QUERY_VEHICLES:
            query = .vehicles(
                try requiredMessage(m.vehicles, "vehicles") { (q) throws(ProtoDecodeError) in
                    if let id = optionalString(q.trip_id) { return .trip(id) }
                    if let id = optionalString(q.route_id) { return .route(id) }
                    if let id = optionalString(q.vehicle_id) { return .vehicle(id) }
                    return .all
                })
        case TRANSIT__REALTIME_REQUEST__QUERY_ALERTS:
            query = .alerts(
                try requiredMessage(m.alerts, "alerts") { (q) throws(ProtoDecodeError) in
                    LiveAlertQuery(
                        stopId: optionalString(q.stop_id), routeId: optionalString(q.route_id),
                        routeType: optionalValue(q.has_route_type, q.route_type), tripId: optionalString(q.trip_id),
                        agencyId: optionalString(q.agency_id), activeAt: optionalValue(q.has_active_at, q.active_at))
                })
        case TRANSIT__REALTIME_REQUEST__QUERY_SOURCES:
            query = .sources
        case TRANSIT__REALTIME_REQUEST__QUERY_DELAY_HISTOGRAMS:
            query = .delayHistograms(
                try requiredMessage(m.delay_histograms, "delay_histograms") { (q) throws(ProtoDecodeError) in
                    try repeatedMessages(q.n_slices, q.slices, "slices") { (d) throws(ProtoDecodeError) in
                        var dayType: DayType?
                        if d.has_day_type != 0 {
                            guard let type = DayType(rawValue: Int(d.day_type.rawValue)) else {
                                throw .unknownEnum("day_type", d.day_type.rawValue)
                            }
                            dayType = type
                        }
                        return DelaySlice(
                            routeId: optionalString(d.route_id), stopId: optionalString(d.stop_id),
                            hour: optionalValue(d.has_hour, d.hour).map { Int($0) }, dayType: dayType)
                    }
                })
        default:
            throw .missing("query")
        }
        self.init(requestId: try requiredValue(m.has_request_id, m.request_id, "request_id"), query: query)
    }
}

extension RealtimeResponse {
    fileprivate init(proto m: borrowing Transit__RealtimeResponse) throws(ProtoDecodeError) {
        let requestId = try requiredValue(m.has_request_id, m.request_id, "request_id")
        let status = m.has_status != 0 ? try ServiceStatus(proto: m.status, field: "status") : .ok
        guard status == .ok else {
            self.init(
                requestId: requestId,
                result: .failure(ServiceError(status, try requiredString(m.error_message, "error_message"))))
            return
        }
        let result: RealtimeResult
        switch m.result_case {
        case TRANSIT__REALTIME_RESPONSE__RESULT_SNAPSHOT:
            result = .snapshot(try requiredMessage(m.snapshot, "snapshot", RealtimeSnapshot.init(proto:)))
        case TRANSIT__REALTIME_RESPONSE__RESULT_TRIPS:
            result = .trips(
                try requiredMessage(m.trips, "trips") { (l) throws(ProtoDecodeError) in
                    try repeatedMessages(l.n_trips, l.trips, "trips", LiveTrip.init(proto:))
                })
        case TRANSIT__REALTIME_RESPONSE__RESULT_VISITS:
            result = .visits(
                try requiredMessage(m.visits, "visits") { (l) throws(ProtoDecodeError) in
                    try repeatedMessages(l.n_visits, l.visits, "visits", LiveStopVisit.init(proto:))
                })
        case TRANSIT__REALTIME_RESPONSE__RESULT_VEHICLES:
            result = .vehicles(try requiredMessage(m.vehicles, "vehicles", LiveVehicleBatch.init(proto:)).vehicles)
        case TRANSIT__REALTIME_RESPONSE__RESULT_ALERTS:
            result = .alerts(try requiredMessage(m.alerts, "alerts", LiveAlertBatch.init(proto:)).alerts)
        case TRANSIT__REALTIME_RESPONSE__RESULT_SOURCES:
            let (sources, failedSends, residentBytes) = try requiredMessage(m.sources, "sources") {
                (l) throws(ProtoDecodeError) in
                (
                    try liveSources(proto: l), optionalValue(l.has_failed_sends, l.failed_sends) ?? 0,
                    optionalValue(l.has_rss_bytes, l.rss_bytes)
                )
            }
            result = .sources(sources, failedSends: failedSends, residentBytes: residentBytes)
        case TRANSIT__REALTIME_RESPONSE__RESULT_DELAY_HISTOGRAMS:
            result = .delayHistograms(
                try requiredMessage(m.delay_histograms, "delay_histograms") { (l) throws(ProtoDecodeError) in
                    try repeatedMessages(l.n_histograms, l.histograms, "histograms") { (d) throws(ProtoDecodeError) in
                        guard let histogram = DelayHistogram(counts: repeatedValues(d.n_counts, d.counts)) else {
                            throw .missing("counts")
                        }
                        return DelayWindowHistogram(
                            histogram: histogram,
                            firstDate: try requiredValue(d.has_first_date, d.first_date, "first_date"),
                            lastDate: try requiredValue(d.has_last_date, d.last_date, "last_date"))
                    }
                })
        default:
            throw .missing("result")
        }
        self.init(requestId: requestId, result: .success(result))
    }
}
