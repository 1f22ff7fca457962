// Interoperability with Google's own protobuf implementation: what our codec writes, `protoc --decode`
// reads with no unknown fields, and what `protoc --encode` writes from that text, our codec reads back
// into the same Swift value. Skipped (with a message) where protoc is not installed.
import Foundation
import Testing
import TransitModel
import TransitProto
import TransitTesting

@Suite(
    .enabled(
        if: Protoc.path != nil, "protoc not found on PATH (apt-get install protobuf-compiler): interop not checked"))
struct ProtocInteropTests {
    @Test func ourRequestReadsInProtoc() throws {
        let request = StaticRequest(
            requestId: 12345,
            query: .departures(
                DeparturesQuery(
                    stopId: "200060", at: 1_766_620_800, direction: .past, limit: 50, cursor: "c/1"
                )))
        let text = try Protoc.decode("transit.StaticRequest", StaticCodec.encode(request))
        for line in [
            "request_id: 12345", "departures {", "stop_id: \"200060\"", "at: 1766620800", "direction: PAST",
            "limit: 50", "cursor: \"c/1\"",
        ] {
            #expect(text.contains(line), "protoc output lacks \(line):\n\(text)")
        }
        #expect(Protoc.unknownFields(text).isEmpty, "\(text)")
    }

    @Test func protocRequestReadsInOurCodec() throws {
        let text = """
            request_id: 99
            search { query: "Z\\303\\274rich" limit: 5 mode: "tram" include_platforms: true }
            """
        let bytes = try Protoc.encode("transit.StaticRequest", text)
        #expect(
            try StaticCodec.decodeRequest(bytes)
                == StaticRequest(
                    requestId: 99,
                    query: .search(SearchQuery(query: "Zürich", limit: 5, mode: "tram", includePlatforms: true))
                ))
    }

    @Test func ourResponseReadsInProtoc() throws {
        let response = StaticResponse(requestId: 7, result: .success(.departures(Fixtures.fullBoard(departures: 3))))
        let text = try Protoc.decode("transit.StaticResponse", StaticCodec.encode(response))
        for line in [
            "request_id: 7", "status: OK", "direction: PAST", "has_more_past: true", "route_id: \"R2\"",
            "trip_id: \"trip-2\"", "scheduled_secs: 90002", "service_date: 20251225", "timezone: \"Australia/Sydney\"",
        ] {
            #expect(text.contains(line), "protoc output lacks \(line):\n\(text)")
        }
        // One for the oneof member, one per departure.
        #expect(text.components(separatedBy: "departures {").count - 1 == 4)
        #expect(Protoc.unknownFields(text).isEmpty, "\(text)")
    }

    @Test func errorResponseReadsInProtoc() throws {
        let response = StaticResponse(requestId: 8, result: .failure(ServiceError(.notFound, "unknown stop 'x'")))
        let text = try Protoc.decode("transit.StaticResponse", StaticCodec.encode(response))
        #expect(text == "request_id: 8\nstatus: NOT_FOUND\nerror_message: \"unknown stop \\'x\\'\"\n")
    }

    /// Every query kind: ours -> protoc text -> protoc bytes -> ours gives the same value.
    @Test(arguments: Fixtures.queryCases)
    func requestsSurviveProtoc(_ c: Case<StaticQuery>) throws {
        let request = StaticRequest(requestId: 3, query: c.value)
        let text = try Protoc.decode("transit.StaticRequest", StaticCodec.encode(request))
        #expect(Protoc.unknownFields(text).isEmpty, "\(text)")
        #expect(try StaticCodec.decodeRequest(Protoc.encode("transit.StaticRequest", text)) == request)
    }

    /// Every result kind: ours -> protoc text -> protoc bytes -> ours gives the same value.
    @Test(arguments: Fixtures.resultCases)
    func responsesSurviveProtoc(_ c: Case<StaticResult>) throws {
        let response = StaticResponse(requestId: 4, result: .success(c.value))
        let text = try Protoc.decode("transit.StaticResponse", StaticCodec.encode(response))
        #expect(Protoc.unknownFields(text).isEmpty, "\(text)")
        #expect(try StaticCodec.decodeResponse(Protoc.encode("transit.StaticResponse", text)) == response)
    }
}

/// Runs the official `protoc` on protocol/transit.proto.
enum Protoc {
    static let path: String? = {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return dirs.map { "\($0)/protoc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let protocolDir = Repository.url("protocol")

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    static func decode(_ type: String, _ bytes: [UInt8]) throws -> String {
        String(decoding: try run("--decode=\(type)", input: bytes), as: UTF8.self)
    }

    static func encode(_ type: String, _ text: String) throws -> [UInt8] {
        try run("--encode=\(type)", input: Array(text.utf8))
    }

    /// Lines where protoc printed a field number instead of a name: fields it does not know.
    static func unknownFields(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { line in
            let trimmed = line.drop { $0 == " " }
            return trimmed.first?.isNumber == true
        }
    }

    private static func run(_ mode: String, input: [UInt8]) throws -> [UInt8] {
        guard let path else { throw Failed(description: "protoc not installed") }
        let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "transitproto-\(UUID().uuidString)")
        try Data(input).write(to: inputFile)
        defer { try? FileManager.default.removeItem(at: inputFile) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [mode, "-I", protocolDir.path, protocolDir.appendingPathComponent("transit.proto").path]
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(
                description:
                    "protoc \(mode) exited \(process.terminationStatus): \(String(decoding: errors, as: UTF8.self))")
        }
        return [UInt8](output)
    }
}
