import CompressNIO
import Foundation
import GatewayProtocol
import NIOCore
import Testing

@testable import Gateway

/// The HTTP and WebSocket port (GATEWAY.md §8) against a real gateway: the same answers as the line port,
/// the status table, CORS, Bearer auth, gzip, and the WebSocket carrying the line protocol.
@Suite struct HTTPEndToEndTests {
    /// A Monday evening the sample feed runs (the answers never depend on the time the tests run).
    static let at = 1_766_394_000

    @Test func getAndPostAnswerWhatTheLinePortAnswers() async throws {
        try await withHTTPGateway { gateway in
            let line = try gateway.fixture.client()
            let http = try gateway.connection()
            let board = #"{"id":1,"op":"departures","stop_id":"200060","at":\#(Self.at),"limit":3}"#
            try line.sendLines([board])
            let lineAnswer = try await line.readLine()
            #expect(try JSONLine(lineAnswer).ok, "\(lineAnswer)")

            let get = try await http.send("GET", "/v1/departures?stop_id=200060&at=\(Self.at)&limit=3")
            #expect(get.status == 200, "\(get)")
            #expect(get.headers["content-type"] == "application/json")
            #expect(dataText(get.text) == dataText(lineAnswer))
            // The same keep-alive connection takes a POST of the line's object, with or without "op".
            let post = try await http.send(
                "POST", "/v1/departures", body: #"{"id":"p","stop_id":"200060","at":\#(Self.at),"limit":3}"#)
            #expect(post.status == 200, "\(post)")
            #expect(dataText(post.text) == dataText(lineAnswer))
            #expect(try post.json.id as? String == "p")
            let named = try await http.send("POST", "/v1/departures", body: board)
            #expect(dataText(named.text) == dataText(lineAnswer))

            // Error objects too: an unknown stop is NOT_FOUND (404) with the line's message.
            try line.sendLines([#"{"op":"stop","stop_id":"999"}"#])
            let lineError = try await line.readLine()
            let notFound = try await http.send("GET", "/v1/stop?stop_id=999")
            #expect(notFound.status == 404)
            #expect(try notFound.json.errorCode == "NOT_FOUND")
            #expect(dataText(notFound.text) == dataText(lineError))

            // HTTP answers count in stats as lines do, per op.
            try line.sendLines([#"{"op":"stats"}"#])
            let stats = try JSONLine(try await line.readLine())
            let ops = stats.data["ops"] as? [String: [String: Any]]
            #expect(ops?["departures"]?["count"] as? Int == 4, "\(stats)")
            #expect(ops?["stop"]?["errors"] as? Int == 2, "\(stats)")
        }
    }

    @Test func queryParametersAreTypedByTheOpsSchema() async throws {
        try await withHTTPGateway { gateway in
            let http = try gateway.connection()
            // stop_id is a string field: digits stay a string; limit is an integer field.
            let typeError = try await http.send("GET", "/v1/departures?stop_id=200060&limit=three")
            #expect(typeError.status == 400)
            #expect(try typeError.json.errorCode == "INVALID_ARGUMENT")
            #expect(
                try typeError.json.errorMessage == #"query parameter "limit": expected an integer, got "three""#)
            let search = try await http.send("GET", "/v1/search?q=central%20station&limit=1&include_platforms=false")
            #expect(search.status == 200, "\(search)")
            let boolean = try await http.send("GET", "/v1/search?q=central&include_platforms=yes")
            #expect(try boolean.json.errorMessage?.contains("expected true or false") == true, "\(boolean)")
            // A range error comes from the op's own parser, as on a line.
            let range = try await http.send("GET", "/v1/departures?stop_id=200060&limit=500")
            #expect(try range.json.errorMessage == #"field "limit": expected an integer from 1 to 100, got 500"#)
            let unknownOp = try await http.send("GET", "/v1/depatures?stop_id=200060")
            #expect(unknownOp.status == 400)
            #expect(try unknownOp.json.errorCode == "UNKNOWN_OP")
            let badJSON = try await http.send("POST", "/v1/stop", body: #"{"stop_id":"#)
            #expect(badJSON.status == 400)
            #expect(try badJSON.json.errorCode == "BAD_JSON")
            // plan's places member by member and its modes comma-separated answer as the line's objects do.
            let line = try gateway.fixture.client()
            let plan =
                #"{"id":2,"op":"plan","from":{"stop_id":"200060"},"to":{"stop_id":"206710"},"at":\#(Self.at),"#
                + #""modes":["metro","train"],"realtime":false}"#
            try line.sendLines([plan])
            let planLine = try await line.readLine()
            #expect(try JSONLine(planLine).list("journeys").isEmpty == false, "\(planLine)")
            let planGet = try await http.send(
                "GET",
                "/v1/plan?from[stop_id]=200060&to%5Bstop_id%5D=206710&at=\(Self.at)&modes=metro,train&realtime=false")
            #expect(planGet.status == 200, "\(planGet)")
            #expect(dataText(planGet.text) == dataText(planLine))
            let whole = try await http.send("GET", "/v1/plan?from=200060&to[stop_id]=206710")
            #expect(whole.status == 400)
            #expect(try whole.json.errorMessage?.contains("give its members") == true, "\(whole)")
            let subscribe = try await http.send("GET", "/v1/subscribe?topic=departures&stop_id=200060")
            #expect(subscribe.status == 400)
            #expect(try subscribe.json.errorMessage?.contains("/v1/ws") == true)
            let otherPath = try await http.send("GET", "/departures")
            #expect(otherPath.status == 404)
        }
    }

    @Test func http10ClosesAfterItsAnswer() async throws {
        try await withHTTPGateway { gateway in
            let client = try LineClient(port: gateway.httpPort)
            try client.send("GET /v1/health HTTP/1.0\r\n\r\n")
            let lines = try await client.readUntilClosed()
            #expect(lines.first?.contains(" 200 ") == true, "\(lines)")
            #expect(lines.last?.contains(#""ok":true"#) == true)
        }
    }

    @Test func rateLimitedIs429WithRetryAfter() async throws {
        try await withHTTPGateway(configure: { $0.requestRate = 1 }) { gateway in
            let http = try gateway.connection()
            let first = try await http.send("GET", "/v1/health")
            #expect(first.status == 200)
            let second = try await http.send("GET", "/v1/health")
            #expect(second.status == 429, "\(second)")
            #expect(second.headers["retry-after"] == "1")
            #expect(try second.json.errorCode == "RATE_LIMITED")
            // Another connection has its own rate.
            #expect(try await gateway.connection().send("GET", "/v1/health").status == 200)
        }
    }

    @Test func corsPreflightAndAnswers() async throws {
        try await withHTTPGateway(configure: { $0.corsOrigin = "https://board.example" }) { gateway in
            let http = try gateway.connection()
            let preflight = try await http.send(
                "OPTIONS", "/v1/departures",
                headers: [
                    "Origin": "https://board.example", "Access-Control-Request-Method": "GET",
                    "Access-Control-Request-Headers": "authorization",
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "https://board.example")
            #expect(preflight.headers["access-control-allow-methods"] == "GET, POST, OPTIONS")
            #expect(preflight.headers["access-control-allow-headers"] == "Authorization, Content-Type")
            let allowed = try await http.send("GET", "/v1/health", headers: ["Origin": "https://board.example"])
            #expect(allowed.headers["access-control-allow-origin"] == "https://board.example")
            let other = try await http.send("GET", "/v1/health", headers: ["Origin": "https://elsewhere.example"])
            #expect(other.status == 200)
            #expect(other.headers["access-control-allow-origin"] == nil)
        }
        // Off by default: no CORS headers at all.
        try await withHTTPGateway { gateway in
            let answer = try await gateway.connection().send(
                "GET", "/v1/health", headers: ["Origin": "https://board.example"])
            #expect(answer.headers["access-control-allow-origin"] == nil)
        }
    }

    @Test func bearerTokenOfTheTokenFile() async throws {
        try await withHTTPGateway(configure: { $0.authToken = Array("s3cret".utf8) }) { gateway in
            let http = try gateway.connection()
            let missing = try await http.send("GET", "/v1/health")
            #expect(missing.status == 401)
            #expect(missing.headers["www-authenticate"] == "Bearer")
            #expect(try missing.json.errorCode == "UNAUTHENTICATED")
            let good = try await http.send("GET", "/v1/health", headers: ["Authorization": "Bearer s3cret"])
            #expect(good.status == 200, "\(good)")
            // The document needs no token.
            #expect(try await http.send("GET", "/v1/openapi.json").status == 200)
            let wrong = try await http.send("GET", "/v1/health", headers: ["Authorization": "Bearer guess"])
            #expect(wrong.status == 401)
            #expect(wrong.headers["connection"] == "close")
            #expect(try await http.client.waitForClose(timeout: .seconds(5)))
            // Wrong tokens count per address with the `auth` op's: after the fifth in a row the address is
            // blocked, answered 429 without the token being compared.
            for _ in 0..<4 {
                let guess = try await gateway.connection().send(
                    "GET", "/v1/health", headers: ["Authorization": "Bearer guess"])
                #expect(guess.status == 401)
            }
            let blocked = try await gateway.connection().send(
                "GET", "/v1/health", headers: ["Authorization": "Bearer s3cret"])
            #expect(blocked.status == 429, "\(blocked)")
            #expect(try blocked.json.errorCode == "RATE_LIMITED")
            #expect(Int(blocked.headers["retry-after"] ?? "") ?? 0 >= 1)
        }
    }

    @Test func gzipWhenAskedFor() async throws {
        try await withHTTPGateway { gateway in
            let http = try gateway.connection()
            let target = "/v1/departures?stop_id=200060&at=\(Self.at)&limit=10"
            let plain = try await http.send("GET", target)
            #expect(plain.headers["content-encoding"] == nil)
            #expect(plain.headers["vary"] == "Accept-Encoding")
            #expect(plain.body.count >= 1024, "a board of 10 rows is over the gzip threshold")
            let zipped = try await http.send("GET", target, headers: ["Accept-Encoding": "br, gzip;q=0.8"])
            #expect(zipped.headers["content-encoding"] == "gzip")
            #expect(zipped.body.count < plain.body.count)
            var buffer = ByteBuffer(bytes: zipped.body)
            let unzipped = try buffer.decompress(with: .gzip())
            #expect(dataText(String(buffer: unzipped)) == dataText(plain.text))
            let refused = try await http.send("GET", target, headers: ["Accept-Encoding": "gzip;q=0"])
            #expect(refused.headers["content-encoding"] == nil)
        }
    }

    @Test func openAPIDocumentIsServed() async throws {
        try await withHTTPGateway { gateway in
            let answer = try await gateway.connection().send("GET", "/v1/openapi.json")
            #expect(answer.status == 200)
            let document = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            #expect(document?["openapi"] as? String == "3.1.0")
            let paths = document?["paths"] as? [String: Any] ?? [:]
            for op in GatewayOpKind.allCases where op != .subscribe && op != .unsubscribe && op != .auth {
                #expect(paths["/v1/\(op.name)"] != nil, "no path for \(op.name)")
            }
        }
    }

    @Test func webBoardIsServedWithoutAToken() async throws {
        try await withHTTPGateway(configure: { $0.authToken = Array("s3cret".utf8) }) { gateway in
            let http = try gateway.connection()
            let page = try await http.send("GET", "/")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
            #expect(page.text.contains("<title>Transit board</title>"))
            // Everything it loads is its own: no script, style or image from elsewhere.
            #expect(!page.text.contains("src=\"http"), "the page loads nothing from elsewhere")
            #expect(page.text.contains("/v1/ws") && page.text.contains("\"subscribe\""))
            // HEAD: the headers alone.
            try http.client.send("HEAD /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try await http.readHead()
            #expect(head.status == 200 && head.headers["content-length"] == "\(page.body.count)")
            let zipped = try await http.send("GET", "/", headers: ["Accept-Encoding": "gzip"])
            #expect(zipped.headers["content-encoding"] == "gzip")
            #expect(zipped.body.count < page.body.count)
        }
    }

    // MARK: WebSocket

    @Test func webSocketSubscribeGetsItsEvent() async throws {
        try await withHTTPGateway { gateway in
            let frames = try await webSocket(
                port: gateway.httpPort,
                send: [
                    #"{"id":1,"op":"stop","stop_id":"200060"}"#,
                    // A line break between tokens is whitespace, as on a line.
                    "{\"id\":2,\n\"op\":\"subscribe\",\"topic\":\"departures\",\"stop_id\":\"200060\",\"limit\":2}",
                ], until: { $0.contains(#""event":"departures""#) })
            #expect(frames.count == 3, "\(frames)")
            let stop = try JSONLine(frames[0])
            #expect(stop.ok && stop.id as? Int == 1)
            let ack = try JSONLine(frames[1])
            #expect(ack.ok && ack.data["sub"] as? Int == 1, "\(ack)")
            let event = try JSONLine(frames[2])
            #expect(event.event == "departures" && event.object["sub"] as? Int == 1)
            #expect(event.list("departures").count == 2, "\(event)")

            // The same `data` as a line connection's answer to the same request.
            let line = try gateway.fixture.client()
            try line.sendLines([#"{"id":1,"op":"stop","stop_id":"200060"}"#])
            #expect(dataText(try await line.readLine()) == dataText(frames[0]))
        }
    }

    @Test func webSocketInBandAuth() async throws {
        try await withHTTPGateway(configure: { $0.authToken = Array("s3cret".utf8) }) { gateway in
            let frames = try await webSocket(
                port: gateway.httpPort,
                send: [
                    #"{"id":1,"op":"health"}"#, #"{"id":2,"op":"auth","token":"s3cret"}"#,
                    #"{"id":3,"op":"feed_info"}"#,
                ], until: { $0.contains(#""id":3"#) })
            #expect(frames.count == 3, "\(frames)")
            #expect(try JSONLine(frames[0]).errorCode == "UNAUTHENTICATED")
            #expect(try JSONLine(frames[1]).data["required"] as? Bool == true)
            #expect(try JSONLine(frames[2]).ok, "\(frames[2])")

            // A good Bearer on the upgrade authenticates the connection up front.
            let upfront = try await webSocket(
                port: gateway.httpPort, headers: ["Authorization": "Bearer s3cret"],
                send: [#"{"id":1,"op":"feed_info"}"#], until: { $0.contains(#""id":1"#) })
            #expect(try JSONLine(upfront[0]).ok, "\(upfront)")
        }
    }

    @Test func webSocketPingCloseAndRefusedUpgrades() async throws {
        try await withHTTPGateway(configure: { $0.authToken = Array("s3cret".utf8) }) { gateway in
            let socket = try await WebSocketTestClient(port: gateway.httpPort)
            #expect(socket.status == 101)
            try socket.send(.ping, Array("hi".utf8))
            let pong = try await socket.readFrame()
            #expect(pong.opcode == WebSocketTestClient.Opcode.pong.rawValue && pong.payload == Array("hi".utf8))
            // A message in fragments is one request.
            try socket.send(.text, Array(#"{"id":1,"op":"auth","#.utf8), fin: false)
            try socket.send(.continuation, Array(#""token":"s3cret"}"#.utf8))
            let auth = try JSONLine(try await socket.texts(until: { _ in true })[0])
            #expect(auth.ok, "\(auth)")
            // A close frame ends the input: the request before it is answered, then the gateway closes.
            try socket.sendText(#"{"id":2,"op":"health"}"#)
            try socket.send(.close, [0x03, 0xE8])
            #expect(try JSONLine(try await socket.texts(until: { _ in true })[0]).id as? Int == 2)
            #expect(try await socket.readFrame().opcode == WebSocketTestClient.Opcode.close.rawValue)
            #expect(try await socket.socket.waitForClose(timeout: .seconds(5)))

            // A wrong Bearer on the upgrade: 401, no WebSocket; another path: no upgrade either.
            let wrong = try await WebSocketTestClient(
                port: gateway.httpPort, headers: ["Authorization": "Bearer guess"])
            #expect(wrong.status == 401)
            let elsewhere = try await WebSocketTestClient(
                port: gateway.httpPort, path: "/v1/departures", headers: ["Authorization": "Bearer s3cret"])
            #expect(elsewhere.status == 404)
        }
    }

    /// Opens a WebSocket on /v1/ws, sends `send` as text frames and collects the text frames received until
    /// one satisfies `until`.
    private func webSocket(
        port: Int, headers: [String: String] = [:], send: [String], until: (String) -> Bool
    ) async throws -> [String] {
        let socket = try await WebSocketTestClient(port: port, headers: headers)
        guard socket.status == 101 else { throw NoUpgrade(status: socket.status) }
        for text in send { try socket.sendText(text) }
        return try await socket.texts(until: until)
    }

    struct NoUpgrade: Error { let status: Int }
}
