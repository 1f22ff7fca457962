// One URLSession shared by the HTTP sources of a group (connections to the same API host are reused),
// with what URLSession's convenience calls cannot do: an overall deadline per request, a body size limit
// enforced while receiving, cancellation when the polling task is cancelled, no cache and no cookies (a cache
// would turn the server's 304 into a 200 with old bytes), and no redirects to another host (the API key
// would follow).
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one exchange produced: the status, the response headers (names lowercased) and, for 2xx, the body.
struct HTTPExchangeResult: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
}

final class HTTPClient: Sendable {
    private let session: URLSession
    private let delegate: SessionDelegate

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // Our own deadline governs; these only back it up.
        configuration.timeoutIntervalForRequest = 3600
        configuration.timeoutIntervalForResource = 3600
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "RealtimeSources.HTTPClient"
        delegate = SessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Performs one request. Fails with `.timeout` when the whole exchange takes longer than `timeout`,
    /// `.tooLarge` as soon as the body exceeds `maxBytes`, `.cancelled` when the calling task is cancelled.
    func perform(_ request: URLRequest, maxBytes: Int, timeout: Duration) async -> Result<
        HTTPExchangeResult, FetchError
    > {
        var request = request
        request.timeoutInterval = timeout.seconds + 1
        let handle = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
        return await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPExchangeResult, FetchError>, Never>) in
                let task = session.dataTask(with: request)
                let id = task.taskIdentifier
                delegate.register(
                    id,
                    Exchange(
                        continuation: continuation, maxBytes: maxBytes, timeout: timeout, host: request.url?.host,
                        task: task))
                let alreadyCancelled = handle.withLock { state -> Bool in
                    state.task = task
                    return state.cancelled
                }
                if alreadyCancelled {
                    delegate.abort(id, with: .cancelled)
                    return
                }
                task.resume()
                let delegate = self.delegate
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) {
                    delegate.abort(id, with: .timeout(timeout))
                }
            }
        } onCancel: {
            let task = handle.withLock { state -> URLSessionDataTask? in
                state.cancelled = true
                return state.task
            }
            if let task { delegate.abort(task.taskIdentifier, with: .cancelled) }
        }
    }
}

/// One request in flight.
private final class Exchange: @unchecked Sendable {
    let continuation: CheckedContinuation<Result<HTTPExchangeResult, FetchError>, Never>
    let maxBytes: Int
    let timeout: Duration
    let host: String?
    let task: URLSessionDataTask
    var response: HTTPURLResponse?
    var body: [UInt8] = []
    /// Set when we end the exchange ourselves (deadline, size, cancellation): wins over URLSession's error.
    var failure: FetchError?

    init(
        continuation: CheckedContinuation<Result<HTTPExchangeResult, FetchError>, Never>, maxBytes: Int,
        timeout: Duration, host: String?, task: URLSessionDataTask
    ) {
        self.continuation = continuation
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.host = host
        self.task = task
    }
}

/// URLSession's delegate: collects bodies, enforces limits, resumes each request's continuation once.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Mutex<[Int: Exchange]>([:])

    func register(_ id: Int, _ exchange: Exchange) {
        exchanges.withLock { $0[id] = exchange }
    }

    /// Ends an exchange early with `failure` (no effect once it has completed).
    func abort(_ id: Int, with failure: FetchError) {
        guard
            let exchange = exchanges.withLock({ table -> Exchange? in
                guard let exchange = table[id], exchange.failure == nil else { return nil }
                exchange.failure = failure
                return exchange
            })
        else { return }
        if exchange.task.state == .suspended {
            // Never resumed (cancelled before start): URLSession may not call back, so finish here.
            finish(id, error: nil)
            exchange.task.cancel()
        } else {
            exchange.task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = exchanges.withLock { table -> Bool in
            guard let exchange = table[dataTask.taskIdentifier] else { return false }
            exchange.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(exchange.maxBytes) {
                if exchange.failure == nil { exchange.failure = .tooLarge(limit: exchange.maxBytes) }
                return true
            }
            return false
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = exchanges.withLock { table -> Bool in
            guard let exchange = table[dataTask.taskIdentifier], exchange.failure == nil else { return false }
            if exchange.body.count + data.count > exchange.maxBytes {
                exchange.failure = .tooLarge(limit: exchange.maxBytes)
                exchange.body = []
                return true
            }
            exchange.body.append(contentsOf: data)
            return false
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let sameHost = exchanges.withLock { table -> Bool in
            guard let exchange = table[task.taskIdentifier] else { return false }
            let downgrade =
                task.originalRequest?.url?.scheme?.lowercased() == "https"
                && request.url?.scheme?.lowercased() != "https"
            return !downgrade && request.url?.host?.lowercased() == exchange.host?.lowercased()
        }
        // nil: the redirect response itself completes the task (reported as its 3xx status).
        completionHandler(sameHost ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(task.taskIdentifier, error: error)
    }

    private func finish(_ id: Int, error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: id) }) else { return }
        exchange.continuation.resume(returning: Self.result(exchange, error))
    }

    private static func result(_ exchange: Exchange, _ error: (any Error)?) -> Result<HTTPExchangeResult, FetchError> {
        if let failure = exchange.failure { return .failure(failure) }
        if let error { return .failure(fetchError(error, timeout: exchange.timeout)) }
        guard let response = exchange.response else { return .failure(.connection("no HTTP response")) }
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        let ok = (200..<300).contains(response.statusCode)
        return .success(
            HTTPExchangeResult(status: response.statusCode, headers: headers, body: ok ? exchange.body : []))
    }

    /// URLSession's error in words that say what happened (its own texts are generic).
    private static func fetchError(_ error: any Error, timeout: Duration) -> FetchError {
        // Never the error's own description: Foundation's carries the failing URL (with its query) in userInfo.
        guard let code = (error as? URLError)?.code else {
            let error = error as NSError
            return .connection("\(error.domain) error \(error.code)")
        }
        switch code {
        case .timedOut: return .timeout(timeout)
        case .cancelled: return .cancelled
        case .cannotConnectToHost: return .connection("cannot connect to the host (connection refused or unreachable)")
        case .cannotFindHost, .dnsLookupFailed: return .connection("host not found (DNS)")
        case .networkConnectionLost: return .connection("the connection was lost during the exchange")
        case .notConnectedToInternet: return .connection("no network")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .connection("TLS handshake failed")
        case .badServerResponse: return .connection("the server's answer is not valid HTTP")
        case .zeroByteResource: return .connection("the server closed the connection without answering")
        default: return .connection("URLSession error \(code.rawValue)")
        }
    }
}
