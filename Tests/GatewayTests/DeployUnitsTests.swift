import Foundation
import Testing
import TransitTesting

/// deploy/'s systemd units pass `systemd-analyze verify` with no complaint (it exits 0 even for unknown keys,
/// so any output fails the test). The units name /usr/local/bin; the test points them at the built
/// executables, and gives the templates an instance (a port).
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") && BuiltExecutables.available,
        "needs systemd-analyze and the built executables"))
struct DeployUnitsTests {
    @Test func theSystemdUnitsVerify() async throws {
        let folder = try TemporaryFolder()
        let bin = try #require(BuiltExecutables.path("transit-gateway")).split(separator: "/").dropLast()
            .joined(separator: "/")
        let units = try FileManager.default.contentsOfDirectory(atPath: Repository.path("deploy"))
            .filter { $0.hasSuffix(".service") }.sorted()
        #expect(
            units == [
                "transit-gateway@.service", "transit-realtime.service", "transit-refresh.service",
                "transit-static@.service",
            ])
        var paths: [String] = []
        for unit in units {
            let text = try String(contentsOfFile: Repository.path("deploy/\(unit)"), encoding: .utf8)
            #expect(text.contains("User=transit"), "\(unit) runs as the unprivileged user")
            #expect(text.contains("Restart=always"), "\(unit) is restarted")
            #expect(text.contains("RuntimeDirectory="), "\(unit) has a runtime folder")
            let path = folder.path + "/" + unit.replacingOccurrences(of: "@.", with: "@7001.")
            try text.replacingOccurrences(of: "/usr/local/bin/", with: "/\(bin)/")
                .write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let child = try ChildProcess("/usr/bin/systemd-analyze", ["verify", "--man=no"] + paths)
        let status = try await child.waitForExit(timeout: .seconds(30))
        #expect(status == 0)
        #expect(child.stdout.isEmpty && child.stderr.isEmpty, "systemd-analyze: \(child.stdout)\(child.stderr)")
    }
}

/// deploy/haproxy.cfg is a configuration Debian's HAProxy accepts (`haproxy -c`).
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/haproxy"),
        "haproxy is not installed (scripts/install-deps --test installs it)"))
struct HAProxyConfigurationTests {
    @Test func theHAProxyConfigurationIsValid() async throws {
        let child = try ChildProcess("/usr/sbin/haproxy", ["-c", "-f", Repository.path("deploy/haproxy.cfg")])
        let status = try await child.waitForExit(timeout: .seconds(30))
        #expect(status == 0, "haproxy -c: \(child.stdout)\(child.stderr)")
        #expect(child.stdout.contains("Configuration file is valid"))
    }
}
