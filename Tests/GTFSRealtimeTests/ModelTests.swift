import GTFSRealtime
import Testing
import TransitModel

@Suite struct ModelTests {
    @Test func timeRangeOpenEnds() {
        #expect(TimeRange().contains(0))
        #expect(TimeRange(start: 10).contains(10))
        #expect(!TimeRange(start: 10).contains(9))
        #expect(TimeRange(end: 20).contains(20))
        #expect(!TimeRange(end: 20).contains(21))
        #expect(TimeRange(start: 10, end: 20).contains(15))
    }

    /// The feed's texts are TransitModel's TranslatedText: the gateway's choice of language is the one rule.
    @Test func translatedTextPicksALanguage() {
        let s = TranslatedText([
            .init(text: "Hallo", language: "de"), .init(text: "Hello"), .init(text: "Bonjour", language: "fr"),
        ])
        #expect(s.text(in: "FR") == "Bonjour")
        #expect(s.text(in: "it") == "Hello")
        #expect(s.text(in: nil) == "Hello")
        #expect(TranslatedText([.init(text: "Hallo", language: "de")]).text(in: "en") == "Hallo")
        // No untranslated text: English before the first.
        let noPlain = TranslatedText([.init(text: "Hallo", language: "de"), .init(text: "Hello", language: "EN")])
        #expect(noPlain.text(in: "it") == "Hello" && noPlain.text(in: nil) == "Hello")
        #expect(TranslatedText([]).text(in: nil) == nil)
        #expect(TranslatedText("plain") == TranslatedText([.init(text: "plain", language: nil)]))
    }
}
