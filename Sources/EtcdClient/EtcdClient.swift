import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOSSL
import Synchronization

/// What went wrong talking to etcd.
public enum EtcdError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A bad `--election` value or TLS file.
    case configuration(String)
    /// No endpoint answered (each one's failure, in order).
    case unreachable([String])
    /// etcd answered with an error (its gRPC code and message), e.g. a wrong password.
    case refused(code: Int, message: String)
    /// An answer that is not etcd's JSON.
    case malformed(String)

    public var description: String {
        switch self {
        case .configuration(let message): "etcd configuration: \(message)"
        case .unreachable(let failures): "no etcd endpoint answered: \(failures.joined(separator: "; "))"
        case .refused(let code, let message): "etcd refused the request (code \(code)): \(message)"
        case .malformed(let message): "etcd answered something unreadable: \(message)"
        }
    }
}

/// A key as etcd holds it.
public struct EtcdKeyValue: Sendable, Equatable {
    public var key: [UInt8]
    public var value: [UInt8]
    /// The revision that created the key (its current incarnation): strictly increasing across incarnations.
    public var createRevision: Int64
    public var modRevision: Int64
    /// The lease the key lives under; 0: none.
    public var lease: Int64

    public init(key: [UInt8], value: [UInt8], createRevision: Int64, modRevision: Int64, lease: Int64) {
        self.key = key
        self.value = value
        self.createRevision = createRevision
        self.modRevision = modRevision
        self.lease = lease
    }
}

/// One endpoint as the client last found it (`health` and `stats` show it).
public struct EtcdEndpointState: Sendable, Equatable {
    public var url: String
    /// nil: never asked.
    public var reachable: Bool?
    /// The last failure's message (kept after a recovery); nil: none.
    public var lastError: String?
}

/// A small client of etcd's v3 JSON gateway (no gRPC): leases, one compare-and-create transaction, reads.
/// Each request goes to the endpoint that answered last; one that fails (cannot connect, times out, or
/// answers 5xx: a member without quorum says "unavailable") is skipped for the next, in order, within the
/// same call. With a user and password it authenticates first and again when etcd says the token expired.
public final class EtcdClient: Sendable {
    public let configuration: EtcdConfiguration
    private let http: HTTPClient
    private let tls: TLSConfiguration?
    private struct State {
        var preferred = 0
        var token: String?
        var endpoints: [EtcdEndpointState]
    }
    private let state: Mutex<State>

    /// Reads the TLS files now (a missing or bad file throws `.configuration`).
    public init(configuration: EtcdConfiguration, httpClient: HTTPClient = .shared) throws(EtcdError) {
        guard !configuration.endpoints.isEmpty else { throw .configuration("no etcd endpoint given") }
        self.configuration = configuration
        self.http = httpClient
        if let files = configuration.tls {
            do {
                var tls = TLSConfiguration.makeClientConfiguration()
                if let ca = files.caPath {
                    tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(ca))
                }
                if let cert = files.certificatePath, let key = files.keyPath {
                    tls.certificateChain = try NIOSSLCertificate.fromPEMFile(cert).map { .certificate($0) }
                    tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
                } else if (files.certificatePath == nil) != (files.keyPath == nil) {
                    throw EtcdError.configuration("a client certificate needs both its certificate and key files")
                }
                self.tls = tls
            } catch let error as EtcdError {
                throw error
            } catch {
                throw .configuration("cannot read the etcd TLS files: \(error)")
            }
        } else {
            self.tls = nil
        }
        state = Mutex(
            State(endpoints: configuration.endpoints.map { EtcdEndpointState(url: $0, reachable: nil, lastError: nil) })
        )
    }

    /// Each endpoint's last known state.
    public var endpointStates: [EtcdEndpointState] { state.withLock { $0.endpoints } }

    // MARK: leases

    /// Grants a lease of `ttl` seconds; returns its id.
    public func grantLease(ttlSeconds: Int64) async throws(EtcdError) -> Int64 {
        let answer: LeaseResponse = try await call("/v3/lease/grant", LeaseGrantRequest(ttl: EtcdInt(ttlSeconds)))
        if let error = answer.error, !error.isEmpty { throw .refused(code: 0, message: error) }
        guard let id = answer.id?.value, id != 0 else { throw .malformed("lease grant without an ID") }
        return id
    }

    /// Renews a lease; returns its TTL in seconds from now, 0 when it has expired (or never existed).
    public func keepAlive(lease: Int64) async throws(EtcdError) -> Int64 {
        let answer: LeaseKeepAliveStreamed = try await call("/v3/lease/keepalive", LeaseIDRequest(id: EtcdInt(lease)))
        guard let result = answer.result else { throw .malformed("lease keep-alive without a result") }
        return result.ttl?.value ?? 0
    }

    /// Revokes a lease (its keys are deleted at once). An unknown lease is not an error.
    public func revoke(lease: Int64) async throws(EtcdError) {
        do throws(EtcdError) {
            let _: LeaseResponse = try await call("/v3/lease/revoke", LeaseIDRequest(id: EtcdInt(lease)))
        } catch .refused(let code, _) where code == 5 {  // NOT_FOUND: already gone
        }
    }

    // MARK: keys

    /// The key's current value; nil when absent.
    public func get(_ key: String) async throws(EtcdError) -> EtcdKeyValue? {
        let answer: RangeResponse = try await call("/v3/kv/range", RangeRequest(key: EtcdBytes(key)))
        return try answer.kvs?.first.map(Self.keyValue)
    }

    /// What `createIfAbsent` found.
    public enum CreateResult: Sendable, Equatable {
        /// The key was created at `revision` (its create revision).
        case created(revision: Int64)
        /// The key exists: its current holder.
        case exists(EtcdKeyValue)
    }

    /// Creates `key` = `value` under `lease` only if it does not exist (one transaction: create revision 0),
    /// else reads it.
    public func createIfAbsent(_ key: String, value: [UInt8], lease: Int64) async throws(EtcdError) -> CreateResult {
        let request = TxnRequest(
            compare: [.init(key: EtcdBytes(key), target: "CREATE", result: "EQUAL", createRevision: EtcdInt(0))],
            success: [.init(requestPut: .init(key: EtcdBytes(key), value: EtcdBytes(value), lease: EtcdInt(lease)))],
            failure: [.init(requestRange: RangeRequest(key: EtcdBytes(key)))])
        let answer: TxnResponse = try await call("/v3/kv/txn", request)
        if answer.succeeded == true {
            guard let revision = answer.header?.revision?.value else { throw .malformed("txn without a revision") }
            return .created(revision: revision)
        }
        guard let kv = answer.responses?.first?.responseRange?.kvs?.first else {
            // Deleted between the compare and the read cannot happen inside one txn; an empty range means the
            // compare failed for another reason.
            throw .malformed("txn failed without the key's holder")
        }
        return .exists(try Self.keyValue(kv))
    }

    private static func keyValue(_ kv: KeyValueJSON) throws(EtcdError) -> EtcdKeyValue {
        EtcdKeyValue(
            key: kv.key.bytes, value: kv.value?.bytes ?? [], createRevision: kv.createRevision?.value ?? 0,
            modRevision: kv.modRevision?.value ?? 0, lease: kv.lease?.value ?? 0)
    }

    // MARK: transport

    /// POSTs `body` to `path` on the preferred endpoint, then the others in order; decodes the answer.
    private func call<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body) async throws(EtcdError)
        -> Answer
    {
        let bytes: Data
        do { bytes = try JSONEncoder().encode(body) } catch { throw .malformed("cannot encode a request: \(error)") }
        var reauthenticated = false
        while true {
            do throws(EtcdError) {
                let token = try await currentToken()
                let data = try await post(path, bytes, token: token)
                do {
                    return try JSONDecoder().decode(Answer.self, from: data)
                } catch {
                    throw EtcdError.malformed("\(path): \(error)")
                }
            } catch .refused(let code, let message)
                where configuration.username != nil && !reauthenticated
                && (code == 16 || message.contains("invalid auth token"))
            {
                // UNAUTHENTICATED: the token expired (etcd's simple tokens last 5 minutes); once more with a new one.
                state.withLock { $0.token = nil }
                reauthenticated = true
            }
        }
    }

    private func currentToken() async throws(EtcdError) -> String? {
        guard let name = configuration.username else { return nil }
        if let token = state.withLock({ $0.token }) { return token }
        let body: Data
        do {
            body = try JSONEncoder().encode(AuthenticateRequest(name: name, password: configuration.password ?? ""))
        } catch { throw .malformed("\(error)") }
        let data = try await post("/v3/auth/authenticate", body, token: nil)
        guard let token = try? JSONDecoder().decode(AuthenticateResponse.self, from: data).token else {
            throw .malformed("authenticate answered without a token")
        }
        state.withLock { $0.token = token }
        return token
    }

    /// One POST, failing over between the endpoints; the body of the first 2xx answer.
    private func post(_ path: String, _ body: Data, token: String?) async throws(EtcdError) -> Data {
        let (start, count) = state.withLock { ($0.preferred, $0.endpoints.count) }
        var failures: [String] = []
        for step in 0..<count {
            let index = (start + step) % count
            let endpoint = configuration.endpoints[index]
            var request = HTTPClientRequest(url: endpoint + path)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            if let token { request.headers.add(name: "Authorization", value: token) }
            request.body = .bytes(ByteBuffer(data: body))
            request.tlsConfiguration = tls
            let failure: String
            do {
                let timeout = TimeAmount.nanoseconds(
                    configuration.requestTimeout.components.seconds * 1_000_000_000
                        + configuration.requestTimeout.components.attoseconds / 1_000_000_000)
                let response = try await http.execute(request, timeout: timeout)
                let buffer = try await response.body.collect(upTo: 4 << 20)
                let data = Data(buffer: buffer)
                if (200..<300).contains(response.status.code) {
                    note(index, failure: nil, prefer: true)
                    return data
                }
                let error = try? JSONDecoder().decode(GatewayError.self, from: data)
                let message = error?.message ?? error?.error ?? String(decoding: data.prefix(200), as: UTF8.self)
                if response.status.code >= 500 && error?.code != 5 {
                    failure = "\(endpoint): HTTP \(response.status.code) \(message)"
                } else {
                    // The member answered: its refusal stands (another member would refuse alike).
                    note(index, failure: nil, prefer: true)
                    throw EtcdError.refused(code: error?.code ?? Int(response.status.code), message: message)
                }
            } catch let error as EtcdError {
                throw error
            } catch {
                failure = "\(endpoint): \(error)"
            }
            note(index, failure: failure, prefer: false)
            failures.append(failure)
        }
        throw .unreachable(failures)
    }

    private func note(_ index: Int, failure: String?, prefer: Bool) {
        state.withLock { s in
            s.endpoints[index].reachable = failure == nil
            if let failure { s.endpoints[index].lastError = failure }
            if prefer {
                s.preferred = index
            } else if s.preferred == index {
                s.preferred = (index + 1) % s.endpoints.count
            }
        }
    }
}
