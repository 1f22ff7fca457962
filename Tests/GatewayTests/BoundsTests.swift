// The per-connection and per-client bounds (GATEWAY.md §1 "other limits"), `auth` and the request rate.
import Foundation
import Testing
import TransitTesting

@testable import Gateway
@testable import GatewayProtocol

@Suite(.serialized) struct BoundsTests {
    /// The gateway's figures in `stats` (`connections`, `limits`).
    private static func stats(_ client: LineClient) async throws -> (connections: [String: Any], limits: [String: Any])
    {
        let answer = try await client.ask(#"{"op":"stats"}"#)
        return (
            answer.data["connections"] as? [String: Any] ?? [:], answer.data["limits"] as? [String: Any] ?? [:]
        )
    }

    /// The resident set of this process (the gateway runs in it), in bytes.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test func theDefaultsAreTheDocumentedOnesAndStatsShowsThem() async throws {
        try await withGateway { fixture in
            let config = fixture.gateway.config
            #expect(config.maxUnwrittenBytes == 1 << 20)
            #expect(config.maxConnectionsPerAddress == 64)
            #expect(!config.limitLoopback)
            #expect(config.idleTimeout == .seconds(30))
            #expect(config.maxPipelined == 128)
            #expect(config.authToken == nil && config.requestRate == 0)
            #expect(config.host == "127.0.0.1")
            let limits = try await Self.stats(try fixture.client()).limits
            #expect(limits["max_unwritten_bytes"] as? Int == 1 << 20)
            #expect(limits["max_connections_per_address"] as? Int == 64)
            #expect(limits["max_connections"] as? Int == 1024)
            #expect(limits["max_pipelined"] as? Int == 128)
            #expect(limits["idle_timeout_ms"] as? Int == 30_000)
            #expect(limits["request_rate"] as? Int == 0)
            #expect(limits["limit_loopback"] as? Bool == false)
            #expect(limits["auth"] as? Bool == false)
        }
    }

    /// A client that pipelines big boards and never reads: the gateway holds at most about `maxUnwrittenBytes`
    /// of its answers (it starts no more of its requests and stops reading it), and the client still gets
    /// every answer, in order, once it reads.
    @Test func aClientThatDoesNotReadHoldsBoundedMemory() async throws {
        let requests = 400
        try await withGateway(configure: { $0.boardCacheStops = 0 }) { fixture in
            let watcher = try fixture.client()
            let reader = try LineClient(port: fixture.port, receiveBuffer: 16 * 1024)
            let at = SampleTimes.mondayEvening
            let lines = (0..<requests).map {
                #"{"id":\#($0),"op":"departures","stop_id":"200060","at":\#(at),"limit":100}"#
            }
            let sizeOfOne = try await watcher.ask(lines[0]).text.utf8.count
            let before = Self.residentBytes()
            // The gateway stops reading: the rest of the lines wait in the kernel, so send on a thread of its own.
            let sent = Thread { try? reader.sendLines(lines) }
            sent.start()
            // Wait until the gateway stops answering (the client's buffers are full, the bound is reached).
            var answered = -1
            var connections: [String: Any] = [:]
            for _ in 0..<100 {
                try await Task.sleep(for: .milliseconds(200))
                let stats = try await watcher.ask(#"{"op":"stats"}"#)
                let ops = stats.data["ops"] as? [String: Any]
                let now = (ops?["departures"] as? [String: Any])?["count"] as? Int ?? 0
                connections = stats.data["connections"] as? [String: Any] ?? [:]
                if now == answered { break }
                answered = now
            }
            let held = connections["unwritten_bytes"] as? Int ?? -1
            let grown = Self.residentBytes() - before
            print(
                "bounds: \(requests) pipelined boards of \(sizeOfOne) bytes, unread: \(held) bytes held, RSS +\(grown / 1024) KiB"
            )
            // The bound plus one answer that was under way (the estimate of a request's size lags a little).
            #expect(held > 0 && held <= (1 << 20) + 2 * sizeOfOne, "\(held) bytes held")
            #expect(answered < requests / 2, "the gateway kept answering a client that does not read")
            // Generous (the test process's RSS is noisy); unbounded, these answers are tens of MB.
            #expect(grown < 24 << 20, "RSS grew by \(grown) bytes")

            var ids: [Int] = []
            for _ in 0..<requests {
                let answer = try JSONLine(try await reader.readLine(timeout: .seconds(20)))
                #expect(answer.ok)
                ids.append(answer.id as? Int ?? -1)
            }
            #expect(ids == Array(0..<requests))
            let after = try await Self.stats(watcher).connections
            #expect(after["unwritten_bytes"] as? Int == 0)
        }
    }

    /// One client address holding many connections cannot lock out others; loopback is exempt by default.
    @Test func connectionsPerAddressAreCapped() async throws {
        try await withGateway(configure: {
            $0.maxConnectionsPerAddress = 8
            $0.limitLoopback = true
        }) { fixture in
            var held: [LineClient] = []
            for _ in 0..<8 {
                let client = try fixture.client()
                #expect(try await client.ask(#"{"op":"stats"}"#).ok)
                held.append(client)
            }
            let refused = try fixture.client()
            let lines = try await refused.readUntilClosed()
            #expect(lines.count == 1)
            #expect(try JSONLine(lines[0]).errorCode == "OVERLOADED")
            #expect(try JSONLine(lines[0]).errorMessage?.contains("from your address") == true)
            // Another address (127.0.0.2 is loopback too, but another client) is served.
            let other = try LineClient(port: fixture.port, from: "127.0.0.2")
            let (connections, _) = try await Self.stats(other)
            #expect(connections["refused_per_address"] as? Int == 1)
            #expect(connections["client_addresses"] as? Int == 2)
            // Closing one makes room again.
            held.removeLast()
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await fixture.client().ask(#"{"op":"stats"}"#).ok)
        }
        try await withGateway(configure: { $0.maxConnectionsPerAddress = 8 }) { fixture in
            var held: [LineClient] = []
            for _ in 0..<20 {
                let client = try fixture.client()
                #expect(try await client.ask(#"{"op":"stats"}"#).ok)
                held.append(client)
            }
            let (connections, _) = try await Self.stats(held[0])
            #expect(connections["open"] as? Int == 20)
            #expect(connections["client_addresses"] as? Int == 0)
        }
    }

    @Test func aQuietSubscriberIsNotClosedForIdleness() async throws {
        try await withGateway(configure: { $0.idleTimeout = .milliseconds(300) }) { fixture in
            let subscriber = try fixture.client()
            try subscriber.sendLines([#"{"id":1,"op":"subscribe","topic":"departures","stop_id":"200060","limit":1}"#])
            #expect(try JSONLine(try await subscriber.readLine()).ok)
            let idle = try fixture.client()
            #expect(try await idle.ask(#"{"op":"stats"}"#).ok)
            #expect(try await idle.waitForClose(timeout: .seconds(3)))
            #expect(try await !subscriber.waitForClose(timeout: .milliseconds(300)))
            let (connections, _) = try await Self.stats(try fixture.client())
            #expect(connections["closed_idle"] as? Int == 1)
        }
    }

    // MARK: auth

    @Test func withATokenEveryRequestWaitsForAuth() async throws {
        let token = "tok-\(UUID().uuidString)"
        try await withGateway(configure: { $0.authToken = Array(token.utf8) }) { fixture in
            let client = try fixture.client()
            let refused = try await client.ask(#"{"id":1,"op":"health"}"#)
            #expect(refused.errorCode == "UNAUTHENTICATED")
            #expect(refused.id as? Int == 1)
            #expect(refused.errorMessage?.contains(token) == false)
            let accepted = try await client.ask(#"{"id":2,"op":"auth","token":"\#(token)"}"#)
            #expect(accepted.ok, "\(accepted)")
            #expect(accepted.data["authenticated"] as? Bool == true && accepted.data["required"] as? Bool == true)
            #expect(try await client.ask(#"{"id":3,"op":"stats"}"#).ok)

            // A wrong token (here a prefix of the right one) is answered, then the connection closes.
            let guesser = try fixture.client()
            try guesser.sendLines([
                #"{"id":1,"op":"auth","token":"\#(token.dropLast())"}"#, #"{"id":2,"op":"stats"}"#,
            ])
            let lines = try await guesser.readUntilClosed()
            #expect(lines.count == 1)
            #expect(try JSONLine(lines[0]).errorCode == "UNAUTHENTICATED")
            #expect(!lines[0].contains(token))
        }
    }

    @Test func withoutATokenAuthIsAcceptedAndNotRequired() async throws {
        try await withGateway { fixture in
            let client = try fixture.client()
            let answer = try await client.ask(#"{"id":1,"op":"auth","token":"anything"}"#)
            #expect(answer.ok && answer.data["required"] as? Bool == false)
        }
    }

    @Test func tokensCompareByEveryByte() {
        let expected = Array("abcdef".utf8)
        #expect(AuthToken(expected).matches(expected))
        #expect(!AuthToken(Array("abcdeg".utf8)).matches(expected))
        #expect(!AuthToken(Array("abcde".utf8)).matches(expected))
        #expect(!AuthToken(Array("abcdefg".utf8)).matches(expected))
        #expect(!AuthToken([]).matches(expected))
        // Lengths that differ by a multiple of 256 still differ.
        #expect(!AuthToken(expected + [UInt8](repeating: 0, count: 256)).matches(expected))
        #expect(!"\(AuthToken(expected))".contains("abc"))
    }

    // MARK: rate

    @Test func theRequestRateIsLimitedPerConnection() async throws {
        try await withGateway(configure: { $0.requestRate = 5 }) { fixture in
            let client = try fixture.client()
            try client.sendLines((0..<30).map { #"{"id":\#($0),"op":"stats"}"# })
            let answers = try await client.readLines(30).map(JSONLine.init)
            let limited = answers.filter { $0.errorCode == "RATE_LIMITED" }
            let firstFive = answers.prefix(5).filter(\.ok).count
            #expect(firstFive == 5)
            #expect(limited.count >= 20, "\(limited.count) limited")
            #expect(answers.map { $0.id as? Int } == Array(0..<30))
            // Another connection has its own allowance.
            #expect(try await fixture.client().ask(#"{"op":"stats"}"#).ok)
            // The allowance refills.
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await client.ask(#"{"op":"stats"}"#).ok)
        }
    }
}
