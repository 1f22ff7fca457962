import Foundation
import GTFSCSV
import Testing

/// Reads `text` completely: header plus records as strings, with the line each record starts on.
func readAll(
    _ text: String, chunkSize: Int = 1 << 20, maxRead: Int = .max, limits: CSVLimits = .default,
    onIssue: ((CSVIssue) throws -> Void)? = nil
)
    throws -> (header: [String], rows: [[String]], lines: [Int])
{
    try readAll(Array(text.utf8), chunkSize: chunkSize, maxRead: maxRead, limits: limits, onIssue: onIssue)
}

func readAll(
    _ bytes: [UInt8], chunkSize: Int = 1 << 20, maxRead: Int = .max, limits: CSVLimits = .default,
    onIssue: ((CSVIssue) throws -> Void)? = nil
)
    throws -> (header: [String], rows: [[String]], lines: [Int])
{
    let reader = try CSVReader(
        source: MemoryByteSource(bytes, maxRead: maxRead), fileName: "test.txt",
        chunkSize: chunkSize, limits: limits, onIssue: onIssue)
    let columns = reader.header.map { reader.column($0) }
    var rows: [[String]] = []
    var lines: [Int] = []
    while try reader.next() {
        rows.append(try columns.map { try reader.string($0) })
        lines.append(reader.line)
    }
    return (reader.header, rows, lines)
}

private func csvError(_ text: String, chunkSize: Int = 1 << 20) -> CSVError? {
    do {
        _ = try readAll(text, chunkSize: chunkSize)
        return nil
    } catch let error as CSVError {
        return error
    } catch {
        return nil
    }
}

@Suite struct CSVReaderTests {
    @Test func plainRecords() throws {
        let result = try readAll("a,b,c\n1,2,3\n4,5,6\n")
        #expect(result.header == ["a", "b", "c"])
        #expect(result.rows == [["1", "2", "3"], ["4", "5", "6"]])
        #expect(result.lines == [2, 3])
    }

    @Test func quotedFieldsWithEscapesCommasAndNewlines() throws {
        let text = "id,name,desc\n1,\"Central, Platform 1\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",x\n3,\"\",\"\"\"\"\n"
        let result = try readAll(text)
        #expect(
            result.rows == [
                ["1", "Central, Platform 1", "say \"hi\""],
                ["2", "two\nlines", "x"],
                ["3", "", "\""],
            ])
        // The record after the embedded newline starts on physical line 5.
        #expect(result.lines == [2, 3, 5])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("stop_id,stop_name\n1,Town Hall\n".utf8)
        let result = try readAll(bytes)
        #expect(result.header == ["stop_id", "stop_name"])
        #expect(result.rows == [["1", "Town Hall"]])
    }

    @Test func crlfAndLoneCRLineEnds() throws {
        let result = try readAll("a,b\r\n1,2\r\n3,\"x\r\ny\"\r\n5,6\r7,8")
        #expect(result.rows == [["1", "2"], ["3", "x\r\ny"], ["5", "6"], ["7", "8"]])
        #expect(result.lines == [2, 3, 5, 6])
    }

    @Test func headerNamesAreTrimmedAndColumnsFoundInAnyOrder() throws {
        let reader = try CSVReader(
            source: MemoryByteSource(" stop_name , stop_id ,extra\nCentral,200060,z\n"),
            fileName: "stops.txt")
        #expect(reader.header == ["stop_name", "stop_id", "extra"])
        let id = reader.column("stop_id")
        let name = reader.column("stop_name")
        #expect(try reader.next())
        #expect(try reader.string(id) == "200060")
        #expect(try reader.string(name) == "Central")
    }

    @Test func missingOptionalColumnReadsEmpty() throws {
        let reader = try CSVReader(source: MemoryByteSource("stop_id\n1\n"), fileName: "stops.txt")
        let code = reader.column("stop_code")
        #expect(!code.isPresent)
        #expect(try reader.next())
        #expect(try reader.optionalString(code) == nil)
        #expect(try reader.int(code) == nil)
    }

    @Test func requiredColumnMissingNamesIt() throws {
        let reader = try CSVReader(source: MemoryByteSource("stop_name\nx\n"), fileName: "stops.txt")
        #expect(throws: CSVError(file: "stops.txt", line: 1, reason: "missing required column \"stop_id\"")) {
            try reader.requireColumn("stop_id")
        }
    }

    @Test func blankAndTrailingLinesAreSkipped() throws {
        let result = try readAll("a,b\n1,2\n\n3,4\n\n\r\n\n")
        #expect(result.rows == [["1", "2"], ["3", "4"]])
        #expect(result.lines == [2, 4])
    }

    @Test func lastLineWithoutNewline() throws {
        let result = try readAll("a,b\n1,2")
        #expect(result.rows == [["1", "2"]])
        let quoted = try readAll("a,b\n1,\"2\"")
        #expect(quoted.rows == [["1", "2"]])
    }

    @Test func shortRecordsReadMissingFieldsAsEmpty() throws {
        let result = try readAll("a,b,c\n1\n1,2\n")
        #expect(result.rows == [["1", "", ""], ["1", "2", ""]])
    }

    @Test func trailingEmptyExtraFieldsAreAccepted() throws {
        let result = try readAll("a,b\n1,2,\n3,4,,\n")
        #expect(result.rows == [["1", "2"], ["3", "4"]])
    }

    @Test func nonEmptyExtraFieldIsAnError() {
        let error = csvError("a,b\n1,2\n1,2,3\n")
        #expect(error?.line == 3)
        #expect(error?.column == 3)
        #expect(error?.reason.contains("3 fields but the header has 2") == true)
    }

    @Test func valuesAreTrimmed() throws {
        let result = try readAll("a,b\n  1 ,\t x y \n")
        #expect(result.rows == [["1", "x y"]])
    }

    @Test func spacesAroundQuotedFieldsAreTolerated() throws {
        let result = try readAll("a,b,c\n1, \"x, y\" ,\t\"z\"\n")
        #expect(result.rows == [["1", "x, y", "z"]])
        for chunk in 1...8 {
            #expect(try readAll("a,b,c\n1, \"x, y\" ,\t\"z\"\n", chunkSize: chunk).rows == result.rows)
        }
    }

    @Test func unterminatedQuoteReportsWhereItOpened() {
        let error = csvError("id,name\n1,ok\n2,\"never closed\n3,x\n")
        #expect(error?.file == "test.txt")
        #expect(error?.line == 3)
        #expect(error?.column == 2)
        #expect(error?.columnName == "name")
        #expect(error?.reason.contains("unterminated") == true)
        #expect(error?.description.hasPrefix("test.txt:3:2 (name): unterminated") == true)
    }

    @Test func strayQuoteInUnquotedFieldIsAnError() {
        let error = csvError("id,name\n1,ok\n2,5\" screen\n")
        #expect(error?.line == 3)
        #expect(error?.column == 2)
        #expect(error?.reason.contains("stray quote") == true)
    }

    @Test func textAfterClosingQuoteIsAnError() {
        let error = csvError("id,name\n1,\"a\"b\n")
        #expect(error?.line == 2)
        #expect(error?.column == 2)
        #expect(error?.reason.contains("after the closing quote") == true)
    }

    @Test func errorLineCountsEmbeddedNewlines() {
        let error = csvError("id,name\n1,\"a\nb\nc\"\n2,x\"y\n")
        #expect(error?.line == 5)
    }

    @Test func emptyInputHasNoHeader() throws {
        let result = try readAll("")
        #expect(result.header.isEmpty)
        #expect(result.rows.isEmpty)
        let onlyBOM = try readAll([0xEF, 0xBB, 0xBF])
        #expect(onlyBOM.header.isEmpty)
    }

    @Test func headerOnly() throws {
        let result = try readAll("a,b\n")
        #expect(result.header == ["a", "b"])
        #expect(result.rows.isEmpty)
    }

    @Test func manyFieldsGrowTheFieldTable() throws {
        let names = (0..<200).map { "c\($0)" }
        let values = (0..<200).map { "\($0)" }
        let result = try readAll(names.joined(separator: ",") + "\n" + values.joined(separator: ",") + "\n")
        #expect(result.rows == [values])
    }

    @Test func invalidUTF8IsAnIssueThenRepairedNotTrapped() throws {
        let bytes = Array("a\n".utf8) + [0x41, 0xFF, 0x42, 0x0A]
        let issues = IssueLog()
        let result = try readAll(bytes, onIssue: issues.record)
        #expect(result.rows == [["A\u{FFFD}B"]])
        #expect(
            issues.descriptions == ["test.txt:2:1 (a): invalid UTF-8 (is the file in Latin-1 or another encoding?)"])
        #expect(issues.kinds == [.invalidUTF8])
        // Without a handler it is an error.
        #expect(throws: CSVError.self) { try readAll(bytes) }
    }

    /// Every chunk size from 1 byte up, with reads of at most 7 bytes, gives the same records and lines as
    /// one big read: every token (BOM, CRLF, "" escape, quote at a boundary) falls on a boundary somewhere.
    @Test func tinyBuffersGiveTheSameResult() throws {
        let bytes: [UInt8] =
            [0xEF, 0xBB, 0xBF]
            + Array(
                (" trip_id , arrival_time,stop_headsign\r\n" + "T1,08:00:00,\"Central, \"\"City\"\"\"\r\n"
                    + "T1,25:01:30,\"two\r\nlines\"\r\n" + "\r\n" + "T2,\"\",plain\r\n" + "T3,7:05:00,\"\"\"\"\r\n"
                    + "T4,,last").utf8)
        let reference = try readAll(bytes)
        #expect(reference.rows.count == 5)
        #expect(reference.rows[0] == ["T1", "08:00:00", "Central, \"City\""])
        #expect(reference.rows[1] == ["T1", "25:01:30", "two\r\nlines"])
        #expect(reference.lines == [2, 3, 6, 7, 8])
        for chunk in 1...16 {
            let result = try readAll(bytes, chunkSize: chunk, maxRead: 7)
            #expect(result.header == reference.header, "chunk \(chunk)")
            #expect(result.rows == reference.rows, "chunk \(chunk)")
            #expect(result.lines == reference.lines, "chunk \(chunk)")
        }
    }

    @Test func tinyBufferStillReportsUnterminatedQuote() {
        let error = csvError("id,name\n1,ok\n2,\"never closed\n3,x\n", chunkSize: 7)
        #expect(error?.line == 3)
        #expect(error?.column == 2)
    }

    @Test func readsAFileInChunks() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        var text = "stop_id,stop_sequence\n"
        for i in 0..<1000 { text += "S\(i),\(i)\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let reader = try CSVReader(path: url.path, chunkSize: 100)
        #expect(reader.fileName == url.lastPathComponent)
        let sequence = reader.column("stop_sequence")
        var sum = 0
        var rows = 0
        while try reader.next() {
            sum += try reader.requiredInt(sequence)
            rows += 1
        }
        #expect(rows == 1000)
        #expect(sum == 999 * 1000 / 2)
        #expect(reader.bytesRead == text.utf8.count)
    }

    @Test func missingFileIsAnError() {
        #expect(throws: CSVError.self) { try CSVReader(path: "/nonexistent/stops.txt") }
    }
}
