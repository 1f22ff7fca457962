// What the three services' command-line mains share: error lines, unbuffered output, signal handlers.
import Foundation
import Synchronization

/// One line on standard error, prefixed with the program's name (e.g. "transit-static: ...").
public func printError(_ message: String) {
    FileHandle.standardError.write(Data("\(programName): \(message)\n".utf8))
}

private let programName = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "transit"

/// Bytes to standard output, unbuffered (answers must not wait in a buffer when piped).
public func writeOut(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
            if n <= 0 {
                if n < 0, errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}

/// Signals delivered to handlers on a serial queue (the default action is disabled first, so the process
/// is not killed before the handler runs). Keep the value alive as long as the handlers should run.
public final class SignalHandlers: Sendable {
    private let queue = DispatchQueue(label: "transit.signals")
    /// Only keeps the sources alive.
    private let sources = Mutex<[any DispatchSourceSignal]>([])

    public init() {}

    public func on(_ signalNumber: Int32, _ handler: @escaping @Sendable () -> Void) {
        signal(signalNumber, SIG_IGN)
        // Made inside the lock: a source made outside could not be moved into the Mutex (it is not Sendable).
        sources.withLock { sources in
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            sources.append(source)
        }
    }
}
