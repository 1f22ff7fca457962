import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// Stop time updates whose stop_sequence and stop_id name different stops of the trip.
@Suite struct StopMismatchTests {
    typealias F = Fixture

    @Test func aStopIdOccurringOnceAheadWins() throws {
        // stop_sequence 20 is S2, but the stop_id and the delay are S4's.
        let update = F.update([F.stu(seq: 20, stop: "S4", arrivalDelay: 120)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, nil, nil, 120, 120, 120])
        #expect(trip.stopMismatches == 1)
        let first = try #require(trip.firstStopMismatch)
        #expect(first.contains("T1") && first.contains("stop_sequence 20") && first.contains("S4"))
        #expect(first.hasSuffix("matched by stop_id"))
        #expect(trip.unmatchedStopUpdates == 0)
    }

    /// One matching rule for everything an update carries: occupancy, stop headsign and carriages land on the
    /// stop its times land on. (They used to be matched again by stop_sequence first, so a contradicting update
    /// put its times on S4 and its occupancy and carriages on S2.)
    @Test func aContradictingUpdatesPropertiesLandWithItsTimes() throws {
        var contradicting = F.stu(seq: 20, stop: "S4", arrivalDelay: 120)
        contradicting.departureOccupancyStatus = .standingRoomOnly
        contradicting.stopTimeProperties = StopTimeProperties(stopHeadsign: "Via S5")
        contradicting.tfnswCarriages = [
            TfnswCarriage(positionInConsist: 1, departureOccupancyStatus: .manySeatsAvailable),
            TfnswCarriage(positionInConsist: 2, departureOccupancyStatus: .full),
        ]
        let trip = try #require(F.resolve(F.update([contradicting])).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, nil, nil, 120, 120, 120])
        #expect(trip.stops.map(\.departureOccupancy) == [nil, nil, nil, "STANDING_ROOM_ONLY", nil, nil])
        #expect(trip.stops.map(\.stopHeadsign) == [nil, nil, nil, "Via S5", nil, nil])
        #expect(trip.stops.map(\.carriages.count) == [0, 0, 0, 2, 0, 0])
        #expect(trip.stops[3].carriages.map(\.departureOccupancy) == ["MANY_SEATS_AVAILABLE", "FULL"])

        // In a loop (A B C A D), an update without stop_sequence naming A after C lands on the second A, with
        // its occupancy (the first occurrence of the stop_id is not the one the times took).
        var second = F.stu(stop: "A", arrivalDelay: 70)
        second.departureOccupancyStatus = .full
        let update = F.update("LOOP", [F.stu(seq: 30, stop: "C", arrivalDelay: 10), second])
        let loop = try #require(F.resolve(update, MatchingTests.loop).resolvedTrip)
        #expect(loop.arrivalDelays == [nil, nil, 10, 70, 70])
        #expect(loop.stops.map(\.departureOccupancy) == [nil, nil, nil, "FULL", nil])
    }

    /// StopTimeProperties.pickup_type / drop_off_type land on the matched stop as GTFS codes; other stops and
    /// updates without them keep none (the schedule's apply).
    @Test func realtimePickupAndDropOffLandOnTheMatchedStop() throws {
        var setDownOnly = F.stu(seq: 30, stop: "S3", arrivalDelay: 60)
        setDownOnly.stopTimeProperties = StopTimeProperties(pickupType: .notAvailable)
        var pickUpOnly = F.stu(seq: 50, stop: "S5")
        pickUpOnly.stopTimeProperties = StopTimeProperties(pickupType: .regular, dropOffType: .coordinateWithDriver)
        let trip = try #require(F.resolve(F.update([setDownOnly, pickUpOnly])).resolvedTrip)
        #expect(trip.stops.map(\.pickupType) == [nil, nil, 1, nil, 0, nil])
        #expect(trip.stops.map(\.dropOffType) == [nil, nil, nil, nil, 3, nil])
        #expect(trip.arrivalDelays == [nil, nil, 60, 60, nil, nil])  // S5's update has no times: no data from it
    }

    @Test func agreeingUpdatesAreNoMismatch() throws {
        let update = F.update([
            F.stu(seq: 20, stop: "S2", arrivalDelay: 60), F.stu(seq: 40, stop: "S4", arrivalDelay: 90),
        ])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.stopMismatches == 0)
        #expect(trip.firstStopMismatch == nil)
        #expect(trip.arrivalDelays == [nil, 60, 60, 90, 90, 90])
    }

    @Test func aStopIdOnlyBehindThePreviousMatchKeepsTheSequence() throws {
        // The first update matched S4; the second names S2 (behind it) with stop_sequence 50: the sequence wins.
        let update = F.update([
            F.stu(seq: 40, stop: "S4", arrivalDelay: 60), F.stu(seq: 50, stop: "S2", arrivalDelay: 200),
        ])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, nil, nil, 60, 200, 200])
        #expect(trip.stopMismatches == 1)
        #expect(trip.firstStopMismatch?.hasSuffix("matched by stop_sequence") == true)
    }

    @Test func aStopIdVisitedTwiceAheadKeepsTheSequence() throws {
        // LOOP: A B C A D. stop_sequence 20 (B) with stop_id A: A occurs twice after the start, so ambiguous.
        let loop = MatchingTests.loop
        let update = F.update("LOOP", [F.stu(seq: 20, stop: "A", arrivalDelay: 45)])
        let trip = try #require(F.resolve(update, loop).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, 45, 45, 45, 45])
        #expect(trip.stopMismatches == 1)
    }

    @Test func aStopIdOnceAheadOfThePreviousMatchInALoop() throws {
        // After C (30), stop_sequence 50 names D but stop_id A: the second A is the only one ahead.
        let loop = MatchingTests.loop
        let update = F.update(
            "LOOP", [F.stu(seq: 30, stop: "C", arrivalDelay: 10), F.stu(seq: 50, stop: "A", arrivalDelay: 70)])
        let trip = try #require(F.resolve(update, loop).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, nil, 10, 70, 70])
        #expect(trip.stopMismatches == 1)
    }

    @Test func aStopIdTheTripDoesNotVisitIsNoMismatch() throws {
        // An id outside the trip (an assigned platform, an unknown stop): the stop_sequence decides, uncounted.
        let update = F.update([F.stu(seq: 30, stop: "ELSEWHERE", arrivalDelay: 30)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, nil, 30, 30, 30, 30])
        #expect(trip.stopMismatches == 0)
    }

    @Test func onlyTheFirstMismatchIsDescribed() throws {
        let update = F.update([
            F.stu(seq: 10, stop: "S2", arrivalDelay: 30), F.stu(seq: 20, stop: "S5", arrivalDelay: 90),
        ])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.stopMismatches == 2)
        #expect(trip.firstStopMismatch?.contains("stop_sequence 10") == true)
        #expect(trip.arrivalDelays == [nil, 30, 30, 30, 90, 90])
    }

    @Test func aCanceledTripCountsNoMismatch() throws {
        let update = F.update(relationship: .canceled, [F.stu(seq: 20, stop: "S4", arrivalDelay: 120)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.stopMismatches == 0)
    }
}

/// A stop update naming another platform of the scheduled stop's station: a platform change.
@Suite struct PlatformChangeTests {
    typealias F = Fixture

    /// T1 over P1 (platform 1 of station STA), S2 … S6; STA also has P2 (platform 2).
    static let schedules: TripScheduleIndex = {
        var index = F.index([F.trip()], [F.pattern(6, stopIds: ["P1", "S2", "S3", "S4", "S5", "S6"])])
        index.add([
            StationPlatforms(
                stationId: "STA",
                platforms: [
                    StationPlatform(stopId: "P1", platformCode: "1"), StationPlatform(stopId: "P2", platformCode: "2"),
                ])
        ])
        return index
    }()

    @Test func aSiblingPlatformIsAPlatformChangeNotAMismatch() throws {
        let update = F.update([F.stu(seq: 10, stop: "P2", arrivalDelay: 60)])
        let trip = try #require(F.resolve(update, Self.schedules).resolvedTrip)
        #expect(trip.stops[0].stopId == "P1")
        #expect(trip.stops[0].assignedStopId == "P2")
        #expect(trip.stops[1].assignedStopId == nil)
        #expect(trip.arrivalDelays == [60, 60, 60, 60, 60, 60])
        #expect(trip.stopMismatches == 0)
    }

    @Test func aSiblingPlatformWithoutStopSequenceMatchesTheStationsStop() throws {
        let update = F.update([F.stu(stop: "P2", arrivalDelay: 30)])
        let trip = try #require(F.resolve(update, Self.schedules).resolvedTrip)
        #expect(trip.stops[0].assignedStopId == "P2")
        #expect(trip.arrivalDelays.first == 30)
        #expect(trip.unmatchedStopUpdates == 0)
    }

    @Test func withoutStationDataTheStopSequenceDecidesAndNothingIsAssigned() throws {
        let plain = F.index([F.trip()], [F.pattern(6, stopIds: ["P1", "S2", "S3", "S4", "S5", "S6"])])
        let trip = try #require(F.resolve(F.update([F.stu(seq: 10, stop: "P2", arrivalDelay: 60)]), plain).resolvedTrip)
        #expect(trip.stops[0].assignedStopId == nil)
        #expect(trip.stopMismatches == 0)
    }

    @Test func assignedStopIdIsKept() throws {
        var stu = F.stu(seq: 10, stop: "P1", arrivalDelay: 0)
        stu.stopTimeProperties = StopTimeProperties(assignedStopId: "P2")
        let trip = try #require(F.resolve(F.update([stu]), Self.schedules).resolvedTrip)
        #expect(trip.stops[0].assignedStopId == "P2")
    }
}
