import Foundation
import Testing
import TransitTesting

/// The real executables: `transit-static serve` and `transit-gateway serve` as child processes, spoken to
/// with `nc -N` (Debian's netcat-openbsd) like a user would, or with a plain socket when nc is missing.
@Suite(.enabled(if: BuiltExecutables.available, "build the executables first (swift build)"))
struct ProcessEndToEndTests {
    private func startStatic(_ url: String) async throws -> ChildProcess {
        let child = try ChildProcess(
            BuiltExecutables.path("transit-static")!, ["serve", "--db", try SampleDatabase.path(), "--listen", url])
        let ready = try await child.waitForStderr(timeout: .seconds(10)) { $0.contains("ready") }
        try #require(ready, "transit-static did not start: \(child.stderr)")
        return child
    }

    /// Sends `lines` the way `printf '%s\n' … | nc -N host port` does and returns the answer lines.
    private func send(_ lines: [String], port: Int) async throws -> [String] {
        let input = lines.map { $0 + "\n" }.joined()
        if let nc = BuiltExecutables.netcat {
            let child = try ChildProcess(nc, ["-N", "127.0.0.1", "\(port)"], stdin: Data(input.utf8))
            let status = try await child.waitForExit(timeout: .seconds(10))
            #expect(status == 0, "nc: \(child.stderr)")
            return child.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        let client = try LineClient(port: port)
        try client.send(input)
        client.shutdownWrite()
        return try await client.readUntilClosed()
    }

    @Test func ncAgainstTheRealProcessesIncludingAStaticRestart() async throws {
        let staticURL = UniqueURL.ipc("gwt-e2e")
        var staticService = try await startStatic(staticURL)
        let gateway = try ChildProcess(
            BuiltExecutables.path("transit-gateway")!,
            [
                "serve", "--static", staticURL, "--realtime", UniqueURL.ipc("gwt-rt"),
                "--subscribe", UniqueURL.ipc("gwt-pub"), "--listen", "127.0.0.1:0", "--static-timeout", "0.5",
            ])
        defer { gateway.signal(SIGKILL); staticService.signal(SIGKILL) }
        let ready = try await gateway.waitForStderr(timeout: .seconds(10)) { $0.contains(" ready") }
        try #require(ready, "transit-gateway did not start: \(gateway.stderr)")
        let port = try #require(gateway.stderr.firstMatch(of: /port=(\d+)/).flatMap { Int($0.1) })
        #expect(gateway.stderr.contains("realtime subscriber started"))

        let at = SampleTimes.mondayEvening
        let answers = try await send(
            [
                #"{"id":1,"op":"health"}"#,
                #"{"id":2,"op":"departures","stop_id":"200060","at":\#(at),"limit":3}"#,
                #"{"id":3,"op":"stop","stop_id":"200060"}"#,
                "oops",
                #"{"id":12345678901234567890123,"op":"search","q":"central","limit":2}"#,
                #"{"id":6,"op":"vehicles","route_id":"ST_T1"}"#,
                #"{"id":"t","op":"trip","trip_id":"NOBODY.1","at":\#(at)}"#,
            ], port: port
        ).map { try JSONLine($0) }
        try #require(answers.count == 7, "\(answers)")
        #expect(answers[0].data["status"] as? String == "degraded")
        #expect(answers[1].list("departures").count == 3)
        #expect(answers[1].meta["source"] as? String == "static_only")
        #expect(answers[1].meta["stale"] as? Bool == true)
        #expect(answers[2].ok)
        #expect(answers[3].errorCode == "BAD_JSON")
        #expect(answers[4].text.hasPrefix(#"{"id":12345678901234567890123,"ok":true"#))
        #expect(answers[5].errorCode == "REALTIME_UNAVAILABLE")
        #expect(answers[6].errorCode == "NOT_FOUND")  // neither the static data nor a live state knows it

        // The static service goes away: STATIC_UNAVAILABLE within its timeout, health says down.
        await staticService.stop()
        let down = try await send(
            [
                #"{"id":7,"op":"stop","stop_id":"200060"}"#, #"{"id":"t","op":"trip","trip_id":"T1.WKD.0.1910"}"#,
                #"{"id":8,"op":"health"}"#,
            ], port: port
        ).map { try JSONLine($0) }
        try #require(down.count == 3, "\(down)")
        #expect(down[0].errorCode == "STATIC_UNAVAILABLE")
        #expect(down[1].errorCode == "STATIC_UNAVAILABLE")  // no live state to answer from either
        #expect(down[2].data["status"] as? String == "down")

        // It comes back at the same URL: used again without restarting the gateway.
        staticService = try await startStatic(staticURL)
        var recovered = false
        for _ in 0..<40 where !recovered {
            let answer = try await send([#"{"id":9,"op":"stop","stop_id":"200060"}"#], port: port)
            recovered = try answer.first.map { try JSONLine($0).ok } ?? false
            if !recovered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(recovered)

        // SIGTERM stops the gateway cleanly.
        gateway.signal(SIGTERM)
        #expect(try await gateway.waitForExit(timeout: .seconds(5)) == 0)
        await staticService.stop()
    }

    /// `transit-gateway serve --token-file`: requests before `auth` get UNAUTHENTICATED, the token (read without
    /// its trailing newline) lets the connection in, and it never appears in the log; an empty file is refused.
    @Test func gatewayRequiresTheTokenOfItsTokenFile() async throws {
        let folder = try makeFolder("token")
        let token = "t0ken-\(UUID().uuidString)"
        try "\(token)\n".write(toFile: "\(folder)/token", atomically: true, encoding: .utf8)
        chmod("\(folder)/token", 0o600)
        let gateway = try ChildProcess(
            BuiltExecutables.path("transit-gateway")!,
            [
                "serve", "--static", UniqueURL.ipc("none"), "--listen", "127.0.0.1:0", "--token-file",
                "\(folder)/token", "--log-level", "debug",
            ])
        defer { gateway.signal(SIGKILL) }
        let ready = try await gateway.waitForStderr(timeout: .seconds(10)) { $0.contains(" ready") }
        try #require(ready, "transit-gateway did not start: \(gateway.stderr)")
        let port = try #require(gateway.stderr.firstMatch(of: /port=(\d+)/).flatMap { Int($0.1) })
        let answers = try await send(
            [
                #"{"id":1,"op":"stats"}"#, #"{"id":2,"op":"auth","token":"\#(token)"}"#, #"{"id":3,"op":"stats"}"#,
            ], port: port
        ).map { try JSONLine($0) }
        try #require(answers.count == 3, "\(answers)")
        #expect(answers[0].errorCode == "UNAUTHENTICATED")
        #expect(answers[1].ok && answers[2].ok)
        #expect((answers[2].data["limits"] as? [String: Any])?["auth"] as? Bool == true)
        gateway.signal(SIGTERM)
        #expect(try await gateway.waitForExit(timeout: .seconds(5)) == 0)
        #expect(!gateway.stderr.contains(token))

        try "\n".write(toFile: "\(folder)/empty", atomically: true, encoding: .utf8)
        chmod("\(folder)/empty", 0o600)
        let refused = try ChildProcess(
            BuiltExecutables.path("transit-gateway")!,
            ["serve", "--static", UniqueURL.ipc("none"), "--listen", "127.0.0.1:0", "--token-file", "\(folder)/empty"])
        #expect(try await refused.waitForExit(timeout: .seconds(5)) != 0)
        #expect(refused.stderr.contains("is empty"))

        // A token file its group or others may read is refused at start (the message names the mode and the
        // way out, never the token), unless --allow-readable-token-file.
        chmod("\(folder)/token", 0o644)
        let readable = try ChildProcess(
            BuiltExecutables.path("transit-gateway")!,
            ["serve", "--static", UniqueURL.ipc("none"), "--listen", "127.0.0.1:0", "--token-file", "\(folder)/token"])
        #expect(try await readable.waitForExit(timeout: .seconds(5)) != 0)
        #expect(readable.stderr.contains("may be read by its group or others (mode 644)"), "\(readable.stderr)")
        #expect(readable.stderr.contains("--allow-readable-token-file") && !readable.stderr.contains(token))
        let allowed = try ChildProcess(
            BuiltExecutables.path("transit-gateway")!,
            [
                "serve", "--static", UniqueURL.ipc("none"), "--listen", "127.0.0.1:0", "--token-file",
                "\(folder)/token", "--allow-readable-token-file",
            ])
        defer { allowed.signal(SIGKILL) }
        #expect(try await allowed.waitForStderr(timeout: .seconds(10)) { $0.contains(" ready") })
    }

    /// A folder of its own under the test run's folder.
    private func makeFolder(_ name: String) throws -> String {
        let path = SampleDatabase.folder.path("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `transit-realtime serve`: SIGHUP re-reads the sources config (a broken one changes nothing and is
    /// logged), SIGTERM stops it gracefully with status 0.
    @Test(.enabled(if: BuiltExecutables.path("transit-realtime") != nil))
    func realtimeReReadsItsSourcesConfigOnSIGHUP() async throws {
        let staticURL = UniqueURL.ipc("rts")
        let staticService = try await startStatic(staticURL)
        defer { staticService.signal(SIGKILL) }
        let folder = try makeFolder("realtime")
        let config = folder + "/realtime.json"
        func writeConfig(_ names: [String]) throws {
            // Files that do not exist: each poll is a counted failure, which is all this test needs.
            let sources = names.map {
                #"{"name": "\#($0)", "kind": "auto", "url": "file://\#(folder)/\#($0).pb", "poll_interval_s": 1}"#
            }
            try Data(#"{"sources": [\#(sources.joined(separator: ", "))]}"#.utf8).write(
                to: URL(fileURLWithPath: config))
        }
        try writeConfig(["one"])
        let repURL = UniqueURL.ipc("rtr")
        let realtime = try ChildProcess(
            BuiltExecutables.path("transit-realtime")!,
            [
                "serve", "--config", config, "--static", staticURL, "--listen", repURL,
                "--publish", UniqueURL.ipc("rtp"),
            ])
        defer { realtime.signal(SIGKILL) }
        let ready = try await realtime.waitForStderr(timeout: .seconds(10)) { $0.contains(" ready") }
        try #require(ready, "transit-realtime did not start: \(realtime.stderr)")
        #expect(realtime.stderr.contains("sources=one "))

        try writeConfig(["one", "two"])
        realtime.signal(SIGHUP)
        let reread = try await realtime.waitForStderr(timeout: .seconds(10)) { $0.contains("sources=one,two") }
        #expect(reread, "\(realtime.stderr)")
        let query = try ChildProcess(
            BuiltExecutables.path("transit-realtime")!, ["query", "--connect", repURL, #"{"op":"sources"}"#])
        #expect(try await query.waitForExit(timeout: .seconds(10)) == 0, "\(query.stderr)")
        #expect(query.stdout.contains(#""two""#), "\(query.stdout)")

        try Data("not json".utf8).write(to: URL(fileURLWithPath: config))
        realtime.signal(SIGHUP)
        let refused = try await realtime.waitForStderr(timeout: .seconds(10)) {
            $0.contains("re-reading the sources config failed")
        }
        #expect(refused, "\(realtime.stderr)")

        realtime.signal(SIGTERM)
        #expect(try await realtime.waitForExit(timeout: .seconds(10)) == 0)
        #expect(realtime.stderr.contains("stopped"))
        await staticService.stop()
    }

    /// `transit-gateway serve --log-file`: the log goes to the file; after the file is moved away, SIGHUP
    /// reopens the path and the lines that follow go to the new file; SIGTERM stops it with status 0.
    @Test func gatewayReopensItsLogFileOnSIGHUP() async throws {
        let folder = try makeFolder("gateway-log")
        let log = folder + "/gateway.log", rotated = folder + "/gateway.log.1"
        let gateway = try ChildProcess(
            BuiltExecutables.path("transit-gateway")!,
            [
                "serve", "--static", UniqueURL.ipc("none"), "--listen", "127.0.0.1:0", "--log-file", log,
            ])
        defer { gateway.signal(SIGKILL) }
        func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        func waitFor(_ path: String, _ text: String) async throws -> Bool {
            for _ in 0..<200 {
                if contents(path).contains(text) { return true }
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }
        #expect(try await waitFor(log, " ready"), "\(contents(log)) \(gateway.stderr)")
        #expect(gateway.stderr.isEmpty, "the log goes to the file only")

        #expect(rename(log, rotated) == 0)
        gateway.signal(SIGHUP)
        #expect(try await waitFor(log, "log file reopened"), "\(contents(log))")
        gateway.signal(SIGTERM)
        #expect(try await gateway.waitForExit(timeout: .seconds(5)) == 0)
        #expect(contents(log).contains("stopped"))
        #expect(contents(rotated).contains(" ready") && !contents(rotated).contains("stopped"))
    }
}
