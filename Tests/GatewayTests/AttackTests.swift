import Foundation
import Testing

@testable import Gateway

/// The attacks of issue 26 against a real gateway (TCP on loopback), each scaled down in counts and times and
/// bounded in time, each with a bystander on its own loopback address (`--limit-loopback`) that must get every
/// answer. `scripts/attack-gateway` runs them at full size against the binaries (RELIABILITY.md "Fair budgets").
@Suite(.serialized) struct AttackTests {
    static let bystanderAddress = "127.0.0.9"
    static let request = #"{"op":"stop","stop_id":"200060"}"#

    /// `count` requests one after another from the bystander's address (reconnecting when its connection is
    /// closed or refused): how many were answered ok.
    static func bystander(port: Int, count: Int, token: String? = nil) async -> Int {
        var ok = 0
        var client: LineClient?
        for i in 0..<count {
            do {
                if client == nil {
                    let fresh = try LineClient(port: port, from: bystanderAddress)
                    if let token { _ = try await fresh.ask(#"{"op":"auth","token":"\#(token)"}"#) }
                    client = fresh
                }
                let answer = try await client?.ask(#"{"id":\#(i),"op":"stop","stop_id":"200060"}"#)
                if answer?.ok == true { ok += 1 } else { client = nil }
            } catch {
                client = nil
            }
        }
        return ok
    }

    /// Opens `perAddress` connections from each of `addresses` loopback addresses (127.0.0.2 …), sending
    /// `first` on each when given.
    static func attackers(port: Int, addresses: Int, perAddress: Int, first: String? = nil) throws -> [LineClient] {
        var clients: [LineClient] = []
        for a in 0..<addresses {
            for _ in 0..<perAddress {
                let client = try LineClient(port: port, from: "127.0.0.\(2 + a)")
                if let first { try? client.send(first) }
                clients.append(client)
            }
        }
        return clients
    }

    static func settle(_ fixture: GatewayFixture, until condition: (GatewayStats.Summary) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(fixture.gateway.services.stats.summary()), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// (a) Connections that subscribe and never read fill the gateway: the bystander's connection makes room.
    @Test func subscribersThatNeverReadDoNotLockOthersOut() async throws {
        try await withGateway(configure: {
            $0.limitLoopback = true
            $0.maxConnections = 48
            $0.maxConnectionsPerAddress = 16
        }) { fixture in
            let subscribe = #"{"op":"subscribe","topic":"departures","stop_id":"200060"}"# + "\n"
            // 20 from each of 3 addresses: 4 of each are over the address's bound.
            let held = try Self.attackers(port: fixture.port, addresses: 3, perAddress: 20, first: subscribe)
            try await Self.settle(fixture) { $0.openConnections == 48 && $0.refusedPerAddress == 12 }
            #expect(fixture.gateway.services.stats.summary().refusedPerAddress == 12)
            #expect(await Self.bystander(port: fixture.port, count: 30) == 30)
            let summary = fixture.gateway.services.stats.summary()
            #expect(summary.closedToMakeRoom == 1)
            withExtendedLifetime(held) {}
        }
    }

    /// (b) Connections that each send a request now and then (never idle long enough to be closed).
    @Test func periodicRequestersDoNotLockOthersOut() async throws {
        try await withGateway(configure: {
            $0.limitLoopback = true
            $0.maxConnections = 48
            $0.maxConnectionsPerAddress = 16
            $0.idleTimeout = .milliseconds(600)
        }) { fixture in
            let held = try Self.attackers(port: fixture.port, addresses: 3, perAddress: 16)
            try await Self.settle(fixture) { $0.openConnections == 48 }
            let keepAlive = Task {
                while !Task.isCancelled {
                    for client in held { try? client.send(#"{"op":"health"}"# + "\n") }
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            let ok = await Self.bystander(port: fixture.port, count: 30)
            keepAlive.cancel()
            _ = await keepAlive.value
            #expect(ok == 30)
            let summary = fixture.gateway.services.stats.summary()
            #expect(summary.idleClosed == 0)
            #expect(summary.closedToMakeRoom == 1)
        }
    }

    /// (c) With a token, connections that never authenticate: a few per address at a time, closed after the
    /// auth timeout.
    @Test func unauthenticatedConnectionsAreBoundedAndTimedOut() async throws {
        let token = "tok-\(UUID().uuidString)"
        try await withGateway(configure: {
            $0.authToken = Array(token.utf8)
            $0.limitLoopback = true
            $0.maxUnauthenticatedPerAddress = 4
            $0.authTimeout = .milliseconds(700)
        }) { fixture in
            let held = try Self.attackers(port: fixture.port, addresses: 3, perAddress: 10)
            let pester = Task {
                while !Task.isCancelled {
                    for client in held { try? client.send(#"{"op":"health"}"# + "\n") }
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            #expect(await Self.bystander(port: fixture.port, count: 30, token: token) == 30)
            try await Self.settle(fixture) { $0.closedAuthTimeout >= 12 }
            pester.cancel()
            _ = await pester.value
            let summary = fixture.gateway.services.stats.summary()
            #expect(summary.refusedPerAddress == 18)
            #expect(summary.closedAuthTimeout == 12)
            // Which connections of an address were refused depends on the order they were accepted in.
            var lastLines: [String: Int] = [:]
            for client in held {
                let last = try await client.readUntilClosed().last.flatMap { try? JSONLine($0).errorMessage }
                lastLines[last ?? "none", default: 0] += 1
            }
            #expect(lastLines["not authenticated within 0.7 s"] == 12)
            #expect(
                lastLines["too many connections waiting to authenticate from your address (limit 4); retry later"] == 18
            )
        }
    }

    /// (d) Tricklers sending a request a byte at a time are closed at the line timeout.
    @Test func tricklersAreClosedAtTheLineTimeout() async throws {
        try await withGateway(configure: {
            $0.limitLoopback = true
            $0.lineTimeout = .seconds(1)
            $0.maxConnections = 48
            $0.maxConnectionsPerAddress = 16
        }) { fixture in
            let held = try Self.attackers(port: fixture.port, addresses: 3, perAddress: 16)
            let line = Array((#"{"op":"health"}"# + "\n").utf8)
            let trickle = Task {
                for byte in line {
                    if Task.isCancelled { break }
                    for client in held { try? client.send([byte]) }
                    try? await Task.sleep(for: .milliseconds(250))
                }
            }
            #expect(await Self.bystander(port: fixture.port, count: 30) == 30)
            try await Self.settle(fixture) { $0.closedLineTimeout >= 47 }
            trickle.cancel()
            _ = await trickle.value
            // One trickler was closed to make room for the bystander; the rest at the line timeout.
            let summary = fixture.gateway.services.stats.summary()
            #expect(summary.closedLineTimeout + summary.closedToMakeRoom == 48)
            let lines = try await held[47].readUntilClosed()
            #expect(lines.last.flatMap { try? JSONLine($0).errorCode } == "TIMEOUT")
        }
    }

    /// (e) 32 connections × 300 pipelined requests from one address: the bystander is never refused, every
    /// request of the flood is answered (OVERLOADED beyond its address's share).
    @Test func aPipelinedFloodDoesNotStarveOthers() async throws {
        try await withGateway(configure: {
            $0.limitLoopback = true
            $0.maxInFlight = 32
            $0.maxInFlightPerAddress = 16
        }) { fixture in
            let flood = String(repeating: Self.request + "\n", count: 300)
            let held = try Self.attackers(port: fixture.port, addresses: 1, perAddress: 32)
            let senders = Task {
                for client in held { try? client.send(flood) }
            }
            let ok = await Self.bystander(port: fixture.port, count: 30)
            await senders.value
            var answered = 0
            var overloaded = 0
            for client in held {
                for line in try await client.readLines(300, timeout: .seconds(30)) {
                    answered += 1
                    if (try? JSONLine(line).errorCode) == "OVERLOADED" { overloaded += 1 }
                }
            }
            #expect(ok == 30)
            #expect(answered == 32 * 300)
            #expect(overloaded > 0)
        }
    }
}
