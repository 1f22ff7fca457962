import CompressNIO
import Foundation
import Gateway
import GatewayProtocol
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The answers of the HTTP port (GATEWAY.md §8): `/v1/<op>` by GET or POST through the gateway's dispatcher,
/// `/v1/openapi.json`, CORS preflights; the WebSocket's upgrade happens before (`GatewayHTTPChannel`).
final class HTTPEndpoints: Sendable {
    let gateway: GatewayServer
    let fields: RequestFieldTypes
    let openAPI: [UInt8]
    let cors: CORSPolicy?
    let maxBodyBytes: Int
    /// Each connection's `--request-rate` bucket (only with a rate).
    let rates: Mutex<[ObjectIdentifier: RequestRateBucket]>
    let requestRate: Int
    /// Answers this big or more are compressed when the client accepts gzip.
    static let gzipThreshold = 1024
    /// The web board's headers: it loads nothing from elsewhere (the policy says so to the browser) and is
    /// asked again after a restart (a new gateway may serve a new page).
    static let pageHeaders: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
            + "img-src data:; base-uri 'none'; frame-ancestors 'none'",
        .cacheControl: "no-cache",
        .xContentTypeOptions: "nosniff",
    ]

    init(gateway: GatewayServer, openAPI: [UInt8], cors: CORSPolicy?) throws {
        self.gateway = gateway
        self.openAPI = openAPI
        fields = try RequestFieldTypes(openAPI: openAPI)
        self.cors = cors
        maxBodyBytes = gateway.config.maxLineBytes
        requestRate = gateway.config.requestRate
        rates = Mutex([:])
    }

    /// The server's responder: one request of a keep-alive connection.
    func respond(to request: Request, writer: consuming ResponseWriter, channel: any Channel) async throws {
        let received = ContinuousClock.now
        let origin = request.headers[.origin]
        let path = request.uri.path
        if request.method == .options {
            var headers = cors?.preflightHeaders(for: origin) ?? [:]
            headers[.allow] = "GET, POST, OPTIONS"
            headers[.contentLength] = "0"
            try await writer.writeResponse(HTTPResponse(status: .noContent, headerFields: headers))
            return
        }
        if path == "/v1/openapi.json", request.method == .get || request.method == .head {
            try await write(
                .ok, openAPI, contentType: "application/json", request: request, writer: writer, channel: channel)
            return
        }
        if path == "/" || path == "/index.html", request.method == .get || request.method == .head {
            // The web board needs no token (as openapi.json): it asks for one when an op answers UNAUTHENTICATED.
            try await write(
                .ok, WebBoardPage.bytes, contentType: "text/html; charset=utf-8", extraHeaders: Self.pageHeaders,
                request: request, writer: writer, channel: channel)
            return
        }
        guard path.hasPrefix("/v1/"), path.count > 4 else {
            let error = GatewayError(
                .notFound, "no such path \(path): the ops are at /v1/<op> (GET or POST), the WebSocket at /v1/ws")
            try await answer(.failure(id: .null, op: nil, error, received: received), request, writer, channel)
            return
        }
        let op = String(path.dropFirst(4))
        guard request.method == .get || request.method == .post else {
            let error = GatewayError(.invalidArgument, "method \(request.method): /v1/\(op) takes GET or POST")
            try await answer(
                .failure(id: .null, op: nil, error, received: received), request, writer, channel,
                status: .methodNotAllowed)
            return
        }
        // The token first: nothing else is told to a client without it.
        if gateway.authToken != nil {
            guard let token = request.headers[.authorization].flatMap(Bearer.token(in:)) else {
                let error = GatewayError(.unauthenticated, "send the token as Authorization: Bearer <token>")
                try await answer(.failure(id: .null, op: nil, error, received: received), request, writer, channel)
                return
            }
            let address = gateway.clientName(of: channel)
            if let refusal = gateway.refusal(ofToken: AuthToken(Array(token.utf8)), from: address) {
                // A refused token closes the connection (one guess per connection, as `auth`).
                try await answer(
                    .failure(id: .null, op: nil, refusal.error, received: received), request, writer, channel,
                    close: true, retryAfter: refusal.retryAfter)
                return
            }
        }
        if requestRate > 0, !takeRateToken(channel, now: received) {
            let error = RequestRateBucket(rate: requestRate).exceeded
            try await answer(
                .failure(id: .null, op: GatewayOpKind(name: op), error, received: received), request, writer, channel)
            return
        }
        if op == "ws" {
            let error = GatewayError(
                .invalidArgument, "/v1/ws is a WebSocket: open it with an Upgrade: websocket request")
            try await answer(.failure(id: .null, op: nil, error, received: received), request, writer, channel)
            return
        }
        if let kind = GatewayOpKind(name: op), kind == .subscribe || kind == .unsubscribe || kind == .auth {
            let why =
                kind == .auth
                ? "over HTTP the token goes in the Authorization: Bearer header"
                : "a subscription belongs to a connection: use the WebSocket at /v1/ws"
            let error = GatewayError(.invalidArgument, "op \(op) is not served over HTTP: \(why)")
            try await answer(.failure(id: .null, op: kind, error, received: received), request, writer, channel)
            return
        }
        let line: Result<[UInt8], GatewayError>
        if request.method == .get {
            line = RequestLineFromHTTP.get(op: op, query: request.uri.query, fields: fields)
        } else {
            var request = request
            guard let body = try? await request.collectBody(upTo: maxBodyBytes) else {
                let error = GatewayError.lineTooLong(limit: maxBodyBytes)
                try await answer(
                    .failure(id: .null, op: nil, error, received: received), request, writer, channel, close: true)
                return
            }
            line = RequestLineFromHTTP.post(op: op, body: Array(buffer: body))
        }
        let answered: Answer
        switch line {
        case .failure(let error):
            answered = .failure(id: .null, op: GatewayOpKind(name: op), error, received: received)
        case .success(let bytes):
            switch GatewayRequest.parse(bytes) {
            case .failure(let failure):
                answered = .failure(id: failure.id, op: failure.op, failure.error, received: received)
            case .success(let parsed):
                answered = await gateway.answerAlone(parsed, received: received, channel: channel)
                try await answer(answered, request, writer, channel, recorded: true)
                return
            }
        }
        try await answer(answered, request, writer, channel)
    }

    private func takeRateToken(_ channel: any Channel, now: ContinuousClock.Instant) -> Bool {
        let key = ObjectIdentifier(channel)
        let (allowed, isNew) = rates.withLock { rates in
            let isNew = rates[key] == nil
            var bucket = rates[key] ?? RequestRateBucket(rate: requestRate, now: now)
            let allowed = bucket.take(now: now)
            rates[key] = bucket
            return (allowed, isNew)
        }
        if isNew {
            channel.closeFuture.whenComplete { [self] _ in _ = rates.withLock { $0.removeValue(forKey: key) } }
        }
        return allowed
    }

    /// Writes an answer line with the status of its error; counts it unless the dispatcher did.
    private func answer(
        _ answer: Answer, _ request: Request, _ writer: consuming ResponseWriter, _ channel: any Channel,
        status: HTTPResponse.Status? = nil, recorded: Bool = false, close: Bool = false, retryAfter: Int? = nil
    ) async throws {
        if !recorded { gateway.recorded(answer) }
        var headers = HTTPFields()
        switch answer.error {
        case .overloaded?, .rateLimited?: headers[.retryAfter] = "\(retryAfter ?? 1)"
        case .unauthenticated?: headers[.wwwAuthenticate] = "Bearer"
        default: break
        }
        try await write(
            status ?? answer.error?.httpStatus ?? .ok, answer.bytes, contentType: "application/json",
            extraHeaders: headers, request: request, writer: writer, channel: channel, close: close)
    }

    private func write(
        _ status: HTTPResponse.Status, _ body: [UInt8], contentType: String, extraHeaders: HTTPFields = [:],
        request: Request, writer: consuming ResponseWriter, channel: any Channel, close: Bool = false
    ) async throws {
        var headers = extraHeaders
        headers[.contentType] = contentType
        headers[.vary] = "Accept-Encoding"
        cors?.answerHeaders(for: request.headers[.origin], into: &headers)
        var buffer = channel.allocator.buffer(bytes: body)
        if body.count >= Self.gzipThreshold, AcceptEncoding.acceptsGzip(request.headers[.acceptEncoding]),
            let compressed = try? buffer.compress(with: .gzip(), allocator: channel.allocator)
        {
            buffer = compressed
            headers[.contentEncoding] = "gzip"
        }
        if close { headers[.connection] = "close" }
        headers[.contentLength] = "\(buffer.readableBytes)"
        let head = HTTPResponse(status: status, headerFields: headers)
        if request.method == .head {
            try await writer.writeResponse(head)
        } else {
            try await writer.write(response: head, body: ResponseBody(byteBuffer: buffer))
        }
        // Closing the input ends the connection's request loop once this answer is written.
        if close { try? await channel.close(mode: .input) }
    }
}

/// `Authorization: Bearer <token>` (RFC 6750): the token, compared by `GatewayServer.refusal(ofToken:from:)`.
enum Bearer {
    /// The token of a `Bearer` credential (the scheme's case does not matter); nil for another scheme.
    static func token(in header: String) -> Substring? {
        let trimmed = header.drop(while: { $0 == " " })
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = trimmed.dropFirst(7).drop(while: { $0 == " " })
        return token.isEmpty ? nil : token
    }
}

/// `Accept-Encoding` (RFC 9110 §12.5.3): whether gzip is acceptable (named, or `*`, with a q-value above 0).
enum AcceptEncoding {
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Bool?
        var any: Bool?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            let q = parts.dropFirst().first(where: { $0.hasPrefix("q=") }).flatMap { Double($0.dropFirst(2)) } ?? 1
            if coding == "gzip" || coding == "x-gzip" { gzip = q > 0 }
            if coding == "*" { any = q > 0 }
        }
        return gzip ?? any ?? false
    }
}
