import Foundation
import NIOConcurrencyHelpers
import Testing
import TransitTesting

@testable import TransitClient

/// The client against a fake gateway in this process: pipelining, timeouts, reconnects, errors, auth and
/// subscriptions that come back after a reconnect.
@Suite struct ClientTests {
    static let fast = TransitClient.Configuration(
        requestTimeout: .milliseconds(400), overallTimeout: .seconds(2), initialBackoff: .milliseconds(20),
        maxBackoff: .milliseconds(100))

    static let boardData = #"{"stop_id":"S1","timezone":"Australia/Sydney","departures":[],"page":null}"#

    @Test func pipelinedRequestsAreMatchedByIdWhateverTheAnswerOrder() async throws {
        // Holds requests until three are in, then answers them last first.
        let held = NIOLockedValueBox<[(FakeGateway.Request, FakeGateway.Peer)]>([])
        let gateway = try await FakeGateway { request, peer in
            let batch: [(FakeGateway.Request, FakeGateway.Peer)]? = held.withLockedValue { held in
                held.append((request, peer))
                guard held.count == 3 else { return nil }
                defer { held.removeAll() }
                return held
            }
            for (request, peer) in (batch ?? []).reversed() {
                let q = request.object["q"] as? String ?? "?"
                peer.send(FakeGateway.ok(request, data: #"{"stops":[{"stop_id":"\#(q)","name":"\#(q)"}]}"#))
            }
        }
        defer { Task { await gateway.stop() } }
        let client = TransitClient(port: gateway.port, configuration: Self.fast)
        async let a = client.search("a")
        async let b = client.search("b")
        async let c = client.search("c")
        let names = try await [a, b, c].map { $0.data.stops.first?.name }
        #expect(names == ["a", "b", "c"])
        #expect(gateway.connectionCount == 1)
        #expect(Set(gateway.received.map(\.id)).count == 3)
        await client.close()
    }

    /// An answer keeps the gateway's line as it came (`transit --json` prints it): fields this library's models
    /// do not know, their order and their nulls survive.
    @Test func anAnswerKeepsTheGatewaysLine() async throws {
        let sent = NIOLockedValueBox<String>("")
        let gateway = try await FakeGateway { request, peer in
            let line = FakeGateway.ok(
                request, data: #"{"stops":[{"stop_id":"S","name":"Stop","zeta":null,"alpha":[1,2],"code":null}]}"#)
            sent.withLockedValue { $0 = line }
            peer.send(line)
        }
        defer { Task { await gateway.stop() } }
        let client = TransitClient(port: gateway.port, configuration: Self.fast)
        let answer = try await client.search("s")
        #expect(answer.data.stops.first?.name == "Stop")
        let line = String(decoding: answer.line, as: UTF8.self)
        #expect(line.trimmingCharacters(in: .newlines) == sent.withLockedValue { $0 }.trimmingCharacters(in: .newlines))
        #expect(line.contains(#""zeta":null,"alpha":[1,2]"#))
        await client.close()
    }

    @Test func aRequestWithoutAnswerTimesOut() async throws {
        let gateway = try await FakeGateway { _, _ in }
        defer { Task { await gateway.stop() } }
        let config = TransitClient.Configuration(
            requestTimeout: .milliseconds(200), overallTimeout: .milliseconds(300), initialBackoff: .milliseconds(50))
        let client = TransitClient(port: gateway.port, configuration: config)
        let start = ContinuousClock.now
        await #expect(throws: TransitClientError.timeout(op: "health", seconds: 0.3)) {
            _ = try await client.health()
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(2), "\(elapsed)")
        await client.close()
    }

    @Test func aLostConnectionIsRetriedOnANewOne() async throws {
        let gateway = try await FakeGateway { request, peer in
            if peer.number == 1 {
                peer.close()  // the first connection dies without answering
            } else {
                peer.send(FakeGateway.ok(request, data: #"{"status":"ok"}"#))
            }
        }
        defer { Task { await gateway.stop() } }
        let client = TransitClient(port: gateway.port, configuration: Self.fast)
        let answer = try await client.health()
        #expect(answer.data.status == "ok")
        #expect(gateway.connectionCount == 2)
        #expect(gateway.received.map(\.op) == ["health", "health"])
        await client.close()
    }

    @Test func noGatewayIsUnreachable() async throws {
        // A port held bound without listening: connections to it are refused.
        let refusing = try RefusingPort()
        let port = refusing.port
        let client = TransitClient(port: port, configuration: Self.fast)
        do {
            _ = try await client.health()
            Issue.record("expected unreachable")
        } catch let TransitClientError.unreachable(address, reason) {
            #expect(address == "127.0.0.1:\(port)")
            #expect(!reason.isEmpty)
        }
        await client.close()
        withExtendedLifetime(refusing) {}
    }

    @Test func errorAnswersAreTypedAndNotRetried() async throws {
        let gateway = try await FakeGateway { request, peer in
            peer.send(FakeGateway.error(request, code: "NOT_FOUND", message: #"unknown stop_id \"X\""#))
        }
        defer { Task { await gateway.stop() } }
        let client = TransitClient(port: gateway.port, configuration: Self.fast)
        await #expect(throws: TransitClientError.server(code: .notFound, message: #"unknown stop_id "X""#)) {
            _ = try await client.stop("X")
        }
        #expect(gateway.received.count == 1)
        // A code this client does not know is kept as sent.
        let other = try await FakeGateway { request, peer in
            peer.send(FakeGateway.error(request, code: "SOMETHING_NEW", message: "m"))
        }
        defer { Task { await other.stop() } }
        let client2 = TransitClient(port: other.port, configuration: Self.fast)
        await #expect(
            throws: TransitClientError.server(code: GatewayErrorCode(rawValue: "SOMETHING_NEW"), message: "m")
        ) {
            _ = try await client2.health()
        }
        await client.close()
        await client2.close()
    }

    @Test func aTokenIsSentFirstOnEveryConnection() async throws {
        let gateway = try await FakeGateway { request, peer in
            if request.op == "auth" {
                peer.send(FakeGateway.ok(request, data: #"{"authenticated":true,"required":true}"#))
            } else {
                peer.send(FakeGateway.ok(request, data: #"{"status":"ok"}"#))
                if peer.number == 1 { peer.close() }
            }
        }
        defer { Task { await gateway.stop() } }
        var config = Self.fast
        config.token = "s3cret"
        let client = TransitClient(port: gateway.port, configuration: config)
        _ = try await client.health()
        try await Task.sleep(for: .milliseconds(100))  // the first connection closes
        _ = try await client.health()
        let byConnection = Dictionary(grouping: gateway.received, by: \.connection).mapValues { $0.map(\.op) }
        #expect(byConnection == [1: ["auth", "health"], 2: ["auth", "health"]])
        #expect(gateway.received.first?.object["token"] as? String == "s3cret")
        await client.close()
    }

    @Test func aSubscriptionResumesAfterAReconnect() async throws {
        let subscribes = NIOLockedValueBox(0)
        let gateway = try await FakeGateway { request, peer in
            switch request.op {
            case "subscribe":
                let n = subscribes.withLockedValue {
                    $0 += 1; return $0
                }
                peer.send(FakeGateway.ok(request, data: #"{"sub":1,"topic":"departures","stop_id":"S1","limit":3}"#))
                let at = 1_766_394_000 + n
                peer.send(
                    #"{"event":"departures","sub":1,"data":\#(Self.boardData),"meta":{"op":"departures","elapsed_us":1,"at":\#(at),"source":"static+rt","stale":false,"feed_age_s":1}}"#
                )
            default:
                peer.send(FakeGateway.ok(request, data: "{}"))
            }
        }
        defer { Task { await gateway.stop() } }
        let client = TransitClient(port: gateway.port, configuration: Self.fast)
        var events: [String] = []
        for try await event in await client.subscribe(stopId: "S1", limit: 3) {
            switch event {
            case .board(let board, let meta):
                events.append("board \(board.stopId) at \(meta.at ?? 0)")
                if events.count == 1 { gateway.dropConnections() }
            case .interrupted:
                events.append("interrupted")
            }
            if events.count == 3 { break }
        }
        #expect(events == ["board S1 at 1766394001", "interrupted", "board S1 at 1766394002"])
        #expect(gateway.connectionCount == 2)
        let subscribeLines = gateway.received.filter { $0.op == "subscribe" }
        #expect(subscribeLines.count == 2)
        #expect(
            subscribeLines.allSatisfy { $0.object["stop_id"] as? String == "S1" && $0.object["limit"] as? Int == 3 })
        await client.close()
    }

    @Test func aRefusedSubscriptionEndsItsStreamWithTheError() async throws {
        let gateway = try await FakeGateway { request, peer in
            peer.send(FakeGateway.error(request, code: "NOT_FOUND", message: "unknown stop_id"))
        }
        defer { Task { await gateway.stop() } }
        let client = TransitClient(port: gateway.port, configuration: Self.fast)
        await #expect(throws: TransitClientError.server(code: .notFound, message: "unknown stop_id")) {
            for try await _ in await client.subscribe(stopId: "nope") {}
        }
        await client.close()
    }

    /// A plan subscription sends `plan`'s fields with topic `plan`, yields each event's journeys with its changes
    /// decoded, and after a lost connection subscribes again with the same fields (GATEWAY.md `subscribe`).
    @Test func aPlanSubscriptionYieldsItsChangesAndResumesAfterAReconnect() async throws {
        let subscribes = NIOLockedValueBox(0)
        let gateway = try await FakeGateway { request, peer in
            guard request.op == "subscribe" else { return peer.send(FakeGateway.ok(request, data: "{}")) }
            let n = subscribes.withLockedValue {
                $0 += 1
                return $0
            }
            peer.send(FakeGateway.ok(request, data: #"{"sub":4,"topic":"plan"}"#))
            let meta = #"{"op":"plan","elapsed_us":1,"at":\#(1_766_394_000 + n),"source":"static+rt","stale":false}"#
            let data = #"{"timezone":"Australia/Sydney","journeys":[],"reason":"nothing connects within 24 h"}"#
            peer.send(#"{"event":"plan","sub":4,"changes":[],"data":\#(data),"meta":\#(meta)}"#)
            guard n == 1 else { return }
            let changes = [
                #"{"type":"times","journey":0,"leg":1,"trip_id":"T1","departure_unix":100,"arrival_unix":200,"#
                    + #""previous_departure_unix":90,"previous_arrival_unix":190}"#,
                #"{"type":"broken","previous_journey":1,"reason":"ride 1: trip U1 is cancelled"}"#,
                #"{"type":"replaced","previous_journey":2}"#, #"{"type":"new","journey":3}"#,
                #"{"type":"rerouted","journey":0}"#,
            ]
            peer.send(
                #"{"event":"plan","sub":4,"changes":[\#(changes.joined(separator: ","))],"data":\#(data),"meta":\#(meta)}"#
            )
        }
        defer { Task { await gateway.stop() } }
        let client = TransitClient(port: gateway.port, configuration: Self.fast)
        var events: [String] = []
        var changes: [PlanChange] = []
        for try await event in await client.subscribePlan(
            from: .stop("200060"), to: .coordinate(lat: -33.92, lon: 151.15), at: 1_766_394_000,
            options: ["max_transfers": .int(2)])
        {
            switch event {
            case .plan(let plan, let eventChanges, let meta):
                events.append("plan \(plan.reason ?? "") \(eventChanges.count) at \(meta.at ?? 0)")
                if !eventChanges.isEmpty {
                    changes = eventChanges
                    gateway.dropConnections()
                }
            case .interrupted:
                events.append("interrupted")
            }
            if events.count == 4 { break }
        }
        #expect(
            events == [
                "plan nothing connects within 24 h 0 at 1766394001",
                "plan nothing connects within 24 h 5 at 1766394001",
                "interrupted", "plan nothing connects within 24 h 0 at 1766394002",
            ])
        #expect(
            changes == [
                .times(
                    journey: 0, leg: 1, tripId: "T1", departureUnix: 100, arrivalUnix: 200, previousDepartureUnix: 90,
                    previousArrivalUnix: 190),
                .broken(previousJourney: 1, reason: "ride 1: trip U1 is cancelled"), .replaced(previousJourney: 2),
                .new(journey: 3), .other("rerouted"),
            ])
        let sent = gateway.received.filter { $0.op == "subscribe" }.map(\.object)
        try #require(sent.count == 2)
        for object in sent {
            #expect(Set(object.keys) == ["id", "op", "topic", "from", "to", "at", "max_transfers"])
            #expect(object["topic"] as? String == "plan")
            #expect(object["from"] as? [String: String] == ["stop_id": "200060"])
            #expect(object["to"] as? [String: Double] == ["lat": -33.92, "lon": 151.15])
            #expect(object["at"] as? Int == 1_766_394_000 && object["max_transfers"] as? Int == 2)
        }
        await client.close()
    }

    /// `plan` sends its places as the op's objects and the one time it was given (GATEWAY.md "plan").
    @Test func planSendsItsPlacesAndItsTime() async throws {
        let gateway = try await FakeGateway { request, peer in
            peer.send(FakeGateway.ok(request, data: #"{"journeys":[],"reason":"nothing connects within 24 h"}"#))
        }
        defer { Task { await gateway.stop() } }
        let client = TransitClient(port: gateway.port, configuration: Self.fast)
        _ = try await client.plan(from: .stop("200060"), to: .coordinate(lat: -33.92, lon: 151.15), at: 1_700_000_000)
        _ = try await client.plan(
            from: .coordinate(lat: -33.87, lon: 151.2), to: .stop("2205"), arriveBy: 1_700_003_600,
            options: ["max_transfers": .int(2)])
        let sent = gateway.received.filter { $0.op == "plan" }.map(\.object)
        try #require(sent.count == 2, "\(gateway.received.map(\.line))")
        #expect(Set(sent[0].keys) == ["id", "op", "from", "to", "at"])
        #expect(sent[0]["from"] as? [String: String] == ["stop_id": "200060"])
        #expect(sent[0]["to"] as? [String: Double] == ["lat": -33.92, "lon": 151.15])
        #expect(sent[0]["at"] as? Int == 1_700_000_000)
        #expect(Set(sent[1].keys) == ["id", "op", "from", "to", "arrive_by", "max_transfers"])
        #expect(sent[1]["from"] as? [String: Double] == ["lat": -33.87, "lon": 151.2])
        #expect(sent[1]["to"] as? [String: String] == ["stop_id": "2205"])
        #expect(sent[1]["arrive_by"] as? Int == 1_700_003_600)
        #expect(sent[1]["max_transfers"] as? Int == 2)
        await client.close()
    }

    @Test func requestLinesFollowTheProtocol() throws {
        let buffer = try LineCoding.requestLine(
            id: 7, op: "departures", fields: ["stop_id": .string("200060"), "limit": .int(3)])
        #expect(String(buffer: buffer) == #"{"id":7,"limit":3,"op":"departures","stop_id":"200060"}"# + "\n")
    }
}
