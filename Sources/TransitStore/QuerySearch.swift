import Foundation
import SQLiteKit
import TransitCore
import TransitModel

extension StaticStore {
    /// Stations and stops without a parent whose name (or code) matches `text`, best first: the exact name,
    /// then names starting with the text, then names containing every word (the last word as a prefix),
    /// then names holding every word inside a word ("entral": Central; only words of 3 letters or more),
    /// then names holding every word with one typo, then with two ("centrl", "circlar quay"; one typo from
    /// 5 letters, two from 8: `StopNameIndex.allowedEdits`); the last two tiers only fill what the others leave
    /// of `limit`;
    /// within each, stations before stops (a station stands for all its platforms: "central" finds Central
    /// Station before Central Chalmers Street Light Rail, however many trams call there), then busier ones
    /// (more scheduled trips), then shorter names (closer to what was typed), then by name.
    /// Platforms fold into their station unless `includePlatforms`; entrances and nodes never appear.
    /// `mode` keeps stops served by that mode. Any text is safe (it is tokenized and quoted for FTS5):
    /// text without letters or digits finds nothing.
    public func search(_ text: String, limit: Int, mode: String? = nil, includePlatforms: Bool = false)
        throws(StoreError) -> [Stop]
    {
        try Self.checkLimit(limit)
        let mode = try Self.parseMode(mode)
        let tokens = SearchText.tokens(text)
        guard !tokens.isEmpty else { return [] }
        let candidateCap = max(limit * 4, 100)

        return try run { c in
            struct Candidate { var pk: Int; var rank: Int; var isStation: Bool; var tripCount: Int; var name: String }
            var found: [Int: Candidate] = [:]
            let matches = try c.statement(
                """
                SELECT s.stop_pk, s.location_type, s.name, s.trip_count, s.mode_mask,
                       p.stop_pk, p.location_type, p.name, p.trip_count, p.mode_mask
                FROM stop_search f JOIN stops s ON s.stop_pk = f.rowid LEFT JOIN stops p ON p.stop_pk = s.parent_pk
                WHERE stop_search MATCH ?1 LIMIT ?2
                """)

            /// Adds the matches of one FTS query; true when the cap cut them short.
            func collect(_ ftsQuery: String) throws -> Bool {
                matches.reset()
                matches.bind(1, ftsQuery)
                matches.bind(2, candidateCap)
                var rows = 0
                while try matches.step() {
                    rows += 1
                    // A platform stands for its station (columns 5…9) unless platforms are asked for.
                    let fold = !includePlatforms && matches.int(1) == 0 && !matches.isNull(5)
                    let base: Int32 = fold ? 5 : 0
                    let pk = matches.int(base)
                    guard found[pk] == nil, matches.int(base + 1) <= 1 else { continue }
                    if let mode, matches.int(base + 4) & mode.bit == 0 { continue }
                    let name = matches.string(base + 2) ?? ""
                    found[pk] = Candidate(
                        pk: pk, rank: SearchText.rank(name: name, queryTokens: tokens),
                        isStation: matches.int(base + 1) == 1, tripCount: matches.int(base + 3),
                        name: name)
                }
                return rows >= candidateCap
            }

            // Names starting with the first word and holding the others (the last as a prefix): the candidates
            // for "starts with the text" (the rank decides). An AND of single words is far cheaper for FTS5
            // than a phrase ending in a prefix. When the cap cut them short, also the names starting with the
            // complete words, so that exact names are not lost.
            let anchored = "name : ^" + SearchText.phrase([tokens[0]])
            let rest = tokens.dropFirst().map { " AND " + SearchText.phrase([$0]) }.joined()
            if try collect(anchored + rest + " *") {
                _ = try collect("name : ^" + SearchText.phrase(tokens))
            }
            // Every word anywhere (name or code), unless names starting with the text already fill the limit.
            if found.values.lazy.filter({ $0.rank <= 1 }).count < limit {
                _ = try collect(
                    tokens.dropLast().map { SearchText.phrase([$0]) + " AND " }.joined()
                        + SearchText.phrase([tokens.last!]) + " *")
            }

            // Inside words, then with one or two typos: from the in-memory name index, while the tiers above
            // leave room (they are cheaper, and always better).
            // Only the best `limit` of them become candidates (a common word can match thousands of names).
            if found.count < limit {
                let index = try stopNameIndex(c)
                var top: [(entry: Int, rank: Int)] = []
                top.reserveCapacity(limit + 1)
                func precedes(_ a: (entry: Int, rank: Int), _ b: (entry: Int, rank: Int)) -> Bool {
                    if a.rank != b.rank { return a.rank < b.rank }
                    let x = index.entries[a.entry], y = index.entries[b.entry]
                    if x.locationType != y.locationType { return x.locationType == 1 }
                    if x.tripCount != y.tripCount { return x.tripCount > y.tripCount }
                    if x.nameLength != y.nameLength { return x.nameLength < y.nameLength }
                    let order = NaturalSort.compare(x.name, y.name)
                    return order == .orderedSame ? x.pk < y.pk : order == .orderedAscending
                }
                for (entryIndex, match) in index.search(tokens, foldPlatforms: !includePlatforms) {
                    let entry = index.entries[Int(entryIndex)]
                    if let mode, entry.modeMask & mode.bit == 0 { continue }
                    if match == .word, found[entry.pk] != nil { continue }  // the word tiers found it
                    // A whole-word match keeps the word tiers' finer rank (exact, prefix, words).
                    let hit = (
                        entry: Int(entryIndex),
                        rank: match == .word ? SearchText.rank(name: entry.name, queryTokens: tokens) : match.rawValue
                    )
                    if top.count == limit, !precedes(hit, top[limit - 1]) { continue }
                    guard found[entry.pk] == nil else { continue }
                    var at = top.count
                    while at > 0, precedes(hit, top[at - 1]) { at -= 1 }
                    top.insert(hit, at: at)
                    if top.count > limit { top.removeLast() }
                }
                for hit in top {
                    let entry = index.entries[hit.entry]
                    found[entry.pk] = Candidate(
                        pk: entry.pk, rank: hit.rank, isStation: entry.locationType == 1,
                        tripCount: entry.tripCount, name: entry.name)
                }
            }

            // The best `limit` candidates: rank, then stations, busier, shorter, by name (top-k, no full sort).
            func better(_ a: Candidate, _ b: Candidate) -> Bool {
                if a.rank != b.rank { return a.rank < b.rank }
                if a.isStation != b.isStation { return a.isStation }
                if a.tripCount != b.tripCount { return a.tripCount > b.tripCount }
                if a.name.utf8.count != b.name.utf8.count { return a.name.utf8.count < b.name.utf8.count }
                let order = NaturalSort.compare(a.name, b.name)
                return order == .orderedSame ? a.pk < b.pk : order == .orderedAscending
            }
            var ranked: [Candidate] = []
            ranked.reserveCapacity(limit + 1)
            for candidate in found.values {
                if ranked.count == limit, !better(candidate, ranked[limit - 1]) { continue }
                var index = ranked.count
                while index > 0, better(candidate, ranked[index - 1]) { index -= 1 }
                ranked.insert(candidate, at: index)
                if ranked.count > limit { ranked.removeLast() }
            }
            var result: [Stop] = []
            for candidate in ranked {
                if let row = try loadStop(c, pk: candidate.pk) { result.append(row.stop) }
            }
            return result
        }
    }
}

/// Search text handling, in line with the FTS5 unicode61 tokenizer (remove_diacritics 2): words are runs of
/// letters and digits, compared case- and diacritic-insensitively.
enum SearchText {
    static func tokens(_ text: String) -> [String] {
        // ASCII fast path (most stop names): lowercase and split on bytes.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var tokens: [String] = []
            var current: [UInt8] = []
            for var byte in text.utf8 {
                if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                if (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                    current.append(byte)
                } else if !current.isEmpty {
                    tokens.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
            }
            if !current.isEmpty { tokens.append(String(decoding: current, as: UTF8.self)) }
            return tokens
        }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        var tokens: [String] = []
        var current = ""
        for ch in folded {
            if ch.isLetter || ch.isNumber {
                current.append(ch)
            } else if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// An FTS5 phrase of the tokens: a string literal, inner quotes doubled, so no operator can leak in.
    static func phrase(_ tokens: [String]) -> String {
        "\"" + tokens.joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// 0 exact name, 1 name starting with the words (last one a prefix), 2 other matches.
    static func rank(name: String, queryTokens: [String]) -> Int {
        if let fast = rankASCII(name: name, queryTokens: queryTokens) { return fast }
        return rankGeneral(name: name, queryTokens: queryTokens)
    }

    /// `rank` for an ASCII name without allocating: walks the name's words in place. nil when not ASCII.
    static func rankASCII(name: String, queryTokens: [String]) -> Int? {
        var name = name
        return name.withUTF8 { bytes -> Int? in
            var i = 0
            var q = 0
            while true {
                // Skip separators to the next word.
                while i < bytes.count, !isWordByte(bytes[i]) {
                    if bytes[i] >= 0x80 { return nil }
                    i += 1
                }
                if i == bytes.count { return q == queryTokens.count ? 0 : 2 }
                var end = i
                while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] >= 0x80 { return nil }
                guard q < queryTokens.count else { return 1 }  // the name has more words than the query
                let last = q == queryTokens.count - 1
                var matched = true
                var k = i
                for t in queryTokens[q].utf8 {
                    guard k < end, lower(bytes[k]) == t else { matched = false; break }
                    k += 1
                }
                if !matched || (!last && k != end) { return bytes[end...].contains { $0 >= 0x80 } ? nil : 2 }
                if last && k != end {
                    // A prefix of the word: rank 1 (not exact).
                    return bytes[end...].contains { $0 >= 0x80 } ? nil : 1
                }
                q += 1
                i = end
            }
        }
    }

    @inline(__always) private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
    }

    @inline(__always) private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }

    static func rankGeneral(name: String, queryTokens: [String]) -> Int {
        let nameTokens = tokens(name)
        if nameTokens == queryTokens { return 0 }
        guard nameTokens.count >= queryTokens.count else { return 2 }
        for (i, q) in queryTokens.enumerated() {
            let last = i == queryTokens.count - 1
            if last ? !nameTokens[i].hasPrefix(q) : nameTokens[i] != q { return 2 }
        }
        return 1
    }
}
