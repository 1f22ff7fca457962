import GTFSCSV
import Testing

private func parse<T>(_ text: String, _ parser: (UnsafeRawBufferPointer) -> T?) -> T? {
    Array(text.utf8).withUnsafeBytes { parser($0) }
}

@Suite struct CSVValueTests {
    @Test(arguments: [
        ("0:00:00", 0), ("8:05:09", 29109), ("08:05:09", 29109), ("23:59:59", 86399),
        ("24:00:00", 86400), ("25:10:00", 90600), ("47:59:59", 172799), ("100:00:00", 360000),
    ])
    func validTimes(text: String, seconds: Int) {
        #expect(parse(text, GTFSValue.time) == seconds)
    }

    @Test(arguments: [
        "", "8:5:09", "08:60:00", "08:00:60", "08-00-00", "0800:00", "ab:cd:ef", "08:00", ":00:00",
        "1000:00:00", "08:00:00x", " 8:00:00",
    ])
    func invalidTimes(text: String) {
        #expect(parse(text, GTFSValue.time) == nil)
    }

    @Test(arguments: [("0", 0), ("42", 42), ("-7", -7), ("+3", 3), ("9223372036854775807", Int.max)])
    func validInts(text: String, value: Int) {
        #expect(parse(text, GTFSValue.int) == value)
    }

    @Test(arguments: ["", "-", "1.0", "1a", "9223372036854775808", "0x10", " 1"])
    func invalidInts(text: String) {
        #expect(parse(text, GTFSValue.int) == nil)
    }

    @Test(arguments: [
        ("-33.8688", -33.8688), ("151.2093", 151.2093), ("0", 0), ("12.", 12), (".5", 0.5),
        ("1e3", 1000), ("-0.000000000000000001", -1e-18),
        ("151.20930000000001", 151.20930000000001), ("+2.5", 2.5),
    ])
    func validDoubles(text: String, value: Double) {
        #expect(parse(text, GTFSValue.double) == value)
    }

    @Test(arguments: ["", "-", ".", "1.2.3", "abc", "nan", "inf", "1,5"])
    func invalidDoubles(text: String) {
        #expect(parse(text, GTFSValue.double) == nil)
    }

    @Test func dates() {
        #expect(parse("20251222", GTFSValue.date) == 20251222)
        #expect(parse("20251301", GTFSValue.date) == nil)
        #expect(parse("20251200", GTFSValue.date) == nil)
        #expect(parse("2025122", GTFSValue.date) == nil)
        #expect(parse("2025-12-2", GTFSValue.date) == nil)
    }

    @Test func typedAccessorErrorsNameColumnAndValue() throws {
        let reader = try CSVReader(
            source: MemoryByteSource("trip_id,arrival_time,stop_sequence\nT1,8:00,x\n"), fileName: "stop_times.txt")
        #expect(try reader.next())
        let time = reader.column("arrival_time")
        let sequence = reader.column("stop_sequence")
        do {
            _ = try reader.time(time)
            Issue.record("expected an error")
        } catch let error as CSVError {
            #expect(error.description == "stop_times.txt:2:2 (arrival_time): bad time (expected H:MM:SS) \"8:00\"")
        }
        do {
            _ = try reader.int(sequence)
            Issue.record("expected an error")
        } catch let error as CSVError {
            #expect(error.description == "stop_times.txt:2:3 (stop_sequence): bad integer \"x\"")
        }
    }

    @Test func requiredIntOnEmptyField() throws {
        let reader = try CSVReader(source: MemoryByteSource("a,b\n,1\n"), fileName: "f.txt")
        #expect(try reader.next())
        #expect(try reader.requiredInt(reader.column("b")) == 1)
        #expect(throws: CSVError.self) { try reader.requiredInt(reader.column("a")) }
        #expect(try reader.int(reader.column("a"), default: 5) == 5)
    }
}
