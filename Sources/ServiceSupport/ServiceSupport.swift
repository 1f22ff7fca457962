// What the three services' command-line mains share and their libraries do not do: error lines, unbuffered
// output (here), logging set-up, a log file reopened on demand, one action per signal (the other files).
import Foundation

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
