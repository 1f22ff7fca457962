// Bodies that are not a feed: a clear error each time, never a crash.
import GTFSRealtime
import Testing
import TransitTesting

@Suite struct BadInputTests {
    private func decodeError(_ bytes: [UInt8], maxBytes: Int = GTFSRealtimeCodec.defaultMaxBytes)
        -> GTFSRealtimeDecodeError?
    {
        do {
            _ = try GTFSRealtimeCodec.decode(bytes, maxBytes: maxBytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func emptyBody() {
        let error = decodeError([])
        #expect(error == GTFSRealtimeDecodeError(reason: .empty, byteCount: 0))
        #expect(error?.description.contains("empty") == true)
    }

    @Test func htmlErrorPage() throws {
        let page = "<html><head><title>503 Service Unavailable</title></head><body>down</body></html>\n"
        let error = try #require(decodeError(Array(page.utf8)))
        #expect(error.reason == .text(start: "<html><head><title>503 Service Unavailab"))
        #expect(error.byteCount == page.utf8.count)
        #expect(error.description.hasPrefix("not a GTFS-Realtime FeedMessage (starts with '<html"))
        #expect(error.description.hasSuffix("\(page.utf8.count) bytes"))
    }

    @Test func doctypeWithByteOrderMarkAndLeadingBlankLine() throws {
        let page = [0xEF, 0xBB, 0xBF] + Array("\r\n<!DOCTYPE html>\n<html lang=\"en\">".utf8)
        #expect(decodeError(page)?.reason == .text(start: "<!DOCTYPE html>"))
    }

    @Test(arguments: ["{\"error\":\"invalid api key\"}", "Unauthorized", "Too Many Requests"])
    func otherTextBodies(_ body: String) {
        #expect(decodeError(Array(body.utf8))?.reason == .text(start: body))
    }

    @Test func garbage() {
        #expect(decodeError([0xFF, 0xFF, 0xFF, 0xFF])?.reason == .malformed)
        #expect(decodeError([0x0A, 0x05, 0x01])?.reason == .malformed)  // header claims 5 bytes, has 1
        #expect(decodeError([0x07])?.reason == .malformed)  // field 0 / invalid wire type
    }

    @Test func pseudoRandomBytesNeverCrash() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var failures = 0
        for length in 1...300 {
            var bytes: [UInt8] = []
            for _ in 0..<length {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(UInt8(truncatingIfNeeded: seed >> 33))
            }
            if decodeError(bytes) != nil { failures += 1 }
        }
        // Random bytes are almost never a FeedMessage with a header.
        #expect(failures >= 295)
    }

    @Test func everyTruncationFailsOrDecodesAPrefix() throws {
        let feed = Samples.fullFeed()
        let bytes = GTFSRealtimeCodec.encode(feed)
        var decodedPrefixes = 0
        for length in 1..<bytes.count {
            do {
                let partial = try GTFSRealtimeCodec.decode(Array(bytes[..<length]))
                // Only a cut between two top-level fields leaves a valid message: the first k entities.
                #expect(partial.header == feed.header)
                #expect(partial.entities == Array(feed.entities.prefix(partial.entities.count)))
                #expect(partial.entities.count < feed.entities.count)
                decodedPrefixes += 1
            } catch {
                #expect(error.reason == .malformed || error.reason == .missingField("header"), "cut at \(length)")
                // A cut always leaves a field longer than what follows it: the error says where.
                if error.reason == .malformed {
                    #expect(error.fault.map { $0.offset <= length } == true, "cut at \(length): \(error)")
                }
            }
        }
        // After the header and after each entity but the last.
        #expect(decodedPrefixes == feed.entities.count)
    }

    @Test func sizeLimitIsCheckedBeforeUnpacking() {
        let bytes = GTFSRealtimeCodec.encode(Samples.fullFeed())
        #expect(decodeError(bytes, maxBytes: bytes.count) == nil)
        let error = decodeError(bytes, maxBytes: bytes.count - 1)
        #expect(error == GTFSRealtimeDecodeError(reason: .tooLarge(limit: bytes.count - 1), byteCount: bytes.count))
        // Garbage over the limit is refused for its size, not parsed.
        #expect(decodeError([UInt8](repeating: 0xFF, count: 100), maxBytes: 10)?.reason == .tooLarge(limit: 10))
        #expect(GTFSRealtimeCodec.defaultMaxBytes == 64 << 20)
    }

    @Test func missingHeader() {
        let noHeader = WireWriter.build { $0.message(2) { $0.string(1, "e1") } }
        #expect(
            decodeError(noHeader) == GTFSRealtimeDecodeError(reason: .missingField("header"), byteCount: noHeader.count)
        )
        let noVersion = WireWriter.build { $0.message(1) { $0.varint(3, 5) } }
        #expect(decodeError(noVersion)?.reason == .missingField("header.gtfs_realtime_version"))
        #expect(
            decodeError(noVersion)?.description
                == "not a GTFS-Realtime FeedMessage: missing header.gtfs_realtime_version, \(noVersion.count) bytes")
    }

    @Test func restampRefusesWhatDecodeRefuses() {
        #expect(throws: GTFSRealtimeDecodeError(reason: .empty, byteCount: 0)) {
            try GTFSRealtimeCodec.restamp([], timestamp: 1)
        }
        #expect(throws: GTFSRealtimeDecodeError(reason: .text(start: "<html>"), byteCount: 6)) {
            try GTFSRealtimeCodec.restamp(Array("<html>".utf8), timestamp: 1)
        }
        let noHeader = WireWriter.build { $0.message(2) { $0.string(1, "e1") } }
        #expect(throws: GTFSRealtimeDecodeError(reason: .missingField("header"), byteCount: noHeader.count)) {
            try GTFSRealtimeCodec.restamp(noHeader, timestamp: 1)
        }
    }
}
