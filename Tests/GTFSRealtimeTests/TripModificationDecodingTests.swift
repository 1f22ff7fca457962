// The experimental detour entities (FeedEntity fields 6 shape, 7 stop, 8 trip_modifications): decoded,
// encoded back, broken ones dropped with a counted reason like every other entity kind, and the same on
// every decoding path (one thread, split between threads, after the wire check's repair).
import Foundation
import GTFSRealtime
import Testing
import TransitModel
import TransitTesting

@Suite struct TripModificationDecodingTests {
    /// A feed with one good trip update ("ok") before the entity under test.
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

    /// A valid TripModifications message, written field by field, with `extra` appended.
    private func tripModifications(
        _ extra: @escaping (inout WireWriter) -> Void = { _ in }
    ) -> (inout WireWriter) -> Void {
        { m in
            m.message(1) { $0.string(1, "T1") }  // selected_trips.trip_ids
            m.string(3, "20260101")  // service_dates
            m.message(4) { mod in mod.message(1) { $0.varint(1, 2) } }  // modifications.start_stop_selector
            extra(&m)
        }
    }

    @Test func officialBindingsFixture() throws {
        let feed = try GTFSRealtimeCodec.decode(FixtureFile.bytes("official-detours.pb"))
        #expect(feed.problems.isEmpty)
        #expect(feed.entities.map(\.id) == ["tm-1", "sh-1", "st-1", "tu-m"])
        #expect(
            feed.entities[0].tripModifications
                == TripModifications(
                    selectedTrips: [.init(tripIds: ["T1", "T2"], shapeId: "SH-detour"), .init(tripIds: ["T3"])],
                    startTimes: ["08:00:00"], serviceDates: ["20260101", "20260102"],
                    modifications: [
                        .init(
                            startStopSelector: StopSelector(stopSequence: 2),
                            endStopSelector: StopSelector(stopId: "S3"),
                            propagatedModificationDelay: 120,
                            replacementStops: [
                                ReplacementStop(travelTimeToStop: 60, stopId: "R1"), ReplacementStop(stopId: "R2"),
                            ],
                            serviceAlertId: "al-1", lastModifiedTime: 1_767_225_000),
                        .init(startStopSelector: StopSelector(stopId: "S5")),
                    ]))
        #expect(
            feed.entities[1].shape
                == RealtimeShape(shapeId: "SH-detour", encodedPolyline: "_p~iF~ps|U_ulLnnqC_mqNvxq`@"))
        let stop = try #require(feed.entities[2].stop)
        #expect(stop.stopId == "R1")
        #expect(stop.stopName == TranslatedText([.init(text: "Temporary stop", language: "en")]))
        #expect(stop.stopCode?.translations.first?.text == "1001")
        #expect(stop.ttsStopName?.translations.first?.text == "Temporary stop")
        #expect(stop.stopDesc?.translations.first?.text == "Outside no. 12")
        #expect(stop.stopLat == -33.875)
        #expect(stop.stopLon == 151.25)
        #expect(stop.zoneId == "Z1")
        #expect(stop.stopUrl?.translations.first?.text == "https://example.org/r1")
        #expect(stop.parentStation == "P1")
        #expect(stop.stopTimezone == "Australia/Sydney")
        #expect(stop.wheelchairBoarding == .available)
        #expect(stop.levelId == "L0")
        #expect(stop.platformCode?.translations.first?.text == "A")
        let tu = try #require(feed.entities[3].tripUpdate)
        #expect(
            tu.trip
                == TripDescriptor(
                    modifiedTrip: .init(modificationsId: "tm-1", affectedTripId: "T1", startDate: "20260101")))
        #expect(
            tu.stopTimeUpdates == [StopTimeUpdate(stopSequence: 2, stopId: "R1", arrival: StopTimeEvent(delay: 30))])
    }

    @Test func roundTripsThroughOurEncoder() throws {
        let feed = FeedMessage(
            header: FeedHeader(timestamp: 1),
            entities: [
                FeedEntity(id: "tm", tripModifications: Samples.fullTripModifications()),
                FeedEntity(id: "st", stop: Samples.fullStop()),
                FeedEntity(id: "sh", shape: RealtimeShape(shapeId: "SH", encodedPolyline: "??")),
                // All three under one id, as the schema allows.
                FeedEntity(
                    id: "all", shape: RealtimeShape(shapeId: "", encodedPolyline: ""), stop: RealtimeStop(stopId: "x"),
                    tripModifications: Samples.fullTripModifications()),
            ])
        let decoded = try GTFSRealtimeCodec.decode(GTFSRealtimeCodec.encode(feed))
        #expect(decoded == feed)
        // Absent stays absent: the default propagated delay and boarding are not invented.
        let second = try #require(decoded.entities[0].tripModifications?.modifications[1])
        #expect(second.propagatedModificationDelay == nil)
        #expect(second.endStopSelector == nil)
        #expect(decoded.entities[3].stop?.wheelchairBoarding == nil)
    }

    struct BrokenCase: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let field: String
        let dropped: String
        let entity: @Sendable (inout WireWriter) -> Void
    }

    /// Each required part of the spec missing: that part of the entity is dropped and counted, the rest of
    /// the feed (and of the entity) kept.
    @Test(arguments: [
        BrokenCase(
            testDescription: "no selected_trips", field: "trip_modifications.selected_trips",
            dropped: "trip_modifications"
        ) { e in
            e.message(8) { m in
                m.string(3, "20260101")
                m.message(4) { mod in mod.message(1) { $0.varint(1, 2) } }
            }
        },
        BrokenCase(
            testDescription: "selected_trips without trip_ids", field: "trip_modifications.selected_trips[0].trip_ids",
            dropped: "trip_modifications"
        ) { e in
            e.message(8) { m in
                m.message(1) { $0.string(2, "SH") }
                m.string(3, "20260101")
                m.message(4) { mod in mod.message(1) { $0.varint(1, 2) } }
            }
        },
        BrokenCase(
            testDescription: "no service_dates", field: "trip_modifications.service_dates",
            dropped: "trip_modifications"
        ) { e in
            e.message(8) { m in
                m.message(1) { $0.string(1, "T1") }
                m.message(4) { mod in mod.message(1) { $0.varint(1, 2) } }
            }
        },
        BrokenCase(
            testDescription: "no modifications", field: "trip_modifications.modifications",
            dropped: "trip_modifications"
        ) { e in
            e.message(8) { m in
                m.message(1) { $0.string(1, "T1") }
                m.string(3, "20260101")
            }
        },
        BrokenCase(
            testDescription: "modification without start_stop_selector",
            field: "trip_modifications.modifications[0].start_stop_selector", dropped: "trip_modifications"
        ) { e in
            e.message(8) { m in
                m.message(1) { $0.string(1, "T1") }
                m.string(3, "20260101")
                m.message(4) { $0.varint(3, 60) }
            }
        },
        BrokenCase(
            testDescription: "selector naming no stop",
            field: "trip_modifications.modifications[0].end_stop_selector.stop_sequence", dropped: "trip_modifications"
        ) { e in
            e.message(8) { m in
                m.message(1) { $0.string(1, "T1") }
                m.string(3, "20260101")
                m.message(4) { mod in
                    mod.message(1) { $0.varint(1, 2) }
                    mod.message(2) { _ in }
                }
            }
        },
        BrokenCase(
            testDescription: "replacement stop without stop_id",
            field: "trip_modifications.modifications[0].replacement_stops[1].stop_id", dropped: "trip_modifications"
        ) { e in
            e.message(8) { m in
                m.message(1) { $0.string(1, "T1") }
                m.string(3, "20260101")
                m.message(4) { mod in
                    mod.message(1) { $0.varint(1, 2) }
                    mod.message(4) { $0.string(2, "R1") }
                    mod.message(4) { $0.varint(1, 60) }
                }
            }
        },
        BrokenCase(testDescription: "shape without polyline", field: "shape.encoded_polyline", dropped: "shape") { e in
            e.message(6) { $0.string(1, "SH") }
        },
        BrokenCase(testDescription: "shape without id", field: "shape.shape_id", dropped: "shape") { e in
            e.message(6) { $0.string(2, "??") }
        },
        BrokenCase(testDescription: "stop without stop_id", field: "stop.stop_id", dropped: "stop") { e in
            e.message(7) { $0.fixed32(6, Float(-33.8).bitPattern) }
        },
        BrokenCase(
            testDescription: "stop name translation without text", field: "stop.stop_name.translation[0].text",
            dropped: "stop"
        ) { e in
            e.message(7) { s in
                s.string(1, "R1")
                s.message(3) { $0.message(1) { $0.string(2, "en") } }
            }
        },
    ])
    func brokenPartIsDroppedAndCounted(_ broken: BrokenCase) throws {
        let bytes = feed { e in
            e.string(1, "bad")
            broken.entity(&e)
            e.message(4) { v in v.message(8) { $0.string(1, "V1") } }  // the entity's vehicle is fine
        }
        for workers in [1, 2] {
            let decoded = try bytes.withUnsafeBytes { try GTFSRealtimeCodec.decode($0, workers: workers) }
            #expect(decoded.entities.map(\.id) == ["ok", "bad"])
            #expect(decoded.entities[1].vehicle?.vehicle?.id == "V1")
            #expect(decoded.entities[1].tripModifications == nil)
            #expect(decoded.entities[1].shape == nil)
            #expect(decoded.entities[1].stop == nil)
            #expect(decoded.problems.map(\.field) == [broken.field], "workers \(workers)")
            #expect(decoded.problems.map(\.dropped) == [broken.dropped])
            #expect(decoded.problems.map(\.reason) == ["missing required field"])
        }
    }

    @Test func goodPartsOfAnEntityStayWhenOneBreaks() throws {
        let bytes = feed { e in
            e.string(1, "mixed")
            e.message(6) { $0.string(1, "SH") }  // broken shape
            e.message(7) { $0.string(1, "R1") }
            e.message(8, tripModifications())
        }
        let decoded = try GTFSRealtimeCodec.decode(bytes)
        #expect(decoded.entities[1].shape == nil)
        #expect(decoded.entities[1].stop == RealtimeStop(stopId: "R1"))
        #expect(decoded.entities[1].tripModifications?.selectedTrips == [.init(tripIds: ["T1"])])
        #expect(
            decoded.problems.map(\.description) == [
                "entity[1] id 'mixed': shape.encoded_polyline: missing required field (dropped shape)"
            ])
    }

    /// A field of the detour messages with another wire type than the schema's is skipped and counted as
    /// any other (WireCheck), on one thread and split alike; the rest of its message is kept.
    @Test func mismatchedWireTypeIsSkippedNotFatal() throws {
        let bytes = feed { e in
            e.string(1, "tm")
            e.message(8, tripModifications { m in m.varint(2, 7) })  // start_times as a varint
        }
        for workers in [1, 2] {
            let decoded = try bytes.withUnsafeBytes { try GTFSRealtimeCodec.decode($0, workers: workers) }
            #expect(decoded.problems.isEmpty)
            #expect(decoded.skippedFields.map(\.path) == ["entity.trip_modifications.2"])
            #expect(decoded.entities[1].tripModifications?.startTimes == [])
            #expect(decoded.entities[1].tripModifications?.serviceDates == ["20260101"])
        }
    }

    /// Entities of all kinds mixed, some broken: the split decode gives the one-thread answer.
    @Test func splitDecodeSameAsOneThread() throws {
        let bytes = WireWriter.build { w in
            w.header()
            for i in 0..<60 {
                w.message(2) { e in
                    e.string(1, "e\(i)")
                    switch i % 4 {
                    case 0: e.message(8, tripModifications())
                    case 1:
                        e.message(6) { s in
                            s.string(1, "SH\(i)"); if i % 3 != 0 { s.string(2, "??") }
                        }
                    case 2: e.message(7) { s in if i % 5 != 2 { s.string(1, "R\(i)") } }
                    default: e.message(3) { tu in tu.message(1) { $0.message(7) { $0.string(1, "tm") } } }
                    }
                }
            }
        }
        let one = try bytes.withUnsafeBytes { try GTFSRealtimeCodec.decode($0, workers: 1) }
        let split = try #require(bytes.withUnsafeBytes { GTFSRealtimeCodec.decodeSplit($0, workers: 2) })
        #expect(split == one)
        #expect(one.problems.count > 4)
        #expect(one.entities.compactMap(\.tripModifications).count == 15)
        #expect(one.entities.compactMap { $0.tripUpdate?.trip.modifiedTrip?.modificationsId }.count == 15)
    }
}
