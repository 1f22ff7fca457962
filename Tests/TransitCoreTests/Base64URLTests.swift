import Foundation
import Testing
import TransitCore

/// The hand-written base64url encoder gives Foundation's base64 with the URL alphabet and no padding.
@Suite struct Base64URLTests {
    private func foundation(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func matchesFoundationForEveryLengthAndByte() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(bytes.withUnsafeBufferPointer { Base64URL.encode(bytes: $0) } == foundation(bytes))
        }
        let all = (0...255).map { UInt8($0) }
        #expect(all.withUnsafeBufferPointer { Base64URL.encode(bytes: $0) } == foundation(all))
    }

    @Test func encodesTextAsUTF8() {
        #expect(Base64URL.encode("") == "")
        #expect(
            Base64URL.encode("g1|L|b|1766394000|20251222|5|08:00:00|T1?>é")
                == foundation(Array("g1|L|b|1766394000|20251222|5|08:00:00|T1?>é".utf8)))
        #expect(Base64URL.encode("\u{FB}\u{FF}") == foundation(Array("\u{FB}\u{FF}".utf8)))
    }
}
