import TransitModel

/// What the live state needs to know about one realtime source (the rest of its configuration, URL,
/// headers and polling, belongs to the poller).
public struct SourceSettings: Sendable, Hashable {
    /// Unique among the sources; names the source in statuses, keys and logs.
    public var name: String
    /// What the source's feed holds; `.auto` takes whatever each feed holds (a feed may mix kinds).
    public var kind: LiveSourceKind
    /// The static import's id prefix of the matching feed ("" for none): trip, route and agency ids of
    /// this source get it. Stop ids never do (the static database stores them unprefixed).
    public var idPrefix: String
    /// Data older than this (from the feed header timestamp, else the fetch time) is stale; nil: 10 min for
    /// alerts sources, 90 s otherwise.
    public var staleAfterSecs: Int64?
    /// IANA zone of the feed's agency (for trips not in the schedule and for start-date inference).
    public var timeZone: String
    /// Largest feed body decoded (64 MiB by default).
    public var maxBytes: Int
    /// The least share of an update's scheduled trips the timetable must know, per-mille (`serve
    /// --min-match-rate`); below it the source's match is a mismatch (SourceState+Match.swift).
    public var minMatchPermille: UInt32 = Self.defaultMinMatchPermille

    public init(
        name: String, kind: LiveSourceKind = .auto, idPrefix: String = "", staleAfterSecs: Int64? = nil,
        timeZone: String, maxBytes: Int = 64 << 20
    ) {
        self.name = name
        self.kind = kind
        self.idPrefix = idPrefix
        self.staleAfterSecs = staleAfterSecs
        self.timeZone = timeZone
        self.maxBytes = maxBytes
    }

    public static let defaultStaleAfterSecs: Int64 = 90
    public static let defaultAlertsStaleAfterSecs: Int64 = 600
    public static let defaultMinMatchPermille: UInt32 = 500

    /// The staleness limit: the configured one, else by kind (an `auto` source holding only alerts counts as
    /// an alerts source).
    func staleLimit(detected: Set<LiveSourceKind>) -> Int64 {
        if let staleAfterSecs { return staleAfterSecs }
        if kind == .alerts || (kind == .auto && detected == [.alerts]) { return Self.defaultAlertsStaleAfterSecs }
        return Self.defaultStaleAfterSecs
    }

    /// Whether entities of `part` are taken from this source's feeds.
    func accepts(_ part: LiveSourceKind) -> Bool { kind == .auto || kind == part }
}
