import Foundation
import Logging
import StaticService
import TransitStore
import TransitTesting

@testable import Gateway

/// A static service (in-process, over the sample database) and a gateway on an ephemeral port in front of it.
final class GatewayFixture: @unchecked Sendable {
    // @unchecked: the static server is swapped only by the test that owns the fixture.
    let staticURL: String
    let gateway: GatewayServer
    private(set) var staticServer: StaticServer?

    var port: Int { gateway.port }
    var realtime: RealtimeView { gateway.realtime }

    static let quietLogger: Logger = {
        var logger = Logger(label: "gateway-tests")
        logger.logLevel = .critical
        return logger
    }()

    /// `startStatic: false` points the gateway at a URL where nothing listens (yet); `databasePath`: the static
    /// service serves that database (a test's own feed) instead of the sample one.
    init(
        startStatic: Bool = true, databasePath: String? = nil, realtime: RealtimeView? = nil,
        configure: (inout GatewayConfiguration) -> Void = { _ in }
    )
        async throws
    {
        let url = UniqueURL.ipc("gwt-static")
        staticURL = url
        if startStatic { staticServer = try Self.makeStaticServer(url, databasePath: databasePath) }
        var config = GatewayConfiguration(host: "127.0.0.1", port: 0, staticURL: url, logger: Self.quietLogger)
        configure(&config)
        gateway = try await GatewayServer.start(config: config, realtime: realtime)
    }

    private static func makeStaticServer(_ url: String, databasePath: String? = nil) throws -> StaticServer {
        try StaticServer(
            configuration: .init(databasePath: try databasePath ?? SampleDatabase.path(), listenURL: url, contexts: 4),
            logger: quietLogger)
    }

    /// Starts the static service (again), over the sample database or the one at `databasePath`.
    func startStaticService(databasePath: String? = nil) throws {
        staticServer = try Self.makeStaticServer(staticURL, databasePath: databasePath)
    }

    func stopStaticService() {
        staticServer?.stop()
        staticServer = nil
    }

    func client() throws -> LineClient { try LineClient(port: port) }

    func shutdown() async {
        await gateway.stop()
        stopStaticService()
    }
}

/// Runs `body` with a fixture and always shuts it down.
func withGateway<T>(
    startStatic: Bool = true, databasePath: String? = nil, realtime: RealtimeView? = nil,
    configure: (inout GatewayConfiguration) -> Void = { _ in }, _ body: (GatewayFixture) async throws -> T
) async throws -> T {
    let fixture = try await GatewayFixture(
        startStatic: startStatic, databasePath: databasePath, realtime: realtime, configure: configure)
    do {
        let result = try await body(fixture)
        await fixture.shutdown()
        return result
    } catch {
        await fixture.shutdown()
        throw error
    }
}

/// One answer line as JSON, for assertions.
struct JSONLine: CustomStringConvertible {
    let text: String
    let object: [String: Any]

    init(_ text: String) throws {
        self.text = text
        guard
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
                as? [String: Any]
        else {
            throw NotAnObject(text: text)
        }
        self.object = object
    }

    struct NotAnObject: Error { let text: String }

    var description: String { text }
    var ok: Bool { object["ok"] as? Bool ?? false }
    var data: [String: Any] { object["data"] as? [String: Any] ?? [:] }
    var meta: [String: Any] { object["meta"] as? [String: Any] ?? [:] }
    var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
    var errorMessage: String? { (object["error"] as? [String: Any])?["message"] as? String }
    var id: Any? { object["id"] }
    var event: String? { object["event"] as? String }

    /// `data.<key>` as an array of objects.
    func list(_ key: String) -> [[String: Any]] { data[key] as? [[String: Any]] ?? [] }
}

extension LineClient {
    /// Sends one request line and reads its answer.
    func ask(_ line: String, timeout: Duration = .seconds(5)) async throws -> JSONLine {
        try sendLines([line])
        return try JSONLine(try await readLine(timeout: timeout))
    }
}
