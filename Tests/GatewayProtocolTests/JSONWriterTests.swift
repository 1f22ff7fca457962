import Foundation
import Testing

@testable import GatewayProtocol

@Suite struct JSONWriterTests {
    private func written(_ body: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter()
        body(&w)
        return string(w.bytes)
    }

    private func roundTrip(_ text: String) throws -> String {
        var w = JSONWriter()
        w.string(text)
        return try #require(try parseValue(w.bytes) as? String)
    }

    @Test func escapesQuotesBackslashesAndControlCharacters() {
        #expect(written { $0.string("a\"b\\c") } == #""a\"b\\c""#)
        #expect(written { $0.string("\n\r\t\u{8}\u{C}") } == #""\n\r\t\b\f""#)
        #expect(written { $0.string("\u{0}\u{1}\u{1F}") } == #""\u0000\u0001\u001f""#)
        #expect(written { $0.string("/") } == #""/""#)
    }

    @Test func everyControlCharacterRoundTrips() throws {
        let all = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }) + "\u{7F}"
        #expect(try roundTrip(all) == all)
        let text = written { $0.string(all) }
        #expect(!text.utf8.contains { $0 < 0x20 })
    }

    @Test func unicodePassesThroughAsUTF8() throws {
        let text = "Café – Kings Cross 東京 🚆"
        #expect(written { $0.string(text) } == "\"\(text)\"")
        #expect(try roundTrip(text) == text)
    }

    @Test func lineSeparatorsAreEscaped() throws {
        let text = "a\u{2028}b\u{2029}c"
        #expect(written { $0.string(text) } == #""a\u2028b\u2029c""#)
        #expect(try roundTrip(text) == text)
        // Other E2 80 xx characters (an en dash is E2 80 93) stay as they are.
        #expect(written { $0.string("a–b…") } == "\"a–b…\"")
    }

    @Test func emptyAndLongStrings() throws {
        #expect(written { $0.string("") } == #""""#)
        let long = String(repeating: "ab\"c", count: 5000)
        #expect(try roundTrip(long) == long)
    }

    @Test func integers() {
        #expect(written { $0.int(0) } == "0")
        #expect(written { $0.int(-7) } == "-7")
        #expect(written { $0.int(Int64.max) } == "9223372036854775807")
        #expect(written { $0.int(Int64.min) } == "-9223372036854775808")
        #expect(written { $0.int(UInt64.max) } == "18446744073709551615")
        #expect(written { $0.int(Int32(-72240)) } == "-72240")
        #expect(written { $0.int(UInt32(20251222)) } == "20251222")
        #expect(written { $0.int(nil as Int?) } == "null")
    }

    @Test func doubles() throws {
        #expect(written { $0.double(-33.883193) } == "-33.883193")
        #expect(written { $0.double(0.1) } == "0.1")
        #expect(written { $0.double(151) } == "151.0")
        #expect(written { $0.double(1.5e300) } == "1.5e+300")
        #expect(written { $0.double(.leastNonzeroMagnitude) } == "5e-324")
        for x in [-33.883193, 0.1, 1.5e300, .leastNonzeroMagnitude, -0.0, 123456.789] {
            let back = try #require(try parseValue(Array(written { $0.double(x) }.utf8)) as? NSNumber)
            #expect(back.doubleValue == x)
        }
    }

    @Test func nonFiniteDoublesAreNull() {
        #expect(written { $0.double(.nan) } == "null")
        #expect(written { $0.double(.infinity) } == "null")
        #expect(written { $0.double(-.infinity) } == "null")
        #expect(
            written {
                $0.beginArray(); $0.double(.nan); $0.double(1.5); $0.endArray()
            } == "[null,1.5]")
    }

    @Test func literalsAndOptionals() {
        #expect(written { $0.null() } == "null")
        #expect(written { $0.bool(true) } == "true")
        #expect(written { $0.bool(false) } == "false")
        #expect(written { $0.string(nil as String?) } == "null")
        #expect(written { $0.double(nil as Double?) } == "null")
    }

    @Test func commasInNestedContainers() throws {
        let text = written { w in
            w.beginObject()
            w.key("a"); w.int(1)
            w.key("b"); w.beginArray()
            w.int(1); w.beginObject(); w.endObject(); w.beginArray(); w.endArray(); w.string("x")
            w.beginObject(); w.key("c"); w.null(); w.key("d"); w.beginArray(); w.bool(true); w.endArray(); w.endObject()
            w.endArray()
            w.key("e"); w.beginObject(); w.endObject()
            w.key("f"); w.string("y")
            w.endObject()
        }
        #expect(text == #"{"a":1,"b":[1,{},[],"x",{"c":null,"d":[true]}],"e":{},"f":"y"}"#)
        #expect(try parseValue(Array(text.utf8)) is [String: Any])
    }

    @Test func dynamicKeysAreEscaped() {
        #expect(
            written {
                $0.beginObject(); $0.key("a\"b" as String); $0.int(1); $0.endObject()
            } == #"{"a\"b":1}"#)
    }

    @Test func serviceDatesAreEightDigitStrings() {
        #expect(written { $0.serviceDate(UInt32(20251222)) } == #""20251222""#)
        #expect(written { $0.serviceDate(UInt32(990101)) } == #""00990101""#)
        #expect(written { $0.serviceDate(nil as UInt32?) } == "null")
    }

    @Test func rawValuesAreCopiedExactly() {
        let raw = RawJSON(bytes: Array("12345678901234567890123".utf8))
        #expect(
            written {
                $0.beginArray(); $0.raw(raw); $0.raw(.null); $0.endArray()
            } == "[12345678901234567890123,null]")
    }

    /// The writer starts small and grows while written: every call must check its room (a key, a long string,
    /// a number at the very end of the buffer), and `finish` hands out exactly the bytes written.
    @Test func growsPastItsCapacityAtEveryKindOfWrite() throws {
        var w = JSONWriter(capacity: 1)
        var expected: [String: Any] = [:]
        w.beginObject()
        for i in 0..<500 {
            let name = "k\(i)" + String(repeating: "x", count: i % 37)
            w.key(name)
            switch i % 4 {
            case 0:
                w.int(Int64.min + Int64(i))
                expected[name] = Int64.min + Int64(i)
            case 1:
                let text = String(repeating: "é\"\n", count: i % 13)
                w.string(text)
                expected[name] = text
            case 2:
                w.serviceDate(UInt32(20_260_000 + i))
                expected[name] = String(20_260_000 + i)
            default:
                w.bool(i % 8 == 3)
                expected[name] = NSNumber(value: i % 8 == 3)  // how JSONSerialization reads a bool back
            }
        }
        w.endObject()
        let copy = w.bytes
        #expect(copy.count == w.count)
        let finished = w.finish()
        #expect(finished == copy)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(finished)) as? [String: Any])
        #expect(parsed.count == expected.count)
        for (name, value) in expected {
            #expect("\(parsed[name] ?? "missing")" == "\(value)", "key \(name)")
        }
    }
}
