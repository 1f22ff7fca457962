#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The PROXY protocol version 2 header a proxy (HAProxy `send-proxy-v2`) puts before a connection's bytes: the
/// client's real address (haproxy.org/download/2.9/doc/proxy-protocol.txt §2.2). Pure parsing of the
/// connection's first bytes (`ProxyHeaderHandler` feeds them); version 1 (text) is not accepted.
struct ProxyHeader: Equatable, Sendable {
    /// The client as the proxy saw it; nil for a `LOCAL` header (the proxy's own health check) or an address
    /// family the gateway does not count by (UNSPEC, unix sockets): the peer address counts then.
    var source: Source?
    /// Bytes of the header, to drop before the connection's own bytes.
    var length: Int

    struct Source: Equatable, Sendable {
        /// 4 (IPv4) or 16 (IPv6) bytes, network order.
        var address: [UInt8]
        var port: UInt16

        /// The address as text, as the gateway names peers (`192.0.2.1`, `2001:db8::1`).
        var text: String {
            var out = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let family = address.count == 4 ? AF_INET : AF_INET6
            let ok = address.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &out, socklen_t(out.count)) }
            guard ok != nil else { return "?" }
            return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    enum Parse: Equatable {
        /// Not enough bytes yet (none of them contradicts a header).
        case needMore
        case header(ProxyHeader)
        /// Not a PROXY v2 header (the connection is refused).
        case invalid(String)
    }

    static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]

    /// Reads a header from the start of `bytes`.
    static func parse(_ bytes: some Collection<UInt8>) -> Parse {
        let b = Array(bytes.prefix(16))
        for (i, byte) in b.prefix(12).enumerated() where byte != signature[i] {
            return .invalid("the connection did not start with a PROXY protocol v2 header")
        }
        guard b.count >= 16 else { return .needMore }
        let version = b[12] >> 4
        let command = b[12] & 0x0F
        guard version == 2 else { return .invalid("PROXY protocol version \(version), expected 2") }
        guard command <= 1 else { return .invalid("PROXY protocol command \(command) (expected LOCAL or PROXY)") }
        let family = b[13] >> 4
        let addressBytes = Int(b[14]) << 8 | Int(b[15])
        let length = 16 + addressBytes
        guard bytes.count >= length else { return .needMore }
        guard command == 1 else { return .header(ProxyHeader(source: nil, length: length)) }
        let block = Array(bytes.dropFirst(16).prefix(addressBytes))
        switch family {
        case 1:  // AF_INET: source 4, destination 4, source port 2, destination port 2
            guard block.count >= 12 else { return .invalid("PROXY v2 IPv4 address block of \(block.count) bytes") }
            let port = UInt16(block[8]) << 8 | UInt16(block[9])
            return .header(ProxyHeader(source: Source(address: Array(block[0..<4]), port: port), length: length))
        case 2:  // AF_INET6: source 16, destination 16, ports 2 + 2
            guard block.count >= 36 else { return .invalid("PROXY v2 IPv6 address block of \(block.count) bytes") }
            let port = UInt16(block[32]) << 8 | UInt16(block[33])
            return .header(ProxyHeader(source: Source(address: Array(block[0..<16]), port: port), length: length))
        default:
            return .header(ProxyHeader(source: nil, length: length))
        }
    }
}
