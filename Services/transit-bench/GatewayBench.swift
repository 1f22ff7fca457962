import ArgumentParser
import Foundation
import NNGKit
import TransitModel
import TransitProto

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Latency of the gateway's line protocol from one TCP client (BENCHMARKS.md, "Query gateway"): departures,
/// trip, alerts, stop and search, each next to the static service's own latency for the same queries, measured
/// in the same run (kind by kind, gateway then static), so the gateway's share is the difference.
struct GatewayBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway", abstract: "Gateway query latency (line protocol over TCP), beside the static service's."
    )

    @Option(help: "the gateway's host:port") var connect: String
    @Option(help: "the database the static service serves (read to pick realistic stops and trips)") var db: String
    @Option(name: .customLong("static"), help: "the static service's nng URL, for its own latency (omit to skip)")
    var staticURL: String?
    @Option(help: "requests per query kind") var requests: Int = 4000
    @Option(help: "unix time the departures, trips and alerts are asked for (default: now)") var at: Int64?

    enum Kind: String, CaseIterable {
        case departures, trip, alerts, stop, search
    }

    func run() throws {
        let at = self.at ?? Int64(Date().timeIntervalSince1970)
        let workload = try Workload(databasePath: db)
        guard let colon = connect.lastIndex(of: ":"), let port = UInt16(connect[connect.index(after: colon)...]) else {
            throw ValidationError("--connect must be host:port")
        }
        let gateway = try LineSocket(host: String(connect[..<colon]), port: port)
        let health = try gateway.ask(#"{"op":"health"}"#)
        print("database \(db) (version \(workload.databaseVersion)), at \(at)")
        print("gateway health: \(Self.summary(ofHealth: health))")

        var staticClient: NNGRequester?
        if let staticURL {
            let client = try NNGRequester(dialing: staticURL, defaultTimeout: .seconds(10))
            try StaticBench.waitUntilAnswering(
                client, StaticCodec.encode(StaticRequest(requestId: 0, query: .feedInfo)))
            staticClient = client
        }

        var table = ResultTable()
        for kind in Kind.allCases {
            let lines = (0..<requests).map { line(kind, $0, workload: workload, at: at) }
            table.add("gateway \(kind.rawValue)", clients: 1, try measureGateway(gateway, lines, kind: kind))
            if let staticClient {
                let queries = (0..<requests).map { staticQuery(kind, $0, workload: workload, at: at) }
                table.add(
                    "static \(kind == .alerts ? "stop (alerts' lookup)" : kind.rawValue)", clients: 1,
                    try measureStatic(staticClient, queries, kind: kind))
            }
        }
        print(table.render())
        if let stats = try? gateway.ask(#"{"op":"stats"}"#) { print("gateway stats: \(stats)") }
    }

    // MARK: requests

    /// The i-th request line of a kind: the same stops, trips and terms as the static bench.
    private func line(_ kind: Kind, _ i: Int, workload: Workload, at: Int64) -> String {
        switch kind {
        case .departures:
            let stop = workload.busyStations[i % workload.busyStations.count]
            return #"{"id":\#(i),"op":"departures","stop_id":\#(json(stop)),"at":\#(at + Int64(i % 3600)),"limit":10}"#
        case .trip:
            return
                #"{"id":\#(i),"op":"trip","trip_id":\#(json(workload.tripIds[i % workload.tripIds.count])),"at":\#(at)}"#
        case .alerts:
            return
                #"{"id":\#(i),"op":"alerts","stop_id":\#(json(workload.stopIds[i % workload.stopIds.count])),"at":\#(at)}"#
        case .stop:
            return #"{"id":\#(i),"op":"stop","stop_id":\#(json(workload.stopIds[i % workload.stopIds.count]))}"#
        case .search:
            return
                #"{"id":\#(i),"op":"search","q":\#(json(workload.searchTerms[i % workload.searchTerms.count])),"limit":10}"#
        }
    }

    /// The static query behind a gateway request (alerts: the stop lookup it needs).
    private func staticQuery(_ kind: Kind, _ i: Int, workload: Workload, at: Int64) -> StaticQuery {
        switch kind {
        case .departures: workload.query(.departures, i, at: at, serviceDate: 0)
        case .trip: workload.query(.trip, i, at: at, serviceDate: 0)
        case .alerts, .stop: workload.query(.stop, i, at: at, serviceDate: 0)
        case .search: workload.query(.search, i, at: at, serviceDate: 0)
        }
    }

    private func json(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: measuring

    private func measureGateway(_ socket: LineSocket, _ lines: [String], kind: Kind) throws -> LatencySummary {
        let encoded = lines.map { Array(($0 + "\n").utf8) }
        for i in 0..<min(200, encoded.count) { _ = try socket.roundTrip(encoded[i]) }  // warm-up
        var samples = LatencySamples()
        samples.reserve(encoded.count)
        var failures = 0
        var firstFailure: String?
        let startWall = monotonicNanos()
        for bytes in encoded {
            let start = monotonicNanos()
            let answer = try socket.roundTrip(bytes)
            samples.add(monotonicNanos() - start)
            // Checked outside the timed span; an unknown id is a fair answer, anything else is not.
            if !Self.isOK(answer), !Self.isNotFound(answer) {
                failures += 1
                if firstFailure == nil { firstFailure = String(decoding: answer, as: UTF8.self) }
            }
        }
        let wall = Double(monotonicNanos() - startWall) / 1e9
        if let firstFailure {
            throw BenchError("gateway \(kind.rawValue): \(failures) of \(encoded.count) failed, e.g. \(firstFailure)")
        }
        return samples.summary(wallSeconds: wall)
    }

    private func measureStatic(_ client: NNGRequester, _ queries: [StaticQuery], kind: Kind) throws -> LatencySummary {
        let encoded = queries.enumerated().map {
            StaticCodec.encode(StaticRequest(requestId: UInt64($0.offset), query: $0.element))
        }
        for i in 0..<min(200, encoded.count) { _ = try client.request(encoded[i]) }
        var samples = LatencySamples()
        samples.reserve(encoded.count)
        let startWall = monotonicNanos()
        for bytes in encoded {
            let start = monotonicNanos()
            let reply = try client.request(bytes)
            samples.add(monotonicNanos() - start)
            if case .failure(let e) = try StaticCodec.decodeResponse(reply).result, e.status != .notFound {
                throw BenchError("static \(kind.rawValue): \(e)")
            }
        }
        return samples.summary(wallSeconds: Double(monotonicNanos() - startWall) / 1e9)
    }

    private static func isOK(_ answer: [UInt8]) -> Bool {
        // {"id":…,"ok":true — the id is ours (an integer), so the flag follows it closely.
        answer.prefix(40).withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }.contains(#""ok":true"#)
    }

    private static func isNotFound(_ answer: [UInt8]) -> Bool {
        String(decoding: answer, as: UTF8.self).contains(#""code":"NOT_FOUND""#)
    }

    private static func summary(ofHealth line: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let data = object["data"] as? [String: Any]
        else { return line }
        let realtime = data["realtime"] as? [String: Any]
        let sources =
            (realtime?["sources"] as? [[String: Any]])?.map { s in
                "\(s["name"] ?? "?")(\(s["entities"] ?? 0) entities\((s["stale"] as? Bool) == true ? ", stale" : ""))"
            } ?? []
        return "status \(data["status"] ?? "?"), realtime \(realtime?["status"] ?? "?")"
            + (sources.isEmpty ? "" : ": " + sources.joined(separator: ", "))
    }
}

/// A blocking TCP client of the line protocol: one request line out, one answer line back.
final class LineSocket {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(host: String, port: UInt16) throws {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else {
            throw BenchError("cannot resolve \(host)")
        }
        defer { freeaddrinfo(info) }
        fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw BenchError("cannot connect to \(host):\(port): \(why)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        buffer.reserveCapacity(1 << 20)
    }

    deinit { close(fd) }

    func ask(_ line: String) throws -> String {
        String(decoding: try roundTrip(Array((line + "\n").utf8)), as: UTF8.self)
    }

    /// Sends `bytes` (one line with its "\n") and returns the answer line without its "\n". Event lines
    /// (subscriptions) are not expected on this connection.
    func roundTrip(_ bytes: [UInt8]) throws -> [UInt8] {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw BenchError("write: \(String(cString: strerror(errno)))") }
            sent += n
        }
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                }
                return line
            }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else {
                throw BenchError(
                    n == 0 ? "the gateway closed the connection" : "read: \(String(cString: strerror(errno)))")
            }
            buffer += chunk[0..<n]
        }
    }
}
