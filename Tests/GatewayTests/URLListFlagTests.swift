import Foundation
import NNGKit
import Testing
import TransitTesting

/// `--static`, `--realtime` and `--subscribe` take several nng URLs separated by commas; a value that names
/// none is refused at start with a message naming the flag (it used to reach an assertion and crash).
@Suite(.enabled(if: BuiltExecutables.path("transit-realtime") != nil, "build the executables first (swift build)"))
struct URLListFlagTests {
    private func refused(_ name: String, _ arguments: [String], naming flag: String) async throws {
        let child = try ChildProcess(BuiltExecutables.path(name)!, arguments)
        let status = try await child.waitForExit(timeout: .seconds(10))
        #expect(status == 64, "\(name) \(arguments): exit \(String(describing: status)), \(child.stderr)")
        #expect(child.stderr.contains("\(flag) needs at least one nng URL"), "\(child.stderr)")
    }

    @Test func aListWithoutAURLIsRefusedWithAMessage() async throws {
        try await refused("transit-gateway", ["serve", "--static", " , "], naming: "--static")
        try await refused(
            "transit-gateway",
            ["serve", "--static", "ipc:///tmp/x.sock", "--realtime", ",", "--subscribe", "ipc:///y"],
            naming: "--realtime")
        try await refused(
            "transit-realtime",
            [
                "serve", "--config", "/nonexistent.json", "--static", ",", "--listen", "ipc:///a", "--publish",
                "ipc:///b",
            ],
            naming: "--static")
    }

    @Test func aBoardCacheWithoutWindowsIsRefusedWithAMessage() async throws {
        for flag in ["--board-cache-windows", "--board-windows-per-stop"] {
            let child = try ChildProcess(
                BuiltExecutables.path("transit-gateway")!, ["serve", "--static", "ipc:///tmp/x.sock", flag, "0"])
            let status = try await child.waitForExit(timeout: .seconds(10))
            #expect(status == 64, "\(flag) 0: exit \(String(describing: status)), \(child.stderr)")
            #expect(child.stderr.contains(flag) && child.stderr.contains("at least 1"), "\(child.stderr)")
        }
    }

    @Test func theListIsSplitOnCommasWithoutSpacesOrEmptyEntries() {
        #expect(NNGURLList.split(" tcp://a:1 ,, tcp://b:2,") == ["tcp://a:1", "tcp://b:2"])
    }
}
