import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP client of the line protocol for tests: raw bytes out, answer lines in. Reads poll without
/// blocking a thread (the gateway's own tasks share the test's cooperative threads).
final class LineClient: @unchecked Sendable {
    // @unchecked: one test uses one client at a time.
    struct Closed: Error, CustomStringConvertible {
        var description: String { "the gateway closed the connection" }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let waited: Duration
        var description: String { "no line within \(waited)" }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var sawEOF = false

    /// `from`: the local IPv4 address to connect from (any 127.x.y.z is loopback: a second "client address").
    /// `receiveBuffer`: a small socket receive buffer, so that a client that does not read stops the gateway's
    /// writes early.
    init(port: Int, from: String? = nil, receiveBuffer: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let from {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(from)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rv = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rv == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// Sends bytes as they are (no terminator added).
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += n
        }
    }

    /// Sends each line followed by "\n", all in one write.
    func sendLines(_ lines: [String]) throws {
        try send(lines.map { $0 + "\n" }.joined())
    }

    /// Half-closes: the gateway sees EOF but may still answer.
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// The next answer line (without "\n").
    func readLine(timeout: Duration = .seconds(5)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            if sawEOF { throw Closed() }
            if try !fill() {
                if ContinuousClock.now >= deadline { throw TimedOut(waited: timeout) }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    /// The next `count` bytes, whatever they hold (an HTTP body).
    func readBytes(_ count: Int, timeout: Duration = .seconds(5)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while buffer.count < count {
            if sawEOF { throw Closed() }
            if try !fill() {
                if ContinuousClock.now >= deadline { throw TimedOut(waited: timeout) }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    func readLines(_ count: Int, timeout: Duration = .seconds(5)) async throws -> [String] {
        var lines: [String] = []
        for _ in 0..<count { lines.append(try await readLine(timeout: timeout)) }
        return lines
    }

    /// Every line until the gateway closes the connection (a last unterminated fragment included).
    func readUntilClosed(timeout: Duration = .seconds(5)) async throws -> [String] {
        var lines: [String] = []
        while true {
            do {
                lines.append(try await readLine(timeout: timeout))
            } catch is Closed {
                if !buffer.isEmpty { lines.append(String(decoding: buffer, as: UTF8.self)) }
                return lines
            }
        }
    }

    /// Whether the gateway closed the connection within `timeout` (what comes meanwhile is kept).
    func waitForClose(timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !sawEOF {
            if try !fill() {
                if ContinuousClock.now >= deadline { return false }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        return true
    }

    /// Reads what is available without waiting; false when nothing was.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n > 0 {
            buffer.append(contentsOf: chunk[..<n])
            return true
        }
        if n == 0 {
            sawEOF = true
            return true
        }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return false }
        if code == ECONNRESET {
            sawEOF = true
            return true
        }
        throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
}
