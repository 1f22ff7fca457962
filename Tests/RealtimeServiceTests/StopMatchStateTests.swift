import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeService

/// What the live state makes of stop time updates that disagree with the schedule or leave stops out.
@Suite struct StopMatchStateTests {
    typealias F = StateFixture

    static func update(_ tripId: String, _ stops: [StopTimeUpdate]) -> TripUpdate {
        TripUpdate(trip: TripDescriptor(tripId: tripId, startDate: F.dayText), stopTimeUpdates: stops)
    }

    @Test func stopMismatchesAreCountedPerSourceWithTheFirstExample() throws {
        var state = F.state()
        // stop_sequence 2 is S2, the stop_id and delay are S4's.
        let mismatched = StopTimeUpdate(stopSequence: 2, stopId: "S4", departure: StopTimeEvent(delay: 120))
        let changes = try mustApply(&state, F.feed([F.entity("e1", Self.update("T1", [mismatched]))]))
        let trip = try #require(changes.trips.first)
        #expect(trip.stops.map(\.departureDelay) == [nil, nil, nil, 120])
        var status = state.statuses(now: F.now)[0]
        #expect(status.stopMismatches == 1)
        let first = try #require(status.firstStopMismatch)
        #expect(first.contains("entity 'e1'") && first.contains("trip T1") && first.contains("stop_id S4"))
        #expect(status.drops.isEmpty)  // the update is used, not dropped

        // Counted again on the next feed; the first example stays.
        let agreeing = StopTimeUpdate(stopSequence: 2, stopId: "S2", departure: StopTimeEvent(delay: 60))
        try mustApply(
            &state,
            F.feed(
                [
                    F.entity("e2", Self.update("T2", [mismatched])),
                    F.entity("e1", Self.update("T1", [agreeing])),
                ], timestamp: UInt64(F.now + 30)),
            now: F.now + 30)
        status = state.statuses(now: F.now + 30)[0]
        #expect(status.stopMismatches == 2)
        #expect(status.firstStopMismatch == first)
    }

    /// A train 2 min late at S3 (scheduled 08:10, predicted 08:12); 23 s later the producer's first stop
    /// update is S4, while S3's predicted time is still ahead. S3 keeps its prediction (it used to fall back to
    /// its schedule, already past, so the train left S3's board before it came).
    @Test func aStopDroppedBeforeItsPredictedTimeKeepsItsPrediction() throws {
        var state = F.state()
        let t0 = F.dayUnix + 8 * 3600 + 630  // 08:10:30
        let late = Self.update("T1", [StopTimeUpdate(stopSequence: 2, departure: StopTimeEvent(delay: 120))])
        let first = try mustApply(&state, F.feed([F.entity("e1", late)], timestamp: UInt64(t0)), now: t0)
        #expect(first.trips.first?.stops[2].predictedDeparture == F.scheduled(1, 2) + 120)

        let t1 = t0 + 23
        let dropped = Self.update("T1", [StopTimeUpdate(stopSequence: 4, departure: StopTimeEvent(delay: 120))])
        let second = try mustApply(&state, F.feed([F.entity("e1", dropped)], timestamp: UInt64(t1)), now: t1)
        let trip = try #require(second.trips.first ?? state.trips[F.key(1)])
        #expect(trip.stops[2].status == .predicted)
        #expect(trip.stops[2].predictedDeparture == F.scheduled(1, 2) + 120)
        #expect(trip.stops[2].departureDelay == 120)
        #expect(trip.stops[1].status == .noPrediction)  // S2's predicted 08:07 is past: it goes

        // Once its predicted time has passed, the next update lets it go.
        let t2 = F.scheduled(1, 2) + 121
        let third = try mustApply(&state, F.feed([F.entity("e1", dropped)], timestamp: UInt64(t2)), now: t2)
        let after = try #require(third.trips.first ?? state.trips[F.key(1)])
        #expect(after.stops[2].status == .noPrediction)
    }

    @Test func aDifferentialUpdateKeepsTheDroppedStopsPredictionToo() throws {
        var state = F.state()
        let t0 = F.dayUnix + 8 * 3600 + 630
        let late = Self.update("T1", [StopTimeUpdate(stopSequence: 2, departure: StopTimeEvent(delay: 120))])
        try mustApply(&state, F.feed([F.entity("e1", late)], timestamp: UInt64(t0), differential: true), now: t0)
        let dropped = Self.update("T1", [StopTimeUpdate(stopSequence: 4, departure: StopTimeEvent(delay: 120))])
        try mustApply(
            &state, F.feed([F.entity("e1", dropped)], timestamp: UInt64(t0 + 23), differential: true), now: t0 + 23)
        let trip = try #require(state.trips[F.key(1)])
        #expect(trip.stops[2].predictedDeparture == F.scheduled(1, 2) + 120)
    }

    @Test func aSiblingPlatformIsPublishedAsAPlatformChangeWithItsCode() throws {
        var schedules = F.schedules
        schedules.add(
            TripSchedules(
                databaseVersion: "db1", patterns: [], trips: [], unknownTripIds: [],
                stations: [
                    StationPlatforms(
                        stationId: "STA",
                        platforms: [
                            StationPlatform(stopId: "S1", platformCode: "A"),
                            StationPlatform(stopId: "S1b", platformCode: "B"),
                        ])
                ]))
        var state = F.state()
        let moved = StopTimeUpdate(stopSequence: 1, stopId: "S1b", departure: StopTimeEvent(delay: 60))
        let changes = try mustApply(&state, F.feed([F.entity("e1", Self.update("T1", [moved]))]), schedules: schedules)
        let trip = try #require(changes.trips.first)
        #expect(trip.stops[0].stopId == "S1")
        #expect(trip.stops[0].assignedStopId == "S1b")
        #expect(trip.stops[0].assignedPlatform == "B")
        #expect(trip.stops[1].assignedStopId == nil && trip.stops[1].assignedPlatform == nil)
        #expect(trip.stops.map(\.departureDelay) == [60, 60, 60, 60])
        #expect(state.statuses(now: F.now)[0].stopMismatches == 0)
    }
}
