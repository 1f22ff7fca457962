import Foundation
import Testing

@testable import Gateway

/// The client address behind a proxy (`--proxy-protocol`, PROXY v2) and the per-address budgets on the HTTP
/// port (GATEWAY.md §1 "client address", §8 "Connections").
@Suite struct ClientAddressTests {
    static func proxyHeader(from ip: [UInt8], port: UInt16 = 40000) -> [UInt8] {
        let block = ip + [127, 0, 0, 1] + [UInt8(port >> 8), UInt8(port & 0xFF), 0x1E, 0xC6]
        return ProxyHeader.signature + [0x21, 0x11, 0, UInt8(block.count)] + block
    }

    @Test func theProxyHeadersAddressIsTheClients() async throws {
        try await withGateway(configure: {
            $0.proxyProtocol = true
            $0.maxConnectionsPerAddress = 2
        }) { fixture in
            // Two clients behind the proxy at 192.0.2.7 (all from 127.0.0.1, which alone would be exempt).
            var held: [LineClient] = []
            for _ in 0..<2 {
                let client = try fixture.client()
                try client.send(Self.proxyHeader(from: [192, 0, 2, 7]) + Array(#"{"id":1,"op":"health"}"#.utf8) + [10])
                #expect(try JSONLine(try await client.readLine()).ok)
                held.append(client)
            }
            let third = try fixture.client()
            try third.send(Self.proxyHeader(from: [192, 0, 2, 7]))
            let lines = try await third.readUntilClosed()
            #expect(lines.count == 1)
            #expect(lines.first.flatMap { try? JSONLine($0).errorCode } == "OVERLOADED")
            // Another client address behind the same proxy is served; the header may come in pieces.
            let other = try fixture.client()
            let header = Self.proxyHeader(from: [198, 51, 100, 1])
            try other.send(Array(header.prefix(10)))
            try await Task.sleep(for: .milliseconds(50))
            try other.send(Array(header.dropFirst(10)) + Array(#"{"op":"stats"}"#.utf8) + [10])
            let stats = try JSONLine(try await other.readLine())
            #expect((stats.data["connections"] as? [String: Any])?["client_addresses"] as? Int == 2)
            // Without a header: closed without an answer.
            let bare = try fixture.client()
            try bare.sendLines([#"{"op":"health"}"#])
            #expect(try await bare.readUntilClosed() == [])
            withExtendedLifetime(held) {}
        }
    }

    @Test func theHTTPPortReadsTheProxyHeaderToo() async throws {
        try await withHTTPGateway(configure: {
            $0.proxyProtocol = true
            $0.maxConnectionsPerAddress = 1
        }) { http in
            let client = try LineClient(port: http.httpPort)
            try client.send(Self.proxyHeader(from: [203, 0, 113, 9]))
            let first = HTTPConnection(client)
            #expect(try await first.send("GET", "/v1/health").status == 200)
            // A second connection of the same client (behind the proxy) is over its bound of one.
            let second = try LineClient(port: http.httpPort)
            try second.send(Self.proxyHeader(from: [203, 0, 113, 9]))
            #expect(try await HTTPConnection(second).read().status == 429)
            // Another client behind the same proxy is served: two client addresses, the proxy none.
            let other = try LineClient(port: http.httpPort)
            try other.send(Self.proxyHeader(from: [203, 0, 113, 10]))
            #expect(try await HTTPConnection(other).send("GET", "/v1/health").status == 200)
            #expect(http.fixture.gateway.services.stats.summary().clientAddresses == 2)
            // Without a header: closed without an answer.
            let bare = try LineClient(port: http.httpPort)
            try bare.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await bare.readUntilClosed() == [])
        }
    }

    @Test func httpConnectionsCountPerAddressWithLineConnections() async throws {
        try await withHTTPGateway(configure: {
            $0.limitLoopback = true
            $0.maxConnectionsPerAddress = 2
        }) { http in
            let line = try LineClient(port: http.fixture.port, from: "127.0.0.3")
            #expect(try await line.ask(#"{"op":"health"}"#).ok)
            let first = HTTPConnection(try LineClient(port: http.httpPort, from: "127.0.0.3"))
            #expect(try await first.send("GET", "/v1/health").status == 200)
            let second = HTTPConnection(try LineClient(port: http.httpPort, from: "127.0.0.3"))
            let refused = try await second.read()
            #expect(refused.status == 429)
            #expect(try refused.json.errorCode == "OVERLOADED")
            // Another address is served.
            let other = HTTPConnection(try LineClient(port: http.httpPort, from: "127.0.0.4"))
            #expect(try await other.send("GET", "/v1/health").status == 200)
        }
    }

    @Test func httpRequestsCountAgainstTheAddresssInFlightBound() async throws {
        try await withHTTPGateway(configure: {
            $0.limitLoopback = true
            $0.maxInFlightPerAddress = 1
        }) { http in
            // Ten pipelined HTTP requests are answered one at a time: each fits the bound of one.
            let connection = HTTPConnection(try LineClient(port: http.httpPort, from: "127.0.0.5"))
            for _ in 0..<10 { #expect(try await connection.send("GET", "/v1/stop?stop_id=200060").status == 200) }
            #expect(http.fixture.gateway.services.stats.summary().inFlight == 0)
        }
    }
}
