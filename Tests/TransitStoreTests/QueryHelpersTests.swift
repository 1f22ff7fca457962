import Testing
import TransitModel

@testable import TransitStore

@Suite struct QueryBoardCursorTests {
    @Test func roundTrips() throws {
        let key = BoardKey(unix: 1_766_394_000, tripPk: 42, stopIndex: 3, start: -1)
        for cursor in [
            BoardCursor(direction: .future, position: .after(key)),
            BoardCursor(direction: .past, position: .before(key)),
            BoardCursor(direction: .future, position: .before(.timeOnly(-5))),
        ] {
            let text = cursor.encode(databaseTag: "abc")
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(try BoardCursor.decode(text, databaseTag: "abc") == cursor)
        }
    }

    @Test func anotherDatabaseKeepsOnlyTheTime() throws {
        let key = BoardKey(unix: 1000, tripPk: 42, stopIndex: 3, start: 7)
        let text = BoardCursor(direction: .past, position: .after(key)).encode(databaseTag: "old")
        let decoded = try BoardCursor.decode(text, databaseTag: "new")
        #expect(decoded == BoardCursor(direction: .past, position: .before(.timeOnly(1000))))
    }

    @Test func positionsSplitTheKeys() {
        let a = BoardKey(unix: 10, tripPk: 1, stopIndex: 0, start: -1)
        let b = BoardKey(unix: 10, tripPk: 2, stopIndex: 0, start: -1)
        #expect(BoardPosition.after(a).precedes(b) && !BoardPosition.after(a).precedes(a))
        #expect(BoardPosition.before(b).precedes(b) && BoardPosition.before(b).follows(a))
        #expect(!BoardPosition.before(b).follows(b) && BoardPosition.after(b).follows(b))
        #expect(BoardPosition.before(.timeOnly(10)).precedes(a))
        #expect(!BoardPosition.before(.timeOnly(11)).precedes(b))
    }

    @Test func searchTextTokensAndRanks() {
        #expect(SearchText.tokens("  Café-Sydney \"NEAR(x*") == ["cafe", "sydney", "near", "x"])
        #expect(SearchText.phrase(["a\"b"]) == "\"a\"\"b\"")
        #expect(SearchText.rank(name: "Kings", queryTokens: ["kings"]) == 0)
        #expect(SearchText.rank(name: "Kings Cross", queryTokens: ["kings"]) == 1)
        #expect(SearchText.rank(name: "Kings Cross", queryTokens: ["kings", "cr"]) == 1)
        #expect(SearchText.rank(name: "Old Kings Road", queryTokens: ["kings"]) == 2)
    }

    @Test func jsonArraysEscape() {
        #expect(JSONText.array(["a\"b", "c\\d", "e\nf", "\u{1}"]) == #"["a\"b","c\\d","e\nf","\u0001"]"#)
        #expect(JSONText.array([1, 2]) == "[1,2]")
    }

    @Test func geoBoxesWrapTheAntimeridian() {
        #expect(Geo.boundingBoxes(lat: 0, lon: 179.999, radiusMetres: 1000).count == 2)
        #expect(Geo.boundingBoxes(lat: 0, lon: 0, radiusMetres: 1000).count == 1)
        #expect(Geo.boundingBoxes(lat: 89.9999, lon: 0, radiusMetres: 1000).first?.minLon == -180)
        #expect(abs(Geo.haversineMetres(-33.8832, 151.2070, -33.8731, 151.2069) - 1123.1) < 0.5)
    }
}

@Suite struct QuerySearchRankTests {
    /// The in-place ASCII ranking agrees with the token-array one.
    @Test func asciiRankAgreesWithGeneral() {
        let names = [
            "Kings", "Kings Cross", "Old Kings Road", "kings-cross", "Kings  Cross Station", "", "K", "Kingsford",
            "Central Station Platform 1", "Central", "central station", "Town Hall", "Town", "12 Park St", "Park St 12",
        ]
        let queries: [[String]] = [
            ["kings"], ["kings", "cr"], ["kings", "cross"], ["k"], ["central", "station"],
            ["central", "st"], ["town", "hall"], ["12"], ["park", "st", "12"], ["park", "st", "1"],
        ]
        for name in names {
            for q in queries {
                #expect(
                    SearchText.rankASCII(name: name, queryTokens: q)
                        == SearchText.rankGeneral(name: name, queryTokens: q),
                    "\(name) / \(q)")
            }
        }
        #expect(SearchText.rankASCII(name: "Café", queryTokens: ["cafe"]) == nil)
        #expect(SearchText.rank(name: "Café", queryTokens: ["cafe"]) == 0)
    }
}
