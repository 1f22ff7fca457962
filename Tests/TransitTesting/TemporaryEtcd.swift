import Foundation

/// A one-member etcd (Debian's `etcd-server`) for a test: free loopback ports, its own data folder, killed and
/// removed with the value. Tests that need it skip when the binary is absent (`TemporaryEtcd.binary`).
public final class TemporaryEtcd: @unchecked Sendable {
    // @unchecked: `process` is a Foundation class not marked Sendable; it is only signalled.
    /// The etcd executable, or nil when it is not installed (`scripts/install-deps --test` installs it).
    public static let binary: String? = ["/usr/bin/etcd", "/usr/local/bin/etcd"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    public let folder: TemporaryFolder
    public let clientPort: Int
    private let process = Process()

    /// `http://127.0.0.1:port`.
    public var endpoint: String { "http://127.0.0.1:\(clientPort)" }
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Starts etcd and waits until it answers (up to `timeout`).
    public init(timeout: Duration = .seconds(20)) async throws {
        guard let binary = Self.binary else { throw EtcdStartError(message: "etcd is not installed") }
        folder = try TemporaryFolder("etcd")
        clientPort = try FreePort.tcp()
        let peerPort = try FreePort.tcp()
        let peer = "http://127.0.0.1:\(peerPort)"
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--name", "test", "--data-dir", folder.path("data"),
            "--listen-client-urls", endpoint, "--advertise-client-urls", endpoint,
            "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
            "--initial-cluster", "test=\(peer)", "--initial-cluster-state", "new",
            // A starved member on a shared machine must not lose its own leadership.
            "--heartbeat-interval", "200", "--election-timeout", "1500",
        ]
        let log = folder.path("etcd.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                throw EtcdStartError(
                    message:
                        "etcd exited: \(String(decoding: (try? folder.contents("etcd.log")) ?? Data(), as: UTF8.self).suffix(800))"
                )
            }
            let text = String(decoding: (try? folder.contents("etcd.log")) ?? Data(), as: UTF8.self)
            if text.contains("ready to serve client requests") { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(process.processIdentifier, SIGKILL)
        throw EtcdStartError(message: "etcd did not become ready within \(timeout)")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

public struct EtcdStartError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
