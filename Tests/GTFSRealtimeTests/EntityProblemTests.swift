// Entities that break the spec are left out and reported; the rest of the feed decodes.
import GTFSRealtime
import Testing
import TransitTesting

@Suite struct EntityProblemTests {
    /// A feed with one good trip update ("ok") around the entity under test.
    private func feed(_ entity: (inout WireWriter) -> Void) -> [UInt8] {
        WireWriter.build { w in
            w.header()
            w.message(2) { e in
                e.string(1, "ok")
                e.message(3) { tu in tu.message(1) { $0.string(1, "T-ok") } }
            }
            w.message(2, entity)
        }
    }

    @Test func tripUpdateWithoutTripDescriptor() throws {
        let bytes = feed { e in
            e.string(1, "bad")
            e.message(3) { tu in tu.message(2) { $0.varint(1, 1) } }  // a stop_time_update, no trip
            e.message(4) { v in v.message(8) { $0.string(1, "V1") } }  // the vehicle part is fine
        }
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded.entities.map(\.id) == ["ok", "bad"])
        #expect(decoded.entities[0].tripUpdate?.trip.tripId == "T-ok")
        #expect(decoded.entities[1].tripUpdate == nil)
        #expect(decoded.entities[1].vehicle?.vehicle?.id == "V1")
        #expect(
            decoded.problems == [
                EntityProblem(
                    index: 1, entityId: "bad", field: "trip_update.trip", reason: "missing required field",
                    dropped: "trip_update")
            ])
        #expect(
            decoded.problems[0].description
                == "entity[1] id 'bad': trip_update.trip: missing required field (dropped trip_update)")
    }

    @Test func positionWithoutLatitude() throws {
        let bytes = feed { e in
            e.string(1, "v")
            e.message(4) { v in v.message(2) { $0.fixed32(2, Float(151.2).bitPattern) } }
        }
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded.entities[1].vehicle == nil)
        #expect(decoded.problems.map(\.field) == ["vehicle.position.latitude"])
        #expect(decoded.problems.map(\.dropped) == ["vehicle"])
    }

    @Test func alertWithoutInformedEntity() throws {
        let bytes = feed { e in
            e.string(1, "a")
            e.message(5) { a in a.message(10) { $0.message(1) { $0.string(1, "Header") } } }
        }
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded.entities.count == 2)
        #expect(decoded.entities[1].alert == nil)
        #expect(decoded.problems.map(\.field) == ["alert.informed_entity"])
    }

    @Test func translationWithoutText() throws {
        let bytes = feed { e in
            e.string(1, "a")
            e.message(5) { a in
                a.message(5) { $0.string(5, "S1") }
                a.message(11) { ts in
                    ts.message(1) { $0.string(1, "fine") }
                    ts.message(1) { $0.string(2, "de") }  // language only
                }
            }
        }
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded.problems.map(\.field) == ["alert.description_text.translation[1].text"])
    }

    @Test func imageWithoutMediaType() throws {
        let bytes = feed { e in
            e.string(1, "a")
            e.message(5) { a in
                a.message(5) { $0.string(5, "S1") }
                a.message(15) { $0.message(1) { $0.string(1, "https://example.org/i.png") } }
            }
        }
        #expect(
            try GTFSRealtimeCodec.decode(bytes).problems.map(\.field) == ["alert.image.localized_image[0].media_type"])
    }

    @Test func entityWithoutId() throws {
        let bytes = feed { e in e.message(3) { tu in tu.message(1) { $0.string(1, "T2") } } }
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded.entities.map(\.id) == ["ok"])
        #expect(
            decoded.problems == [
                EntityProblem(index: 1, entityId: nil, field: "id", reason: "missing required field", dropped: "entity")
            ])
        #expect(decoded.problems[0].description == "entity[1]: id: missing required field (dropped entity)")
    }

    @Test func duplicateIdKeepsTheFirst() throws {
        let bytes = feed { e in
            e.string(1, "ok")
            e.message(3) { tu in tu.message(1) { $0.string(1, "T-second") } }
        }
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded.entities.map { $0.tripUpdate?.trip.tripId } == ["T-ok"])
        #expect(decoded.problems.map(\.reason) == ["duplicate entity id (the first one is kept)"])
    }

    @Test func entityWithNothingWeKnowIsKept() throws {
        // e.g. an entity kind of a newer spec (field 20 here): not a problem, just nothing for us.
        let bytes = feed { e in
            e.string(1, "newer")
            e.message(20) { $0.string(1, "X1") }
        }
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded.problems.isEmpty)
        #expect(decoded.entities.last == FeedEntity(id: "newer"))
    }
}
