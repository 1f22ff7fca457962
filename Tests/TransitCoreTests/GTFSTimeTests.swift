import Testing

@testable import TransitCore

@Suite struct GTFSTimeTests {
    @Test func parsesOneAndTwoDigitHours() throws {
        #expect(try GTFSTime.parse("8:05:09") == 8 * 3600 + 5 * 60 + 9)
        #expect(try GTFSTime.parse("08:05:09") == 8 * 3600 + 5 * 60 + 9)
        #expect(try GTFSTime.parse("00:00:00") == 0)
        #expect(try GTFSTime.parse("23:59:59") == 86_399)
    }

    @Test func parsesHoursPastMidnight() throws {
        #expect(try GTFSTime.parse("24:00:00") == 86_400)
        #expect(try GTFSTime.parse("25:10:00") == 25 * 3600 + 600)
        #expect(try GTFSTime.parse("100:00:01") == 360_001)
    }

    @Test func emptyMeansNoTime() throws {
        #expect(try GTFSTime.parse("") == nil)
        #expect(try GTFSTime.parse("   ") == nil)
    }

    @Test func toleratesSurroundingSpaces() throws {
        #expect(try GTFSTime.parse(" 7:00:00 ") == 25_200)
    }

    @Test(arguments: [
        "8:5:09", "08:05", "08:05:9", "08-05-09", "ab:cd:ef", "08:60:00", "08:00:60",
        "1000:00:00", "08:00:00x", ":00:00", "08:00:00:00", "-1:00:00", "08 :00:00",
    ])
    func rejectsMalformed(_ text: String) {
        #expect(throws: GTFSTimeError.self) { try GTFSTime.parse(text) }
    }

    @Test func errorNamesTextAndReason() {
        do {
            _ = try GTFSTime.parse("08:61:00")
            Issue.record("expected an error")
        } catch {
            #expect(error.text == "08:61:00")
            #expect(error.description.contains("minutes"))
        }
    }

    @Test func formatsWithPaddingAndLargeHours() {
        #expect(GTFSTime.format(0) == "00:00:00")
        #expect(GTFSTime.format(8 * 3600 + 5 * 60 + 9) == "08:05:09")
        #expect(GTFSTime.format(25 * 3600 + 600) == "25:10:00")
        #expect(GTFSTime.format(360_001) == "100:00:01")
        #expect(GTFSTime.format(-600) == "-00:10:00")
    }

    @Test func roundTrips() throws {
        for secs in stride(from: 0, through: 50 * 3600, by: 3607) {
            #expect(try GTFSTime.parse(GTFSTime.format(secs)) == secs)
        }
    }

    @Test func byteLevelParse() throws {
        let bytes = Array("26:00:30".utf8)
        let value = try bytes.withUnsafeBufferPointer { try GTFSTime.parse(utf8: $0) }
        #expect(value == 26 * 3600 + 30)
    }
}
