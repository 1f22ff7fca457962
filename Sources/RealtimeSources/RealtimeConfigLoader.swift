// Reading a realtime config from JSON: every field checked, with errors naming file, source and field.
//
// {
//   "daily_request_budget": 30000,            optional, default 30,000
//   "max_requests_per_second": 5,             optional, default 5
//   "sources": [
//     { "name": "sydneytrains.trip_updates", "kind": "trip_updates",   trip_updates|vehicle_positions|alerts|auto
//       "url": "https://…" | "http://…" | "file:///…",  $VAR / ${VAR} in an http(s) URL's user info or query
//       "headers": { "Authorization": "apikey $TFNSW_API_KEY" },      $VAR / ${VAR} from the environment
//       "poll_interval_s": 30, "prefix": "ST:", "timeout_s": 8, "max_bytes": 67108864,
//       "stale_after_s": 90 },                optional, whole seconds 1 … 604,800; default by kind (90 s, alerts 600 s)
//     { "name": "demo", "replay": "replay-folder", "pace_s": 10, "loop": true, "kind": "auto", "stale_after_s": 60,
//       "own_times": true }                  optional, default true (false: always paced and re-stamped)
//   ]
// }
// A replay folder is relative to the config file's folder; the entry becomes one source per kind found in its
// snapshots, named "<name>.trip_updates" etc. ("kind" other than auto keeps only that one); each file played
// gets the current time as its header timestamp (only that: trip dates and stop times stay as recorded). With
// the service clock replayed (`--clock`) at or before the first snapshot's header time, the snapshots are played
// at their own times instead (ReplayFetcher). The folder holds numbered snapshot folders or plain .pb files
// (ReplayFolder).
// "comment" fields are ignored anywhere.
import Foundation
import HTTPFetching
import StrictJSON

extension RealtimeConfig {
    /// Loads and validates a config file; `environment` supplies `$VARIABLES` in header values.
    public static func load(
        path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(RealtimeConfigError) -> RealtimeConfig {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw RealtimeConfigError(file: path, "the file \(reason)")
        }
        let base = (path as NSString).deletingLastPathComponent
        return try parse(json: data, file: path, baseDirectory: base.isEmpty ? "." : base, environment: environment)
    }

    /// Parses and validates config JSON. `file` labels errors; relative replay folders are resolved against
    /// `baseDirectory`.
    public static func parse(
        json: Data, file: String? = nil, baseDirectory: String = FileManager.default.currentDirectoryPath,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(RealtimeConfigError) -> RealtimeConfig {
        let document: JSONValue
        do {
            document = try JSONParser.parse(Array(json))
        } catch {
            throw RealtimeConfigError(file: file, "not valid JSON \(location(of: error, in: json))")
        }
        guard case .object(let top) = document else {
            throw RealtimeConfigError(file: file, "the top level must be a JSON object, got \(document.typeName)")
        }
        let fields = ConfigFields(top, file: file, source: nil)
        try fields.checkKnown(["sources", "daily_request_budget", "max_requests_per_second"])
        let budget = try fields.integer("daily_request_budget") ?? defaultDailyRequestBudget
        let rate = try fields.number("max_requests_per_second") ?? defaultMaxRequestsPerSecond
        guard let list = fields.values["sources"] else { throw fields.error("sources", "is missing") }
        guard case .array(let entries) = list else {
            throw fields.error("sources", "must be an array, got \(list.typeName)")
        }
        var sources: [SourceConfig] = []
        for (index, entry) in entries.enumerated() {
            let reader = SourceEntryReader(
                file: file, index: index, baseDirectory: baseDirectory, environment: environment)
            sources += try reader.read(entry)
        }
        let config = RealtimeConfig(sources: sources, dailyRequestBudget: budget, maxRequestsPerSecond: rate)
        try config.validate(file: file)
        return config
    }

    /// "at line 3, column 4 (unexpected ',': expected a key in double quotes)": the parser's byte offset as a
    /// line and a column of characters.
    private static func location(of error: JSONParseError, in json: Data) -> String {
        var line = 1
        var column = 1
        for byte in json.prefix(error.column - 1) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return "at line \(line), column \(column) (\(error.reason))"
    }
}

/// Typed access to one JSON object's fields, with errors that say where.
struct ConfigFields {
    let values: [String: JSONValue]
    let file: String?
    let source: String?

    /// The parser refuses duplicate keys, so the object's members make a dictionary.
    init(_ object: JSONObject, file: String?, source: String?) {
        values = Dictionary(uniqueKeysWithValues: object.members.map { ($0.key, $0.value) })
        self.file = file
        self.source = source
    }

    func error(_ field: String?, _ message: String) -> RealtimeConfigError {
        RealtimeConfigError(file: file, source: source, field: field, message)
    }

    /// Unknown fields are errors (a typo such as "poll_interval" must not silently mean "default").
    func checkKnown(_ known: [String]) throws(RealtimeConfigError) {
        for key in values.keys.sorted() where key != "comment" && !known.contains(key) {
            throw error(key, "unknown field; known fields here: \(known.joined(separator: ", "))")
        }
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    func string(_ key: String) throws(RealtimeConfigError) -> String? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else { throw error(key, "must be a string, got \(value.typeName)") }
        return text
    }

    func number(_ key: String) throws(RealtimeConfigError) -> Double? {
        guard let value = values[key] else { return nil }
        guard case .number(let number) = value else { throw error(key, "must be a number, got \(value.typeName)") }
        return number.double
    }

    func positiveNumber(_ key: String) throws(RealtimeConfigError) -> Double? {
        guard let number = try number(key) else { return nil }
        guard number > 0, number.isFinite else { throw error(key, "must be more than 0, got \(number)") }
        return number
    }

    func integer(_ key: String) throws(RealtimeConfigError) -> Int? {
        guard let number = try number(key) else { return nil }
        guard number == number.rounded(), abs(number) < 9e15 else {
            throw error(key, "must be a whole number, got \(number)")
        }
        return Int(number)
    }

    func bool(_ key: String) throws(RealtimeConfigError) -> Bool? {
        guard let value = values[key] else { return nil }
        guard case .bool(let flag) = value else { throw error(key, "must be true or false, got \(value.typeName)") }
        return flag
    }
}

/// Reads one entry of "sources" into one source (or, for a replay, one per kind).
struct SourceEntryReader {
    let file: String?
    let index: Int
    let baseDirectory: String
    let environment: [String: String]

    private static let urlFields = [
        "name", "kind", "url", "headers", "poll_interval_s", "prefix", "timeout_s", "max_bytes", "stale_after_s",
    ]
    private static let replayFields = [
        "name", "kind", "replay", "pace_s", "loop", "own_times", "prefix", "max_bytes", "stale_after_s",
    ]

    func read(_ entry: JSONValue) throws(RealtimeConfigError) -> [SourceConfig] {
        let label = "sources[\(index)]"
        guard case .object(let object) = entry else {
            throw RealtimeConfigError(
                file: file, source: label, "each source must be a JSON object, got \(entry.typeName)")
        }
        let unnamed = ConfigFields(object, file: file, source: label)
        guard let name = try unnamed.string("name") else { throw unnamed.error("name", "is missing") }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else {
            throw unnamed.error("name", "must be letters, digits, '.', '_' or '-', got \"\(name)\"")
        }
        let fields = ConfigFields(object, file: file, source: name)
        switch (fields.has("url"), fields.has("replay")) {
        case (true, true): throw fields.error("replay", "a source has either \"url\" or \"replay\", not both")
        case (false, false): throw fields.error("url", "is missing (or give \"replay\" for a replay folder)")
        case (true, false): return [try urlSource(name, fields)]
        case (false, true): return try replaySources(name, fields)
        }
    }

    private func kind(_ fields: ConfigFields, default fallback: SourceKind?) throws(RealtimeConfigError) -> SourceKind {
        let choices = SourceKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = try fields.string("kind") else {
            if let fallback { return fallback }
            throw fields.error("kind", "is missing; one of \(choices)")
        }
        guard let kind = SourceKind(rawValue: text) else {
            throw fields.error("kind", "must be one of \(choices), got \"\(text)\"")
        }
        return kind
    }

    private func prefix(_ fields: ConfigFields) throws(RealtimeConfigError) -> String? {
        guard let prefix = try fields.string("prefix") else { return nil }
        return prefix.isEmpty ? nil : prefix
    }

    private func urlSource(_ name: String, _ fields: ConfigFields) throws(RealtimeConfigError) -> SourceConfig {
        try fields.checkKnown(Self.urlFields)
        let kind = try kind(fields, default: nil)
        let (text, urlUsesVariables) = try url(fields)
        guard let interval = try fields.positiveNumber("poll_interval_s") else {
            throw fields.error("poll_interval_s", "is missing")
        }
        let location = try location(text, fields)
        var (headers, usesVariables) = try headers(fields)
        usesVariables = usesVariables || urlUsesVariables
        if !headers.isEmpty, case .file = location {
            throw fields.error("headers", "apply to http(s) sources only")
        }
        if usesVariables, case .http(let url) = location, url.scheme?.lowercased() == "http", !Self.isLoopback(url.host)
        {
            throw fields.error(
                urlUsesVariables ? "url" : "headers",
                "values from environment variables are sent over https only (or plain http to 127.0.0.1 / localhost)")
        }
        return SourceConfig(
            name: name, kind: kind, location: location, headers: headers, pollInterval: .fromSeconds(interval),
            prefix: try prefix(fields),
            timeout: .fromSeconds(try fields.positiveNumber("timeout_s") ?? SourceConfig.defaultTimeout.seconds),
            maxBytes: try maxBytes(fields), staleAfterSecs: try staleAfter(fields)
        )
    }

    private func maxBytes(_ fields: ConfigFields) throws(RealtimeConfigError) -> Int {
        guard let value = try fields.integer("max_bytes") else { return SourceConfig.defaultMaxBytes }
        guard value > 0 else { throw fields.error("max_bytes", "must be more than 0, got \(value)") }
        return value
    }

    private func staleAfter(_ fields: ConfigFields) throws(RealtimeConfigError) -> Int? {
        guard let value = try fields.integer("stale_after_s") else { return nil }
        let range = SourceConfig.staleAfterRange
        guard range.contains(value) else {
            throw fields.error(
                "stale_after_s",
                "must be \(range.lowerBound) … \(groupedThousands(range.upperBound)) seconds, got \(value)")
        }
        return value
    }

    private func location(_ text: String, _ fields: ConfigFields) throws(RealtimeConfigError) -> SourceLocation {
        let lower = text.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
                throw fields.error("url", "is not a valid URL: \"\(text)\"")
            }
            return .http(url)
        }
        if lower.hasPrefix("file://") {
            guard let url = URL(string: text), url.host == nil || url.host == "" || url.host == "localhost",
                url.path.hasPrefix("/")
            else {
                throw fields.error(
                    "url", "a file URL needs an absolute path, e.g. file:///data/TripUpdates.pb; got \"\(text)\"")
            }
            return .file(path: url.path)
        }
        throw fields.error("url", "must start with https://, http:// or file:///, got \"\(text)\"")
    }

    /// The URL with `$VAR` / `${VAR}` of its user info and query expanded from the environment (an API key given
    /// in the query, as many agencies take it, or as a password); also whether it used any. Only those two parts
    /// may use them: the rest of a URL is shown in `sources`, `health` and logs (`SourceLocation
    /// .redactedDescription` leaves user info and query out).
    private func url(_ fields: ConfigFields) throws(RealtimeConfigError) -> (String, Bool) {
        let raw = try fields.string("url") ?? ""
        guard raw.contains("$") else { return (raw, false) }
        // scheme://[userinfo@]host[:port][/path][?query]
        guard raw.lowercased().hasPrefix("http"), let schemeEnd = raw.range(of: "://") else {
            throw fields.error("url", "environment variables go in an http(s) URL's user info or query only")
        }
        let afterScheme = raw[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let at = authority.lastIndex(of: "@")
        let userInfo = at.map { authority[..<$0] } ?? ""
        let hostAndPort = at.map { authority[authority.index(after: $0)...] } ?? authority
        let rest = afterScheme[authorityEnd...]
        let queryStart = rest.firstIndex(of: "?")
        let path = queryStart.map { rest[..<$0] } ?? rest
        let query = queryStart.map { rest[$0...] } ?? ""
        guard !hostAndPort.contains("$"), !path.contains("$") else {
            throw fields.error(
                "url",
                "environment variables go in an http(s) URL's user info or query only (e.g. ?api_key=$KEY): its "
                    + "host and path are shown in status and logs")
        }
        var used = false
        func expand(_ part: Substring) throws(RealtimeConfigError) -> String {
            do {
                let (text, variables) = try EnvironmentExpansion.expand(String(part), environment: environment)
                used = used || !variables.isEmpty
                return text
            } catch {
                switch error {
                case .missing(let variable): throw fields.error("url", "environment variable \(variable) is not set")
                case .empty(let variable): throw fields.error("url", "environment variable \(variable) is empty")
                case .syntax:
                    throw fields.error("url", "has a '$' not followed by a variable name; write $$ for a literal $")
                }
            }
        }
        let expandedUserInfo = try expand(userInfo)
        let expandedQuery = try expand(query)
        let text =
            String(raw[..<schemeEnd.upperBound]) + (at == nil ? "" : expandedUserInfo + "@") + String(hostAndPort)
            + String(path) + expandedQuery
        return (text, used)
    }

    /// The headers, values expanded; also whether any value came from an environment variable.
    private func headers(_ fields: ConfigFields) throws(RealtimeConfigError) -> ([HTTPHeader], Bool) {
        guard let value = fields.values["headers"] else { return ([], false) }
        guard case .object(let object) = value else {
            throw fields.error("headers", "must be an object of name: value, got \(value.typeName)")
        }
        var headers: [HTTPHeader] = []
        var usesVariables = false
        for name in object.members.map(\.key).sorted() {
            let field = "headers.\(name)"
            guard !name.isEmpty, name.allSatisfy(Self.isTokenCharacter) else {
                throw fields.error(field, "is not a valid HTTP header name")
            }
            guard case .string(let raw) = object[name]! else {
                throw fields.error(field, "must be a string, got \(object[name]!.typeName)")
            }
            let expanded: String
            let variables: [String]
            do {
                (expanded, variables) = try EnvironmentExpansion.expand(raw, environment: environment)
            } catch {
                switch error {
                case .missing(let variable): throw fields.error(field, "environment variable \(variable) is not set")
                case .empty(let variable): throw fields.error(field, "environment variable \(variable) is empty")
                case .syntax:
                    throw fields.error(field, "has a '$' not followed by a variable name; write $$ for a literal $")
                }
            }
            usesVariables = usesVariables || !variables.isEmpty
            // Stray spaces or a newline at the end of a key pasted into a variable would break the request.
            let value = expanded.trimmingCharacters(in: .whitespacesAndNewlines)
            let from =
                variables.isEmpty ? "" : " (after expanding \(variables.map { "$" + $0 }.joined(separator: ", ")))"
            guard !value.isEmpty else { throw fields.error(field, "is empty\(from)") }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw fields.error(field, "contains a line break or NUL\(from)")
            }
            headers.append(HTTPHeader(name: name, value: SecretValue(value)))
        }
        return (headers, usesVariables)
    }

    private func replaySources(_ name: String, _ fields: ConfigFields) throws(RealtimeConfigError) -> [SourceConfig] {
        try fields.checkKnown(Self.replayFields)
        let kind = try kind(fields, default: .auto)
        guard let given = try fields.string("replay"), !given.isEmpty else {
            throw fields.error("replay", "must name a folder")
        }
        guard let pace = try fields.positiveNumber("pace_s") else { throw fields.error("pace_s", "is missing") }
        let loop = try fields.bool("loop") ?? true
        let ownTimes = try fields.bool("own_times") ?? true
        let staleAfter = try staleAfter(fields)
        let folder = given.hasPrefix("/") ? given : (baseDirectory as NSString).appendingPathComponent(given)
        let snapshots: [String]
        do {
            snapshots = try ReplayFolder.snapshots(in: folder)
        } catch {
            throw fields.error("replay", "\(error) (resolved to \(folder))")
        }
        guard !snapshots.isEmpty else {
            throw fields.error(
                "replay", "the folder \(folder) holds no numbered snapshot folders (0001/, 0002/, ...) nor .pb files")
        }
        let present = ReplayFolder.kindsPresent(in: snapshots)
        let kinds = kind == .auto ? present : present.filter { $0 == kind }
        guard !kinds.isEmpty else {
            let wanted = kind == .auto ? "TripUpdates.pb, VehiclePositions.pb or Alerts.pb" : kind.replayFileName!
            throw fields.error("replay", "no snapshot in \(folder) holds \(wanted)")
        }
        let prefix = try prefix(fields)
        let maxBytes = try maxBytes(fields)
        return kinds.map { kind in
            var source = SourceConfig(
                name: "\(name).\(kind.rawValue)", kind: kind, location: .replay(folder: folder, loop: loop),
                pollInterval: .fromSeconds(pace), prefix: prefix, maxBytes: maxBytes, staleAfterSecs: staleAfter
            )
            source.replayAtOwnTimes = ownTimes
            return source
        }
    }

    private static func isTokenCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "!#$%&'*+-.^_`|~".contains(c))
    }

    static func isLoopback(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}

extension JSONValue {
    /// What kind of value this is, for "must be a number, got a string" messages (a number is a number here,
    /// integer or not).
    fileprivate var typeName: String {
        if case .number = self { return "a number" }
        return kindDescription
    }
}
