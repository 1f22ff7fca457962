import Foundation

/// A TCP port on 127.0.0.1 that nothing listens on right now (bound to port 0, read back, released), for
/// tests that must pass a port to a child process before it starts.
public enum FreePort {
    public static func tcp() throws -> Int {
        try RefusingPort().port  // released as it goes
    }
}

/// A TCP port on 127.0.0.1 held bound without listening: a connection to it is refused for as long as this
/// lives (a port merely released, as `FreePort` gives, may be taken by another test's listener meanwhile: a
/// "nothing listens there" test then connects to a stranger).
public final class RefusingPort: Sendable {
    public let port: Int
    private let fd: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
