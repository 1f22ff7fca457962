import Foundation
import Testing
import TransitTesting

/// The three services linked over nng's TLS transport (tls+tcp:// on loopback), with certificates made by
/// scripts/make-test-certs: the gateway reaches the static and realtime services through mutual TLS; a
/// gateway without the CA cannot (its requests find no static service).
@Suite(
    .enabled(
        if: BuiltExecutables.path("transit-realtime") != nil
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
        "needs the built executables and openssl"))
struct TLSLinksTests {
    @Test func theThreeServicesTalkOverMutualTLS() async throws {
        let folder = try TemporaryFolder("tls")
        let make = try ChildProcess(Repository.path("scripts/make-test-certs"), [folder.path])
        #expect(try await make.waitForExit(timeout: .seconds(30)) == 0, "\(make.stderr)")
        let tls = [
            "--tls-cert", folder.path + "/service.pem", "--tls-ca", folder.path + "/ca.pem",
            "--tls-server-name", "transit-internal",
        ]
        let staticURL = "tls+tcp://127.0.0.1:\(try FreePort.tcp())"
        let repURL = "tls+tcp://127.0.0.1:\(try FreePort.tcp())"
        let pubURL = "tls+tcp://127.0.0.1:\(try FreePort.tcp())"
        let config = try folder.writeIdleRealtimeConfig()

        let staticService = try await ChildProcess.started(
            "transit-static", ["serve", "--db", try SampleDatabase.path(), "--listen", staticURL] + tls)
        defer { staticService.signal(SIGKILL) }
        let realtime = try await ChildProcess.started(
            "transit-realtime",
            [
                "serve", "--config", config, "--static", staticURL, "--listen", repURL,
                "--publish", pubURL,
            ] + tls)
        defer { realtime.signal(SIGKILL) }
        let gateway = try await ChildProcess.started(
            "transit-gateway",
            ["serve", "--static", staticURL, "--realtime", repURL, "--subscribe", pubURL, "--listen", "127.0.0.1:0"]
                + tls)
        defer { gateway.signal(SIGKILL) }
        let port = try #require(gateway.stderr.firstMatch(of: /\bport=(\d+)/).flatMap { Int($0.1) })

        let client = try LineClient(port: port)
        let stop = try await client.ask(#"{"id":1,"op":"stop","stop_id":"200060"}"#)
        #expect(stop.ok, "\(stop)")
        let live = try await eventually(timeout: .seconds(15), interval: .milliseconds(100)) {
            let health = try await client.ask(#"{"id":2,"op":"health"}"#)
            return (health.data["realtime"] as? [String: Any])?["status"] as? String == "ok"
        }
        #expect(live, "the gateway follows the realtime service over TLS")

        // Without the CA (and its own certificate) a gateway cannot verify the static service: no answer.
        let outsider = try await ChildProcess.started(
            "transit-gateway", ["serve", "--static", staticURL, "--listen", "127.0.0.1:0", "--static-timeout", "0.5"])
        defer { outsider.signal(SIGKILL) }
        let outsiderPort = try #require(outsider.stderr.firstMatch(of: /\bport=(\d+)/).flatMap { Int($0.1) })
        let refused = try await LineClient(port: outsiderPort).ask(#"{"id":3,"op":"stop","stop_id":"200060"}"#)
        #expect(refused.errorCode == "STATIC_UNAVAILABLE", "\(refused)")
    }
}
