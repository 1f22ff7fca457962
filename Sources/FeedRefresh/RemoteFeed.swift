// A static feed given by URL (`--gtfs https://…` or `--gtfs name=https://…`), with the request headers of the
// same conventions as the realtime sources: `$VAR` / `${VAR}` expanded from the environment in the URL and in
// header values, an unset variable named in the error, and values from the environment sent over https only
// (or plain http to 127.0.0.1 / localhost).
import Foundation
import HTTPFetching
import TransitStore

public struct RemoteFeed: Sendable {
    /// Names the feed in the database (default: the URL path's last part without its extension).
    public var name: String
    /// The URL as requested, variables expanded (may hold an API key: never logged, see `redactedURL`).
    public var url: String
    /// The URL without user info and query: what state files, logs and answers show.
    public var redactedURL: String
    /// Request headers, values expanded (secrets).
    public var headers: [(name: String, value: String)]

    /// True when `argument` (`path`, `name=path`) names an http(s) URL.
    public static func isURL(_ argument: String) -> Bool {
        let path = ImportOptions.Feed(argument: argument).path.lowercased()
        return path.hasPrefix("http://") || path.hasPrefix("https://")
    }

    /// Parses `URL` or `name=URL`, and `Name: value` header arguments; expands variables from `environment`.
    public init(argument: String, headers: [String], environment: [String: String]) throws(RemoteFeedError) {
        let feed = ImportOptions.Feed(argument: argument)
        let raw = feed.path
        let redacted = HTTPFetchRequest.redact(raw)
        guard Self.isURL(argument) else { throw RemoteFeedError("\(redacted) is not an http(s) URL") }
        let explicitName = argument.count > raw.count  // `name=` was given
        name = explicitName ? feed.name : Self.defaultName(forURL: raw)
        var usesVariables = false
        func expand(_ text: String, _ what: String) throws(RemoteFeedError) -> String {
            do {
                let (expanded, variables) = try EnvironmentExpansion.expand(text, environment: environment)
                usesVariables = usesVariables || !variables.isEmpty
                return expanded
            } catch {
                switch error {
                case .missing(let variable):
                    throw RemoteFeedError("environment variable \(variable) is not set (\(what))")
                case .empty(let variable): throw RemoteFeedError("environment variable \(variable) is empty (\(what))")
                case .syntax: throw RemoteFeedError("a $ not followed by a variable name (\(what); $$ is a literal $)")
                }
            }
        }
        url = try expand(raw, "in --gtfs \(redacted)")
        redactedURL = HTTPFetchRequest.redact(url)
        var parsed: [(name: String, value: String)] = []
        for header in headers {
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex else {
                throw RemoteFeedError("a header is `Name: value`, got one without a name and colon")
            }
            let headerName = header[..<colon].trimmingCharacters(in: .whitespaces)
            guard headerName.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }) else {
                throw RemoteFeedError("\"\(headerName)\" is not a valid HTTP header name")
            }
            let value = try expand(
                header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces), "header \(headerName)")
            parsed.append((headerName, value))
        }
        self.headers = parsed
        if usesVariables, !Self.sendsSecretsSafely(url) {
            throw RemoteFeedError(
                "\(redactedURL): values from environment variables are sent over https only (or plain http to "
                    + "127.0.0.1 / localhost)")
        }
    }

    /// https, or http to this machine.
    static func sendsSecretsSafely(_ url: String) -> Bool {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else { return false }
        if scheme == "https" { return true }
        return scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(parsed.host?.lowercased() ?? "")
    }

    /// `https://host/v1/gtfs/schedule/sydneytrains?x=1` -> `sydneytrains`; `…/feed.zip` -> `feed`.
    static func defaultName(forURL url: String) -> String {
        let path = HTTPFetchRequest.redact(url)
        let afterScheme = path.range(of: "://").map { path[$0.upperBound...] } ?? Substring(path)
        let parts = afterScheme.split(separator: "/")
        let last = parts.count > 1 ? String(parts.last!) : String(parts.first ?? "feed")
        return ImportOptions.Feed.defaultName(for: last)
    }
}

public struct RemoteFeedError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
