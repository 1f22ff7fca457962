// The conditional-GET state of one URL: the validators of the last bytes taken from it.

/// ETag and Last-Modified of the last complete 2xx answer; sent back as If-None-Match / If-Modified-Since so
/// the server answers 304 when nothing changed. Codable: the static-feed refresher keeps them across restarts.
public struct CacheValidators: Sendable, Hashable, Codable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// The validators of a 2xx answer with these headers (names lowercased). A server that drops them gets
    /// plain requests again.
    public init(responseHeaders headers: [String: String]) {
        self.init(etag: headers["etag"], lastModified: headers["last-modified"])
    }

    /// The request headers that make a GET conditional on these validators.
    public var requestHeaders: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        return headers
    }
}
