import ArgumentParser
import GTFSRealtime
import Testing

@testable import RealtimeService
@testable import transit_realtime

/// `RealtimeServiceConfiguration`'s defaults are the documented ones, and `transit-realtime serve` maps its flags
/// onto it.
@Suite struct RealtimeServiceConfigurationTests {
    static let required = [
        "--config", "realtime.json", "--static", "ipc:///static", "--listen", "ipc:///rep", "--publish", "ipc:///pub",
    ]

    @Test func defaultsAreTheDocumentedOnes() {
        let config = RealtimeServiceConfiguration(
            sourcesConfigPath: "realtime.json", staticURL: "ipc:///static", listenURL: "ipc:///rep",
            publishURL: "ipc:///pub")
        #expect(config.defaultTimeZone == "Australia/Sydney")
        #expect(config.defaultStaleAfterSecs == nil)
        #expect(config.minMatchRate == 0.5)
        #expect(config.delayStorePath == nil)
        #expect(config.standby == nil)
        #expect(config.heartbeatInterval == .seconds(2))
        #expect(config.tickInterval == .seconds(1))
        #expect(config.staticTimeout == .seconds(2))
        #expect(config.engine.maxFeedBytes == GTFSRealtimeCodec.defaultMaxBytes)
        #expect(config.engine.versionCheckSecs == 30)
        #expect(config.engine.scheduleChunk == 10_000)
        let standby = RealtimeServiceConfiguration.Standby(peerURL: "ipc:///peer")
        #expect(standby.takeoverAfter == .seconds(6))
        #expect(standby.startsAsStandby == false)
    }

    /// Without flags the command's configuration is the struct's defaults (the flags read them).
    @Test func flagDefaultsAreTheStructs() throws {
        let config = try ServeCommand.parse(Self.required).configuration()
        #expect(config.sourcesConfigPath == "realtime.json" && config.staticURL == "ipc:///static")
        #expect(config.listenURL == "ipc:///rep" && config.publishURL == "ipc:///pub")
        #expect(config.defaultTimeZone == RealtimeServiceConfiguration.Defaults.defaultTimeZone)
        #expect(config.defaultStaleAfterSecs == nil && config.delayStorePath == nil && config.standby == nil)
        #expect(config.minMatchRate == RealtimeServiceConfiguration.Defaults.minMatchRate)
    }

    /// --min-match-rate reaches every source's settings as per-mille (outside 0…1 it is refused, naming the flag:
    /// `badValuesNameTheirFlag`).
    @Test func theMinimumMatchRateIsAShareAndReachesTheSources() throws {
        let config = try ServeCommand.parse(Self.required + ["--min-match-rate", "0.8"]).configuration()
        #expect(config.minMatchRate == 0.8)
        #expect(config.minMatchPermille == 800)
    }

    @Test func flagsMapOntoTheConfiguration() throws {
        let config = try ServeCommand.parse(
            Self.required + [
                "--peer", "ipc:///peer", "--takeover-after", "4.5", "--standby", "--stale-after", "120",
                "--default-time-zone", "Europe/Berlin", "--delay-store", "delays.db",
            ]
        ).configuration()
        #expect(config.standby?.peerURL == "ipc:///peer")
        #expect(config.standby?.takeoverAfter == .milliseconds(4500))
        #expect(config.standby?.startsAsStandby == true)
        #expect(config.defaultStaleAfterSecs == 120)
        #expect(config.defaultTimeZone == "Europe/Berlin")
        #expect(config.delayStorePath == "delays.db")
        let withoutStandby = try ServeCommand.parse(Self.required + ["--peer", "ipc:///peer"]).configuration()
        #expect(withoutStandby.standby?.takeoverAfter == RealtimeServiceConfiguration.Defaults.takeoverAfter)
        #expect(withoutStandby.standby?.startsAsStandby == false)
    }

    @Test(arguments: [
        (["--takeover-after", "2"], "--takeover-after"), (["--standby"], "--standby"),
        (["--stale-after", "0"], "--stale-after"), (["--default-time-zone", "Mars/Olympus"], "--default-time-zone"),
        (["--min-match-rate", "1.5"], "--min-match-rate"), (["--min-match-rate=-0.1"], "--min-match-rate"),
    ])
    func badValuesNameTheirFlag(flags: [String], named flag: String) {
        do {
            _ = try ServeCommand.parse(Self.required + flags)
            Issue.record("\(flags) was accepted")
        } catch {
            #expect(ServeCommand.message(for: error).contains(flag), "\(ServeCommand.message(for: error))")
        }
    }
}
