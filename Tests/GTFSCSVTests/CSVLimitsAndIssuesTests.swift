import Foundation
import GTFSCSV
import Testing

/// Collects the issues a reader reports and lets it go on.
final class IssueLog: @unchecked Sendable {
    private(set) var issues: [CSVIssue] = []

    func record(_ issue: CSVIssue) {
        issues.append(issue)
    }

    var kinds: [CSVIssue.Kind] { issues.map(\.kind) }
    var descriptions: [String] { issues.map(\.description) }
}

private func failure(_ body: () throws -> Void) -> CSVError? {
    do {
        try body()
        return nil
    } catch let error as CSVError {
        return error
    } catch {
        Issue.record("not a CSVError: \(error)")
        return nil
    }
}

/// The caps of `CSVLimits` and the problems a reader reads past (`CSVIssue`), each at every chunk size so
/// that the once-per-chunk searches are checked across chunk boundaries.
@Suite struct CSVLimitsAndIssuesTests {
    // MARK: Caps

    @Test func aLongFieldIsRefusedNamingItsColumnAndTheCap() {
        let text = "stop_id,stop_name\nA,\(String(repeating: "x", count: 101))\nB,ok\n"
        let limits = CSVLimits(maxFileBytes: .max, maxLineBytes: 1000, maxFieldBytes: 100)
        for chunk in [1, 7, 64, 1 << 20] {
            let error = failure { _ = try readAll(text, chunkSize: chunk, limits: limits) }
            #expect(
                error?.description == "test.txt:2:2 (stop_name): field longer than the field-length cap of 100 bytes",
                "chunk \(chunk)")
            #expect(error?.exceededLimit == .fieldBytes)
        }
        // Exactly at the cap is fine.
        let atCap = "stop_id,stop_name\nA,\(String(repeating: "x", count: 100))\n"
        #expect(throws: Never.self) { _ = try readAll(atCap, limits: limits) }
    }

    @Test func aLongLineIsRefusedBeforeItIsBufferedWhole() {
        // 10 MB in one record, with a 1 KiB line cap: refused while reading (the buffer never holds it whole).
        let long = "a,b\n1," + String(repeating: "y", count: 10_000_000) + "\n"
        let limits = CSVLimits(maxFileBytes: .max, maxLineBytes: 1024, maxFieldBytes: 1 << 20)
        let error = failure { _ = try readAll(long, chunkSize: 4096, limits: limits) }
        #expect(error?.description == "test.txt:2: record longer than the line-length cap of 1 KiB")
        #expect(error?.exceededLimit == .lineBytes)

        // A record a little over the cap but inside one chunk is refused when complete; line ends don't count.
        let limits10 = CSVLimits(maxFileBytes: .max, maxLineBytes: 10, maxFieldBytes: 10)
        #expect(throws: Never.self) { _ = try readAll("a,b\r\n1234,5678\r\n", limits: limits10) }
        let over = failure { _ = try readAll("a,b\r\n1234,567890\r\n", limits: limits10) }
        #expect(over?.exceededLimit == .lineBytes)
        #expect(over?.line == 2)
    }

    @Test func aLargeFileIsRefusedWhileReading() {
        var text = "stop_id\n"
        for i in 0..<1000 { text += "S\(i)\n" }
        let limits = CSVLimits(maxFileBytes: 2000, maxLineBytes: 100, maxFieldBytes: 100)
        let error = failure { _ = try readAll(text, chunkSize: 512, limits: limits) }
        #expect(error?.exceededLimit == .fileBytes)
        #expect(error?.reason == "file larger than the size cap of 2000 bytes (2.0 KiB)")
        #expect(throws: Never.self) { _ = try readAll(text, chunkSize: 512, limits: .default) }
    }

    @Test func capsAreDescribedInBinaryUnits() {
        #expect(CSVLimits.describe(bytes: 4 << 30) == "4 GiB")
        #expect(CSVLimits.describe(bytes: 64 << 10) == "64 KiB")
        #expect(CSVLimits.describe(bytes: 1 << 20) == "1 MiB")
        #expect(CSVLimits.describe(bytes: 1536) == "1536 bytes (1.5 KiB)")
        #expect(CSVLimits.describe(bytes: 300) == "300 bytes")
    }

    // MARK: Header

    @Test func aHeaderNamingAColumnTwiceIsAnError() {
        let error = failure { _ = try readAll("stop_id,stop_name,stop_id\nA,B,C\n") }
        #expect(
            error?.description
                == "test.txt:1:3 (stop_id): the header names column \"stop_id\" twice (columns 1 and 3)")
        // Empty names (trailing commas in the header) are not duplicates.
        #expect(throws: Never.self) { _ = try readAll("stop_id,stop_name,,\nA,B,,\n") }
    }

    @Test func utf16FilesAreNamedAsSuch() {
        let text = "agency_name,agency_timezone\nX,Australia/Sydney\n"
        let littleEndian = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE] + littleEndian, "UTF-16 (it starts with the byte-order mark FF FE)"),
            ([0xFE, 0xFF] + bigEndian, "UTF-16 (it starts with the byte-order mark FE FF)"),
            (littleEndian, "UTF-16 little-endian without a byte-order mark (every second byte is NUL)"),
            (bigEndian, "UTF-16 big-endian without a byte-order mark (every second byte is NUL)"),
        ]
        for (bytes, encoding) in cases {
            for chunk in [1, 3, 1 << 20] {
                let error = failure { _ = try readAll(bytes, chunkSize: chunk) }
                #expect(
                    error?.description == "test.txt:1: the file is \(encoding); GTFS files must be UTF-8 "
                        + "(convert it, e.g. iconv -f UTF-16 -t UTF-8)", "chunk \(chunk)")
            }
        }
    }

    @Test func aNulByteInTheHeaderIsAnError() {
        let error = failure {
            _ = try readAll(
                Array("stop_id,stop_".utf8) + [0] + Array("name\nA,B\n".utf8),
                onIssue: { _ in })
        }
        #expect(error?.description == "test.txt:1:2: NUL byte (0x00) in the header")
    }

    // MARK: Issues

    @Test func rowsWithNulBytesAreReportedThenSkipped() throws {
        let bytes =
            Array("stop_id,stop_name\nA,Central\n".utf8) + [0x00, 0x0A]
            + Array("B,Town".utf8) + [0x00] + Array(" Hall\nC,Redfern\n".utf8)
        for chunk in [1, 2, 5, 64, 1 << 20] {
            let issues = IssueLog()
            let result = try readAll(bytes, chunkSize: chunk, onIssue: issues.record)
            #expect(result.rows == [["A", "Central"], ["C", "Redfern"]], "chunk \(chunk)")
            #expect(result.lines == [2, 5], "chunk \(chunk)")
            #expect(
                issues.descriptions == [
                    "test.txt:3:1 (stop_id): NUL byte (0x00) in the record",
                    "test.txt:4:2 (stop_name): NUL byte (0x00) in the record",
                ],
                "chunk \(chunk)")
            #expect(issues.kinds == [.nulByte, .nulByte])
        }
        // Without a handler (or with one that throws) the first is an error.
        #expect(
            failure { _ = try readAll(bytes) }?.description == "test.txt:3:1 (stop_id): NUL byte (0x00) in the record")
    }

    @Test func strayByteOrderMarksAreReportedThenRemoved() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        // A file with its own mark, a mark starting a line (two files joined) and one inside a quoted field.
        let bytes =
            mark + Array("stop_id,stop_name\nA,Central\n".utf8) + mark + Array("B,Town Hall\nC,\"Red".utf8)
            + mark + Array("fern \"\"X\"\"\"\nD,Mark at the end".utf8) + mark
        for chunk in [1, 2, 3, 4, 5, 64, 1 << 20] {
            let issues = IssueLog()
            let result = try readAll(bytes, chunkSize: chunk, maxRead: 3, onIssue: issues.record)
            #expect(result.header == ["stop_id", "stop_name"], "chunk \(chunk)")
            #expect(
                result.rows == [
                    ["A", "Central"], ["B", "Town Hall"], ["C", "Redfern \"X\""],
                    ["D", "Mark at the end"],
                ], "chunk \(chunk)")
            #expect(issues.kinds == [.strayByteOrderMark, .strayByteOrderMark, .strayByteOrderMark], "chunk \(chunk)")
            #expect(issues.issues.map { $0.error.line } == [3, 4, 5], "chunk \(chunk)")
            #expect(issues.issues.map { $0.error.column } == [1, 2, 2], "chunk \(chunk)")
        }
        let error = failure { _ = try readAll(bytes) }
        #expect(
            error?.description == "test.txt:3:1 (stop_id): byte-order mark (EF BB BF) inside the file, "
                + "not at its start (were two files joined?)")
    }

    @Test func textIsCheckedOnlyWhereItIsRead() throws {
        // Latin-1 "é" (0xE9) in a column nobody reads as text is not reported; checkText reports without a String.
        let bytes = Array("stop_id,stop_name,stop_desc\nA,Caf".utf8) + [0xE9] + Array(",Caf".utf8) + [0xE9, 0x0A]
        let issues = IssueLog()
        let reader = try CSVReader(source: MemoryByteSource(bytes), fileName: "stops.txt", onIssue: issues.record)
        #expect(try reader.next())
        #expect(try reader.string(reader.column("stop_id")) == "A")
        #expect(issues.issues.isEmpty)
        try reader.checkText(reader.column("stop_desc"))
        #expect(
            issues.descriptions == [
                "stops.txt:2:3 (stop_desc): invalid UTF-8 (is the file in Latin-1 or another encoding?)"
            ])
        #expect(try reader.string(reader.column("stop_name")) == "Caf\u{FFFD}")
        #expect(issues.kinds == [.invalidUTF8, .invalidUTF8])
        // Valid multi-byte text is no issue.
        let valid = try readAll("name\nCafé Müller – 東京\n", onIssue: issues.record)
        #expect(valid.rows == [["Café Müller – 東京"]])
        #expect(issues.issues.count == 2)
    }

    @Test func asciiCheckLooksAtEveryByte() {
        for length in 0..<20 {
            var bytes = [UInt8](repeating: 0x41, count: length)
            bytes.withUnsafeBytes { #expect(GTFSValue.isASCII($0)) }
            for i in 0..<length {
                bytes[i] = 0xC3
                bytes.withUnsafeBytes { #expect(!GTFSValue.isASCII($0), "length \(length) at \(i)") }
                bytes[i] = 0x41
            }
        }
    }
}
