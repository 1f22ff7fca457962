// Decoding a big feed on several threads gives exactly the one-thread answer, problems included, and falls
// back to the whole-message unpack for anything unusual.
import Foundation
import Testing
import TransitTesting

@testable import GTFSRealtime

@Suite struct SplitDecodingTests {
    private func decode(_ bytes: [UInt8], workers: Int) throws -> FeedMessage {
        try bytes.withUnsafeBytes { try GTFSRealtimeCodec.decode($0, workers: workers) }
    }

    private func split(_ bytes: [UInt8], workers: Int = 2) -> FeedMessage? {
        bytes.withUnsafeBytes { GTFSRealtimeCodec.decodeSplit($0, workers: workers) }
    }

    @Test(arguments: [2, 3, 8])
    func busFeedSameAsOneThread(workers: Int) throws {
        let bytes = GTFSRealtimeCodec.encode(Samples.busFeed(trips: 301, stops: 7))
        let one = try decode(bytes, workers: 1)
        let several = try #require(split(bytes, workers: workers))
        #expect(several == one)
        #expect(several.entities.count == 301)
        #expect(several.entities.map(\.id) == (0..<301).map { "e\($0)" })
    }

    @Test func fullFeedSameAsOneThread() throws {
        let bytes = GTFSRealtimeCodec.encode(Samples.fullFeed())
        #expect(try #require(split(bytes)) == (try decode(bytes, workers: 1)))
    }

    @Test func officialFixturesSameAsOneThread() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        for name in [
            "official-alerts.pb", "official-trip-updates.pb", "official-vehicle-positions.pb", "official-detours.pb",
        ] {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let several = try #require(split(bytes), "\(name)")
            #expect(several == (try decode(bytes, workers: 1)), "\(name)")
        }
    }

    /// Broken parts and duplicate ids give the same problems, in the same order, with the same indexes.
    @Test func problemsSameAsOneThread() throws {
        let bytes = WireWriter.build { w in
            w.header()
            for i in 0..<40 {
                w.message(2) { e in
                    e.string(1, i % 7 == 3 ? "dup" : "e\(i)")
                    if i % 5 == 1 {
                        e.message(3) { tu in tu.message(2) { $0.varint(1, 1) } }  // a trip update without trip
                    } else {
                        e.message(3) { tu in tu.message(1) { $0.string(1, "T\(i)") } }
                    }
                    if i % 9 == 4 { e.message(4) { v in v.message(2) { $0.fixed32(2, Float(151.2).bitPattern) } } }
                }
            }
        }
        let one = try decode(bytes, workers: 1)
        #expect(one.problems.count > 8)
        #expect(one.problems.contains { $0.reason.contains("duplicate") })
        #expect(try #require(split(bytes)) == one)
    }

    @Test func unknownTopLevelFieldsAreSkippedAsProtobufCDoes() throws {
        let bytes = WireWriter.build { w in
            w.varint(9, 300)
            w.header()
            w.fixed32(17, 7)
            w.message(2) { $0.string(1, "a") }
            w.bytesField(1007, [1, 2, 3])  // an extension (TfNSW's number)
            w.message(2) { $0.string(1, "b") }
        }
        let several = try #require(split(bytes))
        #expect(several == (try decode(bytes, workers: 1)))
        #expect(several.entities.map(\.id) == ["a", "b"])
    }

    /// Two headers are merged by protobuf-c; a group, a truncated entity, an entity without id or a header
    /// field of the wrong wire type are left to the whole-message unpack, which answers as before.
    @Test func unusualBodiesFallBackToTheWholeUnpack() throws {
        let twoHeaders = WireWriter.build { w in
            w.message(1) { $0.string(1, "2.0") }
            w.message(2) { $0.string(1, "a") }
            w.message(1) { $0.varint(3, 1_767_225_600) }
        }
        #expect(split(twoHeaders) == nil)
        let merged = try decode(twoHeaders, workers: 2)
        #expect(merged.header.gtfsRealtimeVersion == "2.0")
        #expect(merged.header.timestamp == 1_767_225_600)

        let noId = WireWriter.build { w in
            w.header()
            w.message(2) { $0.string(1, "a") }
            w.message(2) { $0.varint(2, 1) }  // is_deleted, no id: reported and left out
        }
        #expect(split(noId) == nil)
        let withoutId = try decode(noId, workers: 2)
        #expect(withoutId.entities.map(\.id) == ["a"])
        #expect(withoutId.problems.map(\.field) == ["id"])

        var truncated = GTFSRealtimeCodec.encode(Samples.busFeed(trips: 20, stops: 3))
        truncated.removeLast(5)
        #expect(split(truncated) == nil)
        #expect(throws: GTFSRealtimeDecodeError.self) { try decode(truncated, workers: 2) }

        let group = WireWriter.build { w in
            w.header()
            w.tag(20, 3)
            w.tag(20, 4)
        }
        #expect(split(group) == nil)

        let headerAsVarint = WireWriter.build { w in w.varint(1, 5) }
        #expect(split(headerAsVarint) == nil)
        #expect(throws: GTFSRealtimeDecodeError.self) { try decode(headerAsVarint, workers: 2) }
    }

    /// Entities with mismatched wire types are checked and repaired one by one on the workers: the same
    /// entities, the same counts and the same first offsets (in the whole body) as on one thread.
    @Test func skippedFieldsSameAsOneThread() throws {
        let bytes = WireWriter.build { w in
            w.header()
            for i in 0..<60 {
                w.message(2) { e in
                    e.string(1, "e\(i)")
                    e.message(3) { tu in
                        tu.message(1) { td in
                            if i % 11 == 5 { td.varint(1, 9) } else { td.string(1, "T\(i)") }  // trip_id as a varint
                        }
                        for stop in 0..<3 {
                            tu.message(2) { s in
                                s.varint(1, UInt64(stop))
                                if i % 3 == 0 { s.varint(6, UInt64(stop % 3 + 1)) }  // TfNSW's occupancy
                                s.message(1007) { c in
                                    c.varint(2, 1); c.varint(7, 2)
                                }
                            }
                        }
                        if i % 7 == 2 { tu.message(2) { $0.message(2) { $0.fixed32(1, 5) } } }  // delay as 32-bit
                    }
                }
            }
        }
        let one = try decode(bytes, workers: 1)
        #expect(one.entities.count == 60)
        #expect(
            one.skippedFields.map(\.path) == [
                "entity.trip_update.stop_time_update.6", "entity.trip_update.stop_time_update.arrival.1",
                "entity.trip_update.trip.1",
            ])
        #expect(one.skippedFields.map(\.count) == [60, 9, 5])
        for workers in [2, 3, 8] {
            #expect(try #require(split(bytes, workers: workers)) == one)
        }
    }

    @Test func noEntities() throws {
        let bytes = WireWriter.build { $0.header() }
        let several = try #require(split(bytes))
        #expect(several.entities.isEmpty)
        #expect(several == (try decode(bytes, workers: 1)))
    }

    @Test func layoutFindsEveryEntity() throws {
        let bytes = GTFSRealtimeCodec.encode(Samples.busFeed(trips: 5, stops: 2))
        let layout = try #require(bytes.withUnsafeBytes { FeedWireLayout($0) })
        #expect(layout.entities.count == 5)
        #expect(layout.header.lowerBound < layout.entities[0].lowerBound)
        #expect(zip(layout.entities, layout.entities.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
        #expect(layout.entities.last?.upperBound == bytes.count)
    }
}
