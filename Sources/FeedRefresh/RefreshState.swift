// What the refresher knows of each URL feed, kept in `<db>.refresh/state.json` beside the database: the
// conditional-GET validators, when it was checked and changed, what went wrong. The static service reads it
// for `feed_info` (each feed's refresh) so `health` can say that a refresh failed.
import Foundation
import HTTPFetching
import TransitModel

/// One URL feed in the state file: what `feed_info` shows (`refresh`) and what only the refresher needs.
public struct RefreshedFeed: Sendable, Hashable, Codable {
    public var name: String
    /// feed_info.txt's version of the bytes being served (nil when the feed gives none).
    public var version: String?
    /// The validators of the last bytes fetched (served, or refused: a refused version is not fetched again
    /// until the server has another).
    public var validators: CacheValidators
    public var refresh: FeedRefreshStatus

    public init(name: String, source: String) {
        self.name = name
        validators = CacheValidators()
        refresh = FeedRefreshStatus(source: source)
    }
}

public struct RefreshState: Sendable, Hashable, Codable {
    public var feeds: [RefreshedFeed]
    /// The database_version the refresher last put in place.
    public var databaseVersion: String?

    public init(feeds: [RefreshedFeed] = [], databaseVersion: String? = nil) {
        self.feeds = feeds
        self.databaseVersion = databaseVersion
    }

    /// The folder beside `databasePath` that holds the state file and the last good download of each feed.
    public static func folder(forDatabase databasePath: String) -> String { databasePath + ".refresh" }

    public static func file(forDatabase databasePath: String) -> String {
        folder(forDatabase: databasePath) + "/state.json"
    }

    /// The state beside `databasePath`; empty when there is none or it cannot be read (a refresher starts over:
    /// it fetches every feed once more).
    public static func load(forDatabase databasePath: String) -> RefreshState {
        guard let data = FileManager.default.contents(atPath: file(forDatabase: databasePath)),
            let state = try? JSONDecoder().decode(RefreshState.self, from: data)
        else { return RefreshState() }
        return state
    }

    /// Writes the state atomically (a reader never sees half of it).
    public func save(forDatabase databasePath: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        let path = Self.file(forDatabase: databasePath)
        try FileManager.default.createDirectory(
            atPath: Self.folder(forDatabase: databasePath), withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    public subscript(feed name: String) -> RefreshedFeed? {
        feeds.first { $0.name == name }
    }

    /// The status of `name`, created for `source` when missing (the source updated when it changed).
    public mutating func status(_ name: String, source: String) -> RefreshedFeed {
        if let index = feeds.firstIndex(where: { $0.name == name }) {
            if feeds[index].refresh.source != source {
                // Another URL: nothing known of it.
                feeds[index] = RefreshedFeed(name: name, source: source)
            }
            return feeds[index]
        }
        let status = RefreshedFeed(name: name, source: source)
        feeds.append(status)
        return status
    }

    public mutating func update(_ status: RefreshedFeed) {
        if let index = feeds.firstIndex(where: { $0.name == status.name }) {
            feeds[index] = status
        } else {
            feeds.append(status)
        }
    }
}
