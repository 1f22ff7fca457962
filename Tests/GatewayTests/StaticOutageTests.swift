import Foundation
import GatewayProtocol
import Testing
import TransitModel
import TransitTesting

@testable import Gateway

/// The static service going down and coming back with many requests (GATEWAY.md §3, "Static
/// service down"): after the first request finds it down, the others answer at once (rt_only where the live
/// state can, else STATIC_UNAVAILABLE), and it is used again once it is back, without a restart.
@Suite struct StaticOutageTests {
    private let at = SampleTimes.mondayEvening
    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// Central: T2.WKD.0.1922 from P18, 400 s late (leaves at +280).
    private func scenario() -> RealtimeState {
        let trips: [LiveTrip] = [
            LiveFixtures.trip(
                "T2.WKD.0.1922", routeId: "ST_T2",
                stops: [
                    ("20006018", at - 120, at + 280), ("20005002", at + 60, at + 460),
                ], firstSequence: 6)
        ]
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: trips)))
        assembler.applySnapshot(.sources([LiveFixtures.freshSource(now: now)]))
        return assembler.state
    }

    private var boardLine: String { #"{"op":"departures","stop_id":"200060","at":\#(at),"limit":4}"# }

    /// The answer and how long it took.
    private func timed(_ client: LineClient, _ line: String) async throws -> (JSONLine, Duration) {
        let started = ContinuousClock.now
        let answer = try await client.ask(line, timeout: .seconds(10))
        return (answer, ContinuousClock.now - started)
    }

    @Test func onceFoundDownLaterRequestsAnswerAtOnceAndItIsUsedAgainWhenBack() async throws {
        let view = RealtimeView(configured: true)
        // A long static timeout, and a probe interval the fast requests below fit in many times over.
        try await withGateway(
            realtime: view,
            configure: {
                $0.staticTimeout = .seconds(2)
                $0.requestTimeout = .seconds(5)
                $0.staticProbeInterval = .seconds(1)
            }
        ) { fixture in
            let client = try fixture.client()
            view.replace(scenario())
            let before = try await client.ask(boardLine)
            try #require(before.ok, "\(before)")
            #expect(before.meta["source"] as? String == "static+rt")

            fixture.stopStaticService()
            // The first request that needs it waits out the static timeout.
            let (first, firstTook) = try await timed(client, #"{"op":"stop","stop_id":"200060"}"#)
            #expect(first.errorCode == "STATIC_UNAVAILABLE", "\(first)")
            #expect(first.errorMessage?.contains("did not answer within 2000 ms") == true, "\(first)")
            #expect(firstTook >= .milliseconds(1500))

            // The next ones do not: no round trip, their fallback at once.
            let (stop, stopTook) = try await timed(client, #"{"op":"stop","stop_id":"200060"}"#)
            #expect(stop.errorCode == "STATIC_UNAVAILABLE", "\(stop)")
            #expect(stop.errorMessage?.contains("the static service is unreachable since ") == true, "\(stop)")
            #expect(stopTook < .seconds(1))

            let (board, boardTook) = try await timed(client, boardLine)
            #expect(board.ok, "\(board)")
            #expect(board.meta["source"] as? String == "rt_only")
            #expect(board.list("departures").first?["trip_id"] as? String == "T2.WKD.0.1922")
            #expect(board.list("departures").first?["delay_s"] as? Int == 400)
            #expect(boardTook < .seconds(1))

            let (trip, tripTook) = try await timed(client, #"{"op":"trip","trip_id":"T2.WKD.0.1922","at":\#(at)}"#)
            #expect(trip.ok, "\(trip)")
            #expect(trip.meta["source"] as? String == "rt_only")
            #expect(tripTook < .seconds(1))

            let (health, healthTook) = try await timed(client, #"{"op":"health"}"#)
            let healthStatic = health.data["static"] as? [String: Any]
            #expect(health.data["status"] as? String == "down")
            #expect(healthStatic?["status"] as? String == "unavailable")
            let since = try #require(healthStatic?["down_since_unix"] as? Int, "\(health)")
            #expect(abs(Int64(since) - now) < 60)
            #expect((healthStatic?["error"] as? String)?.contains("unreachable since") == true, "\(health)")
            #expect(healthTook < .seconds(1))

            let stats = try await client.ask(#"{"op":"stats"}"#)
            let breaker = try #require(stats.data["static"] as? [String: Any], "\(stats)")
            #expect(breaker["status"] as? String == "down")
            #expect(breaker["trips"] as? Int == 1)
            #expect((breaker["fast_failures"] as? Int ?? 0) >= 4, "\(stats)")

            // Back at the same URL: a probe finds it, and boards are static+rt again.
            try fixture.startStaticService()
            let deadline = ContinuousClock.now + .seconds(15)
            var recovered: JSONLine?
            while ContinuousClock.now < deadline {
                let answer = try await client.ask(boardLine, timeout: .seconds(10))
                if answer.meta["source"] as? String == "static+rt" { recovered = answer; break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let again = try #require(recovered, "the static service was not used again")
            func rows(_ answer: JSONLine) -> [String] {
                answer.list("departures").map {
                    "\($0["trip_id"] as? String ?? "?")@\($0["realtime_unix"] as? Int ?? $0["scheduled_unix"] as? Int ?? 0)"
                }
            }
            #expect(rows(again) == rows(before))  // the same board as before the outage
            #expect(rows(again).contains("T2.WKD.0.1922@\(at + 280)"))
            #expect(try await client.ask(#"{"op":"stop","stop_id":"200060"}"#).ok)
            let healthy = try await client.ask(#"{"op":"health"}"#)
            #expect((healthy.data["static"] as? [String: Any])?["status"] as? String == "ok", "\(healthy)")
            #expect((healthy.data["static"] as? [String: Any])?["down_since_unix"] is NSNull)
            let after = try await client.ask(#"{"op":"stats"}"#)
            #expect((after.data["static"] as? [String: Any])?["status"] as? String == "up", "\(after)")
        }
    }

    @Test func whileDownNoRequestWaitsAndWhenBackAnswersAreFullWithinAProbeInterval() async throws {
        // The probe runs in the background: requests spread over several probe intervals never carry it.
        let view = RealtimeView(configured: true)
        try await withGateway(
            realtime: view,
            configure: {
                $0.staticTimeout = .seconds(1)
                $0.requestTimeout = .seconds(5)
                $0.staticProbeInterval = .milliseconds(300)
            }
        ) { fixture in
            let client = try fixture.client()
            view.replace(scenario())
            try #require(try await client.ask(boardLine).ok)
            fixture.stopStaticService()
            // The request that finds it down waits out the timeout once.
            let (first, _) = try await timed(client, #"{"op":"stop","stop_id":"200060"}"#)
            #expect(first.errorCode == "STATIC_UNAVAILABLE", "\(first)")
            // 12 requests over ≈ 2.4 s (8 probe intervals, each probe waiting out its 1 s timeout).
            for i in 0..<12 {
                let line = i % 2 == 0 ? boardLine : #"{"op":"stop","stop_id":"200060"}"#
                let (answer, took) = try await timed(client, line)
                #expect(took < .milliseconds(200), "request \(i) took \(took): \(answer)")
                #expect(
                    answer.ok ? answer.meta["source"] as? String == "rt_only" : answer.errorCode == "STATIC_UNAVAILABLE"
                )
                try await Task.sleep(for: .milliseconds(200))
            }
            let stats = try await client.ask(#"{"op":"stats"}"#)
            #expect(((stats.data["static"] as? [String: Any])?["probes"] as? Int ?? 0) >= 2, "\(stats)")

            try fixture.startStaticService()
            let back = ContinuousClock.now
            var fullAfter: Duration?
            while ContinuousClock.now - back < .seconds(10) {
                let (answer, took) = try await timed(client, boardLine)
                #expect(took < .milliseconds(200) || answer.meta["source"] as? String == "static+rt", "\(answer)")
                if answer.meta["source"] as? String == "static+rt" {
                    fullAfter = ContinuousClock.now - back
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            // One probe interval, plus the socket's redial (≤ 500 ms) and slack for a shared machine.
            let took = try #require(fullAfter, "no full answer within 10 s of the static service's return")
            #expect(took < .milliseconds(300) + .seconds(2), "full answers again after \(took)")
        }
    }

    @Test func aZeroProbeIntervalAsksOnEveryRequest() async throws {
        try await withGateway(
            startStatic: false,
            configure: {
                $0.staticTimeout = .milliseconds(200)
                $0.staticProbeInterval = .zero
            }
        ) { fixture in
            let client = try fixture.client()
            for id in 1...3 {
                let (answer, took) = try await timed(client, #"{"id":\#(id),"op":"stop","stop_id":"200060"}"#)
                #expect(answer.errorCode == "STATIC_UNAVAILABLE")
                #expect(answer.errorMessage?.contains("did not answer within 200 ms") == true, "\(answer)")
                #expect(took >= .milliseconds(150))
            }
            let stats = try await client.ask(#"{"op":"stats"}"#)
            #expect((stats.data["static"] as? [String: Any])?["fast_failures"] as? Int == 0, "\(stats)")
        }
    }
}
