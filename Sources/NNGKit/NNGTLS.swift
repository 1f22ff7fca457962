import CNNG
import Synchronization

/// Certificates for `tls+tcp://` URLs (nng's TLS transport; Debian's libnng links mbedTLS). Set once per
/// process by the service's main (`--tls-cert`, `--tls-ca`, `--tls-server-name`) before any socket is made:
/// every `tls+tcp://` listen and dial of the process then uses it, whichever component opens the socket — the
/// way a process has one identity on the internal network. Other URLs are unaffected.
///
/// - `certKeyFile`: PEM holding this process's certificate and its (unencrypted) key: a listener presents it;
///   a dialer presents it too (mutual TLS).
/// - `caFile`: PEM of the CA that signs the peers: with it, listeners and dialers both require a peer
///   certificate it signed (a peer without one is refused).
/// - `serverName`: the name a dialer expects in the listener's certificate (mbedTLS checks the CN / DNS names,
///   not IP addresses, so loopback and IP URLs need it); nil: the URL's host.
public struct NNGTLS: Sendable, Equatable {
    public var certKeyFile: String?
    public var caFile: String?
    public var serverName: String?

    public init(certKeyFile: String? = nil, caFile: String? = nil, serverName: String? = nil) {
        self.certKeyFile = certKeyFile
        self.caFile = caFile
        self.serverName = serverName
    }

    private static let current = Mutex<NNGTLS?>(nil)

    /// The process's TLS settings. nil: none; a `tls+tcp://` listener then has no certificate (it cannot
    /// accept), and a dialer cannot verify its peer (nng's dialers require verification), so it never connects.
    public static var process: NNGTLS? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    static func isTLS(_ url: String) -> Bool { url.hasPrefix("tls+") }
}

extension NNGSocket {
    /// `nng_listen` through a listener object, so the TLS options can be set before it starts.
    func listenTLS(_ url: String, _ tls: NNGTLS) throws(NNGError) {
        var listener = nng_listener()
        try check("\(protocolName) listen \(url)", nng_listener_create(&listener, handle, url))
        do throws(NNGError) {
            if let file = tls.certKeyFile {
                try check(
                    "\(protocolName) listen \(url): certificate \(file)",
                    nng_listener_set_string(listener, NNG_OPT_TLS_CERT_KEY_FILE, file))
            }
            if let file = tls.caFile {
                try check(
                    "\(protocolName) listen \(url): CA \(file)",
                    nng_listener_set_string(listener, NNG_OPT_TLS_CA_FILE, file))
                try check(
                    "\(protocolName) listen \(url): peer verification",
                    nng_listener_set_int(listener, NNG_OPT_TLS_AUTH_MODE, Int32(NNG_TLS_AUTH_MODE_REQUIRED.rawValue)))
            }
            try check("\(protocolName) listen \(url)", nng_listener_start(listener, 0))
        } catch {
            nng_listener_close(listener)
            throw error
        }
    }

    /// `nng_dial` through a dialer object, so the TLS options can be set before it starts (non-blocking).
    func dialTLS(_ url: String, _ tls: NNGTLS, flags: Int32) throws(NNGError) {
        var dialer = nng_dialer()
        try check("\(protocolName) dial \(url)", nng_dialer_create(&dialer, handle, url))
        do throws(NNGError) {
            if let file = tls.caFile {
                try check(
                    "\(protocolName) dial \(url): CA \(file)",
                    nng_dialer_set_string(dialer, NNG_OPT_TLS_CA_FILE, file))
            }
            if let file = tls.certKeyFile {
                try check(
                    "\(protocolName) dial \(url): certificate \(file)",
                    nng_dialer_set_string(dialer, NNG_OPT_TLS_CERT_KEY_FILE, file))
            }
            if let name = tls.serverName {
                try check(
                    "\(protocolName) dial \(url): server name",
                    nng_dialer_set_string(dialer, NNG_OPT_TLS_SERVER_NAME, name))
            }
            try check("\(protocolName) dial \(url)", nng_dialer_start(dialer, flags))
        } catch {
            nng_dialer_close(dialer)
            throw error
        }
    }
}
