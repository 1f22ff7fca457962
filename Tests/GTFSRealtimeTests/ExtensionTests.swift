// Unknown fields and extensions are skipped, and kept by restamp. Extension 1007 is read where Transport for
// NSW defines it (StopTimeUpdate, VehiclePosition, VehicleDescriptor: TfnswExtensionTests) and skipped
// elsewhere.
import GTFSRealtime
import Testing
import TransitTesting

@Suite struct ExtensionTests {
    /// An extension field 1007 holding a small message, as TfNSW sends on several messages.
    private func extension1007(_ w: inout WireWriter) {
        w.message(1007) {
            $0.string(1, "tfnsw"); $0.varint(2, 3)
        }
    }

    private func feedWithExtensionsEverywhere() -> [UInt8] {
        WireWriter.build { w in
            w.message(1) { h in
                h.string(1, "2.0")
                h.varint(3, 1_767_225_600)
                extension1007(&h)
                h.varint(9500, 42)  // private experiment range
            }
            w.message(2) { e in
                e.string(1, "e1")
                extension1007(&e)
                e.message(3) { tu in
                    tu.message(1) { td in
                        td.string(1, "T1")
                        extension1007(&td)
                    }
                    tu.message(2) { stu in
                        stu.varint(1, 3)
                        stu.message(2) { ev in
                            ev.int32(1, -60); ev.fixed32(1500, 7)
                        }
                        extension1007(&stu)
                    }
                    tu.varint(77, 1)  // an unknown field outside the extension ranges
                }
                e.message(4) { v in
                    v.message(8) { vd in
                        vd.string(1, "V1")
                        extension1007(&vd)
                    }
                }
            }
            extension1007(&w)
        }
    }

    @Test func decodesAroundExtensions() throws {
        let feed = try GTFSRealtimeCodec.decode(feedWithExtensionsEverywhere())
        #expect(feed.problems.isEmpty)
        #expect(feed.header == FeedHeader(gtfsRealtimeVersion: "2.0", timestamp: 1_767_225_600))
        #expect(
            feed.entities == [
                FeedEntity(
                    id: "e1",
                    tripUpdate: TripUpdate(
                        trip: TripDescriptor(tripId: "T1"),
                        stopTimeUpdates: [
                            StopTimeUpdate(
                                stopSequence: 3, arrival: StopTimeEvent(delay: -60),
                                // {1: "tfnsw", 2: 3} read as TfNSW's CarriageDescriptor (name, position) and
                                // TfnswVehicleDescriptor (field 2: wheelchair_accessible).
                                tfnswCarriages: [TfnswCarriage(name: "tfnsw", positionInConsist: 3)])
                        ]),
                    vehicle: VehiclePosition(
                        vehicle: VehicleDescriptor(id: "V1", tfnsw: TfnswVehicleDescriptor(wheelchairAccessible: 3)))
                )
            ])
        #expect(feed.skippedFields.isEmpty)
    }

    @Test func restampReplacesOnlyTheHeaderTimestamp() throws {
        let original = feedWithExtensionsEverywhere()
        let restamped = try GTFSRealtimeCodec.restamp(original, timestamp: 1_800_000_000)
        var expected = try GTFSRealtimeCodec.decode(original)
        expected.header.timestamp = 1_800_000_000
        #expect(try GTFSRealtimeCodec.decode(restamped) == expected)
        // Extensions are carried over byte for byte: the feed grows only by the longer timestamp varint.
        #expect(restamped.count == original.count)
        let tag1007: [UInt8] = [0xFA, 0x3E]  // (1007 << 3) | 2 as a varint
        #expect(occurrences(of: tag1007, in: restamped) == occurrences(of: tag1007, in: original))
        #expect(occurrences(of: tag1007, in: original) == 6)
    }

    @Test func restampAddsAMissingTimestamp() throws {
        let feed = FeedMessage(header: FeedHeader(), entities: [FeedEntity(id: "x", isDeleted: true)])
        let restamped = try GTFSRealtimeCodec.restamp(GTFSRealtimeCodec.encode(feed), timestamp: 99)
        #expect(try GTFSRealtimeCodec.decode(restamped).header.timestamp == 99)
        #expect(try GTFSRealtimeCodec.decode(restamped).entities == feed.entities)
    }

    @Test func officialFixtureWithExtensionSurvivesRestamp() throws {
        let original = try FixtureFile.bytes("official-vehicle-positions.pb")
        let restamped = try GTFSRealtimeCodec.restamp(original, timestamp: 1_767_225_601)
        // Same timestamp: protobuf-c re-emits the kept unknown field where the official encoder put it.
        #expect(restamped == original)
    }

    private func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard haystack.count >= needle.count else { return 0 }
        return (0...(haystack.count - needle.count)).filter { Array(haystack[$0..<($0 + needle.count)]) == needle }
            .count
    }
}
