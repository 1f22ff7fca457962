import GTFSRealtime
import Testing
import TransitTesting

@Suite struct EnumTests {
    @Test func namesAreTheSpecNames() {
        #expect(OccupancyStatus.manySeatsAvailable.name == "MANY_SEATS_AVAILABLE")
        #expect(TripScheduleRelationship.canceled.name == "CANCELED")
        #expect(TripScheduleRelationship.new.name == "NEW")
        #expect(StopTimeScheduleRelationship.noData.name == "NO_DATA")
        #expect(WheelchairAccessible.accessibilityUnknown.name == "UNKNOWN")
        #expect(WheelchairBoarding.boardingUnknown.name == "UNKNOWN")
        #expect(WheelchairBoarding(rawValue: 2) == .notAvailable)
        #expect(DropOffPickupType.notAvailable.name == "NONE")
        #expect(AlertSeverityLevel.severe.description == "SEVERE")
        #expect(VehicleStopStatus.unknown(9).name == "9")
    }

    @Test func rawValuesFollowTheWire() {
        #expect(TripScheduleRelationship.replacement.rawValue == 5)  // 4 is skipped by the spec
        #expect(TripScheduleRelationship(rawValue: 4) == .unknown(4))
        #expect(TripScheduleRelationship(rawValue: 8) == .new)
        #expect(AlertCause(rawValue: 0) == .unknown(0))  // causes start at 1
        #expect(AlertCause(rawValue: 13) == .specialEvent)
        #expect(AlertEffect.accessibilityIssue.rawValue == 11)
        #expect(CongestionLevel.unknown(-1).rawValue == -1)
    }

    @Test func knownCasesRoundTripThroughNumberAndName() {
        func check<E: GTFSRealtimeEnum>(_: E.Type) {
            #expect(Set(E.knownCases.map(\.rawValue)).count == E.knownCases.count)
            for value in E.knownCases {
                #expect(E(rawValue: value.rawValue) == value)
                #expect(E(name: value.name) == value)
            }
        }
        check(Incrementality.self)
        check(TripScheduleRelationship.self)
        check(StopTimeScheduleRelationship.self)
        check(DropOffPickupType.self)
        check(VehicleStopStatus.self)
        check(CongestionLevel.self)
        check(OccupancyStatus.self)
        check(WheelchairAccessible.self)
        check(AlertCause.self)
        check(AlertEffect.self)
        check(AlertSeverityLevel.self)
        check(WheelchairBoarding.self)
        #expect(OccupancyStatus(name: "MANY_SEATS") == nil)
        #expect(OccupancyStatus.knownCases.count == 9)
    }

    @Test func unknownNumbersOnTheWireDecode() throws {
        // Numbers from a newer spec, written by hand: no failure, `.unknown(n)` each.
        let bytes = WireWriter.build { w in
            w.header()
            w.message(2) { e in
                e.string(1, "v")
                e.message(4) { v in
                    v.varint(4, 7)  // current_status
                    v.varint(6, 12)  // congestion_level
                    v.varint(9, 42)  // occupancy_status
                    v.message(8) { $0.varint(4, 9) }  // wheelchair_accessible
                }
            }
            w.message(2) { e in
                e.string(1, "t")
                e.message(3) { tu in
                    tu.message(1) { $0.int32(4, -3) }  // schedule_relationship, negative
                    tu.message(2) { $0.varint(5, 200) }
                }
            }
        }
        let feed = try GTFSRealtimeCodec.decode(bytes)
        #expect(feed.problems.isEmpty)
        let v = try #require(feed.entities[0].vehicle)
        #expect(v.currentStatus == .unknown(7))
        #expect(v.congestionLevel == .unknown(12))
        #expect(v.occupancyStatus == .unknown(42))
        #expect(v.vehicle?.wheelchairAccessible == .unknown(9))
        #expect(feed.entities[1].tripUpdate?.trip.scheduleRelationship == .unknown(-3))
        #expect(feed.entities[1].tripUpdate?.stopTimeUpdates.first?.scheduleRelationship == .unknown(200))
    }
}
