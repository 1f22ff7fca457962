import Foundation
import GatewayHTTP
import Logging
import ServiceLifecycle

@testable import Gateway

/// A gateway fixture with its HTTP port (GatewayHTTP) running, on a free port.
struct HTTPGateway {
    let fixture: GatewayFixture
    let httpPort: Int

    /// A keep-alive HTTP connection (raw bytes: the tests look at every header).
    func connection() throws -> HTTPConnection { HTTPConnection(try LineClient(port: httpPort)) }
}

/// Runs `body` against a gateway with `--http 127.0.0.1:0` (and what `configure` adds); always shuts it down.
func withHTTPGateway<T>(
    realtime: RealtimeView? = nil, configure: (inout GatewayConfiguration) -> Void = { _ in },
    _ body: (HTTPGateway) async throws -> T
) async throws -> T {
    try await withGateway(
        realtime: realtime,
        configure: {
            $0.http = ListenAddress(host: "127.0.0.1", port: 0)
            configure(&$0)
        }
    ) { fixture in
        guard let http = try GatewayHTTPServer(gateway: fixture.gateway) else { throw NoHTTPPort() }
        let group = ServiceGroup(services: [http], gracefulShutdownSignals: [], logger: GatewayFixture.quietLogger)
        let running = Task { try await group.run() }
        do {
            let port = try await http.port()
            let result = try await body(HTTPGateway(fixture: fixture, httpPort: port))
            await group.triggerGracefulShutdown()
            _ = await running.result
            return result
        } catch {
            await group.triggerGracefulShutdown()
            _ = await running.result
            throw error
        }
    }
}

struct NoHTTPPort: Error {}

/// One HTTP/1.1 answer as read off the wire.
struct HTTPAnswer: CustomStringConvertible {
    var status: Int
    /// Header names lower-cased; a repeated header's values joined with ", ".
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONLine { get throws { try JSONLine(text) } }
    var description: String { "\(status) \(headers) \(text)" }
}

/// A client of one keep-alive HTTP connection over `LineClient`'s socket.
struct HTTPConnection {
    let client: LineClient

    init(_ client: LineClient) { self.client = client }

    func send(
        _ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil
    ) async throws -> HTTPAnswer {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let body { request += "Content-Length: \(body.utf8.count)\r\n" }
        request += "\r\n" + (body ?? "")
        try client.send(request)
        return try await read()
    }

    func read() async throws -> HTTPAnswer {
        var answer = try await readHead()
        let length = Int(answer.headers["content-length"] ?? "0") ?? 0
        answer.body = try await client.readBytes(length)
        return answer
    }

    /// The status line and headers (the body not read).
    func readHead() async throws -> HTTPAnswer {
        let statusLine = try await client.readLine().trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw BadAnswer(line: statusLine) }
        var headers: [String: String] = [:]
        while true {
            let line = try await client.readLine().trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw BadAnswer(line: line) }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return HTTPAnswer(status: status, headers: headers, body: [])
    }

    struct BadAnswer: Error { let line: String }
}

/// The raw text of an answer's `data` (or `error`) value: what GATEWAY.md §8 says is byte for byte the line
/// protocol's. Answers are written `{"id":…,"ok":…,"data":…,"meta":…}` / `{…,"error":{…}}`.
func dataText(_ answer: String) -> Substring? {
    if let error = answer.range(of: #","error":"#) {
        return answer[error.upperBound...].dropLast(answer.hasSuffix("\n") ? 2 : 1)
    }
    guard let start = answer.range(of: #","data":"#), let end = answer.range(of: #","meta":"#, options: .backwards)
    else { return nil }
    return answer[start.upperBound..<end.lowerBound]
}
