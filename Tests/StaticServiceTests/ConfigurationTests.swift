import ArgumentParser
import Foundation
import StaticService
import Testing

@testable import transit_static

/// `StaticServiceConfiguration`'s defaults are the documented ones, and `transit-static serve` maps its flags onto
/// it.
@Suite struct StaticServiceConfigurationTests {
    @Test func defaultsAreTheDocumentedOnes() {
        let config = StaticServiceConfiguration(databasePath: "static.db", listenURL: "ipc:///static")
        #expect(config.contexts == 8)
        #expect(config.watchInterval == .zero)
        #expect(config.replicaName == nil)
        #expect(config.realtimeURL == nil && config.subscribeURL == nil)
        #expect(config.realtimeSilence == .seconds(15))
    }

    /// Without flags the command's configuration is the struct's defaults (the flags read them), except the
    /// replica name, which the command makes host:pid.
    @Test func flagDefaultsAreTheStructs() throws {
        let config = try ServeCommand.parse(["--db", "static.db", "--listen", "ipc:///static"]).configuration()
        #expect(config.databasePath == "static.db" && config.listenURL == "ipc:///static")
        #expect(config.contexts == StaticServiceConfiguration.Defaults.contexts)
        #expect(config.watchInterval == StaticServiceConfiguration.Defaults.watchInterval)
        #expect(config.replicaName?.hasSuffix(":\(getpid())") == true)
        #expect(config.realtimeURL == nil && config.subscribeURL == nil)
        #expect(config.realtimeSilence == StaticServiceConfiguration.Defaults.realtimeSilence)
    }

    @Test func flagsMapOntoTheConfiguration() throws {
        let config = try ServeCommand.parse([
            "--db", "a.db", "--listen", "tcp://127.0.0.1:5555", "--contexts", "3", "--watch-interval", "0.25",
            "--name", "replica-2", "--realtime", "ipc:///rt", "--subscribe", "ipc:///pub", "--realtime-silence", "2.5",
        ]).configuration()
        #expect(config.realtimeURL == "ipc:///rt" && config.subscribeURL == "ipc:///pub")
        #expect(config.realtimeSilence == .milliseconds(2500))
        #expect(config.contexts == 3)
        #expect(config.watchInterval == .milliseconds(250))
        #expect(config.replicaName == "replica-2")
    }

    @Test(arguments: [
        (["--contexts", "0"], "--contexts"), (["--contexts", "257"], "--contexts"),
        (["--watch-interval", "inf"], "--watch-interval"), (["--name", ""], "--name"),
        (["--subscribe", "ipc:///pub"], "--subscribe"), (["--realtime-silence", "0"], "--realtime-silence"),
    ])
    func badValuesNameTheirFlag(flags: [String], named flag: String) {
        do {
            _ = try ServeCommand.parse(["--db", "a.db", "--listen", "ipc:///static"] + flags)
            Issue.record("\(flags) was accepted")
        } catch {
            #expect(ServeCommand.message(for: error).contains(flag), "\(ServeCommand.message(for: error))")
        }
    }
}
