import Foundation
import Logging
import RealtimeService
import StaticService
import Testing
import TransitTesting

@testable import Gateway

/// One id follows a gateway request into the static and the realtime service's logs (`--log-level debug`): the
/// gateway sends its request's id as the static or realtime request's `request_id`, and both sides log it.
@Suite struct RequestTraceTests {
    @Test func theGatewaysRequestIdIsTheOneTheStaticServiceLogs() async throws {
        let staticLog = LogRecorder(), gatewayLog = LogRecorder()
        let url = UniqueURL.ipc("trace-static")
        let server = try StaticServer(
            configuration: .init(databasePath: try SampleDatabase.path(), listenURL: url, contexts: 2),
            logger: staticLog.logger)
        defer { server.stop() }
        let gateway = try await GatewayServer.start(
            config: GatewayConfiguration(host: "127.0.0.1", port: 0, staticURL: url, logger: gatewayLog.logger))
        let client = try LineClient(port: gateway.port)
        let answer = try await client.ask(#"{"id":1,"op":"stop","stop_id":"200060"}"#)
        let missing = try await client.ask(#"{"id":2,"op":"stop","stop_id":"NOPE"}"#)
        await gateway.stop()
        #expect(answer.ok)
        #expect(missing.errorCode == "NOT_FOUND")

        let gatewayLines = gatewayLog.all.filter { $0.message == "request" && $0.metadata["op"] == "stop" }
        let staticLines = staticLog.all.filter { $0.message == "request" && $0.metadata["query"] == "stop" }
        try #require(gatewayLines.count == 2, "\(gatewayLog.all.map(\.message))")
        try #require(staticLines.count == 2, "\(staticLog.all.map(\.message))")
        for (g, s) in zip(gatewayLines, staticLines) {
            #expect(g.metadata["request_id"] != nil)
            #expect(g.metadata["request_id"] == s.metadata["request_id"], "\(g.metadata) vs \(s.metadata)")
        }
        #expect(gatewayLines[1].metadata["status"] != "ok")
        #expect(staticLines[1].metadata["status"] != "ok")
        #expect(gatewayLines[0].metadata["request_id"] != gatewayLines[1].metadata["request_id"])
    }

    /// `reliability` asks the realtime service every time (its delay histograms): the realtime service's
    /// request log line carries the gateway's id (here it records no delays, so both lines say why).
    @Test func theGatewaysRequestIdIsTheOneTheRealtimeServiceLogs() async throws {
        let realtimeLog = LogRecorder(), gatewayLog = LogRecorder()
        let staticURL = UniqueURL.ipc("trace-rt-static")
        let server = try StaticServer(
            configuration: .init(databasePath: try SampleDatabase.path(), listenURL: staticURL, contexts: 2),
            logger: LogRecorder().logger)
        defer { server.stop() }
        let rep = UniqueURL.ipc("trace-rt-rep")
        let sockets = try RealtimeSockets(
            listen: rep, publish: UniqueURL.ipc("trace-rt-pub"), logger: realtimeLog.logger)
        defer { sockets.stop() }
        var config = GatewayConfiguration(host: "127.0.0.1", port: 0, staticURL: staticURL, logger: gatewayLog.logger)
        config.realtimeURL = rep
        let gateway = try await GatewayServer.start(config: config)
        let client = try LineClient(port: gateway.port)
        let first = try await client.ask(#"{"id":1,"op":"reliability","route_id":"ST_T1"}"#)
        let second = try await client.ask(#"{"id":2,"op":"reliability","stop_id":"200060"}"#)
        await gateway.stop()
        #expect(first.errorCode == "REALTIME_UNAVAILABLE", "\(first.text)")
        #expect(second.errorCode == "REALTIME_UNAVAILABLE", "\(second.text)")

        let gatewayLines = gatewayLog.all.filter { $0.message == "request" && $0.metadata["op"] == "reliability" }
        let realtimeLines = realtimeLog.all.filter {
            $0.message == "request" && $0.metadata["query"] == "delay_histograms"
        }
        try #require(gatewayLines.count == 2, "\(gatewayLog.all.map(\.message))")
        try #require(realtimeLines.count == 2, "\(realtimeLog.all.map(\.message))")
        for (g, r) in zip(gatewayLines, realtimeLines) {
            #expect(g.metadata["request_id"] != nil)
            #expect(g.metadata["request_id"] == r.metadata["request_id"], "\(g.metadata) vs \(r.metadata)")
            #expect(r.metadata["status"] != "ok", "no delay store: \(r.metadata)")
        }
        #expect(gatewayLines[0].metadata["request_id"] != gatewayLines[1].metadata["request_id"])
    }
}
