// One GET as the callers describe it.

public struct HTTPFetchRequest: Sendable {
    /// The URL as sent (environment variables already expanded: see `EnvironmentExpansion`).
    public var url: String
    /// Request headers (values may be secrets: never logged, never in errors).
    public var headers: [(name: String, value: String)]
    /// Validators of the bytes the caller already has (conditional GET); empty: a plain GET.
    public var validators: CacheValidators
    /// The most body bytes accepted; past it the transfer is aborted (`tooLarge`), nothing more is read.
    public var maxBytes: Int
    /// The whole exchange (connect, head, body) must end within this.
    public var timeout: Duration

    public init(
        url: String, headers: [(name: String, value: String)] = [], validators: CacheValidators = CacheValidators(),
        maxBytes: Int, timeout: Duration
    ) {
        self.url = url
        self.headers = headers
        self.validators = validators
        self.maxBytes = maxBytes
        self.timeout = timeout
    }

    /// The URL without user info, query and fragment: what logs and errors may name (an API key may sit in
    /// the query or user info).
    public var redactedURL: String { Self.redact(url) }

    public static func redact(_ url: String) -> String {
        var text = Substring(url)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
        guard let schemeEnd = text.range(of: "://") else { return String(text) }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return String(text) }
        return String(text[..<schemeEnd.upperBound]) + String(authority[authority.index(after: at)...])
            + String(rest[authorityEnd...])
    }
}

/// What the server answered: the status and headers (names lowercased). The body went where the fetch was
/// told to put it, for 2xx answers only.
public struct HTTPFetchResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    /// Body bytes received (2xx only; 0 for the others, whose bodies are discarded).
    public var byteCount: Int

    public init(status: Int, headers: [String: String], byteCount: Int) {
        self.status = status
        self.headers = headers
        self.byteCount = byteCount
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
    public var isNotModified: Bool { status == 304 }
}
