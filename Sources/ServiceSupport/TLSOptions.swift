import ArgumentParser
import Foundation
import NNGKit

/// `--tls-cert`, `--tls-ca`, `--tls-server-name`: the process's certificates for `tls+tcp://` URLs (all
/// three services take them; see NNGTLS). `apply()` before any socket is made.
public struct TLSOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "PEM file with this service's certificate and its unencrypted key, for tls+tcp:// URLs (listeners present it; dialers too: mutual TLS).",
            valueName: "file"))
    public var tlsCert: String?

    @Option(
        help: ArgumentHelp(
            "PEM file of the CA that signs the other services' certificates: with it, every tls+tcp:// peer must present one it signed.",
            valueName: "file"))
    public var tlsCa: String?

    @Option(
        help: ArgumentHelp(
            "The name the services' certificates carry (CN or DNS name), checked when dialing tls+tcp:// URLs (default: the URL's host; mbedTLS does not match IP addresses).",
            valueName: "name"))
    public var tlsServerName: String?

    public init() {}

    public func validate() throws {
        for (flag, file) in [("--tls-cert", tlsCert), ("--tls-ca", tlsCa)] {
            if let file, !FileManager.default.isReadableFile(atPath: file) {
                throw ValidationError("\(flag): cannot read \(file)")
            }
        }
    }

    /// Makes these the process's TLS settings (when any is given).
    public func apply() {
        guard tlsCert != nil || tlsCa != nil || tlsServerName != nil else { return }
        NNGTLS.process = NNGTLS(certKeyFile: tlsCert, caFile: tlsCa, serverName: tlsServerName)
    }
}
