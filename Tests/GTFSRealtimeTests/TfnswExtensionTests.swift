import Testing
import TransitTesting

// Transport for NSW's additions, as Sydney's feeds send them: extension 1007 on StopTimeUpdate (per-carriage
// predicted occupancy), VehiclePosition (the carriages), VehicleDescriptor (air conditioning, model, ...) and
// TripUpdate (an internal source name, left unread); StopTimeUpdate field 6 as a varint (the stop's departure
// occupancy); no start_date; UNSCHEDULED trips without trip_id.
@testable import GTFSRealtime

@Suite struct TfnswExtensionTests {
    private func decode(_ bytes: [UInt8], workers: Int = 1) throws -> FeedMessage {
        try bytes.withUnsafeBytes { try GTFSRealtimeCodec.decode($0, workers: workers) }
    }

    private func feed(_ entity: (inout WireWriter) -> Void) -> [UInt8] {
        WireWriter.build { w in
            w.header()
            w.message(2) { e in
                e.string(1, "e1")
                entity(&e)
            }
        }
    }

    @Test func stopTimeUpdateCarriagesAndOccupancy() throws {
        let bytes = feed { e in
            e.message(3) { tu in
                tu.message(1) { $0.string(1, "607C.1287.134.32.T.8.89914846") }
                tu.message(2) { s in
                    s.string(4, "2560712")
                    s.varint(6, 2)  // TfNSW: departure occupancy FEW_SEATS_AVAILABLE
                    for position in 1...4 as ClosedRange<UInt64> {
                        s.message(1007) { c in
                            c.varint(2, position)
                            c.varint(7, position == 4 ? 3 : 1)
                        }
                    }
                }
                tu.message(2) { s in
                    s.string(4, "214382")
                    s.varint(7, 1)  // the official field wins over TfNSW's
                    s.varint(6, 3)
                }
            }
        }
        let feed = try decode(bytes)
        let stops = try #require(feed.entities.first?.tripUpdate?.stopTimeUpdates)
        #expect(
            stops == [
                StopTimeUpdate(
                    stopId: "2560712", departureOccupancyStatus: .fewSeatsAvailable,
                    tfnswCarriages: [
                        TfnswCarriage(positionInConsist: 1, departureOccupancyStatus: .manySeatsAvailable),
                        TfnswCarriage(positionInConsist: 2, departureOccupancyStatus: .manySeatsAvailable),
                        TfnswCarriage(positionInConsist: 3, departureOccupancyStatus: .manySeatsAvailable),
                        TfnswCarriage(positionInConsist: 4, departureOccupancyStatus: .standingRoomOnly),
                    ]),
                StopTimeUpdate(stopId: "214382", departureOccupancyStatus: .manySeatsAvailable),
            ])
        #expect(feed.skippedFields.map(\.count) == [2])
        #expect(try decode(bytes, workers: 2) == feed)
    }

    @Test func vehiclePositionCarriages() throws {
        let bytes = feed { e in
            e.message(4) { v in
                v.message(1) { $0.string(1, "0215-002-154-012:1001") }
                // Metro sends every field; Sydney Trains only the position and, on some, the occupancy.
                v.message(1007) { c in
                    c.string(1, "DTC1")
                    c.varint(2, 1)
                    c.varint(3, 1)
                    c.varint(4, 1)
                    c.varint(5, 2)
                    c.varint(6, 0)
                }
                v.message(1007) { c in c.varint(2, 2) }
                v.message(1007) { c in
                    c.varint(2, 3)
                    c.varint(3, 5)
                }
            }
        }
        let vehicle = try #require(try decode(bytes).entities.first?.vehicle)
        #expect(
            vehicle.tfnswCarriages == [
                TfnswCarriage(
                    name: "DTC1", positionInConsist: 1, occupancyStatus: .manySeatsAvailable, quietCarriage: true,
                    toilet: .accessible, luggageRack: false),
                TfnswCarriage(positionInConsist: 2),
                TfnswCarriage(positionInConsist: 3, occupancyStatus: .full),
            ])
        #expect(vehicle.multiCarriageDetails.isEmpty)
    }

    @Test func vehicleDescriptorExtension() throws {
        let bytes = feed { e in
            e.message(4) { v in
                v.message(8) { d in
                    d.string(1, "RS019")
                    d.message(1007) { x in
                        x.varint(1, 1)
                        x.varint(2, 1)
                        x.string(3, "Alstom Metropolis")
                        x.varint(4, 0)
                        x.varint(5, 0)
                    }
                }
            }
            e.message(3) { tu in
                tu.message(1) { $0.string(1, "T1") }
                tu.message(3) { d in d.message(1007) { $0.string(3, "T") } }  // Sydney Trains: the model only
            }
        }
        let entity = try #require(try decode(bytes).entities.first)
        #expect(
            entity.vehicle?.vehicle
                == VehicleDescriptor(
                    id: "RS019",
                    tfnsw: TfnswVehicleDescriptor(
                        airConditioned: true, wheelchairAccessible: 1, vehicleModel: "Alstom Metropolis",
                        performingPriorTrip: false,
                        specialVehicleAttributes: 0)))
        #expect(entity.tripUpdate?.vehicle == VehicleDescriptor(tfnsw: TfnswVehicleDescriptor(vehicleModel: "T")))
    }

    /// TripUpdate's extension 1007 is TfNSW's internal source name: decoded past, not kept, not a skip.
    @Test func tripUpdateExtensionIsLeftOut() throws {
        let trip: (inout WireWriter) -> Void = { $0.message(1) { $0.string(1, "T1") } }
        let with = try decode(
            feed { e in
                e.message(3) { tu in
                    trip(&tu)
                    tu.message(1007) { x in
                        x.string(7, "961330")
                        x.string(8, "RTTA_REV")
                    }
                }
            })
        let without = try decode(feed { e in e.message(3) { tu in trip(&tu) } })
        #expect(with == without)
        #expect(with.skippedFields.isEmpty)
    }

    /// An extension 1007 that does not read as TfNSW's message is left out; nothing else is lost.
    @Test func unreadableExtensionIsLeftOut() throws {
        let bytes = feed { e in
            e.message(4) { v in
                v.bytesField(1007, [0x10])  // field 2, varint, no value
                v.message(1007) { $0.varint(2, 7) }
                v.message(1007) { $0.string(9, "someone else's") }  // no field of TfNSW's
                v.varint(6, 2)
            }
        }
        let vehicle = try #require(try decode(bytes).entities.first?.vehicle)
        #expect(
            vehicle
                == VehiclePosition(congestionLevel: .stopAndGo, tfnswCarriages: [TfnswCarriage(positionInConsist: 7)]))
    }

    @Test func noStartDateAndEmptyStartDate() throws {
        let bytes = WireWriter.build { w in
            w.header()
            w.message(2) { e in
                e.string(1, "absent")
                e.message(3) { tu in
                    tu.message(1) { td in
                        td.string(1, "607C.1287.134.32.T.8.89914846")
                        td.varint(4, 0)
                        td.string(5, "RTTA_DEF")
                    }
                }
            }
            w.message(2) { e in
                e.string(1, "empty")
                e.message(3) { tu in
                    tu.message(1) { td in
                        td.string(1, "T2")
                        td.string(3, "")
                    }
                }
            }
        }
        let feed = try decode(bytes)
        #expect(feed.problems.isEmpty)
        #expect(
            feed.entities.map { $0.tripUpdate?.trip } == [
                TripDescriptor(
                    tripId: "607C.1287.134.32.T.8.89914846", routeId: "RTTA_DEF", scheduleRelationship: .scheduled),
                // Sent empty stays empty: the decoder keeps what the wire says; dating the trip is the resolver's job.
                TripDescriptor(tripId: "T2", startDate: ""),
            ])
    }

    @Test func unscheduledWithoutTripId() throws {
        let bytes = WireWriter.build { w in
            w.header()
            for (id, tripId) in [("38743___T80_1", nil), ("23537___M90_1", "")] as [(String, String?)] {
                w.message(2) { e in
                    e.string(1, id)
                    e.message(3) { tu in
                        tu.message(1) { td in
                            if let tripId { td.string(1, tripId) }
                            td.string(2, "07:52:24")
                            td.string(3, "20200901")
                            td.varint(4, 2)
                            td.string(5, "_T80")
                        }
                        tu.message(2) { s in
                            s.varint(1, 1)
                            s.message(2) { $0.varint(2, 1_598_911_200) }
                            s.string(4, "2000421")
                        }
                    }
                }
            }
        }
        let feed = try decode(bytes)
        #expect(feed.problems.isEmpty)
        let trips = feed.entities.compactMap { $0.tripUpdate?.trip }
        #expect(trips.map(\.tripId) == [nil, ""])
        #expect(
            trips.allSatisfy {
                $0.scheduleRelationship == .unscheduled && $0.startTime == "07:52:24" && $0.routeId == "_T80"
            })
        #expect(feed.entities.allSatisfy { $0.tripUpdate?.stopTimeUpdates.first?.arrival?.time == 1_598_911_200 })
    }
}
