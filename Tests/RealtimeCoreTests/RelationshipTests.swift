import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// Trip-level schedule relationships: canceled, deleted, added, new, replacement, duplicated.
@Suite struct RelationshipTests {
    typealias F = Fixture

    @Test func canceledTripKeepsItsScheduleWithoutPredictions() throws {
        let update = F.update(relationship: .canceled, delay: 120, [F.stu(seq: 20, arrivalDelay: 60)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.relationship == .canceled)
        #expect(trip.key == TripInstanceKey(tripId: "T1", serviceDate: F.day))
        #expect(trip.stops.count == 6)
        #expect(trip.stops.map(\.scheduledArrival) == (0..<6).map { F.arrival($0) })
        #expect(
            trip.stops.allSatisfy {
                $0.predictedArrival == nil && $0.predictedDeparture == nil && $0.status == .noPrediction
            })
    }

    @Test func deletedTripAsksForRemoval() {
        let result = F.resolve(F.update(relationship: .deleted))
        #expect(result == .deleted(TripInstanceKey(tripId: "T1", serviceDate: F.day)))
    }

    @Test func deletedFrequencyInstanceNamesItsStart() {
        let schedules = F.index(
            [
                F.trip(
                    "F1",
                    frequencies: [
                        FrequencyWindow(startSecs: 21_600, endSecs: 36_000, headwaySecs: 600, exactTimes: true)
                    ])
            ],
            [F.pattern(3)])
        let result = F.resolve(F.update("F1", startTime: "07:10:00", relationship: .deleted), schedules)
        #expect(result == .deleted(TripInstanceKey(tripId: "F1", serviceDate: F.day, startSecs: 25_800)))
    }

    @Test func deletedAddedTripUsesItsOwnKey() {
        let result = F.resolve(F.update("X9", startTime: "09:15:00", relationship: .deleted))
        #expect(result == .deleted(TripInstanceKey(tripId: "X9", serviceDate: F.day, startSecs: 33_300)))
    }

    @Test func newTripCarriesItsOwnStopsAndTimes() throws {
        let t0 = F.dayUnix + 9 * 3600
        var update = F.update(
            "NEW1", startTime: "09:00:00", relationship: .new,
            [
                F.stu(stop: "A", departureTime: t0),
                F.stu(stop: "B", arrivalTime: t0 + 240, departureTime: t0 + 270),
                F.stu(stop: "C", arrivalTime: t0 + 600),
            ])
        update.trip.routeId = "R9"
        update.trip.directionId = 0
        let trip = try #require(F.resolve(update, Fixture.index([], [])).resolvedTrip)
        #expect(trip.relationship == .new)
        #expect(trip.key == TripInstanceKey(tripId: "NEW1", serviceDate: F.day, startSecs: 32_400))
        #expect(trip.staticTripId == nil)
        #expect(trip.routeId == "R9")
        #expect(trip.directionId == 0)
        #expect(trip.stops.map(\.stopId) == ["A", "B", "C"])
        #expect(trip.stops.map(\.stopSequence) == [0, 1, 2])
        #expect(trip.stops.map(\.predictedArrival) == [t0, t0 + 240, t0 + 600])
        #expect(trip.stops.map(\.predictedDeparture) == [t0, t0 + 270, t0 + 600])
        #expect(
            trip.stops.allSatisfy { $0.scheduledArrival == nil && $0.arrivalDelay == nil && $0.status == .predicted })
    }

    @Test func newTripWithScheduledTimesHasDelays() throws {
        let t0 = F.dayUnix + 9 * 3600
        let update = F.update(
            "NEW2", relationship: .new,
            [
                StopTimeUpdate(stopSequence: 1, stopId: "A", departure: StopTimeEvent(delay: 60, scheduledTime: t0)),
                StopTimeUpdate(
                    stopSequence: 2, stopId: "B", arrival: StopTimeEvent(time: t0 + 400, scheduledTime: t0 + 300)),
            ])
        let trip = try #require(F.resolve(update, Fixture.index([], [])).resolvedTrip)
        #expect(trip.stops.map(\.stopSequence) == [1, 2])
        #expect(trip.stops[0].predictedDeparture == t0 + 60)
        #expect(trip.stops[0].departureDelay == 60)
        #expect(trip.stops[1].arrivalDelay == 100)
        #expect(trip.stops[1].scheduledDeparture == t0 + 300)
    }

    @Test func newTripWithoutStartDateIsDatedByItsFirstTime() throws {
        let t0 = F.dayUnix + 86_400 + 1_800  // 00:30 on the 15th
        let update = F.update("NEW3", startDate: nil, relationship: .new, [F.stu(stop: "A", departureTime: t0)])
        let trip = try #require(F.resolve(update, Fixture.index([], [])).resolvedTrip)
        #expect(trip.key == TripInstanceKey(tripId: "NEW3", serviceDate: 20250315))
        // With a start_time of 24:30:00 the same time belongs to the 14th.
        let late = F.update(
            "NEW4", startDate: nil, startTime: "24:30:00", relationship: .new, [F.stu(stop: "A", departureTime: t0)])
        let lateTrip = try #require(F.resolve(late, Fixture.index([], [])).resolvedTrip)
        #expect(lateTrip.key == TripInstanceKey(tripId: "NEW4", serviceDate: F.day, startSecs: 88_200))
    }

    @Test func newTripStopsSkippedAndNoData() throws {
        let t0 = F.dayUnix + 9 * 3600
        let update = F.update(
            "NEW5", relationship: .new,
            [
                F.stu(stop: "A", departureTime: t0), F.stu(stop: "B", .skipped), F.stu(stop: "C", .noData),
                F.stu(stop: "D"),
                F.stu(arrivalTime: t0 + 900),
            ])
        let trip = try #require(F.resolve(update, Fixture.index([], [])).resolvedTrip)
        #expect(trip.statuses == [.predicted, .skipped, .noData, .noData])
        #expect(trip.unmatchedStopUpdates == 1)
    }

    @Test func newTripWithoutStopsIsMalformed() {
        let result = F.resolve(
            F.update("NEW6", relationship: .new, [F.stu(seq: 1, arrivalTime: F.now)]), Fixture.index([], []))
        #expect(result.drop?.reason == .malformed)
    }

    @Test func addedTripUnknownToTheScheduleUsesItsOwnStops() throws {
        let t0 = F.dayUnix + 10 * 3600
        let update = F.update(
            "ADD1", relationship: .added,
            [F.stu(stop: "S2", departureTime: t0), F.stu(stop: "S5", arrivalTime: t0 + 500)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.relationship == .added)
        #expect(trip.key == TripInstanceKey(tripId: "ADD1", serviceDate: F.day))
        #expect(trip.stops.map(\.stopId) == ["S2", "S5"])
        #expect(trip.stops[1].predictedArrival == t0 + 500)
    }

    @Test func addedCopyOfAStaticTripIsShiftedAndKeyedByItsStart() throws {
        // ADDED as the legacy "duplicate": the static trip T1 (08:00) again at 11:30.
        let update = F.update("T1", startTime: "11:30:00", relationship: .added, [F.stu(seq: 30, arrivalDelay: 45)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        let base = F.dayUnix + 41_400
        #expect(trip.relationship == .added)
        #expect(trip.key == TripInstanceKey(tripId: "T1", serviceDate: F.day, startSecs: 41_400))
        #expect(trip.key != TripInstanceKey(tripId: "T1", serviceDate: F.day))
        #expect(trip.staticTripId == "T1")
        #expect(trip.stops.map(\.scheduledArrival) == (0..<6).map { F.arrival($0, base: base) })
        #expect(trip.arrivalDelays == [nil, nil, 45, 45, 45, 45])
    }

    @Test func duplicatedTripCopiesTheScheduleShiftedToItsStart() throws {
        let properties = TripProperties(tripId: "DUP-1", startDate: "20250315", startTime: "10:30:00")
        let update = F.update(
            "T1", startDate: nil, relationship: .duplicated, properties: properties,
            [
                F.stu(seq: 20, departureDelay: 30),
                F.stu(seq: 50, arrivalTime: F.dayUnix + 86_400 + 37_800 + 1_200 + 100),
            ])
        let trip = try #require(F.resolve(update).resolvedTrip)
        let base = F.dayUnix + 86_400 + 37_800  // 10:30 on the 15th (T1 does not run that day: allowed)
        #expect(trip.relationship == .duplicated)
        #expect(trip.key == TripInstanceKey(tripId: "DUP-1", serviceDate: 20250315, startSecs: 37_800))
        #expect(trip.staticTripId == "T1")
        #expect(trip.routeId == "R1")
        #expect(trip.stops.map(\.scheduledArrival) == (0..<6).map { F.arrival($0, base: base) })
        #expect(trip.stops.map(\.scheduledDeparture) == (0..<6).map { F.departure($0, base: base) })
        // Delays apply to the shifted schedule, times are taken as they are.
        #expect(trip.stops[1].predictedDeparture == F.departure(1, base: base) + 30)
        #expect(trip.stops[4].predictedArrival == base + 1_300)
        #expect(trip.departureDelays == [nil, 30, 30, 30, 100, 100])
    }

    @Test func duplicatedShiftIsFromTheOriginalFirstDeparture() throws {
        // First stop dwells 60 s (arrive 08:00, depart 08:01): start_time 10:00 is the copy's first departure.
        var pattern = F.pattern(3)
        pattern.stops[0].departureOffset = 60
        let schedules = F.index([F.trip()], [pattern])
        let update = F.update(
            "T1", relationship: .duplicated,
            properties: TripProperties(tripId: "D", startDate: F.dayText, startTime: "10:00:00"))
        let trip = try #require(F.resolve(update, schedules).resolvedTrip)
        #expect(trip.stops[0].scheduledDeparture == F.dayUnix + 36_000)
        #expect(trip.stops[0].scheduledArrival == F.dayUnix + 36_000 - 60)
        #expect(trip.stops[1].scheduledArrival == F.dayUnix + 36_000 - 60 + 300)
    }

    @Test func duplicatedWithoutTripPropertiesIsMalformed() {
        let result = F.resolve(F.update("T1", relationship: .duplicated))
        #expect(result.drop?.reason == .malformed)
        let noStart = F.resolve(
            F.update(
                "T1", startTime: nil, relationship: .duplicated,
                properties: TripProperties(tripId: "D2", startDate: F.dayText)))
        #expect(noStart.drop?.reason == .malformed)
    }

    @Test func duplicatedOfAnUnknownTripIsDropped() {
        let update = F.update(
            "NOPE", relationship: .duplicated,
            properties: TripProperties(tripId: "D3", startDate: F.dayText, startTime: "10:00:00"))
        #expect(F.resolve(update).drop?.reason == .unknownTrip)
    }

    @Test func replacementReplacesTheStopsOfTheScheduledInstance() throws {
        let update = F.update(
            "T1", relationship: .replacement,
            [
                F.stu(seq: 10, stop: "S1", departureDelay: 60),
                F.stu(stop: "X1", arrivalTime: F.arrival(1) + 200),
                F.stu(seq: 60, stop: "S6", arrivalDelay: 120),
            ])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.relationship == .replacement)
        #expect(trip.key == TripInstanceKey(tripId: "T1", serviceDate: F.day))
        #expect(trip.stops.map(\.stopId) == ["S1", "X1", "S6"])
        #expect(trip.stops.map(\.stopSequence) == [10, 1, 60])
        #expect(trip.stops[0].scheduledDeparture == F.departure(0))
        #expect(trip.stops[0].predictedDeparture == F.departure(0) + 60)
        #expect(trip.stops[1].scheduledArrival == nil)
        #expect(trip.stops[1].predictedArrival == F.arrival(1) + 200)
        #expect(trip.stops[2].scheduledArrival == F.arrival(5))
        #expect(trip.stops[2].arrivalDelay == 120)
    }

    @Test func replacementOfAnUnknownTripActsLikeANewTrip() throws {
        let update = F.update("R-77", relationship: .replacement, [F.stu(stop: "A", departureTime: F.now)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.relationship == .replacement)
        #expect(trip.key == TripInstanceKey(tripId: "R-77", serviceDate: F.day))
    }

    @Test func unscheduledFrequencyTripIsResolvedLikeAScheduledOne() throws {
        let schedules = F.index(
            [
                F.trip(
                    "F0",
                    frequencies: [
                        FrequencyWindow(startSecs: 21_600, endSecs: 36_000, headwaySecs: 600, exactTimes: false)
                    ])
            ],
            [F.pattern(3)])
        let update = F.update(
            "F0", startTime: "07:03:00", relationship: .unscheduled, [F.stu(seq: 20, arrivalDelay: 30, .unscheduled)])
        let trip = try #require(F.resolve(update, schedules).resolvedTrip)
        #expect(trip.relationship == .unscheduled)
        #expect(trip.arrivalDelays == [nil, 30, 30])
    }

    @Test func unknownTripRelationshipIsMalformed() {
        #expect(F.resolve(F.update(relationship: .unknown(42))).drop?.reason == .malformed)
    }
}
