import Foundation

/// Natural ordering of route names: runs of ASCII digits compare by value, the rest case-insensitively,
/// so T1 < T2 < T10 and 2 < 10 < 333 < L90.
///
/// Rules, in order: at each position a digit run sorts before any other character; two digit runs compare
/// by numeric value (any length, no overflow), equal values with fewer leading zeros first; other
/// characters compare without case and accents (so "Éclair" sorts among the E's, where
/// `RouteSections.key(for:)` files it, not after "Z"); a name that is a prefix of another sorts first.
/// Names equal under these rules fall back to plain scalar order ("t1" vs "T1"), so the order is total.
public enum NaturalSort {
    public static func compare(_ a: String, _ b: String) -> ComparisonResult {
        // Fast path without allocation for ASCII names (almost all route and stop names).
        var a = a, b = b
        let ascii = a.withUTF8 { x in
            b.withUTF8 { y in compareASCII(x, y) }
        }
        if let ascii { return ascii }
        return compareScalars(a, b)
    }

    /// nil when a non-ASCII byte is met before the order is decided.
    private static func compareASCII(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>)
        -> ComparisonResult?
    {
        var i = 0, j = 0
        var leadingZeroTie = ComparisonResult.orderedSame
        while i < x.count, j < y.count {
            let cx = x[i], cy = y[j]
            if cx >= 0x80 || cy >= 0x80 { return nil }
            let dx = cx >= 0x30 && cx <= 0x39, dy = cy >= 0x30 && cy <= 0x39
            if dx && dy {
                var ei = i, ej = j
                while ei < x.count, x[ei] >= 0x30, x[ei] <= 0x39 { ei += 1 }
                while ej < y.count, y[ej] >= 0x30, y[ej] <= 0x39 { ej += 1 }
                var si = i, sj = j
                while si < ei - 1, x[si] == 0x30 { si += 1 }
                while sj < ej - 1, y[sj] == 0x30 { sj += 1 }
                if ei - si != ej - sj { return ei - si < ej - sj ? .orderedAscending : .orderedDescending }
                while si < ei {
                    if x[si] != y[sj] { return x[si] < y[sj] ? .orderedAscending : .orderedDescending }
                    si += 1
                    sj += 1
                }
                if leadingZeroTie == .orderedSame, ei - i != ej - j {
                    leadingZeroTie = ei - i < ej - j ? .orderedAscending : .orderedDescending
                }
                i = ei
                j = ej
                continue
            }
            if dx != dy { return dx ? .orderedAscending : .orderedDescending }
            let lx = cx >= 0x41 && cx <= 0x5A ? cx + 0x20 : cx
            let ly = cy >= 0x41 && cy <= 0x5A ? cy + 0x20 : cy
            if lx != ly { return lx < ly ? .orderedAscending : .orderedDescending }
            i += 1
            j += 1
        }
        if i < x.count { return x[i...].contains { $0 >= 0x80 } ? nil : .orderedDescending }
        if j < y.count { return y[j...].contains { $0 >= 0x80 } ? nil : .orderedAscending }
        if leadingZeroTie != .orderedSame { return leadingZeroTie }
        // Equal ignoring case: plain byte order (for ASCII the same as scalar order).
        let n = min(x.count, y.count)
        for k in 0..<n where x[k] != y[k] { return x[k] < y[k] ? .orderedAscending : .orderedDescending }
        return x.count == y.count ? .orderedSame : (x.count < y.count ? .orderedAscending : .orderedDescending)
    }

    static func compareScalars(_ a: String, _ b: String) -> ComparisonResult {
        // Accents folded away first: otherwise "É" (U+00C9) would sort after every ASCII letter, and an A–Z
        // list would show section "E" after "Z".
        let x = Array(folded(a).unicodeScalars), y = Array(folded(b).unicodeScalars)
        var i = 0, j = 0
        var leadingZeroTie = ComparisonResult.orderedSame
        while i < x.count, j < y.count {
            let dx = isDigit(x[i]), dy = isDigit(y[j])
            if dx && dy {
                let ri = digitRun(x, from: i), rj = digitRun(y, from: j)
                let order = compareNumbers(x, ri, y, rj)
                if order != .orderedSame { return order }
                if leadingZeroTie == .orderedSame, ri.count != rj.count {
                    leadingZeroTie = ri.count < rj.count ? .orderedAscending : .orderedDescending
                }
                i = ri.upperBound
                j = rj.upperBound
                continue
            }
            if dx != dy { return dx ? .orderedAscending : .orderedDescending }
            let lx = lowered(x[i]), ly = lowered(y[j])
            if lx != ly { return lx < ly ? .orderedAscending : .orderedDescending }
            i += 1
            j += 1
        }
        if i < x.count { return .orderedDescending }
        if j < y.count { return .orderedAscending }
        if leadingZeroTie != .orderedSame { return leadingZeroTie }
        if a == b { return .orderedSame }
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? .orderedAscending : .orderedDescending
    }

    /// Without accents (the case is folded by `lowered`): "Éclair" → "eclair".
    private static func folded(_ s: String) -> String {
        s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
    }

    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        compare(a, b) == .orderedAscending
    }

    @inline(__always)
    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

    private static func digitRun(_ s: [Unicode.Scalar], from start: Int) -> Range<Int> {
        var end = start
        while end < s.count, isDigit(s[end]) { end += 1 }
        return start..<end
    }

    /// Compares two digit runs by value: strip leading zeros, then longer is larger, else digit by digit.
    private static func compareNumbers(
        _ x: [Unicode.Scalar], _ rx: Range<Int>,
        _ y: [Unicode.Scalar], _ ry: Range<Int>
    ) -> ComparisonResult {
        var i = rx.lowerBound, j = ry.lowerBound
        while i < rx.upperBound - 1, x[i] == "0" { i += 1 }
        while j < ry.upperBound - 1, y[j] == "0" { j += 1 }
        let lx = rx.upperBound - i, ly = ry.upperBound - j
        if lx != ly { return lx < ly ? .orderedAscending : .orderedDescending }
        while i < rx.upperBound {
            if x[i] != y[j] { return x[i].value < y[j].value ? .orderedAscending : .orderedDescending }
            i += 1
            j += 1
        }
        return .orderedSame
    }

    @inline(__always)
    private static func lowered(_ s: Unicode.Scalar) -> UInt32 {
        if s.value >= 0x41 && s.value <= 0x5A { return s.value + 0x20 }
        if s.isASCII { return s.value }
        let mapping = s.properties.lowercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping.first!.value : s.value
    }
}
