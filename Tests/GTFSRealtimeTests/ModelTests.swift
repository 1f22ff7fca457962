import GTFSRealtime
import Testing

@Suite struct ModelTests {
    @Test func timeRangeOpenEnds() {
        #expect(TimeRange().contains(0))
        #expect(TimeRange(start: 10).contains(10))
        #expect(!TimeRange(start: 10).contains(9))
        #expect(TimeRange(end: 20).contains(20))
        #expect(!TimeRange(end: 20).contains(21))
        #expect(TimeRange(start: 10, end: 20).contains(15))
    }

    @Test func translatedStringPicksALanguage() {
        let s = TranslatedString(translations: [
            .init(text: "Hallo", language: "de"), .init(text: "Hello"), .init(text: "Bonjour", language: "fr"),
        ])
        #expect(s.text(language: "FR") == "Bonjour")
        #expect(s.text(language: "it") == "Hello")
        #expect(s.text() == "Hello")
        #expect(TranslatedString(translations: [.init(text: "Hallo", language: "de")]).text(language: "en") == "Hallo")
        #expect(TranslatedString(translations: []).text() == nil)
    }
}
