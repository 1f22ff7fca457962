// Why a realtime config was refused: which file, which source, which field, and why.

public struct RealtimeConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The config file, when the config came from one.
    public var file: String?
    /// The source's name (or "sources[3]" when it has none yet).
    public var source: String?
    /// The JSON field, e.g. "poll_interval_s" or "headers.Authorization".
    public var field: String?
    /// What is wrong, never containing a header value.
    public var message: String

    public init(file: String? = nil, source: String? = nil, field: String? = nil, _ message: String) {
        self.file = file
        self.source = source
        self.field = field
        self.message = message
    }

    public var description: String {
        var parts: [String] = []
        parts.append(file.map { "realtime config \($0)" } ?? "realtime config")
        if let source { parts.append("source \"\(source)\"") }
        if let field { parts.append("field \"\(field)\"") }
        return parts.joined(separator: ": ") + ": " + message
    }
}
