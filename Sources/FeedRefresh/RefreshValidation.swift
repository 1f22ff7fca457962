// Whether a newly imported database may replace the serving one. Pure: the profiles of both and the date.
import Foundation

public struct RefreshLimits: Sendable, Hashable {
    /// The largest share of a feed's trips a new version may lose (`--gtfs-max-shrink`, default 0.5).
    public var maxShrink: Double
    /// How far (km) a feed's stops' centre may move before the new version is taken for another region's.
    public var maxCentroidShiftKm: Double

    public init(maxShrink: Double = 0.5, maxCentroidShiftKm: Double = 150) {
        self.maxShrink = maxShrink
        self.maxCentroidShiftKm = maxCentroidShiftKm
    }
}

/// Why a new version is refused; each names the feed and says what a person can check.
public enum Refusal: Sendable, Hashable, CustomStringConvertible {
    case notAZip(feed: String, looksLike: String)
    case missingFeed(feed: String)
    case noTrips(feed: String)
    case doesNotCoverToday(feed: String, today: Int, start: Int?, end: Int?)
    case shrank(feed: String, from: Int, to: Int, maxShrink: Double)
    case modeRemoved(feed: String, mode: String, trips: Int)
    case movedAway(feed: String, kilometres: Double, limit: Double)

    public var description: String {
        switch self {
        case .notAZip(let feed, let looksLike):
            "\(feed): the download is not a zip archive (it looks like \(looksLike))"
        case .missingFeed(let feed): "\(feed): the new database holds no such feed"
        case .noTrips(let feed): "\(feed): the new version has no trips"
        case .doesNotCoverToday(let feed, let today, let start, let end):
            "\(feed): the new version's services run \(start.map(String.init) ?? "?")…\(end.map(String.init) ?? "?"), "
                + "not today (\(today))"
        case .shrank(let feed, let from, let to, let maxShrink):
            "\(feed): the new version has \(to) trips, the serving one \(from): it lost "
                + "\(Int(((1 - Double(to) / Double(max(from, 1))) * 100).rounded())) %, more than --gtfs-max-shrink "
                + "\(Int((maxShrink * 100).rounded())) %"
        case .modeRemoved(let feed, let mode, let trips):
            "\(feed): the new version removes every \(mode) trip (the serving one has \(trips))"
        case .movedAway(let feed, let kilometres, let limit):
            "\(feed): the new version's stops lie \(Int(kilometres.rounded())) km from the serving one's (more than "
                + "\(Int(limit)) km: a feed of another region?)"
        }
    }
}

public enum RefreshValidation {
    /// The refusals of `candidate` against `serving` (nil: nothing serves yet), for the feeds `checked` (those
    /// whose bytes changed); `today` as YYYYMMDD per feed (each in its feed's time zone). Empty: accept.
    public static func refusals(
        candidate: [String: FeedProfile], serving: [String: FeedProfile]?, checked: [String],
        today: (FeedProfile) -> Int, limits: RefreshLimits
    ) -> [Refusal] {
        var refusals: [Refusal] = []
        for name in checked {
            guard let new = candidate[name] else {
                refusals.append(.missingFeed(feed: name))
                continue
            }
            guard new.trips > 0 else {
                refusals.append(.noTrips(feed: name))
                continue
            }
            let date = today(new)
            if let start = new.serviceStartDate, let end = new.serviceEndDate, start <= date, date <= end {
            } else {
                refusals.append(
                    .doesNotCoverToday(feed: name, today: date, start: new.serviceStartDate, end: new.serviceEndDate))
            }
            guard let old = serving?[name] else { continue }
            if Double(new.trips) < Double(old.trips) * (1 - limits.maxShrink) {
                refusals.append(.shrank(feed: name, from: old.trips, to: new.trips, maxShrink: limits.maxShrink))
            }
            for (mode, trips) in old.tripsByMode.sorted(by: { $0.key < $1.key }) where trips > 0 {
                if (new.tripsByMode[mode] ?? 0) == 0 {
                    refusals.append(.modeRemoved(feed: name, mode: mode, trips: trips))
                }
            }
            if let a = old.centroid, let b = new.centroid {
                let distance = a.kilometres(to: b)
                if distance > limits.maxCentroidShiftKm {
                    refusals.append(.movedAway(feed: name, kilometres: distance, limit: limits.maxCentroidShiftKm))
                }
            }
        }
        return refusals
    }

    /// nil when `prefix` (a download's first bytes) starts a zip archive; else what it looks like (an HTML page
    /// of a portal or a proxy's login, JSON of an API error, ...), checked before anything is imported.
    public static func notZip(_ prefix: [UInt8]) -> String? {
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return nil }
        if prefix.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return "an empty zip archive" }
        if prefix.isEmpty { return "nothing: an empty answer" }
        let text = String(decoding: prefix.prefix(512), as: UTF8.self).lowercased()
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.contains("<body") {
            return "an HTML page"
        }
        if text.hasPrefix("<") { return "XML" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON" }
        return "\(prefix.count < 4 ? "a few bytes" : "unknown bytes")"
    }
}
