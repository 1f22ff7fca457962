import Foundation
import Logging
import StaticService
import Testing
import TransitTesting

@testable import Gateway

/// One id follows a gateway request into the static service's log (`--log-level debug`): the gateway sends its
/// request's id as the static request's `request_id`, and both log it.
@Suite struct RequestTraceTests {
    @Test func theGatewaysRequestIdIsTheOneTheStaticServiceLogs() async throws {
        let staticLog = LogRecorder(), gatewayLog = LogRecorder()
        let url = UniqueURL.ipc("trace-static")
        let server = try StaticServer(
            databasePath: try SampleDatabase.path(), listen: url, contexts: 2, logger: staticLog.logger)
        defer { server.stop() }
        let gateway = try await GatewayServer.start(
            config: GatewayConfig(host: "127.0.0.1", port: 0, staticURL: url, logger: gatewayLog.logger))
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
}
