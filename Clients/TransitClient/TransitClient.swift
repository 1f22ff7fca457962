import Foundation
import NIOCore
import NIOPosix

#if canImport(Network)
import NIOTransportServices
#endif

/// An async client of the gateway's line protocol (protocol/GATEWAY.md) over one TCP connection.
///
/// Requests are pipelined on that connection and matched to their answers by `id`. Each attempt has the
/// per-request timeout (8 s by default); a request whose connection fails or times out is sent again on a new
/// connection, with backoff, until the overall timeout (15 s) runs out. The gateway's error answers are
/// thrown as `TransitClientError.server` with their code and are not retried. Subscriptions survive
/// reconnects: the client subscribes again on the new connection and the stream goes on.
public actor TransitClient {
    /// Timeouts, backoff and the token.
    public struct Configuration: Sendable {
        /// One attempt: from sending the line (connecting included) to its answer.
        public var requestTimeout: Duration = .seconds(8)
        /// A request with its retries; also bounds reconnecting for it.
        public var overallTimeout: Duration = .seconds(15)
        /// The first wait before reconnecting; doubled after each failure up to `maxBackoff`.
        public var initialBackoff: Duration = .milliseconds(250)
        /// The longest wait between two reconnect attempts.
        public var maxBackoff: Duration = .seconds(5)
        /// Sent with `auth` first on every connection when the gateway asks for a token (`--token-file`).
        public var token: String?

        public init(
            requestTimeout: Duration = .seconds(8), overallTimeout: Duration = .seconds(15),
            initialBackoff: Duration = .milliseconds(250), maxBackoff: Duration = .seconds(5), token: String? = nil
        ) {
            self.requestTimeout = requestTimeout
            self.overallTimeout = overallTimeout
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
            self.token = token
        }
    }

    public nonisolated let host: String
    public nonisolated let port: Int
    public nonisolated let configuration: Configuration

    private struct Pending {
        var op: String
        var continuation: CheckedContinuation<Data, any Error>
        var generation: Int
        var timer: Task<Void, Never>?
        /// The subscription a `subscribe` request belongs to: mapped when its answer arrives, before the
        /// first event (which follows the answer on the same connection).
        var subscription: UUID?
    }

    private struct Connection {
        var generation: Int
        var writer: NIOAsyncChannelOutboundWriter<ByteBuffer>
        var reader: Task<Void, Never>
    }

    /// One subscription of any topic: its `subscribe` request, sent again after a reconnect, and its stream.
    private final class SubscriptionRecord {
        /// The `subscribe` request's fields (the topic and what it follows).
        let fields: [String: RequestValue]
        /// Yields one event line to the stream, decoded as the topic's event (a line it cannot decode is skipped).
        let deliver: @Sendable (Data) -> Void
        /// Yields `.interrupted` to the stream.
        let interrupt: @Sendable (TransitClientError) -> Void
        /// Ends the stream: with the gateway's refusal, or (nil) as the client closes.
        let finish: @Sendable ((any Error)?) -> Void
        /// The gateway's `sub` number on the current connection, while established.
        var sub: (generation: Int, number: Int)?
        var establishing = false

        init(
            fields: [String: RequestValue], deliver: @escaping @Sendable (Data) -> Void,
            interrupt: @escaping @Sendable (TransitClientError) -> Void,
            finish: @escaping @Sendable ((any Error)?) -> Void
        ) {
            self.fields = fields
            self.deliver = deliver
            self.interrupt = interrupt
            self.finish = finish
        }
    }

    private var connection: Connection?
    private var connecting: Task<Connection, any Error>?
    private var generation = 0
    private var nextID = 1
    private var pending: [Int: Pending] = [:]
    private var subscriptions: [UUID: SubscriptionRecord] = [:]
    private var subscriptionBySub: [Int: UUID] = [:]
    private var resubscriber: Task<Void, Never>?
    private var isClosed = false

    /// A client of the gateway at `host`:`port`. Nothing connects until the first request.
    public init(host: String = "127.0.0.1", port: Int = 7878, configuration: Configuration = Configuration()) {
        self.host = host
        self.port = port
        self.configuration = configuration
    }

    /// Closes the connection: pending requests fail with `.closed`, subscriptions end.
    public func close() {
        isClosed = true
        resubscriber?.cancel()
        connecting?.cancel()
        if let connection {
            connection.writer.finish()
            connection.reader.cancel()
        }
        connection = nil
        failPending(where: { _ in true }, with: .closed)
        for record in subscriptions.values { record.finish(nil) }
        subscriptions.removeAll()
        subscriptionBySub.removeAll()
    }

    // MARK: Ops

    /// `health`: the gateway and the services behind it.
    public func health() async throws -> Answer<Health> { try await request("health") }

    /// `feed_info`: the static feeds.
    public func feedInfo() async throws -> Answer<FeedInfo> { try await request("feed_info") }

    /// `stop`: a stop with its station, platforms and routes.
    public func stop(_ stopId: String) async throws -> Answer<StopDetails> {
        try await request("stop", ["stop_id": .string(stopId)])
    }

    /// `search`: stations and stops by name, ranked.
    public func search(_ text: String, limit: Int = 10, mode: String? = nil) async throws -> Answer<StopList> {
        var fields: [String: RequestValue] = ["q": .string(text), "limit": .int(Int64(limit))]
        if let mode { fields["mode"] = .string(mode) }
        return try await request("search", fields)
    }

    /// `nearby`: stops within `radius` metres, nearest first.
    public func nearby(lat: Double, lon: Double, radius: Double = 500, limit: Int = 10, mode: String? = nil)
        async throws -> Answer<StopList>
    {
        var fields: [String: RequestValue] = [
            "lat": .double(lat), "lon": .double(lon), "radius_m": .double(radius), "limit": .int(Int64(limit)),
        ]
        if let mode { fields["mode"] = .string(mode) }
        return try await request("nearby", fields)
    }

    /// `routes`: every route (or those of `mode`) in natural order with their A–Z sections.
    public func routes(mode: String? = nil) async throws -> Answer<RouteList> {
        try await request("routes", mode.map { ["mode": .string($0)] } ?? [:])
    }

    /// `departures`: a stop's board from `at` (default: the services' now).
    public func departures(stopId: String, limit: Int = 10, at: Int64? = nil) async throws -> Answer<Board> {
        var fields: [String: RequestValue] = ["stop_id": .string(stopId), "limit": .int(Int64(limit))]
        if let at { fields["at"] = .int(at) }
        return try await request("departures", fields)
    }

    /// `trip`: a trip instance with its stops and vehicle.
    public func trip(_ tripId: String, date: String? = nil, at: Int64? = nil) async throws -> Answer<Trip> {
        var fields: [String: RequestValue] = ["trip_id": .string(tripId)]
        if let date { fields["date"] = .string(date) }
        if let at { fields["at"] = .int(at) }
        return try await request("trip", fields)
    }

    /// `alerts` of a stop.
    public func alerts(stopId: String) async throws -> Answer<AlertList> {
        try await request("alerts", ["stop_id": .string(stopId)])
    }

    /// `alerts` of a route.
    public func alerts(routeId: String) async throws -> Answer<AlertList> {
        try await request("alerts", ["route_id": .string(routeId)])
    }

    /// `vehicles` of a route.
    public func vehicles(routeId: String) async throws -> Answer<VehicleList> {
        try await request("vehicles", ["route_id": .string(routeId)])
    }

    /// `shape` of a shape, or of a trip (a straight line through its stops when it has none); with
    /// `geojson`, also as a GeoJSON LineString.
    public func shape(shapeId: String? = nil, tripId: String? = nil, geojson: Bool = false) async throws -> Answer<
        Shape
    > {
        var fields: [String: RequestValue] = [:]
        if let shapeId { fields["shape_id"] = .string(shapeId) }
        if let tripId { fields["trip_id"] = .string(tripId) }
        if geojson { fields["format"] = .string("geojson") }
        return try await request("shape", fields)
    }

    /// `route`: a route and its stop patterns, with their service spans on `date` ("YYYYMMDD"; nil: today in
    /// the feed's timezone) and in a typical week.
    public func route(_ routeId: String, date: String? = nil) async throws -> Answer<RouteDetails> {
        var fields: [String: RequestValue] = ["route_id": .string(routeId)]
        if let date { fields["date"] = .string(date) }
        return try await request("route", fields)
    }

    /// `stops_in_bbox`: the stops of a map view, busiest first.
    public func stopsInBox(
        minLat: Double, minLon: Double, maxLat: Double, maxLon: Double, mode: String? = nil, limit: Int = 100
    ) async throws -> Answer<StopList> {
        var fields: [String: RequestValue] = [
            "min_lat": .double(minLat), "min_lon": .double(minLon), "max_lat": .double(maxLat),
            "max_lon": .double(maxLon), "limit": .int(Int64(limit)),
        ]
        if let mode { fields["mode"] = .string(mode) }
        return try await request("stops_in_bbox", fields)
    }

    /// `reliability` of a route and/or a stop, optionally at one hour and day type.
    public func reliability(routeId: String? = nil, stopId: String? = nil, hour: Int? = nil, dayType: String? = nil)
        async throws -> Answer<Reliability>
    {
        var fields: [String: RequestValue] = [:]
        if let routeId { fields["route_id"] = .string(routeId) }
        if let stopId { fields["stop_id"] = .string(stopId) }
        if let hour { fields["hour"] = .int(Int64(hour)) }
        if let dayType { fields["day_type"] = .string(dayType) }
        return try await request("reliability", fields)
    }

    /// `plan`: journeys from `from` to `to` (GATEWAY.md "plan"), departing at or after `at` (default: the
    /// services' now) or arriving by `arriveBy`; `options` are further fields of the op (`max_transfers`,
    /// `window_s`, `modes`, …) as they are written on the wire.
    public func plan(
        from: PlanPlace, to: PlanPlace, at: Int64? = nil, arriveBy: Int64? = nil,
        options: [String: RequestValue] = [:]
    ) async throws -> Answer<Plan> {
        var fields = options
        fields["from"] = from.requestValue
        fields["to"] = to.requestValue
        if let at { fields["at"] = .int(at) }
        if let arriveBy { fields["arrive_by"] = .int(arriveBy) }
        return try await request("plan", fields)
    }

    /// `stats`: the gateway's counters.
    public func stats() async throws -> Answer<Stats> { try await request("stats") }

    /// Any op: its answer's `data` decoded as `Payload`. Retries within the overall timeout (every op of the
    /// protocol is safe to send twice).
    public func request<Payload: Decodable & Sendable>(
        _ op: String, _ fields: [String: RequestValue] = [:], as: Payload.Type = Payload.self
    ) async throws -> Answer<Payload> {
        let line = try await send(op, fields)
        do {
            var answer = try LineCoding.decoder().decode(Answer<Payload>.self, from: line)
            answer.line = line
            return answer
        } catch {
            throw TransitClientError.badAnswer(op: op, reason: "\(error)")
        }
    }

    // MARK: Subscriptions

    /// The live board of a stop: a first board, then one whenever it changes (GATEWAY.md `subscribe`).
    /// After a lost connection the stream yields `.interrupted` and goes on with the boards of a new
    /// subscription once the client has reconnected. It ends with an error when the gateway refuses the
    /// subscription (e.g. NOT_FOUND), and when the client is closed; cancelling its iteration unsubscribes.
    public func subscribe(stopId: String, limit: Int = 10) -> AsyncThrowingStream<SubscriptionEvent, any Error> {
        subscription(
            ["topic": .string("departures"), "stop_id": .string(stopId), "limit": .int(Int64(limit))],
            interrupted: SubscriptionEvent.interrupted
        ) { line in
            (try? LineCoding.decoder().decode(Answer<Board>.self, from: line)).map { .board($0.data, $0.meta) }
        }
    }

    /// The live journeys of a plan (GATEWAY.md `subscribe`, topic `plan`; the fields as `plan(from:to:…)` sends
    /// them, without `cursor`): a first event with the plan's answer and no changes, then one whenever the live
    /// data changes a ride's times or breaks or replaces a journey, saying which. After a lost connection the stream
    /// yields `.interrupted`, and once the client has reconnected a first event again: the plan asked anew (from
    /// the services' now when no `at` or `arriveBy` was given), with no changes, since what happened meanwhile is
    /// not known. It ends with an error when the gateway refuses the subscription (e.g. NOT_FOUND, or
    /// INVALID_ARGUMENT for a field out of its range), and when the client is closed; cancelling its iteration
    /// unsubscribes.
    public func subscribePlan(
        from: PlanPlace, to: PlanPlace, at: Int64? = nil, arriveBy: Int64? = nil,
        options: [String: RequestValue] = [:]
    ) -> AsyncThrowingStream<PlanSubscriptionEvent, any Error> {
        var fields = options
        fields["topic"] = .string("plan")
        fields["from"] = from.requestValue
        fields["to"] = to.requestValue
        if let at { fields["at"] = .int(at) }
        if let arriveBy { fields["arrive_by"] = .int(arriveBy) }
        return subscription(fields, interrupted: PlanSubscriptionEvent.interrupted) { line in
            (try? LineCoding.decoder().decode(PlanEventLine.self, from: line)).map {
                .plan($0.data, changes: $0.changes, $0.meta)
            }
        }
    }

    /// A stream following the subscription `fields` asks for; `event` decodes the topic's event lines.
    private func subscription<Event: Sendable>(
        _ fields: [String: RequestValue], interrupted: @escaping @Sendable (TransitClientError) -> Event,
        event: @escaping @Sendable (Data) -> Event?
    ) -> AsyncThrowingStream<Event, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(8))
        let key = UUID()
        guard !isClosed else {
            continuation.finish(throwing: TransitClientError.closed)
            return stream
        }
        subscriptions[key] = SubscriptionRecord(
            fields: fields,
            deliver: { line in if let e = event(line) { continuation.yield(e) } },
            interrupt: { continuation.yield(interrupted($0)) },
            finish: { error in error.map { continuation.finish(throwing: $0) } ?? continuation.finish() })
        continuation.onTermination = { [weak self] _ in
            Task { await self?.endSubscription(key) }
        }
        Task {
            if !(await self.establish(key)) { await self.resubscribeAll() }
        }
        return stream
    }

    /// Subscribes `key` on the current (or a new) connection. Returns whether it is established (or gone).
    @discardableResult
    private func establish(_ key: UUID) async -> Bool {
        guard let record = subscriptions[key], record.sub == nil, !record.establishing else { return true }
        record.establishing = true
        defer { record.establishing = false }
        do {
            let deadline = ContinuousClock.now + configuration.requestTimeout
            let connection = try await connect(deadline: deadline)
            _ = try await sendOnce("subscribe", record.fields, on: connection, deadline: deadline, subscription: key)
            return true
        } catch let error as TransitClientError where error.isRetryable {
            record.interrupt(error)
            return false
        } catch {
            subscriptions[key] = nil
            record.finish(error)
            return true
        }
    }

    private func endSubscription(_ key: UUID) async {
        guard let record = subscriptions.removeValue(forKey: key) else { return }
        guard let sub = record.sub, let connection, connection.generation == sub.generation else { return }
        subscriptionBySub[sub.number] = nil
        _ = try? await sendOnce(
            "unsubscribe", ["sub": .int(Int64(sub.number))], on: connection,
            deadline: .now + configuration.requestTimeout)
    }

    /// After a lost connection: subscribe every subscription again, backing off while the gateway is away.
    private func resubscribeAll() {
        guard resubscriber == nil, !isClosed, !subscriptions.isEmpty else { return }
        resubscriber = Task {
            var backoff = configuration.initialBackoff
            while !Task.isCancelled {
                var allDone = true
                for key in subscriptions.keys where subscriptions[key]?.sub == nil {
                    if !(await establish(key)) { allDone = false }
                }
                if allDone { break }
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, configuration.maxBackoff)
            }
            resubscriber = nil
        }
    }

    // MARK: Sending

    /// Sends a request and returns its answer line (ok: true), retrying on a new connection within the overall
    /// timeout.
    private func send(_ op: String, _ fields: [String: RequestValue]) async throws -> Data {
        let clock = ContinuousClock()
        let overall = clock.now + configuration.overallTimeout
        var backoff = configuration.initialBackoff
        // When no connection could be made, say so rather than that the time ran out.
        var unreachable: TransitClientError?
        while true {
            let deadline = min(clock.now + configuration.requestTimeout, overall)
            do {
                let connection = try await connect(deadline: deadline)
                unreachable = nil
                return try await sendOnce(op, fields, on: connection, deadline: deadline)
            } catch let error as TransitClientError where error.isRetryable {
                try Task.checkCancellation()
                if case .unreachable = error { unreachable = error }
                if clock.now + backoff >= overall {
                    if let unreachable { throw unreachable }
                    if case .timeout = error {
                        throw TransitClientError.timeout(op: op, seconds: seconds(configuration.overallTimeout))
                    }
                    throw error
                }
                try await Task.sleep(for: backoff)
                backoff = min(backoff * 2, configuration.maxBackoff)
            }
        }
    }

    private func sendOnce(
        _ op: String, _ fields: [String: RequestValue], on connection: Connection, deadline: ContinuousClock.Instant,
        subscription: UUID? = nil
    ) async throws -> Data {
        if isClosed { throw TransitClientError.closed }
        let id = nextID
        nextID += 1
        let buffer = try LineCoding.requestLine(id: id, op: op, fields: fields)
        let timeout = seconds(deadline - .now)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let timer = Task { [weak self] in
                    try? await Task.sleep(until: deadline)
                    guard !Task.isCancelled else { return }
                    await self?.fail(id, with: .timeout(op: op, seconds: timeout))
                }
                pending[id] = Pending(
                    op: op, continuation: continuation, generation: connection.generation, timer: timer,
                    subscription: subscription)
                Task {
                    do {
                        try await connection.writer.write(buffer)
                    } catch {
                        self.fail(id, with: .connectionLost(reason: "\(error)"))
                    }
                }
            }
        } onCancel: {
            Task { await self.fail(id, with: nil) }
        }
    }

    /// Fails one pending request (nil: cancelled).
    private func fail(_ id: Int, with error: TransitClientError?) {
        guard let entry = pending.removeValue(forKey: id) else { return }
        entry.timer?.cancel()
        entry.continuation.resume(throwing: error ?? CancellationError())
    }

    private func failPending(where matches: (Pending) -> Bool, with error: TransitClientError) {
        for (id, entry) in pending where matches(entry) {
            pending[id] = nil
            entry.timer?.cancel()
            entry.continuation.resume(throwing: error)
        }
    }

    // MARK: The connection

    private func connect(deadline: ContinuousClock.Instant) async throws -> Connection {
        if isClosed { throw TransitClientError.closed }
        if let connection { return connection }
        if let connecting { return try await connecting.value }
        let task = Task { try await self.open(deadline: deadline) }
        connecting = task
        defer { connecting = nil }
        let connection = try await task.value
        return connection
    }

    private func open(deadline: ContinuousClock.Instant) async throws -> Connection {
        let address = "\(host):\(port)"
        let remaining = deadline - .now
        guard remaining > .zero else { throw TransitClientError.timeout(op: "connect", seconds: 0) }
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await Self.connectChannel(host: host, port: port, timeout: remaining)
        } catch {
            throw TransitClientError.unreachable(address: address, reason: Self.describe(error))
        }
        generation += 1
        let generation = self.generation
        let (writerStream, writerContinuation) = AsyncStream<NIOAsyncChannelOutboundWriter<ByteBuffer>>.makeStream()
        let reader = Task {
            var reason = "closed by the gateway"
            do {
                try await channel.executeThenClose { inbound, outbound in
                    writerContinuation.yield(outbound)
                    writerContinuation.finish()
                    for try await line in inbound {
                        await self.received(Data(line.readableBytesView), generation: generation)
                    }
                }
            } catch {
                reason = Self.describe(error)
            }
            writerContinuation.finish()
            await self.lost(generation: generation, reason: reason)
        }
        var writers = writerStream.makeAsyncIterator()
        guard let writer = await writers.next() else {
            throw TransitClientError.connectionLost(reason: "closed while connecting")
        }
        let connection = Connection(generation: generation, writer: writer, reader: reader)
        self.connection = connection
        if let token = configuration.token {
            do {
                _ = try await sendOnce("auth", ["token": .string(token)], on: connection, deadline: deadline)
            } catch {
                writer.finish()
                throw error
            }
        }
        return connection
    }

    private static func connectChannel(host: String, port: Int, timeout: Duration) async throws -> NIOAsyncChannel<
        ByteBuffer, ByteBuffer
    > {
        let timeout = TimeAmount.nanoseconds(
            timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> = {
            channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        #if canImport(Network)
        return try await NIOTSConnectionBootstrap(group: NIOTSEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .connect(host: host, port: port, channelInitializer: initializer)
        #else
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port, channelInitializer: initializer)
        #endif
    }

    /// One line from the gateway: an answer to a pending request, or a subscription's event.
    private func received(_ line: Data, generation: Int) {
        guard let head = try? LineCoding.decoder().decode(LineHead.self, from: line) else { return }
        if head.event != nil {
            guard let sub = head.sub, let key = subscriptionBySub[sub], let record = subscriptions[key],
                record.sub?.generation == generation
            else { return }
            record.deliver(line)
            return
        }
        guard let id = head.id, let entry = pending.removeValue(forKey: id) else { return }
        entry.timer?.cancel()
        if head.ok == true {
            if let key = entry.subscription, let record = subscriptions[key],
                let ack = try? LineCoding.decoder().decode(Answer<SubscriptionAck>.self, from: line)
            {
                record.sub = (generation, ack.data.sub)
                subscriptionBySub[ack.data.sub] = key
            }
            entry.continuation.resume(returning: line)
        } else {
            let code = head.error?.code ?? "INTERNAL"
            let message = head.error?.message ?? "(no message)"
            entry.continuation.resume(
                throwing: TransitClientError.server(code: GatewayErrorCode(rawValue: code), message: message))
        }
    }

    private func lost(generation: Int, reason: String) {
        if connection?.generation == generation { connection = nil }
        failPending(where: { $0.generation == generation }, with: .connectionLost(reason: reason))
        var interrupted = false
        for record in subscriptions.values where record.sub?.generation == generation {
            subscriptionBySub[record.sub!.number] = nil
            record.sub = nil
            record.interrupt(.connectionLost(reason: reason))
            interrupted = true
        }
        if interrupted { resubscribeAll() }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The cause in a few words ("Connection refused"), not NIO's nested descriptions.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return describe(first.error)
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }
}

/// What a plan subscription yields.
public enum PlanSubscriptionEvent: Sendable {
    /// The journeys now (`data` as `plan` answers it), with what changed since the last event (empty in a first
    /// event) and the answer's `meta`.
    case plan(Plan, changes: [PlanChange], AnswerMeta)
    /// The connection was lost (or could not be made again yet); events resume after a reconnect.
    case interrupted(TransitClientError)
}

/// A plan event's line: its changes, data and meta.
private struct PlanEventLine: Decodable {
    var changes: [PlanChange]
    var data: Plan
    var meta: AnswerMeta
}

/// What a board subscription yields.
public enum SubscriptionEvent: Sendable {
    /// The board now, with its `meta` (`at` is when it was computed).
    case board(Board, AnswerMeta)
    /// The connection was lost (or could not be made again yet); boards resume after a reconnect.
    case interrupted(TransitClientError)
}
