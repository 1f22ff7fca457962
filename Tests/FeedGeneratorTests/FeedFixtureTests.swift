import Foundation
import Testing
import TransitTesting

@testable import FeedGenerator

/// The integrity checks the other tests rely on must notice a broken feed.
@Suite("Integrity checker")
struct FeedFixtureTests {
    @Test("broken references, sequences and times are reported")
    func catchesBrokenFeeds() throws {
        let dir = try TemporaryFolder("feedgen")
        _ = try FeedGenerator(scale: .small, seed: 1).write(to: dir.path)
        #expect(try FeedFixture(directory: dir.path).problems() == [])

        let firstTrip = try FeedFixture(directory: dir.path).trips.rows[0][2]
        try append(
            "stop_times.txt", in: dir,
            [
                "NO_SUCH_TRIP,10:00:00,10:00:00,200060,1,0,0",  // unknown trip
                "\(firstTrip),10:00:00,10:00:00,NO_SUCH_STOP,999,0,0",  // unknown stop
                "\(firstTrip),01:00:00,01:00:00,200060,1000,0,0",  // a station, and time going backwards
                "\(firstTrip),02:00:00,02:00:00,\(firstPlatform(dir)),3,0,0",  // sequence going backwards
            ])
        try append("trips.txt", in: dir, ["NO_ROUTE,WKD,ORPHAN,Nowhere,0,1,S1", "ST_T1,NO_SERVICE,ORPHAN2,X,0,1,S1"])
        let problems = try FeedFixture(directory: dir.path).problems().joined(separator: "\n")
        for expected in [
            "unknown trip NO_SUCH_TRIP", "unknown stop NO_SUCH_STOP", "of location_type 1", "time goes backwards",
            "stop_sequence 3 after 1000", "trip ORPHAN has unknown route", "trip ORPHAN2 has unknown service",
            "trip ORPHAN has no stop times",
        ] {
            #expect(problems.contains(expected), "missing: \(expected)")
        }
    }

    @Test("the CSV reader takes BOM, CRLF, quotes and rejects ragged rows")
    func csv() throws {
        let text = "\u{FEFF}a, b ,c\r\n1,\"x, \"\"y\"\"\",\r\n\"multi\nline\",2,3"
        let table = try CSVTable(bytes: Array(text.utf8), name: "t")
        #expect(table.header == ["a", "b", "c"])
        #expect(table.rows == [["1", "x, \"y\"", ""], ["multi\nline", "2", "3"]])
        #expect(throws: CSVTableError.self) { try CSVTable(bytes: Array("a,b\n1\n".utf8), name: "t") }
        #expect(throws: CSVTableError.self) { try CSVTable(bytes: Array("a\n\"open".utf8), name: "t") }
        #expect(gtfsSeconds("5:07:00") == 18_420 && gtfsSeconds("25:00:00") == 90_000)
        #expect(gtfsSeconds("5:7:00") == nil && gtfsSeconds("10:60:00") == nil && gtfsSeconds("") == nil)
    }

    private func firstPlatform(_ dir: TemporaryFolder) -> String {
        (try? FeedFixture(directory: dir.path).stops.rows.first { $0[5] == "0" }?[0]) ?? "?"
    }

    private func append(_ file: String, in dir: TemporaryFolder, _ lines: [String]) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.path + "/" + file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
        try handle.close()
    }
}
