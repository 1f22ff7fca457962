import Foundation

/// Where an etcd cluster is and how to authenticate to it (`--election etcd://a:2379,b:2379`, its user and password,
/// its client TLS files).
public struct EtcdConfiguration: Sendable, Equatable {
    /// The members' client URLs (`http://host:port` or `https://host:port`), tried in turn.
    public var endpoints: [String]
    /// etcd's user authentication (`etcdctl user add`); nil: none.
    public var username: String?
    public var password: String?
    /// Client TLS (etcd's `--client-cert-auth`, `--trusted-ca-file`); nil: plain HTTP.
    public var tls: TLSFiles?
    /// One request's timeout (a keep-alive that takes longer counts as failed).
    public var requestTimeout: Duration

    /// PEM files of etcd's client TLS.
    public struct TLSFiles: Sendable, Equatable {
        /// The CA that signed etcd's server certificates; nil: the system's roots.
        public var caPath: String?
        /// This client's certificate and key (etcd's `--client-cert-auth`); nil: none.
        public var certificatePath: String?
        public var keyPath: String?

        public init(caPath: String? = nil, certificatePath: String? = nil, keyPath: String? = nil) {
            self.caPath = caPath
            self.certificatePath = certificatePath
            self.keyPath = keyPath
        }
    }

    public init(
        endpoints: [String], username: String? = nil, password: String? = nil, tls: TLSFiles? = nil,
        requestTimeout: Duration = .seconds(1)
    ) {
        self.endpoints = endpoints
        self.username = username
        self.password = password
        self.tls = tls
        self.requestTimeout = requestTimeout
    }

    /// The endpoints of `etcd://host:port[,host:port…]` (plain HTTP) or `etcds://…` (HTTPS); a bare
    /// `host:port[,…]` is plain HTTP too. Throws a message naming what is wrong.
    public static func endpoints(of spec: String) throws(EtcdError) -> [String] {
        var rest = Substring(spec)
        var scheme = "http"
        if rest.hasPrefix("etcd://") {
            rest = rest.dropFirst("etcd://".count)
        } else if rest.hasPrefix("etcds://") {
            rest = rest.dropFirst("etcds://".count)
            scheme = "https"
        } else if rest.contains("://") {
            throw .configuration("expected etcd://host:port[,host:port…] or etcds://…, got \"\(spec)\"")
        }
        let members = rest.split(separator: ",", omittingEmptySubsequences: false)
        var endpoints: [String] = []
        for member in members {
            let trimmed = member.trimmingCharacters(in: .whitespaces)[...]
            guard let colon = trimmed.lastIndex(of: ":"), colon != trimmed.startIndex,
                let port = Int(trimmed[trimmed.index(after: colon)...]), (1...65535).contains(port),
                !trimmed[..<colon].contains("/")
            else {
                throw .configuration("etcd endpoint \"\(trimmed)\" in \"\(spec)\" is not host:port")
            }
            endpoints.append("\(scheme)://\(trimmed)")
        }
        return endpoints
    }
}
