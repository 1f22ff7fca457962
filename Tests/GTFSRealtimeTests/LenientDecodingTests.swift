import Testing
import TransitTesting

// A known field with another wire type than the schema's is skipped like an unknown field and counted; the
// rest of its message is kept. Bytes that are really broken are refused with the byte offset and field path.
@testable import GTFSRealtime

/// Where `marker` (a string written into a fixture) ends in `bytes`.
func offset(after marker: String, in bytes: [UInt8]) -> Int? {
    let needle = Array(marker.utf8)
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }.map {
        $0 + needle.count
    }
}

@Suite struct LenientDecodingTests {
    private func decode(_ bytes: [UInt8], workers: Int = 1) throws -> FeedMessage {
        try bytes.withUnsafeBytes { try GTFSRealtimeCodec.decode($0, workers: workers) }
    }

    private func decodeError(_ bytes: [UInt8], workers: Int = 1) -> GTFSRealtimeDecodeError? {
        do {
            _ = try decode(bytes, workers: workers)
            return nil
        } catch {
            return error as? GTFSRealtimeDecodeError
        }
    }

    /// Sydney Trains' stop time update: field 6 (the official stop_time_properties message) as a varint.
    private func sydneyStop(_ w: inout WireWriter, stopId: String, occupancy: UInt64?) {
        w.message(2) { s in
            s.message(2) { $0.varint(1, 21) }
            s.string(4, stopId)
            s.varint(5, 0)
            if let occupancy { s.varint(6, occupancy) }
        }
    }

    @Test func mismatchedFieldIsSkippedCountedAndTheRestKept() throws {
        let bytes = WireWriter.build { w in
            w.header()
            w.message(2) { e in
                e.string(1, "e1")
                e.message(3) { tu in
                    tu.message(1) { $0.string(1, "T1") }
                    sydneyStop(&tu, stopId: "S-A", occupancy: 1)
                    sydneyStop(&tu, stopId: "S-B", occupancy: nil)
                    sydneyStop(&tu, stopId: "S-C", occupancy: 3)
                    tu.varint(4, 1_781_166_689)
                }
            }
            w.message(2) { e in
                e.string(1, "e2")
                e.message(3) { tu in tu.message(1) { $0.string(1, "T2") } }
            }
        }
        // protobuf-c alone refuses the whole body.
        #expect(bytes.withUnsafeBytes { GTFSRealtimeCodec.unpackOnly($0) } == nil)

        let feed = try decode(bytes)
        #expect(feed.problems.isEmpty)
        #expect(feed.entities.map(\.id) == ["e1", "e2"])
        let tu = try #require(feed.entities[0].tripUpdate)
        #expect(tu.trip == TripDescriptor(tripId: "T1"))
        #expect(tu.timestamp == 1_781_166_689)
        #expect(
            tu.stopTimeUpdates == [
                StopTimeUpdate(
                    stopId: "S-A", arrival: StopTimeEvent(delay: 21), departureOccupancyStatus: .manySeatsAvailable,
                    scheduleRelationship: .scheduled),
                StopTimeUpdate(stopId: "S-B", arrival: StopTimeEvent(delay: 21), scheduleRelationship: .scheduled),
                StopTimeUpdate(
                    stopId: "S-C", arrival: StopTimeEvent(delay: 21), departureOccupancyStatus: .standingRoomOnly,
                    scheduleRelationship: .scheduled),
            ])
        // The first occurrence: right after "S-A" and schedule_relationship (2 bytes).
        let first = try #require(offset(after: "S-A", in: bytes)) + 2
        #expect(bytes[first] == 0x30)
        #expect(
            feed.skippedFields == [
                SkippedField(
                    path: "entity.trip_update.stop_time_update.6", count: 2, firstOffset: first, wireType: 0,
                    expectedWireType: 2)
            ])
        #expect(
            feed.skippedFields[0].description
                == "entity.trip_update.stop_time_update.6: 2 skipped, first at byte \(first) (varint where the schema has length-delimited)"
        )
        #expect(try decode(bytes, workers: 2) == feed)
    }

    @Test func mismatchesAnywhereAreCountedByPathInWireOrder() throws {
        let bytes = WireWriter.build { w in
            w.message(1) { h in
                h.string(1, "2.0")
                h.bytesField(3, [1, 2])  // timestamp as length-delimited
            }
            w.message(2) { e in
                e.string(1, "e1")
                e.message(3) { tu in
                    tu.message(1) { td in
                        td.varint(1, 7)  // trip_id as a varint
                        td.string(5, "R1")
                    }
                    tu.fixed32(2, 9)  // a stop_time_update as 32-bit
                    tu.message(2) { $0.varint(1, 4) }
                    tu.tag(4, 1)  // timestamp as 64-bit
                    tu.bytes += [UInt8](repeating: 0, count: 8)
                }
            }
            w.message(2) { e in
                e.string(1, "e2")
                e.message(4) { v in
                    v.message(2) { p in
                        p.fixed32(1, Float(-33.87).bitPattern)
                        p.fixed32(2, Float(151.2).bitPattern)
                        p.varint(3, 90)  // bearing (a float) as a varint
                    }
                }
                e.varint(3, 1)  // the trip update (a message) as a varint
            }
            w.message(2) { e in
                e.string(1, "e3")
                e.message(3) { tu in tu.message(1) { $0.varint(1, 8) } }
            }
        }
        let feed = try decode(bytes)
        #expect(feed.header == FeedHeader(gtfsRealtimeVersion: "2.0"))
        #expect(
            feed.entities == [
                FeedEntity(
                    id: "e1",
                    tripUpdate: TripUpdate(
                        trip: TripDescriptor(routeId: "R1"), stopTimeUpdates: [StopTimeUpdate(stopSequence: 4)])),
                FeedEntity(id: "e2", vehicle: VehiclePosition(position: Position(latitude: -33.87, longitude: 151.2))),
                FeedEntity(id: "e3", tripUpdate: TripUpdate(trip: TripDescriptor())),
            ])
        #expect(feed.problems.isEmpty)
        #expect(
            feed.skippedFields.map(\.path) == [
                "header.3", "entity.trip_update.trip.1", "entity.trip_update.2", "entity.trip_update.4",
                "entity.vehicle.position.3", "entity.3",
            ])
        #expect(feed.skippedFields.map(\.count) == [1, 2, 1, 1, 1, 1])
        #expect(feed.skippedFields.map(\.wireType) == [2, 0, 5, 1, 0, 0])
        #expect(feed.skippedFields.map(\.expectedWireType) == [0, 2, 2, 0, 5, 2])
        #expect(feed.skippedFields.map(\.firstOffset) == feed.skippedFields.map(\.firstOffset).sorted())
        #expect(try decode(bytes, workers: 2) == feed)
    }

    /// Replaying such a feed: only the header changes, the skipped fields stay on the wire.
    @Test func restampKeepsEveryByteButTheHeader() throws {
        let header = WireWriter.build { $0.header(timestamp: 1) }
        let body = WireWriter.build { w in
            w.message(2) { e in
                e.string(1, "e1")
                e.message(3) { tu in
                    tu.message(1) { $0.string(1, "T1") }
                    sydneyStop(&tu, stopId: "S-A", occupancy: 2)
                }
            }
        }
        let restamped = try GTFSRealtimeCodec.restamp(header + body, timestamp: 1_781_166_696)
        let newHeader = WireWriter.build { $0.header(timestamp: 1_781_166_696) }
        #expect(restamped == newHeader + body)
        let feed = try decode(restamped)
        #expect(feed.header.timestamp == 1_781_166_696)
        #expect(feed.skippedFields.map(\.count) == [1])
        #expect(feed.entities.first?.tripUpdate?.stopTimeUpdates.first?.departureOccupancyStatus == .fewSeatsAvailable)
        // Broken bytes are refused as `decode` refuses them.
        #expect(throws: GTFSRealtimeDecodeError.self) {
            try GTFSRealtimeCodec.restamp(header + body.dropLast(), timestamp: 5)
        }
    }

    /// protobuf-c reads a bool from whatever wire type it comes with; the decoder does the same and counts
    /// nothing (a bool never makes protobuf-c refuse a body).
    @Test func boolFromAnotherWireTypeIsReadAsProtobufCDoes() throws {
        let bytes = WireWriter.build { w in
            w.header()
            w.message(2) { e in
                e.string(1, "e1")
                e.fixed32(2, 1)  // is_deleted as 32-bit
            }
        }
        let feed = try decode(bytes)
        #expect(feed.entities == [FeedEntity(id: "e1", isDeleted: true)])
        #expect(feed.skippedFields.isEmpty)
    }

    @Test func cleanFeedsSkipNothing() throws {
        let bytes = GTFSRealtimeCodec.encode(Samples.fullFeed())
        #expect(try decode(bytes).skippedFields.isEmpty)
    }

    // MARK: refused, with offset and path

    @Test func lengthPastTheEndOfItsMessage() throws {
        let bytes = WireWriter.build { w in
            w.header()
            w.message(2) { e in
                e.string(1, "e1")
                e.message(3) { tu in
                    tu.message(1) { $0.string(1, "T1") }
                    tu.message(2) { s in
                        s.string(4, "MARK")
                        s.tag(2, 2)  // arrival: 10 bytes announced, 2 follow
                        s.rawVarint(10)
                        s.bytes += [0x08, 0x01]
                    }
                }
            }
        }
        let error = try #require(decodeError(bytes))
        #expect(error.reason == .malformed)
        let at = try #require(offset(after: "MARK", in: bytes)) + 1
        #expect(
            error.fault
                == WireFault(
                    offset: at, field: "entity.trip_update.stop_time_update.arrival",
                    problem: "length 10 runs past the end of its message (2 bytes left)"))
        #expect(
            error.description
                == "not a GTFS-Realtime FeedMessage: \(bytes.count) bytes of truncated or invalid protobuf: "
                + "at byte \(at) in entity.trip_update.stop_time_update.arrival: length 10 runs past the end of its message (2 bytes left)"
        )
        #expect(decodeError(bytes, workers: 2) == error)
    }

    @Test func bodyCutInTheLastEntity() throws {
        let whole = GTFSRealtimeCodec.encode(Samples.busFeed(trips: 30, stops: 4))
        let layout = try #require(whole.withUnsafeBytes { FeedWireLayout($0) })
        let last = try #require(layout.entities.last)
        let cut = Array(whole[..<(last.lowerBound + 10)])
        let error = try #require(decodeError(cut))
        let fault = try #require(error.fault)
        #expect(fault.field == "entity")
        #expect(fault.offset == last.lowerBound - (last.count < 128 ? 1 : 2))  // the last entity's length prefix
        #expect(fault.problem == "length \(last.count) runs past the end of its message (10 bytes left)")
        #expect(decodeError(cut, workers: 2) == error)
    }

    @Test func brokenValuesAndTags() throws {
        func fault(_ build: (inout WireWriter) -> Void) -> WireFault? {
            decodeError(
                WireWriter.build { w in
                    w.header()
                    w.message(2) { e in
                        e.string(1, "e1")
                        e.message(3) { tu in tu.message(1) { td in build(&td) } }
                    }
                })?.fault
        }
        // A varint that never ends (at the end of its message).
        let varint = fault { td in
            td.tag(6, 0)
            td.bytes.append(0x80)
        }
        #expect(varint?.field == "entity.trip_update.trip.direction_id")
        #expect(varint?.problem == "varint cut off or longer than 10 bytes")
        // Groups: protobuf-c cannot read them.
        #expect(
            fault {
                $0.tag(9, 3); $0.tag(9, 4)
            }?.field == "entity.trip_update.trip.9")
        #expect(fault { $0.tag(9, 3) }?.problem == "groups (wire types 3 and 4) are not supported")
        #expect(fault { $0.tag(2, 7) }?.problem == "invalid wire type 7")
        // Field number 0.
        let zero = fault { $0.bytes += [0x02, 0x00] }
        #expect(zero?.field == "entity.trip_update.trip")
        #expect(zero?.problem == "unreadable tag")
        // A 32-bit value cut off.
        #expect(
            fault {
                $0.tag(7, 5); $0.bytes += [1, 2]
            }?.problem == "4-byte value cut off (2 bytes left in its message)")

        let noValue = try #require(decodeError([0x0A, 0x02, 0x0A, 0x00, 0x12]))
        #expect(
            noValue.fault == WireFault(offset: 5, field: "entity", problem: "no value: its message ends after the tag"))

        let topLevel = try #require(decodeError([0x0A, 0x00, 0x07]))
        #expect(topLevel.fault == WireFault(offset: 2, field: "", problem: "unreadable tag"))
        #expect(topLevel.description.hasSuffix("at byte 2 in FeedMessage: unreadable tag"))
    }

    /// Bytes changed at random in a feed: whatever is refused as malformed says where.
    @Test func mutatedFeedsAreRefusedWithAPlace() {
        let original = GTFSRealtimeCodec.encode(Samples.busFeed(trips: 12, stops: 5))
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        var refused = 0
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<3 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes[Int(seed >> 33) % bytes.count] = UInt8(truncatingIfNeeded: seed >> 20)
            }
            guard let error = decodeError(bytes), error.reason == .malformed else { continue }
            refused += 1
            #expect(error.fault != nil, "\(bytes)")
            if let fault = error.fault { #expect((0..<bytes.count).contains(fault.offset)) }
        }
        #expect(refused > 50)
    }

    // MARK: the schema the check uses

    @Test func renamedNumbersAreUnknownAndNoLonger() throws {
        let schema = WireSchema.gtfsRealtime
        #expect(schema.messages[WireSchema.feedMessage].name == "transit_realtime.FeedMessage")
        for message in schema.messages {
            for field in message.fields {
                #expect(field.spare != 0, "\(message.name).\(field.name)")
                #expect(!message.slot(field.spare).isKnown, "\(message.name).\(field.name)")
                #expect(WireSchema.tagLength(field.spare) <= WireSchema.tagLength(field.number))
            }
        }
        // Distinct where the decoder reads a renamed field back (TfNSW's field 6).
        let stopTimeUpdate = try #require(schema.index(of: "transit_realtime.TripUpdate.StopTimeUpdate"))
        let spares = schema.messages[stopTimeUpdate].fields.map(\.spare)
        #expect(Set(spares).count == spares.count)
    }

    @Test func renamedTagKeepsItsLength() {
        var bytes: [UInt8] = [0, 0, 0, 0]
        WireCheck.writeTag(number: 13, wireType: 0, length: 1, into: &bytes, at: 0)
        #expect(bytes[0] == 13 << 3)
        WireCheck.writeTag(number: 13, wireType: 2, length: 3, into: &bytes, at: 1)
        #expect(Array(bytes[1...]) == [0x80 | (13 << 3) | 2, 0x80, 0x00])  // padded: still field 13
    }
}
