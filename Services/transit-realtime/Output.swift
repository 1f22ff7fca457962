import Foundation

/// One line on standard error, prefixed with the program's name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("transit-realtime: \(message)\n".utf8))
}

/// Bytes to standard output, unbuffered (answers must not wait in a buffer when piped).
func writeOut(_ bytes: [UInt8]) {
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
