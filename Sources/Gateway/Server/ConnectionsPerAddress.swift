import NIOCore
import Synchronization

/// Open connections per client address (IP, without the port), so that one client cannot take every
/// connection place. Shared by every connection.
final class ConnectionsPerAddress: Sendable {
    private let open = Mutex<[String: Int]>([:])

    /// The key a connection from `address` counts under; nil when it is not limited (no IP address, or
    /// loopback while loopback is exempt).
    static func key(of address: SocketAddress?, limitLoopback: Bool) -> String? {
        guard let address, let ip = address.ipAddress else { return nil }
        if !limitLoopback, isLoopback(address) { return nil }
        return ip
    }

    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4:
            return address.ipAddress?.hasPrefix("127.") ?? false
        case .v6:
            let ip = address.ipAddress ?? ""
            return ip == "::1" || ip.hasPrefix("::ffff:127.")
        case .unixDomainSocket:
            return true
        }
    }

    /// Counts a connection from `key`; returns how many are open from it now (including this one).
    func opened(_ key: String) -> Int {
        open.withLock { counts in
            let count = (counts[key] ?? 0) + 1
            counts[key] = count
            return count
        }
    }

    func closed(_ key: String) {
        open.withLock { counts in
            let count = (counts[key] ?? 1) - 1
            counts[key] = count > 0 ? count : nil
        }
    }

    /// Client addresses with at least one counted connection.
    var addresses: Int { open.withLock { $0.count } }
}
