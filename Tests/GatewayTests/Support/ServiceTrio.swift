import Foundation
import Testing
import TransitTesting

/// The three services as processes on ipc with one service clock: the static service over `db` (its planner
/// following the realtime trip updates, `staticArguments` added), the realtime service with the config file `realtimeConfig` (and `realtimeArguments`), and a gateway on a free loopback
/// port. What the replay end-to-end tests share; each stops them with `kill()` (or SIGTERM, to check a clean
/// exit).
struct ServiceTrio {
    let staticService: ChildProcess
    let realtime: ChildProcess
    let gateway: ChildProcess
    let port: Int

    /// The three, started in order; the ones already started are killed when a later one fails to start.
    static func started(
        db: String, realtimeConfig: String, clock: [String], realtimeArguments: [String] = [],
        staticArguments: [String] = [], urlPrefix: String
    ) async throws -> ServiceTrio {
        let staticURL = UniqueURL.ipc(urlPrefix + "s"), repURL = UniqueURL.ipc(urlPrefix + "r")
        let pubURL = UniqueURL.ipc(urlPrefix + "p")
        let staticService = try await ChildProcess.started(
            "transit-static",
            ["serve", "--db", db, "--listen", staticURL, "--realtime", repURL, "--subscribe", pubURL]
                + staticArguments + clock)
        var started = [staticService]
        do {
            let realtime = try await ChildProcess.started(
                "transit-realtime",
                [
                    "serve", "--config", realtimeConfig, "--static", staticURL, "--listen", repURL, "--publish",
                    pubURL,
                ] + realtimeArguments + clock)
            started.append(realtime)
            let gateway = try await ChildProcess.started(
                "transit-gateway",
                [
                    "serve", "--static", staticURL, "--realtime", repURL, "--subscribe", pubURL, "--listen",
                    "127.0.0.1:0",
                ] + clock)
            started.append(gateway)
            let port = try #require(gateway.stderr.firstMatch(of: /port=(\d+)/).flatMap { Int($0.1) })
            return ServiceTrio(staticService: staticService, realtime: realtime, gateway: gateway, port: port)
        } catch {
            for child in started { child.signal(SIGKILL) }
            throw error
        }
    }

    /// Gateway first, then the realtime and the static service.
    var all: [ChildProcess] { [gateway, realtime, staticService] }

    func kill() { for child in all { child.signal(SIGKILL) } }
}
