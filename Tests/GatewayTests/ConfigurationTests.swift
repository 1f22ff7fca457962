import ArgumentParser
import Gateway
import Testing

@testable import transit_gateway

/// `GatewayConfiguration`'s defaults are the documented ones, and `transit-gateway serve` maps its flags onto it.
@Suite struct GatewayConfigurationTests {
    @Test func defaultsAreTheDocumentedOnes() {
        let config = GatewayConfiguration(staticURL: "ipc:///static")
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 7878)
        #expect(config.realtimeURL == nil && config.subscribeURL == nil)
        #expect(config.maxLineBytes == 64 * 1024)
        #expect(config.maxConnections == 1024)
        #expect(config.maxInFlight == 512)
        #expect(config.maxPipelined == 128)
        #expect(config.maxUnwrittenBytes == 1 << 20)
        #expect(config.maxConnectionsPerAddress == 64)
        #expect(config.limitLoopback == false)
        #expect(config.idleTimeout == .seconds(30))
        #expect(config.authToken == nil)
        #expect(config.requestRate == 0)
        #expect(config.requestTimeout == .seconds(2))
        #expect(config.staticTimeout == .seconds(1))
        #expect(config.staticProbeInterval == .milliseconds(500))
        #expect(config.realtimeTimeout == .seconds(1))
        #expect(config.realtimeSilence == .seconds(15))
        #expect(config.snapshotRetryMax == .seconds(2))
        #expect(config.maxSubscriptions == 16)
        #expect(config.subscriptionInterval == .seconds(1))
        #expect(config.boardCacheStops == 512)
        #expect(config.boardWindowsPerStop == 64)
        #expect(config.boardCacheWindows == 4096)
        #expect(config.boardWindowRows == 100)
        #expect(config.staticVersionCheck == .seconds(1))
        #expect(config.threads == 0)
        #expect(config.drainTimeout == .seconds(4))
        #expect(config.planBudget == .milliseconds(500))
    }

    /// Without flags the command's configuration is the struct's defaults (the flags read them).
    @Test func flagDefaultsAreTheStructs() throws {
        let config = try Serve.parse(["--static", "ipc:///static"]).configuration()
        let defaults = GatewayConfiguration(staticURL: "ipc:///static")
        #expect(config.host == defaults.host && config.port == defaults.port)
        #expect(config.maxConnections == defaults.maxConnections)
        #expect(config.maxInFlight == defaults.maxInFlight)
        #expect(config.maxPipelined == defaults.maxPipelined)
        #expect(config.maxUnwrittenBytes == defaults.maxUnwrittenBytes)
        #expect(config.maxConnectionsPerAddress == defaults.maxConnectionsPerAddress)
        #expect(config.limitLoopback == defaults.limitLoopback)
        #expect(config.idleTimeout == defaults.idleTimeout)
        #expect(config.requestRate == defaults.requestRate)
        #expect(config.requestTimeout == defaults.requestTimeout)
        #expect(config.staticTimeout == defaults.staticTimeout)
        #expect(config.staticProbeInterval == defaults.staticProbeInterval)
        #expect(config.realtimeTimeout == defaults.realtimeTimeout)
        #expect(config.realtimeSilence == defaults.realtimeSilence)
        #expect(config.boardCacheStops == defaults.boardCacheStops)
        #expect(config.boardWindowsPerStop == defaults.boardWindowsPerStop)
        #expect(config.boardCacheWindows == defaults.boardCacheWindows)
        #expect(config.threads == defaults.threads)
        #expect(config.drainTimeout == defaults.drainTimeout)
        #expect(config.planBudget == defaults.planBudget)
    }

    @Test func flagsMapOntoTheConfiguration() throws {
        let config = try Serve.parse([
            "--static", "ipc:///a,ipc:///b", "--realtime", "ipc:///rep", "--subscribe", "ipc:///pub",
            "--listen", "0.0.0.0:9000", "--max-in-flight", "7", "--idle-timeout", "2.5", "--limit-loopback",
            "--static-probe-interval", "0", "--board-cache-stops", "0", "--plan-budget-ms", "60000",
        ]).configuration()
        #expect(config.host == "0.0.0.0" && config.port == 9000)
        #expect(config.staticURLs == ["ipc:///a", "ipc:///b"])
        #expect(config.realtimeURL == "ipc:///rep" && config.subscribeURL == "ipc:///pub")
        #expect(config.maxInFlight == 7)
        #expect(config.idleTimeout == .milliseconds(2500))
        #expect(config.limitLoopback)
        #expect(config.staticProbeInterval == .zero)
        #expect(config.boardCacheStops == 0)
        #expect(config.planBudget == .seconds(60))
    }

    @Test(arguments: [
        (["--max-in-flight", "0"], "--max-in-flight"), (["--idle-timeout", "0"], "--idle-timeout"),
        (["--listen", "7878"], "--listen"), (["--max-unwritten-bytes", "100"], "--max-unwritten-bytes"),
        (["--subscribe", "ipc:///pub"], "--subscribe"),
        (["--plan-budget-ms", "0"], "--plan-budget-ms must be 1…60000"),
        (["--plan-budget-ms", "60001"], "--plan-budget-ms must be 1…60000"),
    ])
    func badValuesNameTheirFlag(flags: [String], named flag: String) {
        do {
            _ = try Serve.parse(["--static", "ipc:///static"] + flags)
            Issue.record("\(flags) was accepted")
        } catch {
            #expect(Serve.message(for: error).contains(flag), "\(Serve.message(for: error))")
        }
    }
}
