// Header values (API keys) reach the server and nowhere else: not descriptions, dumps, errors, status or logs.
import Foundation
import Testing
import TransitTesting

@testable import RealtimeSources

@Suite struct SecretTests {
    static let secret = "s3cr3t-Key-4711"

    @Test func headerIsSentExpandedAndNeverShown() async throws {
        let server = try await FakeHTTPServer.start { request in
            // First answer 401 (errors must not leak), then 200.
            request.index == 0
                ? .respond(status: 401, body: Array("bad key \(request.header("Authorization") ?? "")".utf8))
                : .respond(status: 200, body: [1, 2, 3])
        }
        defer { Task { await server.shutdown() } }
        let json = """
            {"sources": [{"name": "secret", "kind": "trip_updates", "url": "\(server.url())", "poll_interval_s": 0.05,
                          "headers": {"Authorization": "apikey $TEST_API_KEY"}}],
             "daily_request_budget": 100000000, "max_requests_per_second": 1000}
            """
        let config = try RealtimeConfig.parse(
            json: Data(json.utf8), file: "secret.json", environment: ["TEST_API_KEY": Self.secret])
        let recorder = EventRecorder()
        let log = LogRecorder()
        let logger = log.logger
        let group = try SourceGroup(config: config, logger: logger, handler: recorder.handler)
        group.start()
        #expect(await eventually { !recorder.fetched.isEmpty })
        await group.stop()

        #expect(server.requests.first?.header("Authorization") == "apikey \(Self.secret)")
        #expect(recorder.failures == [.httpStatus(401)])

        var shown: [String] = [
            String(describing: config), String(reflecting: config), config.sources[0].description,
            String(describing: config.sources[0].headers), String(reflecting: config.sources[0].headers[0].value),
            String(describing: group.status()), String(reflecting: group.status()),
        ]
        var dumped = ""
        dump(config, to: &dumped)
        shown.append(dumped)
        shown += recorder.failures.map(\.description)
        shown += group.status().compactMap(\.lastError)
        let logLines = log.all.map { "\($0.level) \($0.message) \($0.metadata)" }
        shown += logLines
        #expect(logLines.contains { $0.contains("HTTP 401") }, "the failure is logged")
        for text in shown {
            #expect(!text.contains(Self.secret), "leaked in: \(text)")
            #expect(!text.contains("s3cr3t"), "partly leaked in: \(text)")
        }
        #expect(config.sources[0].description.contains("Authorization: <redacted>"))
    }

    @Test func configErrorsDoNotShowValues() {
        // A later source fails; the error must not contain the first source's expanded header.
        let json = """
            {"sources": [
              {"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": {"Authorization": "apikey $K"}},
              {"name": "b", "kind": "alerts", "url": "https://x/b", "poll_interval_s": 30, "headers": {"Authorization": "apikey $K", "X": "$MISSING"}}
            ]}
            """
        do {
            _ = try RealtimeConfig.parse(json: Data(json.utf8), environment: ["K": Self.secret])
            Issue.record("loaded")
        } catch {
            #expect(error.description.contains("MISSING"))
            #expect(!error.description.contains(Self.secret))
            #expect(!String(reflecting: error).contains(Self.secret))
        }
    }

    /// A key in the URL (user info or query) of a source that cannot be reached: the failure, the status and the
    /// log show neither.
    @Test func aKeyInTheURLOfAFailingSourceIsNeverShown() async throws {
        let json = """
            {"sources": [{"name": "unreachable", "kind": "alerts",
                          "url": "http://user:$TEST_API_KEY@127.0.0.1:1/feed?key=$TEST_API_KEY", "poll_interval_s": 0.05,
                          "headers": {"Authorization": "apikey $TEST_API_KEY"}}],
             "daily_request_budget": 100000000, "max_requests_per_second": 1000}
            """
        let config = try RealtimeConfig.parse(
            json: Data(json.utf8), file: "secret.json", environment: ["TEST_API_KEY": Self.secret])
        let recorder = EventRecorder()
        let log = LogRecorder()
        let group = try SourceGroup(config: config, logger: log.logger, handler: recorder.handler)
        group.start()
        #expect(await eventually { !recorder.failures.isEmpty })
        await group.stop()
        var shown = recorder.failures.map(\.description) + group.status().compactMap(\.lastError)
        shown += [String(describing: group.status()), String(describing: config), config.sources[0].description]
        shown += log.all.map { "\($0.level) \($0.message) \($0.metadata)" }
        #expect(recorder.failures.first.map { "\($0)".contains("connection failed") } == true)
        for text in shown {
            #expect(!text.contains("s3cr3t"), "leaked in: \(text)")
        }
    }

    @Test func urlQueryAndUserInfoAreLeftOutOfStatus() {
        let location = SourceLocation.http(URL(string: "https://user:pw@api.example.org:8443/feed?key=abc")!)
        #expect(location.redactedDescription == "https://api.example.org:8443/feed?…")
    }
}
