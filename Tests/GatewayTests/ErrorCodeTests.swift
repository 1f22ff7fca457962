import Foundation
import NNGKit
import Testing

@testable import Gateway

/// Every error code of GATEWAY.md §3 that can be triggered, and the limits behind them.
@Suite struct ErrorCodeTests {
    @Test func requestErrors() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let badJSON = try await client.ask(#"{"id":1,"op":"stats""#)
            #expect(badJSON.errorCode == "BAD_JSON")
            #expect(badJSON.errorMessage?.contains("column") == true)

            let notObject = try await client.ask("[1,2]")
            #expect(notObject.errorCode == "BAD_JSON")

            let unknownOp = try await client.ask(#"{"id":2,"op":"depatures"}"#)
            #expect(unknownOp.errorCode == "UNKNOWN_OP")
            #expect(unknownOp.errorMessage?.contains("departures") == true)

            let limit = try await client.ask(#"{"id":3,"op":"departures","stop_id":"200060","limit":500}"#)
            #expect(limit.errorCode == "INVALID_ARGUMENT")
            #expect(limit.errorMessage?.contains("limit") == true)

            let typo = try await client.ask(#"{"id":4,"op":"search","q":"x","limt":3}"#)
            #expect(typo.errorCode == "INVALID_ARGUMENT")

            let cursor = try await client.ask(#"{"id":5,"op":"departures","stop_id":"200060","cursor":"garbage"}"#)
            #expect(cursor.errorCode == "INVALID_ARGUMENT", "\(cursor)")

            let stop = try await client.ask(#"{"id":6,"op":"stop","stop_id":"999999"}"#)
            #expect(stop.errorCode == "NOT_FOUND")
            let board = try await client.ask(#"{"id":7,"op":"departures","stop_id":"999999"}"#)
            #expect(board.errorCode == "NOT_FOUND")
            let trip = try await client.ask(#"{"id":8,"op":"trip","trip_id":"no-such-trip"}"#)
            #expect(trip.errorCode == "NOT_FOUND")
            let alerts = try await client.ask(#"{"id":9,"op":"alerts","route_id":"no-such-route"}"#)
            #expect(alerts.errorCode == "NOT_FOUND")
            let unsubscribe = try await client.ask(#"{"id":10,"op":"unsubscribe","sub":1}"#)
            #expect(unsubscribe.errorCode == "NOT_FOUND")

            // After all that the connection still answers.
            #expect(try await client.ask(#"{"id":11,"op":"stats"}"#).ok)
        }
    }

    @Test func vehiclesNeedRealtimeAndAlertsSayThereIsNone() async throws {
        try await withGateway(realtime: RealtimeView(configured: true)) { fixture in
            let client = try fixture.client()
            let vehicles = try await client.ask(#"{"id":1,"op":"vehicles","route_id":"ST_T1"}"#)
            #expect(vehicles.errorCode == "REALTIME_UNAVAILABLE")
            let alerts = try await client.ask(#"{"id":2,"op":"alerts","stop_id":"200060"}"#)
            #expect(alerts.ok, "\(alerts)")
            #expect(alerts.list("alerts").isEmpty)
            #expect(alerts.meta["source"] as? String == "static_only")
            #expect(alerts.meta["stale"] as? Bool == true)
        }
    }

    @Test func staticServiceDownThenBackWithoutRestartingTheGateway() async throws {
        try await withGateway(configure: { $0.staticTimeout = .milliseconds(300) }) { fixture in
            let client = try fixture.client()
            #expect(try await client.ask(#"{"id":1,"op":"stop","stop_id":"200060"}"#).ok)

            fixture.stopStaticService()
            let started = ContinuousClock.now
            // Another stop than the one asked above: that answer is kept (for up to a second while the
            // database version was confirmed) and may be answered again while the static service is down.
            let down = try await client.ask(#"{"id":2,"op":"stop","stop_id":"20006016"}"#)
            #expect(down.errorCode == "STATIC_UNAVAILABLE", "\(down)")
            #expect(ContinuousClock.now - started < .seconds(2))
            let health = try await client.ask(#"{"id":3,"op":"health"}"#)
            #expect(health.ok)
            #expect(health.data["status"] as? String == "down")
            #expect((health.data["static"] as? [String: Any])?["status"] as? String == "unavailable")

            try fixture.startStaticService()
            // nng redials by itself; allow it a moment.
            var recovered = false
            for attempt in 0..<40 {
                // A stop not asked before, so the answer comes from the static service, not a kept one.
                let answer = try await client.ask(#"{"id":\#(100 + attempt),"op":"stop","stop_id":"200070"}"#)
                if answer.ok { recovered = true; break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(recovered)
            // Static back, realtime not configured on purpose: all is well.
            #expect(try await client.ask(#"{"id":4,"op":"health"}"#).data["status"] as? String == "ok")
        }
    }

    @Test func aRequestPastItsDeadlineIsTimeout() async throws {
        // Nothing listens at the static URL and the static timeout is longer than the request's deadline.
        try await withGateway(
            startStatic: false,
            configure: {
                $0.requestTimeout = .milliseconds(200)
                $0.staticTimeout = .seconds(5)
            }
        ) { fixture in
            let client = try fixture.client()
            let started = ContinuousClock.now
            let answer = try await client.ask(#"{"id":"slow","op":"stop","stop_id":"200060"}"#)
            #expect(answer.errorCode == "TIMEOUT", "\(answer)")
            #expect(answer.id as? String == "slow")
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(190) && waited < .seconds(2))
            // Local ops still answer at once; the timed-out request left the in-flight count.
            let stats = try await client.ask(#"{"id":2,"op":"stats"}"#)
            #expect(stats.data["in_flight"] as? Int == 1)  // the stats request itself
            #expect((stats.data["errors"] as? [String: Int])?["TIMEOUT"] == 1)
            // The gateway's resident size; the realtime service's is null here (no heartbeat heard).
            #expect((stats.data["rss_bytes"] as? Int ?? 0) > 1 << 20)
            #expect(stats.data["realtime_rss_bytes"] is NSNull)
        }
    }

    @Test func pipelinedRequestsTimeOutInOrderEachAtItsOwnDeadline() async throws {
        // The connection has one deadline timer (for its oldest pending request): requests sent together time
        // out together, a later one at its own deadline, and local ops (stats) answer meanwhile (after the
        // ones before them). The static service takes the requests and never answers (a REP socket that does
        // not read): with nothing listening instead, three requests cancelled while nng dials stalled the
        // whole test process for seconds now and then.
        try await withGateway(
            startStatic: false,
            configure: {
                $0.requestTimeout = .milliseconds(300)
                $0.staticTimeout = .seconds(5)
            }
        ) { fixture in
            let silent = try NNGSocket.rep()
            try silent.listen(fixture.staticURL)
            defer { withExtendedLifetime(silent) {} }
            let client = try fixture.client()
            let started = ContinuousClock.now
            try client.sendLines([
                #"{"id":1,"op":"stop","stop_id":"200060"}"#,
                #"{"id":2,"op":"stats"}"#,
                #"{"id":3,"op":"stop","stop_id":"200060"}"#,
            ])
            try await Task.sleep(for: .milliseconds(150))
            let laterSent = ContinuousClock.now
            try client.sendLines([
                #"{"id":4,"op":"stop","stop_id":"200060"}"#,
                #"{"id":5,"op":"stats"}"#,
            ])
            let first = try await client.readLines(3).map { try JSONLine($0) }
            let firstWaited = ContinuousClock.now - started
            #expect(first.map { $0.id as? Int } == [1, 2, 3])
            #expect(first.map(\.errorCode) == ["TIMEOUT", nil, "TIMEOUT"], "\(first)")
            #expect(firstWaited >= .milliseconds(290) && firstWaited < .seconds(2), "\(firstWaited)")

            let second = try await client.readLines(2).map { try JSONLine($0) }
            let secondWaited = ContinuousClock.now - laterSent
            #expect(second.map { $0.id as? Int } == [4, 5])
            #expect(second.map(\.errorCode) == ["TIMEOUT", nil], "\(second)")
            #expect(secondWaited >= .milliseconds(290) && secondWaited < .seconds(2), "\(secondWaited)")

            let stats = try await client.ask(#"{"id":6,"op":"stats"}"#)
            #expect(stats.data["in_flight"] as? Int == 1)  // the stats request itself
            #expect((stats.data["errors"] as? [String: Int])?["TIMEOUT"] == 3)
        }
    }

    @Test func moreRequestsInFlightThanTheBoundAreOverloaded() async throws {
        try await withGateway(
            startStatic: false,
            configure: {
                $0.maxInFlight = 2
                $0.staticTimeout = .milliseconds(300)
            }
        ) { fixture in
            let client = try fixture.client()
            try client.sendLines((1...5).map { #"{"id":\#($0),"op":"stop","stop_id":"200060"}"# })
            let answers = try await client.readLines(5).map { try JSONLine($0) }
            #expect(answers.map { $0.id as? Int } == [1, 2, 3, 4, 5])
            #expect(
                answers.map(\.errorCode) == [
                    "STATIC_UNAVAILABLE", "STATIC_UNAVAILABLE", "OVERLOADED", "OVERLOADED", "OVERLOADED",
                ])
            // Once they are answered there is room again.
            #expect(try await client.ask(#"{"id":6,"op":"stats"}"#).ok)
        }
    }

    @Test func readAheadIsBoundedPerConnection() async throws {
        // Three requests at a time: six slow ones take two rounds of the static timeout, answered in order
        // (every request asks the static service: no breaker refusing the second round at once).
        try await withGateway(
            startStatic: false,
            configure: {
                $0.maxPipelined = 3
                $0.staticTimeout = .milliseconds(250)
                $0.staticProbeInterval = .zero
            }
        ) { fixture in
            let client = try fixture.client()
            let started = ContinuousClock.now
            try client.sendLines((1...6).map { #"{"id":\#($0),"op":"stop","stop_id":"200060"}"# })
            let answers = try await client.readLines(6).map { try JSONLine($0) }
            #expect(answers.map { $0.id as? Int } == [1, 2, 3, 4, 5, 6])
            #expect(answers.allSatisfy { $0.errorCode == "STATIC_UNAVAILABLE" })
            #expect(ContinuousClock.now - started >= .milliseconds(490))
        }
    }

    @Test func atTheConnectionLimitTheLeastRecentlyActiveConnectionMakesRoom() async throws {
        try await withGateway(configure: { $0.maxConnections = 2 }) { fixture in
            let first = try fixture.client()
            #expect(try await first.ask(#"{"id":1,"op":"stats"}"#).ok)
            let second = try fixture.client()
            #expect(try await second.ask(#"{"id":2,"op":"stats"}"#).ok)
            // A newcomer is served; the least recently active connection (the first) gets one OVERLOADED line
            // and is closed.
            let third = try fixture.client()
            #expect(try await third.ask(#"{"id":3,"op":"stats"}"#).ok)
            let lines = try await first.readUntilClosed()
            #expect(lines.count == 1)
            #expect(try JSONLine(lines[0]).errorCode == "OVERLOADED")
            #expect(try JSONLine(lines[0]).errorMessage?.contains("make room") == true)
            #expect(try await second.ask(#"{"id":4,"op":"stats"}"#).ok)
            #expect(fixture.gateway.services.stats.summary().closedToMakeRoom == 1)
        }
    }

    @Test func idleConnectionsAreClosedButNotBusyOnes() async throws {
        try await withGateway(configure: { $0.idleTimeout = .milliseconds(300) }) { fixture in
            let idle = try fixture.client()
            #expect(try await idle.ask(#"{"id":1,"op":"stats"}"#).ok)
            #expect(try await idle.waitForClose(timeout: .seconds(3)))

            // A connection that keeps asking stays open past the timeout.
            let active = try fixture.client()
            for id in 0..<6 {
                #expect(try await active.ask(#"{"id":\#(id),"op":"stats"}"#).ok)
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
