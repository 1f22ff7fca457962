import Foundation
import Synchronization
import Testing
import TransitTesting

/// A child process for end-to-end tests: its output collected as it comes, waited for without blocking a
/// thread (polling), stopped with a signal.
final class ChildProcess: @unchecked Sendable {
    // @unchecked: `process` and `stdinPipe` are Foundation classes not marked Sendable.
    let process = Process()
    private let output = Mutex<(stdout: Data, stderr: Data)>((Data(), Data()))
    private let stdinPipe = Pipe()

    init(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdinPipe
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            self?.output.withLock { $0.stdout.append(chunk) }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            self?.output.withLock { $0.stderr.append(chunk) }
        }
        try process.run()
        if let stdin {
            stdinPipe.fileHandleForWriting.write(stdin)
            try stdinPipe.fileHandleForWriting.close()
        }
    }

    var stdout: String { output.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    var stderr: String { output.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// Waits until `condition` holds for stderr (a "ready" log line); false on timeout or exit.
    func waitForStderr(timeout: Duration, _ condition: (String) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(stderr) { return true }
            if !process.isRunning { return condition(stderr) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits for the process to exit; its status, or nil on timeout.
    func waitForExit(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(10))
        }
        // Let the readability handlers drain the pipes.
        try await Task.sleep(for: .milliseconds(50))
        return process.terminationStatus
    }

    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    func stop() async {
        signal(SIGTERM)
        if try! await waitForExit(timeout: .seconds(5)) == nil {
            signal(SIGKILL)
            _ = try? await waitForExit(timeout: .seconds(5))
        }
    }
}

extension ChildProcess {
    /// Starts the built executable `name` and waits until its standard error says `marker` (a service's
    /// " ready" line); kills it and fails the test when it does not within `timeout`.
    static func started(
        _ name: String, _ arguments: [String], until marker: String = " ready", timeout: Duration = .seconds(20)
    ) async throws -> ChildProcess {
        let child = try ChildProcess(BuiltExecutables.path(name)!, arguments)
        let ready = try await child.waitForStderr(timeout: timeout) { $0.contains(marker) }
        if !ready { child.signal(SIGKILL) }
        try #require(ready, "\(name) did not say \(marker): \(child.stderr)")
        return child
    }
}

extension BuiltExecutables {
    static var netcat: String? {
        ["/usr/bin/nc", "/bin/nc"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var available: Bool { path("transit-gateway") != nil && path("transit-static") != nil }
}
