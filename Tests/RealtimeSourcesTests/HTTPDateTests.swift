import Foundation
import Testing

@testable import RealtimeSources

@Suite struct HTTPDateTests {
    @Test func parsesIMFFixdate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 23:59:60 GMT") == Date(timeIntervalSince1970: 1_709_251_200))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    }

    @Test func refusesOtherShapes() {
        for text in [
            "", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
        ] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func retryAfterInSecondsOrAsDate() {
        let now = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.retryAfter("120", now: now) == .seconds(120))
        #expect(HTTPDate.retryAfter("Sun, 06 Nov 1994 08:50:37 GMT", now: now) == .seconds(60))
        #expect(HTTPDate.retryAfter("Sun, 06 Nov 1994 08:48:37 GMT", now: now) == .zero)
        #expect(HTTPDate.retryAfter("soon", now: now) == nil)
    }
}
