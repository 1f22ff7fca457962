import Foundation
import Synchronization

/// TCP ports on 127.0.0.1 that nothing is bound to right now, for tests that must pass a port to a child process
/// before it starts. They lie outside the kernel's ephemeral range (`ip_local_port_range`, 32768–60999 by
/// default): a port from there (as `bind` to port 0 gives) may meanwhile become the source port of any outgoing
/// connection on the machine, and a service that binds late (a standby when it is elected, a service restarted
/// after a kill) then cannot. scripts/faults-ha failed that way once in CI; scripts/localports.py is the same
/// choice for the scripts.
public enum FreePort {
    /// One free port.
    public static func tcp() throws -> Int {
        try block(offsets: [0])
    }

    /// `tcp://127.0.0.1:<a free port>`, an nng URL.
    public static func tcpURL() throws -> String { "tcp://127.0.0.1:\(try tcp())" }

    /// A port `p` such that `p + offset` is free now for every offset (the launcher's ports from its --port).
    /// Bases are taken in turn from a random start, so one test process never hands out a port twice before
    /// the whole range has gone round (a port given out but not bound yet would look free again).
    public static func block(offsets: [Int]) throws -> Int {
        let span = offsets.max() ?? 0
        let ephemeral = ephemeralRange()
        let bounds = [(10_000, ephemeral.lowerBound - 1 - span), (ephemeral.upperBound + 1, 65_535 - span)]
            .filter { $0.0 <= $0.1 }
        let size = bounds.reduce(0) { $0 + $1.1 - $1.0 + 1 }
        guard size > 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        for _ in 0..<100 {
            var index = cursor.add(span + 1, ordering: .relaxed).oldValue % size
            var base = bounds[0].0
            for (first, last) in bounds {
                if index <= last - first {
                    base = first + index
                    break
                }
                index -= last - first + 1
            }
            if offsets.allSatisfy({ isFree(base + $0) }) { return base }
        }
        throw POSIXError(.EADDRINUSE)
    }

    private static let cursor = Atomic<Int>(Int.random(in: 0..<1_000_000))

    /// The ports `connect` picks source ports from.
    static func ephemeralRange() -> ClosedRange<Int> {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return 32_768...60_999 }
        return bounds[0]...bounds[1]
    }

    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return bindLoopback(fd, port: port) != nil
    }
}

/// Binds `fd` to 127.0.0.1:`port` (0: a port the kernel picks); the port bound, or nil when the bind failed.
private func bindLoopback(_ fd: Int32, port: Int) -> Int? {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
}

/// A TCP port on 127.0.0.1 held bound without listening: a connection to it is refused for as long as this
/// lives (a port merely released, as `FreePort` gives, may be taken by another test's listener meanwhile: a
/// "nothing listens there" test then connects to a stranger).
public final class RefusingPort: Sendable {
    public let port: Int
    private let fd: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard let port = bindLoopback(fd, port: 0) else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.fd = fd
        self.port = port
    }

    deinit { close(fd) }
}
