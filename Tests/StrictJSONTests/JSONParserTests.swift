import Testing

@testable import StrictJSON

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func failure(_ bytes: [UInt8]) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func failure(_ text: String) -> JSONParseError? { failure(Array(text.utf8)) }

    @Test func parsesEveryKind() throws {
        let value = try parse(#" {"s":"x","i":-12,"d":1.5e3,"t":true,"f":false,"n":null,"a":[1,[]],"o":{}} "#)
        guard case .object(let o) = value else { Issue.record("not an object"); return }
        #expect(o["s"] == .string("x"))
        #expect(o["t"] == .bool(true))
        #expect(o["f"] == .bool(false))
        #expect(o["n"] == .null)
        guard case .number(let i)? = o["i"], case .number(let d)? = o["d"] else { Issue.record("numbers"); return }
        #expect(i.isInteger && i.int64 == -12 && i.text == "-12")
        #expect(!d.isInteger && d.double == 1500 && d.int64 == 1500)
        guard case .array(let a)? = o["a"] else { Issue.record("array"); return }
        #expect(a.count == 2)
        #expect(o["o"] == .object(JSONObject(members: [])))
    }

    @Test func memberRangesPointAtTheValueText() throws {
        let text = #"{ "id" : 12345678901234567890123 , "op":"x"}"#
        guard case .object(let o) = try parse(text) else { Issue.record("not an object"); return }
        let range = try #require(o.member("id")?.range)
        #expect(String(decoding: Array(text.utf8)[range], as: UTF8.self) == "12345678901234567890123")
    }

    @Test func numbersKeepTheirSpelling() throws {
        guard case .number(let n) = try parse("1.5e300") else { Issue.record("not a number"); return }
        #expect(n.text == "1.5e300")
        #expect(n.int64 == nil)
        guard case .number(let big) = try parse("12345678901234567890123") else { Issue.record("not a number"); return }
        #expect(big.isInteger && big.int64 == nil)
        guard case .number(let half) = try parse("10.5") else { Issue.record("not a number"); return }
        #expect(half.int64 == nil)
        guard case .number(let ten) = try parse("1E1") else { Issue.record("not a number"); return }
        #expect(ten.int64 == 10)
    }

    @Test func escapes() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u00C9""#) == .string("éÉ"))
        #expect(try parse(#""\ud83d\ude86""#) == .string("🚆"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse("\"東京 🚆\"") == .string("東京 🚆"))
    }

    @Test(arguments: [
        ("", 1, "empty input"),
        ("   ", 4, "empty input"),
        ("{", 2, "expected a key"),
        ("{\"a\":1,}", 8, "expected a key"),
        ("{\"a\" 1}", 6, "expected ':'"),
        ("{\"a\":1 \"b\":2}", 8, "expected ',' or '}'"),
        ("[1,2", 5, "expected ',' or ']'"),
        ("[1,]", 4, "expected a value"),
        ("{a:1}", 2, "expected a key in double quotes"),
        ("{'a':1}", 2, "expected a key in double quotes"),
        ("01", 2, "no leading zeros"),
        ("-", 2, "expected a digit after '-'"),
        ("1.", 3, "expected a digit after '.'"),
        ("1e", 3, "digit in the exponent"),
        ("+1", 1, "unexpected '+'"),
        ("tru", 1, "expected a value"),
        ("nul", 1, "expected a value"),
        ("{} x", 4, "after the JSON value"),
        ("{}{}", 3, "after the JSON value"),
        ("\"abc", 1, "unterminated string"),
        ("\"a\\qb\"", 3, "invalid escape \\q"),
        ("\"\\u12g4\"", 2, "4 hex digits"),
        ("\"\\ud83d\"", 2, "unpaired surrogate"),
        ("\"\\ude86\"", 2, "unpaired surrogate"),
        ("\"\\ud83d\\u0041\"", 2, "unpaired surrogate"),
        ("\"a\tb\"", 3, "control character 0x09"),
        ("{\"a\":1,\"a\":2}", 8, "duplicate key \"a\""),
        ("NaN", 1, "expected a value"),
        ("/* c */ {}", 1, "expected a value"),
    ])
    func errorsSayWhereAndWhy(text: String, column: Int, reason: String) throws {
        let error = try #require(failure(text), "\(text) must fail")
        #expect(error.column == column, "\(text): \(error)")
        #expect(error.reason.contains(reason), "\(text): \(error)")
    }

    @Test func invalidUTF8IsRejected() throws {
        let error = try #require(failure([0x22, 0x61, 0xC3, 0x28, 0x22]))
        #expect(error.reason.contains("invalid UTF-8"))
        let escaped = try #require(failure([0x22, 0x5C, 0x6E, 0xFF, 0x22]))
        #expect(escaped.reason.contains("invalid UTF-8"))
        let outside = try #require(failure([0x7B, 0xFF, 0x7D]))
        #expect(outside.reason.contains("byte 0xFF"))
    }

    @Test func nestingIsBounded() throws {
        let ok = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        _ = try parse(ok)
        let deep = String(repeating: "[", count: 100_000)
        let error = try #require(failure(deep))
        #expect(error.reason.contains("nesting deeper than 32"))
        let objects = String(repeating: "{\"a\":", count: 40) + "1" + String(repeating: "}", count: 40)
        #expect(failure(objects)?.reason.contains("nesting") == true)
    }

    @Test func manyKeysDuplicateDetected() throws {
        var text = "{"
        for i in 0..<40 { text += "\"k\(i)\":\(i)," }
        text += "\"k3\":0}"
        let error = try #require(failure(text))
        #expect(error.reason == "duplicate key \"k3\"")
        // And 40 distinct keys are fine.
        var distinct = "{"
        for i in 0..<40 { distinct += "\"k\(i)\":\(i)" + (i < 39 ? "," : "") }
        _ = try parse(distinct + "}")
    }

    @Test func whitespaceAroundIncludingCRLF() throws {
        #expect(try parse("\t{ }\r\n") == .object(JSONObject(members: [])))
    }
}
