import Foundation
import SQLiteKit
import TransitCore
import TransitModel

extension StaticStore {
    /// Stations and stops without a parent whose name (or code) matches `text`, best first: the exact name,
    /// then names starting with the text, then names containing every word (the last word as a prefix);
    /// within each, busier stops (more scheduled trips) first, then by name.
    /// Platforms fold into their station unless `includePlatforms`; entrances and nodes never appear.
    /// `mode` keeps stops served by that mode. Any text is safe (it is tokenized and quoted for FTS5):
    /// text without letters or digits finds nothing.
    public func search(_ text: String, limit: Int, mode: String? = nil, includePlatforms: Bool = false) throws(StoreError) -> [Stop] {
        try Self.checkLimit(limit)
        let mode = try Self.parseMode(mode)
        let tokens = SearchText.tokens(text)
        guard !tokens.isEmpty else { return [] }
        let candidateCap = max(limit * 8, 200)

        return try run { c in
            var found: [Int: (row: StopRow, rank: Int)] = [:]
            let matches = try c.statement("""
                SELECT f.rowid, s.parent_pk, s.location_type FROM stop_search f JOIN stops s ON s.stop_pk = f.rowid
                WHERE stop_search MATCH ?1 LIMIT ?2
                """)

            func collect(_ ftsQuery: String) throws {
                matches.reset()
                matches.bind(1, ftsQuery)
                matches.bind(2, candidateCap)
                var pks: [Int] = []
                while try matches.step() {
                    var pk = matches.int(0)
                    if !includePlatforms, matches.int(2) == 0, let parent = matches.optionalInt(1) { pk = parent }
                    pks.append(pk)
                }
                for pk in pks where found[pk] == nil {
                    guard let row = try loadStop(c, pk: pk), row.stop.locationType <= 1 else { continue }
                    if let mode, row.modeMask & mode.bit == 0 { continue }
                    found[pk] = (row, SearchText.rank(name: row.stop.name, queryTokens: tokens))
                }
            }

            // Names starting with the words (exact names among them), then with the last word as a prefix.
            try collect("name : ^" + SearchText.phrase(tokens))
            try collect("name : ^" + SearchText.phrase(tokens) + " *")
            // Every word anywhere (name or code), unless names starting with the text already fill the limit.
            if found.values.filter({ $0.rank <= 1 }).count < limit {
                try collect(tokens.dropLast().map { SearchText.phrase([$0]) + " AND " }.joined()
                            + SearchText.phrase([tokens.last!]) + " *")
            }

            let ranked = found.values.sorted { a, b in
                if a.rank != b.rank { return a.rank < b.rank }
                if a.row.tripCount != b.row.tripCount { return a.row.tripCount > b.row.tripCount }
                let order = NaturalSort.compare(a.row.stop.name, b.row.stop.name)
                return order == .orderedSame ? a.row.stop.stopId < b.row.stop.stopId : order == .orderedAscending
            }
            return ranked.prefix(limit).map(\.row.stop)
        }
    }
}

/// Search text handling, in line with the FTS5 unicode61 tokenizer (remove_diacritics 2): words are runs of
/// letters and digits, compared case- and diacritic-insensitively.
enum SearchText {
    static func tokens(_ text: String) -> [String] {
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
