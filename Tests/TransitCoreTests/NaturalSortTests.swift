import Testing

@testable import TransitCore

@Suite struct NaturalSortTests {
    func sorted(_ names: [String]) -> [String] { names.sorted(by: NaturalSort.areInIncreasingOrder) }

    @Test func sydneyTrainLines() {
        #expect(sorted(["T10", "T2", "T1", "T9", "T4"]) == ["T1", "T2", "T4", "T9", "T10"])
    }

    @Test func numbersBeforeLetters() {
        #expect(sorted(["L90", "333", "10", "2"]) == ["2", "10", "333", "L90"])
        #expect(sorted(["M52", "M10", "370", "X05", "L90", "100"]) == ["100", "370", "L90", "M10", "M52", "X05"])
    }

    @Test func caseInsensitiveThenStable() {
        #expect(sorted(["b1", "A2", "a1", "B0"]) == ["a1", "A2", "B0", "b1"])
        // Equal ignoring case: a fixed (scalar) order, both ways round.
        #expect(NaturalSort.compare("T1", "t1") == .orderedAscending)
        #expect(NaturalSort.compare("t1", "T1") == .orderedDescending)
        #expect(NaturalSort.compare("T1", "T1") == .orderedSame)
    }

    @Test func prefixesAndSuffixes() {
        #expect(sorted(["T1a", "T1", "T", "T1 Express"]) == ["T", "T1", "T1 Express", "T1a"])
        #expect(sorted(["N10", "N1", "N100", "N11"]) == ["N1", "N10", "N11", "N100"])
    }

    @Test func leadingZerosAndHugeNumbers() {
        #expect(NaturalSort.compare("07", "7") == .orderedDescending)  // same value: fewer zeros first
        #expect(NaturalSort.compare("07", "8") == .orderedAscending)
        #expect(
            sorted(["99999999999999999999999", "100000000000000000000000", "5"])
                == ["5", "99999999999999999999999", "100000000000000000000000"])
    }

    @Test func multipleDigitRuns() {
        #expect(sorted(["R2-10", "R2-9", "R10-1"]) == ["R2-9", "R2-10", "R10-1"])
    }

    @Test func totalAndAntisymmetric() {
        let names = ["T1", "t1", "T10", "2", "02", "10", "L90", "", "a", "A", "é", "É", "333", "F1", "MFF"]
        for a in names {
            for b in names {
                let ab = NaturalSort.compare(a, b), ba = NaturalSort.compare(b, a)
                #expect((ab == .orderedSame) == (a == b))
                if ab == .orderedAscending { #expect(ba == .orderedDescending) }
            }
        }
    }
}

@Suite struct NaturalSortFastPathTests {
    /// The allocation-free ASCII path must agree with the general (scalar) path on every pair.
    @Test func asciiAndScalarPathsAgree() {
        let names = [
            "T1", "t1", "T10", "T2", "2", "02", "10", "333", "L90", "", "a", "A", "M-1", "M1", "T1a", "T1 X",
            "007", "7", "R2-10", "R2-9", "x9y", "x09y", "Z", "z", "~", "0", "00",
        ]
        for a in names {
            for b in names {
                #expect(NaturalSort.compare(a, b) == NaturalSort.compareScalars(a, b), "\(a) vs \(b)")
            }
        }
    }

    @Test func mixedAsciiAndUnicode() {
        #expect(NaturalSort.compare("Éclair 2", "Éclair 10") == .orderedAscending)
        #expect(NaturalSort.compare("a", "é") == .orderedAscending)
        #expect(NaturalSort.compare("É1", "é1") == .orderedAscending)  // equal ignoring case: scalar order
    }

    /// Accented letters sort with their base letter, where `RouteSections.key(for:)` files them ("É" under "E").
    @Test func accentsSortWithTheirBaseLetter() {
        #expect(
            ["Zoo", "Éclair Express", "yamanote", "Dee Why", "eclair"].sorted(by: NaturalSort.areInIncreasingOrder)
                == ["Dee Why", "eclair", "Éclair Express", "yamanote", "Zoo"])
        #expect(NaturalSort.compare("Ö2", "o10") == .orderedAscending)
        #expect(NaturalSort.compare("é", "e") == .orderedDescending)  // equal without accents: scalar order
        #expect(NaturalSort.compare("e", "é") == .orderedAscending)
    }
}
