import Foundation
import Testing
import TransitStore
import TransitTesting

/// End to end through the built `transit-static` executable: import, serve in a child process, query.
@Suite(.serialized) struct CommandLineTests {
    /// The built executable ("" when it has not been built: the tests then fail at their first check).
    static let binary = BuiltExecutables.path("transit-static") ?? ""

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// Runs the executable to completion; `input` is written to its standard input.
    static func run(_ arguments: [String], input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        // Read stderr on the side while stdout is read here, so neither pipe can fill up and block.
        let errData = ErrorCollector(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: errData.text())
    }

    /// One answer line as a JSON object.
    static func json(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func data(_ line: String) throws -> [String: Any] {
        let answer = try json(line)
        #expect(answer["ok"] as? Bool == true, "answer \(line)")
        return try #require(answer["data"] as? [String: Any])
    }

    /// `describe` names what a first query of any city's database can use (the launcher prints its paste lines
    /// from it): the stop with the most trips, a word that finds it, a point inside the network and the route
    /// with the most trips. Here of a feed that is not Sydney's: none of the sample's ids may appear.
    @Test func describeNamesTheFeedsOwnBusiestStopWordPointAndRoute() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first")
        let folder = try TemporaryFolder()
        let db = folder.path("static.db")
        let feed = try folder.writeFeed("test", TestFeed().files)
        #expect(try Self.run(["import", feed, "--db", db]).status == 0)
        let run = try Self.run(["describe", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        var values: [String: String] = [:]
        for line in run.lines {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        #expect(
            Set(values.keys) == [
                "stop_id", "stop_name", "search", "lat", "lon", "plan_from", "plan_to", "route_id", "mode",
            ])
        // END is the last stop of every trip (the frequency-based bus counts once per run).
        #expect(values["stop_id"] == "END")
        #expect(values["stop_name"] == "Harbour End")
        #expect(values["search"] == "harbour")
        #expect(values["route_id"] == "R1" && values["mode"] == "train")
        let lat = try #require(values["lat"].flatMap(Double.init)),
            lon = try #require(values["lon"].flatMap(Double.init))
        #expect((-33.8832)...(-33.8617) ~= lat && (151.2065)...(151.2108) ~= lon, "\(lat), \(lon)")
        // The word finds the stop.
        let store = try StaticStore(path: db, connections: 1)
        #expect(try store.search(values["search"] ?? "", limit: 5).map(\.stopId).contains("END"))
        // END is every trip's last stop: nothing leaves it, so the plan comes to it, from the farthest station.
        #expect(values["plan_from"] == "STA" && values["plan_to"] == "END", "\(values)")

        let empty = try Self.run(["describe", "--db", folder.path("missing.db")])
        #expect(empty.status == 1 && empty.stderr.contains("describe:"), "\(empty.stderr)")
    }

    @Test func importServeQueryAndStop() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary),
            "build the executable first: swift build --build-tests")
        let folder = try TemporaryFolder()
        let db = folder.path("static.db")
        let url = "ipc://\(folder.path("static.sock"))"
        let sample = SampleDatabase.feedPath
        let hasSample = FileManager.default.fileExists(atPath: sample + "/stops.txt")
        let testFeed = try folder.writeFeed("test", TestFeed().files)

        // Import: the bundled sample and the test feed, whose ids get a prefix.
        var feeds = ["test=\(testFeed)"]
        if hasSample { feeds.append("sample=\(sample)") }
        let imported = try Self.run(["import"] + feeds + ["--db", db, "--prefix", "test=X:"])
        #expect(imported.status == 0, "import failed: \(imported.stderr)")
        #expect(imported.stdout.contains("test prefix X:: version test-v1"))
        #expect(imported.stdout.contains("test/stop_times.txt: 8 read, 8 imported"))

        // A broken feed fails with file and line, and leaves the database as it was.
        var broken = TestFeed(variant: 2).files
        broken["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nSTA,\"Broken quote,-33.8,151.2\n"
        let brokenFeed = try folder.writeFeed("broken", broken)
        let failed = try Self.run(["import", brokenFeed, "--db", db])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("stops.txt"), "error names the file: \(failed.stderr)")
        #expect(failed.stderr.contains("unchanged"))

        // Serve in a child process.
        let logPath = folder.path("serve.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try #require(FileHandle(forWritingAtPath: logPath))
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.binary)
        server.arguments = ["serve", "--db", db, "--listen", url, "--contexts", "4"]
        server.standardError = log
        server.standardOutput = log
        try server.run()
        defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
        #expect(
            waitFor(seconds: 10) { (try? String(contentsOfFile: logPath, encoding: .utf8))?.contains("ready") == true })

        // Query: several requests in one call, printed in the gateway's shapes.
        let answered = try Self.run([
            "query", "--connect", url,
            #"{"op":"feed_info"}"#,
            #"{"id":"s1","op":"stop","stop_id":"STA"}"#,
            #"{"id":3,"op":"departures","stop_id":"STA","at":1766350800,"limit":2}"#,
            #"{"op":"trip","trip_id":"X:TA","date":"20251222"}"#,
            #"{"op":"search","q":"central","limit":3}"#,
            #"{"op":"nearby","lat":-33.8731,"lon":151.2065,"radius_m":300,"limit":2}"#,
            #"{"op":"routes","mode":"bus"}"#,
        ])
        #expect(answered.status == 0, "query failed: \(answered.stderr)")
        let lines = answered.lines
        try #require(lines.count == 7, "\(answered.stdout)")

        let info = try Self.data(lines[0])
        #expect((info["feeds"] as? [[String: Any]])?.count == (hasSample ? 2 : 1))

        let stopAnswer = try Self.json(lines[1])
        #expect(stopAnswer["id"] as? String == "s1")
        let stop = try #require(try Self.data(lines[1])["stop"] as? [String: Any])
        #expect(stop["name"] as? String == "Central Test Station")
        #expect(stop["mode"] as? String == "train")

        let board = try Self.json(lines[2])
        #expect(board["id"] as? Int == 3)
        let departures = try #require(try Self.data(lines[2])["departures"] as? [[String: Any]])
        #expect(departures.map { $0["trip_id"] as? String } == ["X:TA", "X:TB"])
        #expect(departures.first?["scheduled_unix"] as? Int == 1_766_351_100)
        #expect(departures.first?["realtime_unix"] is NSNull, "realtime fields are null")
        #expect(departures.first?["status"] as? String == "scheduled")
        let meta = try #require(board["meta"] as? [String: Any])
        #expect(meta["source"] as? String == "static_only")

        let trip = try Self.data(lines[3])
        #expect((trip["stops"] as? [[String: Any]])?.map { $0["stop_id"] as? String } == ["STA1", "MID", "END"])

        let found = try #require(try Self.data(lines[4])["stops"] as? [[String: Any]])
        #expect(found.contains { $0["stop_id"] as? String == "STA" })
        let near = try #require(try Self.data(lines[5])["stops"] as? [[String: Any]])
        #expect(near.first?["stop_id"] as? String == "MID")
        let routes = try #require(try Self.data(lines[6])["routes"] as? [[String: Any]])
        #expect(routes.contains { $0["route_id"] as? String == "X:R2" })
        #expect(routes.allSatisfy { $0["mode"] as? String == "bus" })

        // Lines from standard input; a bad line is answered with its error and the exit status says so.
        let piped = try Self.run(
            ["query", "--connect", url, "-"],
            input: "{\"op\":\"stop\",\"stop_id\":\"NOPE\"}\n\n{\"op\":\n{\"op\":\"health\"}\n")
        #expect(piped.status == 2)
        try #require(piped.lines.count == 3, "\(piped.stdout)")
        #expect((try Self.json(piped.lines[0])["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
        #expect((try Self.json(piped.lines[1])["error"] as? [String: Any])?["code"] as? String == "BAD_JSON")
        #expect((try Self.json(piped.lines[2])["error"] as? [String: Any])?["code"] as? String == "UNKNOWN_OP")

        // SIGHUP after a new import: the new data is served without a restart.
        let reimported = try Self.run([
            "import", "test=\(try folder.writeFeed("test", TestFeed(variant: 2).files))",
            "--db", db, "--prefix", "test=X:",
        ])
        #expect(reimported.status == 0, "\(reimported.stderr)")
        kill(server.processIdentifier, SIGHUP)
        let renamed = waitFor(seconds: 10) {
            let r = try? Self.run(["query", "--connect", url, #"{"op":"stop","stop_id":"STA"}"#])
            return r?.stdout.contains("Central Renamed Station") == true
        }
        #expect(renamed)

        // SIGTERM stops it cleanly.
        server.terminate()
        #expect(waitFor(seconds: 10) { !server.isRunning })
        #expect(server.terminationStatus == 0)
        let logged = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(logged.contains("database reopened"))
        #expect(logged.contains("stopped"))

        // Nobody listening: an error line and exit status 1, within the timeout.
        let unreachable = try Self.run(["query", "--connect", url, "--timeout", "300", #"{"op":"feed_info"}"#])
        #expect(unreachable.status == 1)
        #expect(unreachable.stdout.contains("STATIC_UNAVAILABLE"))
    }

    @Test func importCapsAreFlagsNamedInHelpAndInRefusals() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary),
            "build the executable first: swift build --build-tests")
        let run = try Self.run(["import", "--help"])
        // Help is wrapped to the terminal's width: compare with runs of white space as one space.
        let help = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for flag in [
            "--max-file-size <size>", "--max-compression-ratio <ratio>", "--max-line-size <size>",
            "--max-field-size <size>", "(default: 4GiB)", "(default: 100)", "(default: 1MiB)",
            "(default: 64KiB)",
        ] {
            #expect(help.contains(flag), "\(flag) not in import --help")
        }
        let folder = try TemporaryFolder()
        let feed = try folder.writeFeed("test", TestFeed().files)
        let refused = try Self.run(["import", feed, "--db", folder.path("t.db"), "--max-line-size", "20"])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains(
                "record longer than the line-length cap of 20 bytes (raise it with --max-line-size)"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("t.db")))
        let badSize = try Self.run(["import", feed, "--db", folder.path("t.db"), "--max-field-size", "12X"])
        #expect(badSize.status != 0)
        #expect(
            badSize.stderr.contains("--max-field-size expects a size such as 65536, 64KiB, 1MiB or 4GiB, got \"12X\""),
            "\(badSize.stderr)")
        let raised = try Self.run([
            "import", feed, "--db", folder.path("t.db"), "--max-line-size", "1M",
            "--max-field-size", "1K", "--max-file-size", "1G", "--max-compression-ratio", "50",
        ])
        #expect(raised.status == 0, "\(raised.stderr)")
    }

    @Test func serveRefusesAMissingDatabase() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary))
        let folder = try TemporaryFolder()
        let result = try Self.run([
            "serve", "--db", folder.path("none.db"), "--listen", "ipc://\(folder.path("s.sock"))",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("none.db"))
    }
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass.
func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}

/// Reads a pipe to its end on another thread.
final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is written by the reader thread before `done` is signalled, read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
