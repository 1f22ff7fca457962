// The project's one HTTP client (AsyncHTTPClient, one connection pool for the process): a GET whose whole
// exchange has a deadline, whose body is capped while it streams (never buffered past the cap), into memory
// or into a file. Redirects are followed only to the same host and never from https to http (an API key in a
// header would follow them elsewhere); no cookies, no cache (a cache would turn a 304 into old bytes), no
// decompression (the cap counts the bytes on the wire).
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Where a 2xx body goes.
public enum HTTPFetchDestination: Sendable {
    /// Returned as bytes (realtime feeds: a few MiB).
    case memory
    /// Written to this path (created or truncated); removed again when the fetch fails or the answer is not
    /// 2xx (static feeds: hundreds of MiB).
    case file(String)
}

public final class HTTPFetchClient: Sendable {
    /// The process's client: every caller shares its connection pool.
    public static let shared = HTTPFetchClient()

    /// At most this many same-host redirects are followed.
    static let maxRedirects = 5

    private let client: HTTPClient

    private init() {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(15)),
            decompression: .disabled)
        configuration.httpVersion = .automatic
        // A refused connection is the answer (callers back off and retry on their schedule); retrying inside
        // the pool until the deadline would turn it into a timeout that names nothing.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Performs `request`. A 2xx body goes to `destination`; other statuses come back with their headers and no
    /// body. Fails with `.timeout` when the whole exchange takes longer than the request's timeout, `.tooLarge`
    /// as soon as the body passes `maxBytes`, `.cancelled` when the calling task is cancelled.
    public func fetch(_ request: HTTPFetchRequest, to destination: HTTPFetchDestination = .memory) async -> Result<
        (response: HTTPFetchResponse, body: [UInt8]), HTTPFetchError
    > {
        let result = await withTaskGroup(of: Result<(HTTPFetchResponse, [UInt8]), HTTPFetchError>?.self) { group in
            group.addTask { await self.exchange(request, destination) }
            group.addTask {
                // The deadline: a hung server or a body that trickles forever must end as an error.
                do { try await Task.sleep(for: request.timeout) } catch { return nil }
                return .failure(.timeout(request.timeout))
            }
            var outcome: Result<(HTTPFetchResponse, [UInt8]), HTTPFetchError> = .failure(.cancelled)
            for await first in group {
                guard let first else { continue }  // the timer, cancelled
                outcome = first
                break
            }
            group.cancelAll()
            return outcome
        }
        if Task.isCancelled { return .failure(.cancelled) }
        if case .failure = result, case .file(let path) = destination { unlink(path) }
        return result.map { (response: $0.0, body: $0.1) }
    }

    private func exchange(_ fetch: HTTPFetchRequest, _ destination: HTTPFetchDestination) async -> Result<
        (HTTPFetchResponse, [UInt8]), HTTPFetchError
    > {
        var url = fetch.url
        guard let original = URL(string: url), let originalHost = original.host?.lowercased() else {
            return .failure(.connection("not a valid http(s) URL: \(fetch.redactedURL)"))
        }
        let httpsFirst = original.scheme?.lowercased() == "https"
        for _ in 0...Self.maxRedirects {
            var request = HTTPClientRequest(url: url)
            request.method = .GET
            for header in fetch.headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
            for header in fetch.validators.requestHeaders {
                request.headers.replaceOrAdd(name: header.name, value: header.value)
            }
            let response: HTTPClientResponse
            do {
                // The whole exchange's deadline is the task group's timer; this one only backs it up.
                response = try await client.execute(
                    request, timeout: .seconds(Int64(fetch.timeout.components.seconds) + 5))
            } catch {
                return .failure(Self.describe(error))
            }
            var headers: [String: String] = [:]
            for (name, value) in response.headers { headers[name.lowercased()] = value }
            let status = Int(response.status.code)
            if [301, 302, 303, 307, 308].contains(status), let location = headers["location"],
                let target = URL(string: location, relativeTo: URL(string: url)),
                target.host?.lowercased() == originalHost,
                !(httpsFirst && target.scheme?.lowercased() != "https")
            {
                url = target.absoluteString
                continue
            }
            guard (200..<300).contains(status) else {
                // Read nothing of an error body: it is not ours to keep and may be large.
                return .success((HTTPFetchResponse(status: status, headers: headers, byteCount: 0), []))
            }
            if let length = headers["content-length"].flatMap(Int.init), length > fetch.maxBytes {
                return .failure(.tooLarge(limit: fetch.maxBytes))
            }
            switch destination {
            case .memory:
                var body: [UInt8] = []
                do {
                    for try await chunk in response.body {
                        guard body.count + chunk.readableBytes <= fetch.maxBytes else {
                            return .failure(.tooLarge(limit: fetch.maxBytes))
                        }
                        body.append(contentsOf: chunk.readableBytesView)
                    }
                } catch {
                    return .failure(Self.describe(error))
                }
                return .success((HTTPFetchResponse(status: status, headers: headers, byteCount: body.count), body))
            case .file(let path):
                guard let file = FileSink(path: path) else {
                    return .failure(.destination("cannot create \(path): \(String(cString: strerror(errno)))"))
                }
                defer { file.close() }
                var count = 0
                do {
                    for try await chunk in response.body {
                        count += chunk.readableBytes
                        guard count <= fetch.maxBytes else { return .failure(.tooLarge(limit: fetch.maxBytes)) }
                        if let failure = file.write(chunk) { return .failure(.destination("\(path): \(failure)")) }
                    }
                } catch {
                    return .failure(Self.describe(error))
                }
                if let failure = file.flush() { return .failure(.destination("\(path): \(failure)")) }
                return .success((HTTPFetchResponse(status: status, headers: headers, byteCount: count), []))
            }
        }
        return .failure(.connection("more than \(Self.maxRedirects) redirects"))
    }

    /// AsyncHTTPClient's and NIO's errors in words that say what happened. Never the error's own text: it may
    /// name the URL.
    static func describe(_ error: any Error) -> HTTPFetchError {
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return .cancelled
            case .connectTimeout: return .connection("connecting timed out")
            case .remoteConnectionClosed: return .connection("the connection was lost during the exchange")
            case .invalidURL, .emptyHost, .emptyScheme: return .connection("not a valid http(s) URL")
            case .tlsHandshakeTimeout: return .connection("TLS handshake timed out")
            default:
                // Some of its errors name the URL (unsupported scheme, ...): only the code's name goes out.
                let text = String(describing: error)
                if text.lowercased().contains("scheme") { return .connection("not a valid http(s) URL") }
                return .connection("HTTP client error \(error.shortDescription)")
            }
        }
        let text = String(describing: error).lowercased()
        if text.contains("refused") { return .connection("cannot connect to the host (connection refused)") }
        if text.contains("unreachable") { return .connection("cannot connect to the host (unreachable)") }
        if text.contains("dns") || text.contains("resolve") || text.contains("getaddrinfo") {
            return .connection("host not found (DNS)")
        }
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") {
            return .connection("TLS handshake failed")
        }
        if text.contains("reset") { return .connection("the connection was reset") }
        return .connection("\(type(of: error))")
    }
}

extension HTTPClientError {
    /// The error's code name without anything of the request.
    fileprivate var shortDescription: String {
        let text = String(describing: self)
        return text.split(separator: ".").last.map(String.init) ?? text
    }
}

/// A file written chunk by chunk (the body never sits whole in memory).
private final class FileSink {
    private let descriptor: Int32

    init?(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 { return nil }
    }

    /// nil on success, else the reason.
    func write(_ buffer: ByteBuffer) -> String? {
        buffer.withUnsafeReadableBytes { bytes -> String? in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
    }

    func flush() -> String? {
        fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
    }

    func close() {
        _ = Foundation.close(descriptor)
    }
}
