// Loading and validating realtime configs: good configs, every kind of bad field, the daily budget.
import Foundation
import Testing
import TransitTesting

@testable import RealtimeSources

@Suite struct ConfigTests {
    private func parse(_ json: String, env: [String: String] = [:], base: String = "/") throws(RealtimeConfigError)
        -> RealtimeConfig
    {
        try RealtimeConfig.parse(json: Data(json.utf8), file: "test.json", baseDirectory: base, environment: env)
    }

    /// The error a config gets; records a failure when it loads.
    private func error(_ json: String, env: [String: String] = [:], base: String = "/") -> RealtimeConfigError? {
        do {
            let config = try parse(json, env: env, base: base)
            Issue.record("expected an error, got \(config)")
            return nil
        } catch {
            return error
        }
    }

    /// An API key given in the URL's query (as many agencies take it) comes from the environment, as in headers;
    /// an unset variable is named; a variable outside the query (shown in status and logs) is refused, and so is
    /// a key sent over plain http to another host. The status shows the URL without its query.
    @Test func environmentVariablesInTheURLQuery() throws {
        let config = try parse(
            """
            {"sources": [{"name": "tu", "kind": "trip_updates", "poll_interval_s": 30,
              "url": "https://api.example.org/gtfsrt/tripupdates?api_key=${AGENCY_KEY}&format=pb"}]}
            """, env: ["AGENCY_KEY": "s3cret"])
        guard case .http(let url) = config.sources[0].location else {
            Issue.record("not an http source")
            return
        }
        #expect(url.absoluteString == "https://api.example.org/gtfsrt/tripupdates?api_key=s3cret&format=pb")
        #expect(!config.sources[0].description.contains("s3cret"))
        #expect(config.sources[0].location.redactedDescription == "https://api.example.org/gtfsrt/tripupdates?…")

        let unset = error(
            #"{"sources": [{"name": "tu", "kind": "trip_updates", "poll_interval_s": 30, "url": "https://a.example/x?key=$NOPE"}]}"#
        )
        #expect(unset?.description.contains("url") == true && unset?.description.contains("NOPE is not set") == true)
        let inPath = error(
            #"{"sources": [{"name": "tu", "kind": "trip_updates", "poll_interval_s": 30, "url": "https://a.example/$K/x"}]}"#,
            env: ["K": "v"])
        #expect(inPath?.description.contains("user info or query only") == true, "\(String(describing: inPath))")
        let plain = error(
            #"{"sources": [{"name": "tu", "kind": "trip_updates", "poll_interval_s": 30, "url": "http://a.example/x?k=$K"}]}"#,
            env: ["K": "v"])
        #expect(plain?.description.contains("https only") == true, "\(String(describing: plain))")
    }

    @Test func readsEveryFieldAndDefaults() throws {
        let config = try parse(
            """
            {"daily_request_budget": 1000, "max_requests_per_second": 2.5, "comment": "ignored",
             "sources": [
               {"name": "a", "kind": "trip_updates", "url": "https://example.org/tu?x=1", "poll_interval_s": 90,
                "headers": {"Authorization": "apikey ${KEY}", "X-Plain": "literal $$5"}, "prefix": "B:",
                "timeout_s": 2.5, "max_bytes": 1000, "stale_after_s": 45, "comment": "also ignored"},
               {"name": "b", "kind": "auto", "url": "file:///var/feeds/VehiclePositions.pb", "poll_interval_s": 0.5}
             ]}
            """, env: ["KEY": "k1"]
        )
        #expect(config.dailyRequestBudget == 1000)
        #expect(config.maxRequestsPerSecond == 2.5)
        let a = config.sources[0]
        #expect(a.name == "a" && a.kind == .tripUpdates && a.prefix == "B:" && a.maxBytes == 1000)
        #expect(a.location == .http(URL(string: "https://example.org/tu?x=1")!))
        #expect(a.pollInterval == .seconds(90) && a.timeout == .milliseconds(2500))
        #expect(a.headers.map(\.name) == ["Authorization", "X-Plain"])
        #expect(a.headers.map(\.value.revealed) == ["apikey k1", "literal $5"])
        #expect(a.staleAfterSecs == 45)
        let b = config.sources[1]
        #expect(b.kind == .auto && b.location == .file(path: "/var/feeds/VehiclePositions.pb"))
        #expect(b.pollInterval == .milliseconds(500) && b.timeout == .seconds(8) && b.maxBytes == 64 * 1024 * 1024)
        #expect(b.prefix == nil && b.headers.isEmpty && b.staleAfterSecs == nil)
        // Only the network source costs requests: 86,400 / 90.
        #expect(config.dailyRequests == 960)
    }

    @Test func defaultsOfTheTopLevel() throws {
        let config = try parse(
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x.org/a", "poll_interval_s": 300}]}"#)
        #expect(config.dailyRequestBudget == 30_000 && config.maxRequestsPerSecond == 5)
    }

    /// Each bad config, the field its error names and words it must contain.
    static let badConfigs: [(json: String, source: String?, field: String?, words: [String])] = [
        (#"{"sources": [}"#, nil, nil, ["not valid JSON"]),
        (#"{"sources": [], "sources": []}"#, nil, nil, ["not valid JSON", "duplicate key \"sources\""]),
        (#"[1, 2]"#, nil, nil, ["top level", "object", "an array"]),
        (#"{}"#, nil, "sources", ["missing"]),
        (#"{"sources": {}}"#, nil, "sources", ["array"]),
        (#"{"sources": []}"#, nil, "sources", ["no sources"]),
        (#"{"sources": [], "budget": 5}"#, nil, "budget", ["unknown field", "daily_request_budget"]),
        (#"{"sources": [3]}"#, "sources[0]", nil, ["object", "a number"]),
        (#"{"sources": [{"kind": "alerts"}]}"#, "sources[0]", "name", ["missing"]),
        (#"{"sources": [{"name": "a b"}]}"#, "sources[0]", "name", ["letters, digits"]),
        (#"{"sources": [{"name": "a", "kind": "alerts", "poll_interval_s": 30}]}"#, "a", "url", ["missing"]),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval": 30}]}"#, "a",
            "poll_interval", ["unknown field", "poll_interval_s"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alert", "url": "https://x/a", "poll_interval_s": 30}]}"#, "a", "kind",
            ["trip_updates", "\"alert\""]
        ),
        (#"{"sources": [{"name": "a", "url": "https://x/a", "poll_interval_s": 30}]}"#, "a", "kind", ["missing"]),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "ftp://x/a", "poll_interval_s": 30}]}"#, "a", "url",
            ["https://", "ftp://x/a"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "file://relative/a.pb", "poll_interval_s": 30}]}"#,
            "a", "url", ["absolute path"]
        ),
        (#"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a"}]}"#, "a", "poll_interval_s", ["missing"]),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": "30"}]}"#, "a",
            "poll_interval_s", ["number", "a string"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": -1}]}"#, "a",
            "poll_interval_s", ["more than 0"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "timeout_s": 0}]}"#,
            "a", "timeout_s", ["more than 0"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "max_bytes": 1.5}]}"#,
            "a", "max_bytes", ["whole number"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "stale_after_s": 0}]}"#,
            "a", "stale_after_s", ["1 … 604,800", "got 0"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "stale_after_s": 604801}]}"#,
            "a", "stale_after_s", ["604,800", "got 604801"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "stale_after_s": 2.5}]}"#,
            "a", "stale_after_s", ["whole number"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "stale_after_s": "90"}]}"#,
            "a", "stale_after_s", ["number", "a string"]
        ),
        (
            #"{"sources": [{"name": "a", "replay": "r", "pace_s": 1, "stale_after_s": -5}]}"#, "a", "stale_after_s",
            ["got -5"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": ["x"]}]}"#,
            "a", "headers", ["object"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": {"Bad Name": "v"}}]}"#,
            "a", "headers.Bad Name", ["header name"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": {"A": 5}}]}"#,
            "a", "headers.A", ["string"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": {"A": "$NOPE"}}]}"#,
            "a", "headers.A", ["NOPE", "not set"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": {"A": "x $"}}]}"#,
            "a", "headers.A", ["$$"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": {"A": "  "}}]}"#,
            "a", "headers.A", ["empty"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "file:///x/a.pb", "poll_interval_s": 30, "headers": {"A": "b"}}]}"#,
            "a", "headers", ["http(s) sources only"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "http://example.org/a", "poll_interval_s": 30, "headers": {"A": "$EMPTY_OK"}}]}"#,
            "a", "headers", ["https only"]
        ),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "replay": "r", "poll_interval_s": 30}]}"#,
            "a", "replay", ["not both"]
        ),
        (
            #"{"sources": [{"name": "a", "replay": "does-not-exist", "pace_s": 1}]}"#, "a", "replay",
            ["does not exist", "/does-not-exist"]
        ),
        (#"{"sources": [{"name": "a", "replay": "r", "pace_s": 1, "url_": 1}]}"#, "a", "url_", ["unknown field"]),
        (#"{"sources": [{"name": "a", "replay": "r"}]}"#, "a", "pace_s", ["missing"]),
        (#"{"sources": [{"name": "a", "replay": "r", "pace_s": 1, "loop": "yes"}]}"#, "a", "loop", ["true or false"]),
        (
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30}, {"name": "a", "kind": "alerts", "url": "https://x/b", "poll_interval_s": 30}]}"#,
            "a", "name", ["unique"]
        ),
        (
            #"{"max_requests_per_second": 0, "sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30}]}"#,
            nil, "max_requests_per_second", ["more than 0"]
        ),
    ]

    @Test(arguments: 0..<badConfigs.count)
    func badConfigIsRefusedWithWhereAndWhy(_ index: Int) {
        let bad = Self.badConfigs[index]
        guard let error = error(bad.json, env: ["EMPTY_OK": "v"]) else { return }
        #expect(error.file == "test.json")
        #expect(error.source == bad.source, "\(error)")
        #expect(error.field == bad.field, "\(error)")
        for word in bad.words {
            #expect(error.description.contains(word), "\(error) should mention \(word)")
        }
        #expect(error.description.hasPrefix("realtime config test.json: "))
    }

    @Test func jsonSyntaxErrorSaysWhere() {
        let error = error("{\n  \"sources\": [\n    {\"name\": \"a\",, }\n  ]\n}")
        #expect(
            error?.description.contains("not valid JSON at line 3, column 18") == true, "\(String(describing: error))")
    }

    @Test func emptyVariableIsNamed() {
        let error = error(
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": {"Authorization": "apikey $KEY"}}]}"#,
            env: ["KEY": ""]
        )
        #expect(error?.field == "headers.Authorization")
        #expect(error?.message == "environment variable KEY is empty")
    }

    @Test func headerWithLineBreakIsRefusedWithoutShowingIt() {
        let error = error(
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 30, "headers": {"Authorization": "apikey $KEY"}}]}"#,
            env: ["KEY": "abc\r\nX-Injected: 1"]
        )
        #expect(error?.message == "contains a line break or NUL (after expanding $KEY)")
    }

    @Test func plainHTTPToLoopbackMayCarryVariables() throws {
        let config = try parse(
            #"{"sources": [{"name": "a", "kind": "alerts", "url": "http://127.0.0.1:9/a", "poll_interval_s": 30, "headers": {"A": "$K"}}]}"#,
            env: ["K": "v"]
        )
        #expect(config.sources[0].headers.first?.value.revealed == "v")
    }

    @Test func budgetRefusalGivesTheNumbers() {
        let error = error(
            """
            {"sources": [
              {"name": "fast", "kind": "trip_updates", "url": "https://x/a", "poll_interval_s": 2},
              {"name": "slow", "kind": "alerts", "url": "https://x/b", "poll_interval_s": 60},
              {"name": "local", "kind": "alerts", "url": "file:///tmp/x.pb", "poll_interval_s": 0.01}
            ]}
            """
        )
        // 43,200 + 1,440; the file source costs nothing.
        #expect(error?.field == "daily_request_budget")
        #expect(error?.description.contains("44,640 requests a day") == true, "\(String(describing: error))")
        #expect(error?.description.contains("budget of 30,000") == true)
        #expect(error?.description.contains("fast every 2 s = 43,200") == true)
    }

    @Test func budgetIsInclusiveAndConfigurable() throws {
        // 86,400 / 2.88 = 30,000 exactly: allowed.
        let json = #"{"sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 2.88}]}"#
        #expect(try parse(json).dailyRequests == 30_000)
        let raised =
            #"{"daily_request_budget": 50000, "sources": [{"name": "a", "kind": "alerts", "url": "https://x/a", "poll_interval_s": 2}]}"#
        #expect(try parse(raised).dailyRequests == 43_200)
    }

    @Test func sustainedRateOverTheLimitIsRefused() {
        // 3 sources every 0.5 s = 6 a second, with the budget out of the way.
        let source = { (n: Int) in
            #"{"name": "s\#(n)", "kind": "alerts", "url": "https://x/\#(n)", "poll_interval_s": 0.5}"#
        }
        let error = error(
            #"{"daily_request_budget": 10000000, "sources": [\#(source(1)), \#(source(2)), \#(source(3))]}"#)
        #expect(error?.field == "max_requests_per_second")
        #expect(error?.description.contains("6.00 requests a second") == true, "\(String(describing: error))")
    }

    @Test func loadNamesAMissingFile() {
        #expect(throws: RealtimeConfigError(file: "/nonexistent/rt.json", "the file does not exist")) {
            try RealtimeConfig.load(path: "/nonexistent/rt.json", environment: [:])
        }
    }

    @Test func programmaticConfigIsValidatedBySourceGroup() {
        let zero = SourceConfig(name: "a", kind: .alerts, location: .file(path: "/x"), pollInterval: .zero)
        #expect(throws: RealtimeConfigError.self) {
            _ = try SourceGroup(
                config: RealtimeConfig(sources: [zero]), logger: LogRecorder().logger, handler: { _ in })
        }
    }

    @Test func programmaticStaleLimitIsValidated() {
        let stale = SourceConfig(
            name: "a", kind: .alerts, location: .file(path: "/x"), pollInterval: .seconds(1), staleAfterSecs: 0)
        #expect(throws: RealtimeConfigError(source: "a", field: "stale_after_s", "must be 1 … 604,800 seconds, got 0"))
        {
            try RealtimeConfig(sources: [stale]).validate()
        }
        var fine = stale
        fine.staleAfterSecs = 604_800
        #expect(throws: Never.self) { try RealtimeConfig(sources: [fine]).validate() }
    }
}
