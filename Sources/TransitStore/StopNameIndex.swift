import SQLiteKit
import TransitModel

/// The searchable names held in memory for the forgiving search tiers, which FTS5's word index cannot
/// answer: a text found inside a word ("entral" in Central) and a word typed with one or two mistakes
/// ("centrl", "circlar").
///
/// Names are split into words as `SearchText.tokens` does; the distinct words form a vocabulary with a
/// trigram index (words padded with two marks on each side, so a word's start and end are trigrams too).
/// A query word is looked up in the vocabulary, never in every name: a word containing it must hold all its
/// trigrams, and a word within k edits of it shares all but at most 4k of its padded trigrams (an edit
/// changes at most 3 trigrams, a swap of two neighbours at most 4), which narrows the words to compare with
/// the bounded edit distance. Then the names holding the matched words are read from per-word postings.
/// Immutable once built; about 100 bytes per name and word.
final class StopNameIndex: Sendable {
    /// One searchable stop (a station, a stop without a parent, or a platform of a station).
    struct Entry: Sendable {
        let pk: Int
        let locationType: Int
        /// Index of the parent station's entry (platforms fold into it), or -1.
        let parent: Int32
        let modeMask: Int
        let tripCount: Int
        let name: String
        /// The name's length in UTF-8 bytes (the search prefers shorter names).
        let nameLength: Int
        /// The name's words, as vocabulary ids.
        let words: [Int32]
    }

    let entries: [Entry]
    /// The distinct words of all names (lowercased, without diacritics), by id.
    let vocabulary: [[UInt8]]
    /// Word ids in byte order (prefix lookups for short query words).
    let sortedWords: [Int32]
    /// Per word id, the entries whose name holds it.
    let postings: [[Int32]]
    /// Per padded trigram, the ids of the words holding it.
    let trigrams: [UInt32: [Int32]]

    /// Reads every searchable stop of the database on `c`.
    init(_ c: StoreConnection) throws {
        let s = try c.statement(
            """
            SELECT stop_pk, location_type, parent_pk, mode_mask, trip_count, name FROM stops
            WHERE location_type <= 1 ORDER BY stop_pk
            """)
        var rows: [(pk: Int, type: Int, parentPk: Int?, mask: Int, trips: Int, name: String)] = []
        while try s.step() {
            rows.append((s.int(0), s.int(1), s.optionalInt(2), s.int(3), s.int(4), s.string(5) ?? ""))
        }
        var indexByPk: [Int: Int32] = [:]
        indexByPk.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() { indexByPk[row.pk] = Int32(i) }

        var wordIds: [String: Int32] = [:]
        var vocabulary: [[UInt8]] = []
        var postings: [[Int32]] = []
        var entries: [Entry] = []
        entries.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            var words: [Int32] = []
            for token in SearchText.tokens(row.name) {
                let id: Int32
                if let known = wordIds[token] {
                    id = known
                } else {
                    id = Int32(vocabulary.count)
                    wordIds[token] = id
                    vocabulary.append(Array(token.utf8))
                    postings.append([])
                }
                if !words.contains(id) {
                    words.append(id)
                    postings[Int(id)].append(Int32(i))
                }
            }
            // Only a platform (a stop with a parent) folds into its parent station.
            let parent = row.type == 0 ? row.parentPk.flatMap { indexByPk[$0] } ?? -1 : -1
            entries.append(
                Entry(
                    pk: row.pk, locationType: row.type, parent: parent, modeMask: row.mask, tripCount: row.trips,
                    name: row.name, nameLength: row.name.utf8.count, words: words))
        }
        var trigrams: [UInt32: [Int32]] = [:]
        for (id, word) in vocabulary.enumerated() {
            for gram in Self.paddedTrigrams(word) { trigrams[gram, default: []].append(Int32(id)) }
        }
        self.entries = entries
        self.vocabulary = vocabulary
        self.postings = postings
        self.trigrams = trigrams
        sortedWords = (0..<Int32(vocabulary.count)).sorted {
            vocabulary[Int($0)].lexicographicallyPrecedes(vocabulary[Int($1)])
        }
    }

    /// How a query word matched a word of a name; lower is better.
    enum WordMatch: Int, Comparable {
        /// The whole word, or the start of the word for the query's last (still being typed) word.
        case word = 2
        /// Inside the word (or the start of the word for a word before the last).
        case infix = 3
        /// One edit away (insert, delete, substitute, swap two neighbours).
        case oneEdit = 4
        /// Two edits away.
        case twoEdits = 5

        static func < (a: WordMatch, b: WordMatch) -> Bool { a.rawValue < b.rawValue }
    }

    /// Query words shorter than this match only the start of a word ("ce" never finds "Mercer").
    static let minInfixLength = 3
    /// Typos allowed in a query word: none up to 4 letters, one from 5, two from 8.
    static func allowedEdits(_ length: Int) -> Int { length >= 8 ? 2 : length >= 5 ? 1 : 0 }

    /// The vocabulary words `token` matches, with how; `isLast`: the query's last word (a prefix counts as
    /// the word itself, the rider may still be typing).
    func matches(_ token: [UInt8], isLast: Bool) -> [Int32: WordMatch] {
        var found: [Int32: WordMatch] = [:]
        let n = token.count
        guard n > 0 else { return found }
        if n < Self.minInfixLength {
            // Words starting with the token: a range of the sorted vocabulary.
            var low = 0, high = sortedWords.count
            while low < high {
                let mid = (low + high) / 2
                if vocabulary[Int(sortedWords[mid])].lexicographicallyPrecedes(token) {
                    low = mid + 1
                } else {
                    high = mid
                }
            }
            while low < sortedWords.count, vocabulary[Int(sortedWords[low])].starts(with: token) {
                let id = sortedWords[low]
                found[id] = isLast || vocabulary[Int(id)].count == n ? .word : .infix
                low += 1
            }
            return found
        }

        // Words holding every trigram of the token, then checked for the token itself.
        let inner = Set(Self.innerTrigrams(token))
        let padded = Set(Self.paddedTrigrams(token))
        // Per word: inner trigrams shared in the high half, padded ones in the low half.
        var counts = [UInt32](repeating: 0, count: vocabulary.count)
        var touched: [Int32] = []
        for gram in padded {
            guard let words = trigrams[gram] else { continue }
            let step: UInt32 = inner.contains(gram) ? 0x10001 : 1
            for id in words {
                if counts[Int(id)] == 0 { touched.append(id) }
                counts[Int(id)] += step
            }
        }
        let edits = Self.allowedEdits(n)
        let fuzzyThreshold = padded.count - 4 * edits
        for id in touched {
            let count = Int(counts[Int(id)])
            let word = vocabulary[Int(id)]
            if count >> 16 == inner.count, let at = Self.firstIndex(of: token, in: word) {
                found[id] = at == 0 && (isLast || word.count == n) ? .word : .infix
            } else if edits > 0, count & 0xFFFF >= fuzzyThreshold, abs(word.count - n) <= edits,
                let d = Self.editDistance(token, word, atMost: edits)
            {
                found[id] = d == 1 ? .oneEdit : .twoEdits
            }
        }
        if edits > 0, fuzzyThreshold <= 0 {
            // Too short a token for the trigram bound: compare with every word of a near length.
            for (id, word) in vocabulary.enumerated() where found[Int32(id)] == nil && abs(word.count - n) <= edits {
                if let d = Self.editDistance(token, word, atMost: edits) {
                    found[Int32(id)] = d == 1 ? .oneEdit : .twoEdits
                }
            }
        }
        return found
    }

    /// The entries whose names match every query token, with the worst of their tokens' matches; with
    /// `foldPlatforms` a platform stands for its station (once, with the best match of either).
    func search(_ tokens: [String], foldPlatforms: Bool) -> [(entry: Int32, match: WordMatch)] {
        guard !tokens.isEmpty else { return [] }
        let perToken = tokens.enumerated().map { i, t in matches(Array(t.utf8), isLast: i == tokens.count - 1) }
        // Walk the names of the most selective token; check the others on each name's words.
        var cheapest = 0, cheapestCost = Int.max
        for (i, words) in perToken.enumerated() {
            let cost = words.keys.reduce(0) { $0 + postings[Int($1)].count }
            if cost < cheapestCost { (cheapest, cheapestCost) = (i, cost) }
        }
        guard cheapestCost > 0 else { return [] }
        // The best match per entry (0: none yet), and the entries set, in the order first found.
        var best = [UInt8](repeating: 0, count: entries.count)
        var touched: [Int32] = []
        for (word, match) in perToken[cheapest] {
            for entry in postings[Int(word)] {
                var worst = match
                var all = true
                for (i, words) in perToken.enumerated() where i != cheapest {
                    var best: WordMatch?
                    for w in entries[Int(entry)].words {
                        if let m = words[w], best == nil || m < best! { best = m }
                    }
                    guard let best else { all = false; break }
                    worst = max(worst, best)
                }
                guard all else { continue }
                var target = entry
                if foldPlatforms, entries[Int(entry)].locationType == 0, entries[Int(entry)].parent >= 0 {
                    target = entries[Int(entry)].parent
                }
                let known = best[Int(target)]
                if known == 0 { touched.append(target) }
                if known == 0 || UInt8(worst.rawValue) < known { best[Int(target)] = UInt8(worst.rawValue) }
            }
        }
        return touched.map { ($0, WordMatch(rawValue: Int(best[Int($0)]))!) }
    }

    // MARK: text helpers

    static func paddedTrigrams(_ word: [UInt8]) -> [UInt32] {
        let padded = [0, 0] + word + [0, 0]
        return (0..<padded.count - 2).map { gram(padded, $0) }
    }

    static func innerTrigrams(_ word: [UInt8]) -> [UInt32] {
        word.count < 3 ? [] : (0..<word.count - 2).map { gram(word, $0) }
    }

    @inline(__always) private static func gram(_ bytes: [UInt8], _ i: Int) -> UInt32 {
        UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            var k = 1
            while k < needle.count, haystack[start + k] == needle[k] { k += 1 }
            if k == needle.count { return start }
        }
        return nil
    }

    /// The optimal-string-alignment distance of `a` and `b` (insertions, deletions, substitutions and swaps of
    /// two neighbours) when at most `limit`, else nil. Stops as soon as a row exceeds the limit.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        let n = a.count, m = b.count
        guard abs(n - m) <= limit else { return nil }
        guard n > 0, m > 0 else { return max(n, m) }
        var before = [Int](repeating: 0, count: m + 1)
        var previous = Array(0...m)
        var current = [Int](repeating: 0, count: m + 1)
        for i in 1...n {
            current[0] = i
            var rowMin = i
            for j in 1...m {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
                rowMin = min(rowMin, d)
            }
            if rowMin > limit { return nil }
            (before, previous, current) = (previous, current, before)
        }
        return previous[m] <= limit ? previous[m] : nil
    }
}
