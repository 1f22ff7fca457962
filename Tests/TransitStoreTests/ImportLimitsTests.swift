import Foundation
import SQLiteKit
import Testing
import TransitStore
import TransitTesting
import ZIPFoundation

/// Broken and hostile feeds: the caps of `ImportLimits` (each refusal naming the file, the cap and the flag that
/// raises it, with the previous database left serving), NUL bytes, invalid UTF-8, stray byte-order marks,
/// duplicate header columns, UTF-16 files and the temporary files of killed imports.
@Suite struct ImportLimitsTests {
    /// Imports the sample feed into `transit.db` of `folder`; returns the database path and its bytes.
    private func previousDatabase(_ folder: TemporaryFolder) throws -> (path: String, bytes: Data) {
        let good = try folder.writeFeed("good", SampleFeed.files)
        let target = folder.path("transit.db")
        try runImport([.init(path: good)], into: target)
        return (target, try Data(contentsOf: URL(fileURLWithPath: target)))
    }

    /// The refusal of `feed` into the previous database, which must stay as it was (no temporary file left).
    private func refusal(
        _ feed: String, _ folder: TemporaryFolder, limits: ImportLimits = ImportLimits(),
        strict: Bool = false
    ) throws -> String? {
        let (target, before) = try previousDatabase(folder)
        let message = errorMessage {
            _ = try GTFSImporter(
                options: ImportOptions(
                    feeds: [.init(path: feed)], databasePath: target,
                    strict: strict, handleInterrupts: false, limits: limits)
            ).run()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before, "the previous database changed")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix(".")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        return message
    }

    private func importing(
        _ feed: String, _ folder: TemporaryFolder, strict: Bool = false,
        limits: ImportLimits = ImportLimits()
    ) throws -> ImportSummary {
        try GTFSImporter(
            options: ImportOptions(
                feeds: [.init(path: feed)], databasePath: folder.path("new.db"),
                strict: strict, handleInterrupts: false, limits: limits)
        ).run()
    }

    // MARK: Caps

    @Test func aLongFieldIsRefusedNamingFileCapAndFlag() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["stops.txt"]! += "LONG,\(String(repeating: "n", count: 300)),-33.9,151.2,0,,,,\n"
        let feed = try folder.writeFeed("long", files)
        let limits = ImportLimits(maxLineBytes: 4096, maxFieldBytes: 256)
        #expect(
            try refusal(feed, folder, limits: limits)
                == "\(feed)/stops.txt:9:2 (stop_name): field longer than the field-length cap of 256 bytes "
                + "(raise it with --max-field-size)")
        // Raised, it imports.
        let summary = try importing(feed, folder, limits: ImportLimits(maxLineBytes: 4096, maxFieldBytes: 300))
        #expect(summary.feeds[0].stops == 8)
    }

    @Test func aLongLineIsRefusedNamingFileCapAndFlag() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["stops.txt"]! += "LONG,\(String(repeating: "n", count: 3000)),-33.9,151.2,0,,,,\n"
        let feed = try folder.writeFeed("long", files)
        #expect(
            try refusal(feed, folder, limits: ImportLimits(maxLineBytes: 2048, maxFieldBytes: 1 << 20))
                == "\(feed)/stops.txt:9: record longer than the line-length cap of 2 KiB (raise it with --max-line-size)"
        )
        // Also with --strict (it is a cap, not a skippable row).
        #expect(
            try refusal(feed, folder, limits: ImportLimits(maxLineBytes: 2048), strict: true)?
                .hasSuffix("(raise it with --max-line-size)") == true)
    }

    @Test func aLargeFileIsRefusedBeforeReadingInFoldersAndZips() throws {
        let folder = try TemporaryFolder()
        let stopTimesBytes = SampleFeed.stopTimes.utf8.count
        let limits = ImportLimits(maxFileBytes: 600)
        let expected =
            "stop_times.txt: \(stopTimesBytes) bytes uncompressed, over the size cap of 600 bytes per file "
            + "(raise it with --max-file-size)"
        let feed = try folder.writeFeed("big", SampleFeed.files)
        #expect(try refusal(feed, folder, limits: limits) == "\(feed)/\(expected)")
        let zip = try folder.writeZip("big.zip", SampleFeed.files)
        #expect(try refusal(zip, folder, limits: limits) == "\(zip)/\(expected)")
    }

    /// A few MB of identical stop_times rows deflate about 1000×: refused at the default ratio cap of 100×
    /// before anything is read; with the cap raised it imports and counts the rows as duplicates.
    @Test func aZipBombIsRefusedByTheCompressionRatio() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        let row = "T1a,08:00:00,08:00:00,CEN1,1,,\n"
        files["stop_times.txt"]! += String(repeating: row, count: 100_000)
        let zip = try folder.writeZip("bomb.zip", files)
        let message = try refusal(zip, folder)
        #expect(message?.hasPrefix("\(zip)/stop_times.txt: inflates ") == true, "\(message ?? "")")
        #expect(
            message?.hasSuffix(
                "over the compression-ratio cap of 100× per zip entry "
                    + "(raise it with --max-compression-ratio)") == true, "\(message ?? "")")

        let summary = try importing(zip, folder, limits: ImportLimits(maxCompressionRatio: 100_000))
        let stopTimes = summary.files.first { $0.file == "stop_times.txt" }
        #expect(stopTimes?.skipped == ["duplicate stop_sequence in a trip (later row skipped)": 100_000])
        #expect(stopTimes?.rowsImported == 19)
    }

    /// A zip that declares a small size for an entry that inflates far more is stopped while inflating, just
    /// past the declared size: whatever the ratio cap (raised here so that it cannot be what stops it), the
    /// import reads at most the declared bytes and one chunk.
    @Test func aZipLyingAboutItsSizeIsStoppedAtItsDeclaredSize() throws {
        let folder = try TemporaryFolder()
        let zip = try writeLyingZip(folder, rows: 100_000, declared: 2000)
        let expected =
            "\(zip)/stop_times.txt: inflates past the 2000 bytes (2.0 KiB) its zip headers declare (the zip is damaged or "
            + "lies about its sizes); refused while inflating"
        #expect(try refusal(zip, folder) == expected)
        #expect(try refusal(zip, folder, limits: ImportLimits(maxCompressionRatio: 100_000)) == expected)
    }

    /// An entry that inflates to fewer bytes than declared is damaged.
    @Test func aZipEntryShorterThanDeclaredIsDamaged() throws {
        let folder = try TemporaryFolder()
        let zip = try folder.writeZip("short.zip", SampleFeed.files)
        try declareUncompressedSize(UInt32(SampleFeed.stopTimes.utf8.count + 10), of: "stop_times.txt", in: zip)
        let message = try refusal(zip, folder)
        #expect(
            message
                == "\(zip): stop_times.txt inflates to \(SampleFeed.stopTimes.utf8.count) bytes, fewer than the "
                + "\(SampleFeed.stopTimes.utf8.count + 10) its zip headers declare (the zip is damaged)")
    }

    /// Two entries of one name (the same path twice, or two top folders) leave the feed ambiguous.
    @Test func aZipHoldingAFileTwiceIsRefused() throws {
        let folder = try TemporaryFolder()
        let zip = try folder.writeZip("twice.zip", SampleFeed.files)
        let archive = try Archive(url: URL(fileURLWithPath: zip), accessMode: .update)
        let other = Data(SampleFeed.files["stops.txt"]!.utf8)
        try archive.addEntry(
            with: "stops.txt", type: .file, uncompressedSize: Int64(other.count), compressionMethod: .deflate
        ) { position, size in other.subdata(in: Int(position)..<Int(position) + size) }
        #expect(
            try refusal(zip, folder)
                == "\(zip): the zip holds 2 entries named stops.txt (\"stops.txt\", \"stops.txt\"): it is ambiguous "
                + "which one is the feed's; remove all but one")

        var files: [String: String] = [:]
        for (name, text) in SampleFeed.files {
            files["a/\(name)"] = text
            files["b/\(name)"] = text
        }
        let folders = try folder.writeZip("folders.zip", files)
        #expect(
            try refusal(folders, folder)?.hasPrefix(
                "\(folders): the zip holds 2 entries named agency.txt (\"a/agency.txt\", \"b/agency.txt\")") == true)
        // A deeper copy is still ignored (feeds zipped with a stray folder inside).
        var nested = SampleFeed.files
        nested["old/stops.txt"] = "stop_id\n"
        let summary = try importing(try folder.writeZip("nested.zip", nested), folder)
        #expect(summary.feeds[0].stops == 7)
    }

    /// A central directory that cannot be read through is reported as such, not as a zip without .txt files.
    @Test func aCorruptCentralDirectoryHasItsOwnError() throws {
        let folder = try TemporaryFolder()
        let zip = try folder.writeZip("corrupt.zip", SampleFeed.files)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip)))
        // Break the signature of the third central-directory record.
        var records = 0
        for at in 0..<(bytes.count - 4)
        where bytes[at] == 0x50 && bytes[at + 1] == 0x4B && bytes[at + 2] == 1 && bytes[at + 3] == 2 {
            records += 1
            if records == 3 {
                bytes[at] = 0
                break
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: zip))
        #expect(
            try refusal(zip, folder)
                == "\(zip): corrupt zip archive: its central directory lists \(SampleFeed.files.count) entries but "
                + "entry 3 cannot be read (the file is damaged or truncated; fetch it again)")
    }

    @Test func sizeFlagsAcceptBinaryUnits() {
        #expect(ImportLimits.parseSize("65536") == 65536)
        #expect(ImportLimits.parseSize("64KiB") == 64 << 10)
        #expect(ImportLimits.parseSize("64k") == 64 << 10)
        #expect(ImportLimits.parseSize("1MiB") == 1 << 20)
        #expect(ImportLimits.parseSize("1.5G") == 3 << 29)
        #expect(ImportLimits.parseSize("4GiB") == 4 << 30)
        #expect(ImportLimits.parseSize("4 GB") == 4 << 30)
        for bad in ["", "0", "-1", "4X", "GiB", "1.2.3"] { #expect(ImportLimits.parseSize(bad) == nil, "\(bad)") }
        let defaults = ImportLimits()
        #expect(defaults.maxFileBytes == 4 << 30)
        #expect(defaults.maxCompressionRatio == 100)
        #expect(defaults.maxLineBytes == 1 << 20)
        #expect(defaults.maxFieldBytes == 64 << 10)
    }

    // MARK: Bytes that are not text

    @Test func rowsWithNulBytesAreSkippedAndCountedOrFailStrict() throws {
        let folder = try TemporaryFolder()
        var stops = Array(SampleFeed.stops.utf8)
        stops += [0x00, 0x0A]  // a row holding only a NUL (line 9)
        stops += Array("NUL1,Nul".utf8) + [0x00] + Array("Name,-33.9,151.2,0,,,,\n".utf8)  // line 10
        let feed = try folder.writeFeed("nul", SampleFeed.files, raw: ["stops.txt": stops])
        let summary = try importing(feed, folder)
        let tally = summary.files.first { $0.file == "stops.txt" }
        #expect(tally?.skipped == ["rows with a NUL byte (skipped)": 2])
        #expect(tally?.rowsRead == 9)
        #expect(
            summary.description.contains("2 rows with a NUL byte (skipped), first at line 9, column 1 (stop_id)"),
            "\(summary.description)")
        let db = try Database(path: folder.path("new.db"), mode: .readOnly)
        #expect(try column(db, "SELECT COUNT(*) FROM stops WHERE stop_id = '' OR stop_id = 'NUL1'") == ["0"])

        #expect(
            try refusal(feed, folder, strict: true) == "\(feed)/stops.txt:9:1 (stop_id): NUL byte (0x00) in the record")
    }

    @Test func invalidUTF8IsCountedWithItsPlaceOrFailsStrict() throws {
        let folder = try TemporaryFolder()
        let stops = Array(SampleFeed.stops.utf8) + Array("CAFE,Caf".utf8) + [0xE9] + Array(",-33.9,151.2,0,,,,\n".utf8)
        // A Latin-1 stop_headsign, read as bytes and checked once.
        let headsigned =
            Array("trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign\n".utf8)
            + Array("T1a,08:00:00,08:00:00,CEN1,1,Gen".utf8) + [0xE8] + Array("ve\n".utf8)
            + Array("T1a,08:05:00,08:05:30,TH,2,Gen".utf8) + [0xE8] + Array("ve\n".utf8)
            + Array("T1a,08:10:00,08:10:00,RED,3,\n".utf8)
        let feed = try folder.writeFeed("latin1", SampleFeed.files, raw: ["stops.txt": stops])
        let summary = try importing(feed, folder)
        let tally = summary.files.first { $0.file == "stops.txt" }
        #expect(tally?.skipped == ["fields not valid UTF-8 (kept with U+FFFD)": 1])
        #expect(
            summary.description.contains(
                "1 fields not valid UTF-8 (kept with U+FFFD), first at line 9, column 2 (stop_name)"),
            "\(summary.description)")
        let db = try Database(path: folder.path("new.db"), mode: .readOnly)
        #expect(try column(db, "SELECT name FROM stops WHERE stop_id = 'CAFE'") == ["Caf\u{FFFD}"])
        #expect(
            try refusal(feed, folder, strict: true)
                == "\(feed)/stops.txt:9:2 (stop_name): invalid UTF-8 (is the file in Latin-1 or another encoding?)")

        let headsignFeed = try folder.writeFeed("headsign", SampleFeed.files, raw: ["stop_times.txt": headsigned])
        let headsignSummary = try importing(headsignFeed, folder)
        #expect(
            headsignSummary.files.first { $0.file == "stop_times.txt" }?.skipped
                == ["fields not valid UTF-8 (kept with U+FFFD)": 1])
        #expect(
            try refusal(headsignFeed, folder, strict: true)
                == "\(headsignFeed)/stop_times.txt:2:6 (stop_headsign): invalid UTF-8 (is the file in Latin-1 or another encoding?)"
        )
    }

    @Test func aByteOrderMarkInsideAFileIsRemovedAndCountedOrFailsStrict() throws {
        let folder = try TemporaryFolder()
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let stops = mark + Array(SampleFeed.stops.utf8) + mark + Array("JOINED,Joined stop,-33.9,151.2,0,,,,\n".utf8)
        let feed = try folder.writeFeed("mark", SampleFeed.files, raw: ["stops.txt": stops])
        let summary = try importing(feed, folder)
        #expect(
            summary.files.first { $0.file == "stops.txt" }?.skipped
                == ["stray byte-order marks inside the file (removed)": 1])
        let db = try Database(path: folder.path("new.db"), mode: .readOnly)
        #expect(
            try column(db, "SELECT hex(stop_id) FROM stops WHERE name = 'Joined stop'")
                == [Data("JOINED".utf8).map { String(format: "%02X", $0) }.joined()])
        #expect(
            try refusal(feed, folder, strict: true) == "\(feed)/stops.txt:9:1 (stop_id): byte-order mark (EF BB BF) "
                + "inside the file, not at its start (were two files joined?)")
    }

    @Test func aHeaderNamingAColumnTwiceIsAnError() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["stops.txt"] = "stop_id,stop_name,stop_id,stop_lat,stop_lon\nA,Somewhere,B,-33.9,151.2\n"
        let feed = try folder.writeFeed("twice", files)
        #expect(
            try refusal(feed, folder)
                == "\(feed)/stops.txt:1:3 (stop_id): the header names column \"stop_id\" twice (columns 1 and 3)")
    }

    @Test func aUTF16FileIsNamedAsSuch() throws {
        let folder = try TemporaryFolder()
        let utf16: [UInt8] =
            [0xFF, 0xFE]
            + SampleFeed.agency.utf16.flatMap { (unit: UInt16) -> [UInt8] in
                [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
        let feed = try folder.writeFeed("utf16", SampleFeed.files, raw: ["agency.txt": utf16])
        #expect(
            try refusal(feed, folder) == "\(feed)/agency.txt:1: the file is UTF-16 (it starts with the byte-order "
                + "mark FF FE); GTFS files must be UTF-8 (convert it, e.g. iconv -f UTF-16 -t UTF-8)")
    }

    // MARK: Temporary files of killed imports

    @Test func temporaryFilesOfDeadImportsAreRemovedByTheNextImport() throws {
        let folder = try TemporaryFolder()
        let (target, _) = try previousDatabase(folder)
        let dead = try deadProcessID()
        // Left by an import killed with SIGKILL: its process is gone and nothing holds its lock.
        let stale = ".transit.db.importing-\(dead)-12345"
        // An import still running in this process: alive (and not locked here, so the id alone keeps it).
        let alive = ".transit.db.importing-\(getpid())-67890"
        // A dead id whose file is still locked (an import in another PID namespace): kept.
        let locked = ".transit.db.importing-\(dead)-424242"
        // Another target's file: not ours to judge.
        let other = ".other.db.importing-\(dead)-1"
        for name in [stale, stale + "-journal", alive, locked, other] {
            try Data("x".utf8).write(to: folder.url.appendingPathComponent(name))
        }
        let lock = open(folder.path(locked), O_RDONLY)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)

        let good = try folder.writeFeed("again", SampleFeed.files)
        let summary = try runImport([.init(path: good)], into: target)
        #expect(summary.removedStaleFiles == [stale])
        #expect(summary.description.contains("removed 1 temporary file(s) of dead imports: \(stale)"))
        let left = Set(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") })
        #expect(left == [alive, locked, other])
    }

    /// The id of a process that has exited (and been reaped).
    private func deadProcessID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        let pid = process.processIdentifier
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        return pid
    }
}

extension TemporaryFolder {
    /// Like `writeFeed(_:_:)`, with some files given as raw bytes (NUL bytes, Latin-1, UTF-16).
    func writeFeed(_ name: String, _ files: [String: String], raw: [String: [UInt8]]) throws -> String {
        let path = try writeFeed(name, files)
        for (file, bytes) in raw { try Data(bytes).write(to: URL(fileURLWithPath: path).appendingPathComponent(file)) }
        return path
    }
}

/// The sample feed with `rows` identical stop_times rows appended (about 32 bytes each; they deflate about
/// 1000×), zipped, its stop_times.txt declaring `declared` bytes: the lying-header zip of issue 26, small.
private func writeLyingZip(_ folder: TemporaryFolder, rows: Int, declared: UInt32) throws -> String {
    var files = SampleFeed.files
    files["stop_times.txt"]! += String(repeating: "T1a,08:00:00,08:00:00,CEN1,1,,\n", count: rows)
    let zip = try folder.writeZip("liar.zip", files)
    try declareUncompressedSize(declared, of: "stop_times.txt", in: zip)
    return zip
}

/// Rewrites the uncompressed size the zip declares for `entry` (local header and central directory), as a
/// zip bomb may.
private func declareUncompressedSize(_ size: UInt32, of entry: String, in zip: String) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip)))
    let name = Array(entry.utf8)
    func le32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
    func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    func put(_ value: UInt32, _ at: Int) { for i in 0..<4 { bytes[at + i] = UInt8(value >> (8 * i) & 0xFF) } }
    var patched = 0
    for at in 0..<(bytes.count - 46) {
        let signature = le32(at)
        if signature == 0x0403_4B50, le16(at + 26) == name.count,
            Array(bytes[(at + 30)..<(at + 30 + name.count)]) == name
        {
            put(size, at + 22)
            patched += 1
        } else if signature == 0x0201_4B50, le16(at + 28) == name.count,
            Array(bytes[(at + 46)..<(at + 46 + name.count)]) == name
        {
            put(size, at + 24)
            patched += 1
        }
    }
    #expect(patched == 2)
    try Data(bytes).write(to: URL(fileURLWithPath: zip))
}
