import HTTPTypes

/// `--cors-origin`: which browser origins may read the answers (GATEWAY.md §8, "CORS").
struct CORSPolicy: Sendable {
    /// One origin, or "*" for any.
    let origin: String

    /// The `Access-Control-Allow-Origin` value for a request from `requestOrigin` (nil: no CORS headers).
    func allowedOrigin(for requestOrigin: String?) -> String? {
        if origin == "*" { return "*" }
        guard let requestOrigin, requestOrigin == origin else { return nil }
        return origin
    }

    /// The headers of an answer to a request from `requestOrigin`.
    func answerHeaders(for requestOrigin: String?, into headers: inout HTTPFields) {
        guard let allowed = allowedOrigin(for: requestOrigin) else { return }
        headers[.accessControlAllowOrigin] = allowed
        if allowed != "*" { headers.append(HTTPField(name: .vary, value: "Origin")) }
    }

    /// The headers of a preflight's 204 (nil: the origin is not allowed; the preflight gets no CORS headers).
    func preflightHeaders(for requestOrigin: String?) -> HTTPFields? {
        guard allowedOrigin(for: requestOrigin) != nil else { return nil }
        var headers = HTTPFields()
        answerHeaders(for: requestOrigin, into: &headers)
        headers[.accessControlAllowMethods] = "GET, POST, OPTIONS"
        headers[.accessControlAllowHeaders] = "Authorization, Content-Type"
        headers[.accessControlMaxAge] = "600"
        return headers
    }
}
