// HTTP sources against a fake server on 127.0.0.1: bytes, conditional requests, backoff, timeouts, limits,
// connection errors, redirects and stopping.
import Foundation
import HTTPFetching
import Testing
import TransitTesting

@testable import RealtimeSources

@Suite struct HTTPSourceTests {
    private func group(_ sources: [SourceConfig], _ recorder: EventRecorder, backoffCap: Duration = .seconds(600))
        throws -> SourceGroup
    {
        try SourceGroup(
            config: testConfig(sources), options: PollingOptions(backoffCap: backoffCap), logger: LogRecorder().logger,
            handler: recorder.handler)
    }

    @Test func okDeliversBytesAndTheServerDate() async throws {
        let body: [UInt8] = Array(0..<200).map { UInt8($0) }
        let server = try await FakeHTTPServer.start { _ in
            .respond(status: 200, headers: [("Date", "Sun, 06 Nov 1994 08:49:37 GMT")], body: body)
        }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url("/tu"))], recorder)
        let before = Date()
        sources.start()
        #expect(await eventually { recorder.fetched.count == 1 })
        await sources.stop()
        let feed = try #require(recorder.fetched.first)
        #expect(feed.source == "feed")
        #expect(feed.bytes == body)
        #expect(feed.httpDate == Date(timeIntervalSince1970: 784_111_777))
        #expect(feed.fetchedAt >= before && feed.fetchedAt <= Date())
        let request = try #require(server.requests.first)
        #expect(request.method == "GET" && request.uri == "/tu")
        #expect(request.header("Accept")?.hasPrefix("application/x-google-protobuf") == true)
        #expect(request.header("If-None-Match") == nil)
        let status = try #require(sources.status().first)
        #expect(status.requestsToday == 1 && status.pollCount == 1)
        #expect(status.lastByteCount == 200 && status.lastFetched == feed.fetchedAt && status.errorCount == 0)
        #expect(status.nextPoll == nil)  // stopped
    }

    @Test func etagAndLastModifiedMakeConditionalRequests() async throws {
        let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
        let server = try await FakeHTTPServer.start { request in
            if request.header("If-None-Match") == "\"v1\"" {
                return .respond(status: 304, headers: [("ETag", "\"v1\"")])
            }
            return .respond(
                status: 200, headers: [("ETag", "\"v1\""), ("Last-Modified", lastModified)], body: [9, 9, 9])
        }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url(), interval: .milliseconds(50))], recorder)
        sources.start()
        #expect(await eventually { recorder.notModifiedCount >= 2 })
        await sources.stop()
        #expect(recorder.fetched.count == 1)
        #expect(recorder.fetched.first?.bytes == [9, 9, 9])
        if case .fetched = recorder.events.first {
        } else {
            Issue.record("first event: \(String(describing: recorder.events.first))")
        }
        let second = try #require(server.requests.dropFirst().first)
        #expect(second.header("If-None-Match") == "\"v1\"")
        #expect(second.header("If-Modified-Since") == lastModified)
        let status = try #require(sources.status().first)
        #expect(status.lastSuccess != nil && status.errorCount == 0 && status.lastByteCount == 3)
    }

    @Test func aServerDroppingTheValidatorGetsPlainRequestsAgain() async throws {
        let server = try await FakeHTTPServer.start { request in
            request.index == 0
                ? .respond(status: 200, headers: [("ETag", "\"a\"")], body: [1]) : .respond(status: 200, body: [2])
        }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url(), interval: .milliseconds(30))], recorder)
        sources.start()
        // A require: the indexing below would end the test process, not fail the test.
        try #require(await eventually { server.requests.count >= 3 })
        await sources.stop()
        let requests = server.requests
        #expect(requests[1].header("If-None-Match") == "\"a\"")
        #expect(requests[2].header("If-None-Match") == nil)
    }

    @Test(arguments: [401, 403, 429, 500, 503])
    func failuresBackOffAndResetAfterSuccess(_ code: Int) async throws {
        // fail, fail, fail, succeed, fail, succeed. Waits after the failures: [50, 100], [100, 200], [200, 400] ms;
        // after the success the plain 50 ms; after the next failure [50, 100] again (a backoff that was not
        // reset would wait 400 to 800 ms there).
        let server = try await FakeHTTPServer.start { request in
            [0, 1, 2, 4].contains(request.index)
                ? .respond(status: code, body: Array("no".utf8)) : .respond(status: 200, body: [7])
        }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let interval = Duration.milliseconds(50)
        let backoff = Backoff(base: interval, cap: .milliseconds(800))
        let sources = try group([httpSource(url: server.url(), interval: interval)], recorder, backoffCap: backoff.cap)
        sources.start()
        try #require(await eventually { recorder.events.count >= 6 && server.requests.count >= 6 })
        await sources.stop()

        let failure = FetchError.httpStatus(code)
        #expect(recorder.failures.prefix(4) == [failure, failure, failure, failure])
        #expect(recorder.fetched.count >= 2)
        let status = try #require(sources.status().first)
        #expect(status.errorCount == 4 && status.consecutiveFailures == 0)
        #expect(status.lastError?.hasPrefix("HTTP \(code)") == true)

        let times = server.requests.map(\.receivedAt)
        // Sleeping never ends early, so the lower bounds are exact; the upper ones allow for a busy machine.
        let slack = Duration.milliseconds(150)
        func expectGap(_ i: Int, within bounds: ClosedRange<Duration>, _ what: String) {
            let gap = times[i] - times[i - 1]
            #expect(
                gap >= bounds.lowerBound - .milliseconds(2) && gap <= bounds.upperBound + slack,
                "\(what): \(gap), planned \(bounds)")
        }
        expectGap(1, within: backoff.bounds(afterFailures: 1), "after 1 failure")
        expectGap(2, within: backoff.bounds(afterFailures: 2), "after 2 failures")
        expectGap(3, within: backoff.bounds(afterFailures: 3), "after 3 failures")
        expectGap(5, within: backoff.bounds(afterFailures: 1), "after a failure that followed a success")
        // After the success, the next poll is one interval after the successful one's tick.
        #expect(times[4] - times[3] <= interval + slack, "after the success: \(times[4] - times[3])")
    }

    @Test func retryAfterIsHonouredWhenLonger() async throws {
        let server = try await FakeHTTPServer.start { request in
            request.index == 0
                ? .respond(status: 429, headers: [("Retry-After", "1")]) : .respond(status: 200, body: [1])
        }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group(
            [httpSource(url: server.url(), interval: .milliseconds(20))], recorder, backoffCap: .milliseconds(40))
        sources.start()
        try #require(await eventually { server.requests.count >= 2 })
        await sources.stop()
        let gap = server.requests[1].receivedAt - server.requests[0].receivedAt
        #expect(gap >= .milliseconds(998) && gap < .milliseconds(1500), "\(gap)")
    }

    @Test func unansweredRequestTimesOutAtTheTimeout() async throws {
        let server = try await FakeHTTPServer.start { _ in .hang }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url(), timeout: .milliseconds(300))], recorder)
        sources.start()
        #expect(await eventually { !recorder.failures.isEmpty })
        await sources.stop()
        #expect(recorder.failures == [.timeout(.milliseconds(300))])
        let elapsed = try #require(recorder.all.first).at - (try #require(server.requests.first)).receivedAt
        #expect(elapsed >= .milliseconds(250) && elapsed < .milliseconds(900), "\(elapsed)")
        #expect(sources.status().first?.lastError == "timeout: no complete answer within 0.3 s")
    }

    @Test func aTricklingBodyTimesOutAtTheTimeoutToo() async throws {
        // Bytes keep coming, so an idle timer would never fire; the deadline covers the whole exchange.
        let server = try await FakeHTTPServer.start { _ in .trickle(every: .milliseconds(50)) }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url(), timeout: .milliseconds(400))], recorder)
        sources.start()
        #expect(await eventually { !recorder.failures.isEmpty })
        await sources.stop()
        #expect(recorder.failures == [.timeout(.milliseconds(400))])
        let elapsed = try #require(recorder.all.first).at - (try #require(server.requests.first)).receivedAt
        #expect(elapsed >= .milliseconds(350) && elapsed < .milliseconds(1000), "\(elapsed)")
    }

    @Test(arguments: [false, true])
    func oversizedBodyIsAborted(_ chunked: Bool) async throws {
        let server = try await FakeHTTPServer.start { _ in
            .respond(status: 200, body: [UInt8](repeating: 1, count: 200_000), chunked: chunked)
        }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url(), maxBytes: 100_000)], recorder)
        sources.start()
        #expect(await eventually { !recorder.failures.isEmpty })
        await sources.stop()
        #expect(recorder.failures == [.tooLarge(limit: 100_000)])
        #expect(recorder.fetched.isEmpty)
        #expect(sources.status().first?.lastError?.contains("over the limit of 100000 bytes") == true)
    }

    @Test func bodyExactlyAtTheLimitIsAccepted() async throws {
        let server = try await FakeHTTPServer.start { _ in
            .respond(status: 200, body: [UInt8](repeating: 2, count: 50_000), chunked: true)
        }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url(), maxBytes: 50_000)], recorder)
        sources.start()
        #expect(await eventually { !recorder.events.isEmpty })
        await sources.stop()
        #expect(recorder.fetched.first?.bytes.count == 50_000)
    }

    @Test func connectionRefusedIsNamed() async throws {
        // A port that was just free: bind a server, note its port, close it.
        let closed = try await FakeHTTPServer.start { _ in .hang }
        let port = closed.port
        await closed.shutdown()
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: "http://127.0.0.1:\(port)/feed")], recorder)
        sources.start()
        #expect(await eventually { !recorder.failures.isEmpty })
        await sources.stop()
        guard case .connection(let reason)? = recorder.failures.first else {
            Issue.record("expected a connection error, got \(recorder.failures)")
            return
        }
        #expect(reason.contains("connection refused"), "\(reason)")
    }

    @Test func redirectsFollowOnlyToTheSameHost() async throws {
        let server = try await FakeHTTPServer.start { request in
            switch request.uri {
            case "/same": .respond(status: 302, headers: [("Location", "/target")])
            case "/other":
                .respond(
                    status: 302,
                    headers: [
                        ("Location", "http://localhost:\(request.header("Host")!.split(separator: ":").last!)/target")
                    ])
            default: .respond(status: 200, body: [5])
            }
        }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group(
            [
                httpSource(
                    "same", url: server.url("/same"),
                    headers: [HTTPHeader(name: "Authorization", value: SecretValue("k"))]),
                httpSource(
                    "other", url: server.url("/other"),
                    headers: [HTTPHeader(name: "Authorization", value: SecretValue("k"))]),
            ], recorder)
        sources.start()
        #expect(await eventually { recorder.events.count == 2 })
        await sources.stop()
        if case .fetched(let feed) = recorder.events(of: "same").first {
            #expect(feed.bytes == [5])
        } else {
            Issue.record("same-host redirect: \(recorder.events(of: "same"))")
        }
        if case .failed(_, let error) = recorder.events(of: "other").first {
            #expect(error == .httpStatus(302))
        } else {
            Issue.record("other-host redirect: \(recorder.events(of: "other"))")
        }
        #expect(!server.requests.contains { $0.header("Host")?.hasPrefix("localhost") == true })
    }

    @Test func stopCancelsARequestInFlight() async throws {
        let server = try await FakeHTTPServer.start { _ in .hang }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url(), timeout: .seconds(30))], recorder)
        sources.start()
        #expect(await eventually { server.requests.count == 1 })
        let before = ContinuousClock.now
        await sources.stop()
        #expect(ContinuousClock.now - before < .seconds(1))
        try await Task.sleep(for: .milliseconds(50))
        #expect(recorder.events.isEmpty, "no event after stop: \(recorder.events)")
        #expect(sources.status().first?.nextPoll == nil)
    }

    @Test func stopDuringTheSleepBetweenPolls() async throws {
        let server = try await FakeHTTPServer.start { _ in .respond(status: 200, body: [1]) }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        let sources = try group([httpSource(url: server.url(), interval: .seconds(30))], recorder)
        sources.start()
        #expect(await eventually { recorder.events.count == 1 })
        let next = try #require(sources.status().first?.nextPoll)
        #expect(next.timeIntervalSinceNow > 25 && next.timeIntervalSinceNow <= 30)
        let before = ContinuousClock.now
        await sources.stop()
        #expect(ContinuousClock.now - before < .milliseconds(500))
    }

    @Test func staggeredStartsFollowTheOffsets() async throws {
        let server = try await FakeHTTPServer.start { _ in .respond(status: 200, body: [1]) }
        defer { Task { await server.shutdown() } }
        let recorder = EventRecorder()
        // 10 per second: starts 0.2 s apart.
        let config = RealtimeConfig(
            sources: (0..<3).map { httpSource("s\($0)", url: server.url("/\($0)"), interval: .seconds(60)) },
            dailyRequestBudget: .max, maxRequestsPerSecond: 10
        )
        let sources = try SourceGroup(config: config, logger: LogRecorder().logger, handler: recorder.handler)
        let started = ContinuousClock.now
        sources.start()
        #expect(await eventually { server.requests.count == 3 })
        await sources.stop()
        let requests = server.requests
        #expect(requests.map(\.uri) == ["/0", "/1", "/2"])
        // Planned at 0, 0.2 and 0.4 s: never earlier, and not much later.
        for (i, request) in requests.enumerated() {
            let at = request.receivedAt - started
            #expect(
                at >= .milliseconds(200) * i && at < .milliseconds(200) * i + .milliseconds(250),
                "request \(i) at \(at)")
        }
    }
}
