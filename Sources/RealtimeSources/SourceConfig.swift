// One configured feed source: what it is, where its bytes come from, and how often to ask.
import Foundation

/// What a source's feed holds. `auto` leaves it to the decoder (a feed may mix kinds).
public enum SourceKind: String, Sendable, Hashable, CaseIterable {
    case tripUpdates = "trip_updates"
    case vehiclePositions = "vehicle_positions"
    case alerts
    case auto

    /// The three kinds a replay snapshot can hold, in file-name order.
    public static let replayKinds: [SourceKind] = [.tripUpdates, .vehiclePositions, .alerts]

    /// The file a replay snapshot holds for this kind (matched case-insensitively).
    var replayFileName: String? {
        switch self {
        case .tripUpdates: "TripUpdates.pb"
        case .vehiclePositions: "VehiclePositions.pb"
        case .alerts: "Alerts.pb"
        case .auto: nil
        }
    }
}

/// Where a source's bytes come from.
public enum SourceLocation: Sendable, Hashable {
    /// An `http://` or `https://` URL, polled with conditional GET requests.
    case http(URL)
    /// A local file (from a `file:///` URL), re-read when its inode, size or modification time changes.
    case file(path: String)
    /// One kind of a replay folder: numbered snapshot folders played in order, one per poll interval.
    case replay(folder: String, loop: Bool)

    /// Where, for status and messages: the scheme, host and path of a URL without its query or user info
    /// (a key passed in a query string must not leak either).
    public var redactedDescription: String {
        switch self {
        case .http(let url):
            var parts = URLComponents()
            parts.scheme = url.scheme
            parts.host = url.host
            parts.port = url.port
            parts.path = url.path
            let query = url.query == nil ? "" : "?…"
            return (parts.string ?? "\(url.scheme ?? "http")://\(url.host ?? "")") + query
        case .file(let path):
            return "file://" + path
        case .replay(let folder, let loop):
            return "replay " + folder + (loop ? " (looping)" : "")
        }
    }
}

/// A header value that never shows up in a description, log line, error or status: API keys live here.
public struct SecretValue: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
    /// The actual value, read only where the request is built.
    let revealed: String

    public init(_ value: String) {
        revealed = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// A request header; its value is a secret (all header values are treated as secrets).
public struct HTTPHeader: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: SecretValue

    public init(name: String, value: SecretValue) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name): <redacted>" }
}

/// One feed source, ready to poll (a replay entry of the config file is already expanded to one source per
/// kind, named `<name>.trip_updates` etc.).
public struct SourceConfig: Sendable, Hashable, CustomStringConvertible {
    public static let defaultTimeout: Duration = .seconds(8)
    public static let defaultMaxBytes = 64 * 1024 * 1024

    public var name: String
    public var kind: SourceKind
    public var location: SourceLocation
    /// Sent with every HTTP request; values redacted everywhere.
    public var headers: [HTTPHeader]
    /// Time between polls (for a replay: between snapshots).
    public var pollInterval: Duration
    /// Prepended to this feed's trip, route and agency ids, as the static import's `--prefix` did (stop ids
    /// are never prefixed: the import does not prefix them).
    public var prefix: String?
    /// Seconds after which this source's data is stale (from its feed header timestamp, else the fetch);
    /// nil: the service's default (90 s for trip updates and vehicle positions, 10 min for alerts).
    public var staleAfterSecs: Int?
    /// Longest an HTTP request may take, from sending to the last body byte. (File sources do not use it: a
    /// path that is not a regular file, e.g. a FIFO that would block, fails at once.)
    public var timeout: Duration
    /// Largest body accepted; a larger one is aborted with an error.
    public var maxBytes: Int
    /// A replay may play its snapshots at their own header times when the service clock (`--clock`) starts at
    /// or before the first one (ReplayFetcher); false keeps the paced, re-stamped replay (config `own_times`).
    public var replayAtOwnTimes = true

    public init(
        name: String, kind: SourceKind, location: SourceLocation, headers: [HTTPHeader] = [],
        pollInterval: Duration, prefix: String? = nil, timeout: Duration = SourceConfig.defaultTimeout,
        maxBytes: Int = SourceConfig.defaultMaxBytes, staleAfterSecs: Int? = nil
    ) {
        self.name = name
        self.kind = kind
        self.location = location
        self.headers = headers
        self.pollInterval = pollInterval
        self.prefix = prefix
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.staleAfterSecs = staleAfterSecs
    }

    /// Bounds of `staleAfterSecs`: a second to a week.
    public static let staleAfterRange = 1...604_800

    /// Whether polling it costs requests against the API's budget and rate limit.
    public var isNetwork: Bool {
        if case .http = location { return true }
        return false
    }

    /// Requests a day this source makes when every poll succeeds (0 for files and replays).
    public var dailyRequests: Int {
        guard isNetwork else { return 0 }
        let interval = pollInterval.seconds
        guard interval > 0 else { return Int.max }
        return Int((86_400 / interval).rounded(.up))
    }

    public var description: String {
        var text =
            "\(name) (\(kind.rawValue), \(location.redactedDescription), every \(formatSeconds(pollInterval.seconds))"
        if let prefix { text += ", prefix \"\(prefix)\"" }
        if let staleAfterSecs { text += ", stale after \(formatSeconds(Double(staleAfterSecs)))" }
        if !headers.isEmpty { text += ", headers " + headers.map(\.description).joined(separator: "; ") }
        return text + ")"
    }
}
