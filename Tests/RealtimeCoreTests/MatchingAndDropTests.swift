import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// Matching stop time updates to stops, id prefixes, and the reasons an update is dropped.
@Suite struct MatchingTests {
    typealias F = Fixture

    /// A loop: L1 A B C A D (A visited twice), stop_sequence 10…50.
    static let loop = F.index([F.trip("LOOP")], [F.pattern(5, stopIds: ["A", "B", "C", "A", "D"])])

    @Test func loopTripMatchedByStopIdTwiceInOrder() throws {
        let update = F.update("LOOP", [F.stu(stop: "A", arrivalDelay: 60), F.stu(stop: "A", arrivalDelay: 180)])
        let trip = try #require(F.resolve(update, Self.loop).resolvedTrip)
        #expect(trip.arrivalDelays == [60, 60, 60, 180, 180])
        #expect(trip.unmatchedStopUpdates == 0)
    }

    @Test func stopIdIsSearchedAfterThePreviousMatch() throws {
        // B then A: this A is the second visit.
        let update = F.update("LOOP", [F.stu(stop: "B", arrivalDelay: 30), F.stu(stop: "A", arrivalDelay: 90)])
        let trip = try #require(F.resolve(update, Self.loop).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, 30, 30, 90, 90])
    }

    @Test func stopSequenceWinsOverStopId() throws {
        // stop_sequence 40 is the second A even though the stop_id alone would match the first visit
        // (and a stop_id that differs, e.g. an assigned platform, does not matter).
        let update = F.update(
            "LOOP", [F.stu(seq: 40, stop: "A", arrivalDelay: 90), F.stu(seq: 50, stop: "Dx", arrivalDelay: 10)])
        let trip = try #require(F.resolve(update, Self.loop).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, nil, nil, 90, 10])
    }

    @Test func unknownStopSequenceFallsBackToStopId() throws {
        let update = F.update([F.stu(seq: 35, stop: "S4", arrivalDelay: 40)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, nil, nil, 40, 40, 40])
    }

    @Test func unmatchedUpdatesAreCountedAndIgnored() throws {
        let update = F.update([
            F.stu(seq: 20, arrivalDelay: 50), F.stu(seq: 35, arrivalDelay: 900), F.stu(stop: "ZZ", arrivalDelay: 900),
        ])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.unmatchedStopUpdates == 2)
        #expect(trip.arrivalDelays == [nil, 50, 50, 50, 50, 50])
    }

    @Test func outOfOrderStopSequencesAreSorted() throws {
        let update = F.update([F.stu(seq: 50, arrivalDelay: 10), F.stu(seq: 20, arrivalDelay: 100)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, 100, 100, 100, 10, 10])
    }

    @Test func aRepeatedStopKeepsTheLaterUpdate() throws {
        let update = F.update([F.stu(seq: 20, arrivalDelay: 100), F.stu(seq: 20, arrivalDelay: 40)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, 40, 40, 40, 40, 40])
        #expect(trip.unmatchedStopUpdates == 1)
    }

    @Test func idPrefixAppliesToTripsAndRoutesNotStops() throws {
        // The static import prefixes trip and route ids, never stop ids.
        var schedule = F.trip("B:T1")
        schedule.routeId = "B:R1"
        let schedules = F.index([schedule], [F.pattern(3)])
        var resolver = F.resolver(prefix: "B:")
        var stopUpdate = F.stu(stop: "S2", arrivalDelay: 70)
        stopUpdate.stopTimeProperties = StopTimeProperties(assignedStopId: "S2b")
        let trip = try #require(
            resolver.resolve(F.update("T1", [stopUpdate]), schedules: schedules, now: F.now).resolvedTrip)
        #expect(trip.key.tripId == "B:T1")
        #expect(trip.routeId == "B:R1")
        #expect(trip.unmatchedStopUpdates == 0)
        #expect(trip.arrivalDelays == [nil, 70, 70])
        #expect(trip.stops[1].stopId == "S2")
        #expect(trip.stops[1].assignedStopId == "S2b")
        // Unprefixed trip ids do not match.
        #expect(resolver.resolve(F.update("B:T1"), schedules: schedules, now: F.now).drop?.reason == .unknownTrip)
        // A stop id sent with the prefix is not a stop of the trip.
        let prefixedStop = try #require(
            resolver.resolve(
                F.update("T1", [F.stu(stop: "B:S2", arrivalDelay: 70)]), schedules: schedules, now: F.now
            ).resolvedTrip)
        #expect(prefixedStop.unmatchedStopUpdates == 1)
        #expect(prefixedStop.arrivalDelays == [nil, nil, nil])
        // Trips carrying their own stops: trip and route prefixed, stops as given.
        var descriptor = F.update("N1", relationship: .new, [F.stu(stop: "S9", departureTime: F.now)])
        descriptor.trip.routeId = "R7"
        var replacement = F.stu(stop: "S3", departureTime: F.now + 600)
        replacement.stopTimeProperties = StopTimeProperties(assignedStopId: "S3a")
        descriptor.stopTimeUpdates.append(replacement)
        let added = try #require(resolver.resolve(descriptor, schedules: schedules, now: F.now).resolvedTrip)
        #expect(added.key.tripId == "B:N1")
        #expect(added.routeId == "B:R7")
        #expect(added.stops.map(\.stopId) == ["S9", "S3"])
        #expect(added.stops[1].assignedStopId == "S3a")
    }

    @Test func replacementMatchesUnprefixedStopsOfTheReplacedPattern() throws {
        let schedules = F.index([F.trip("B:T1")], [F.pattern(3)])
        var resolver = F.resolver(prefix: "B:")
        let update = F.update("T1", relationship: .replacement, [F.stu(stop: "S2", departureDelay: 60)])
        let trip = try #require(resolver.resolve(update, schedules: schedules, now: F.now).resolvedTrip)
        #expect(trip.relationship == .replacement)
        #expect(trip.stops.map(\.stopId) == ["S2"])
        // The replaced instance's schedule is found for the unprefixed stop: its time is S2's + 60 s.
        #expect(trip.stops[0].scheduledDeparture == F.departure(1))
        #expect(trip.stops[0].predictedDeparture == F.departure(1) + 60)
    }

    @Test func callerSuppliedScheduleIsUsed() throws {
        var resolver = F.resolver()
        let result = resolver.resolve(F.update(delay: 5), schedule: F.trip(), pattern: F.pattern(2), now: F.now)
        #expect(result.resolvedTrip?.arrivalDelays == [5, 5])
        #expect(
            resolver.resolve(F.update(delay: 5), schedule: nil, pattern: nil, now: F.now).drop?.reason == .unknownTrip)
    }
}

@Suite struct DropTests {
    typealias F = Fixture

    @Test func unknownTripIsDropped() {
        let drop = F.resolve(F.update("T404", delay: 0)).drop
        #expect(drop?.reason == .unknownTrip)
        #expect(drop?.tripId == "T404")
        #expect(drop?.description.contains("T404") == true)
    }

    @Test func missingTripIdIsDropped() {
        #expect(F.resolve(F.update(nil, delay: 0)).drop?.reason == .unknownTrip)
        #expect(F.resolve(F.update("", delay: 0)).drop?.reason == .unknownTrip)
    }

    @Test func tripWhosePatternIsNotLoadedIsUnknown() {
        let schedules = F.index([F.trip(pattern: 99)], [F.pattern(3)])
        let drop = F.resolve(F.update(delay: 0), schedules).drop
        #expect(drop?.reason == .unknownTrip)
        #expect(drop?.message.contains("99") == true)
    }

    @Test func absurdStopDelayIsRejected() {
        #expect(F.resolve(F.update([F.stu(seq: 20, arrivalDelay: 86_401)])).drop?.reason == .absurdDelay)
        #expect(F.resolve(F.update([F.stu(seq: 20, departureDelay: -90_000)])).drop?.reason == .absurdDelay)
        // Exactly a day is still accepted.
        #expect(F.resolve(F.update([F.stu(seq: 20, arrivalDelay: 86_400)])).resolvedTrip != nil)
    }

    @Test func timeFarFromTheScheduleIsRejected() {
        let drop = F.resolve(F.update([F.stu(seq: 30, arrivalTime: F.arrival(2) + 2 * 86_400)])).drop
        #expect(drop?.reason == .absurdDelay)
        #expect(drop?.message.contains("stop_sequence 30") == true)
    }

    @Test func extremeNumbersAreRejectedWithoutOverflow() {
        let huge = Int64.max - 10
        #expect(F.resolve(F.update([F.stu(seq: 20, arrivalTime: huge)])).drop?.reason == .absurdDelay)
        #expect(F.resolve(F.update(startDate: nil, [F.stu(seq: 20, arrivalTime: huge)])).drop?.reason == .absurdDelay)
        #expect(
            F.resolve(F.update(startDate: "00010101", [F.stu(seq: 20, arrivalTime: F.now)])).drop?.reason == .malformed)
        #expect(
            F.resolve(F.update(startDate: "10000101", [F.stu(seq: 20, arrivalTime: F.now)])).drop?.reason
                == .noMatchingInstance)
        // A plausible but far-future time on a copy without a date: dated, no crash.
        let far = F.update(
            "T1", startDate: nil, relationship: .duplicated,
            properties: TripProperties(tripId: "D9", startTime: "08:00:00"),
            [F.stu(seq: 10, departureTime: 253_370_000_000)])
        #expect(F.resolve(far).resolvedTrip?.key.serviceDate == 99981223)
        #expect(F.resolve(F.update(delay: Int32.min)).drop?.reason == .absurdDelay)
        #expect(F.resolve(F.update([F.stu(seq: 20, arrivalDelay: Int32.max)])).drop?.reason == .absurdDelay)
        // An absurd timestamp is ignored for inference (now is used instead).
        let stamped = F.update(startDate: nil, delay: 0, timestamp: UInt64.max)
        #expect(F.resolve(stamped).resolvedTrip?.key.serviceDate == F.day)
        let newTrip = F.update(
            "N", startDate: nil, relationship: .new,
            [
                StopTimeUpdate(stopId: "A", arrival: StopTimeEvent(time: huge, scheduledTime: huge))
            ])
        #expect(F.resolve(newTrip).drop?.reason == .absurdDelay)
        let copy = F.update(
            "T1", relationship: .duplicated,
            properties: TripProperties(tripId: "D", startDate: "99991231", startTime: "167:59:59"))
        #expect(F.resolve(copy).resolvedTrip?.key.startSecs == 604_799)
    }

    @Test func absurdTripDelayIsRejected() {
        #expect(F.resolve(F.update(delay: 100_000)).drop?.reason == .absurdDelay)
    }

    @Test func absurdDelayOnANewTripIsRejected() {
        let update = F.update(
            "N", relationship: .new,
            [
                StopTimeUpdate(stopId: "A", arrival: StopTimeEvent(time: F.now + 200_000, scheduledTime: F.now))
            ])
        #expect(F.resolve(update).drop?.reason == .absurdDelay)
    }

    @Test func unknownTimezoneIsMalformed() {
        let schedules = F.index([F.trip(timezone: "Mars/Olympus")], [F.pattern(2)])
        #expect(F.resolve(F.update(delay: 0), schedules).drop?.reason == .malformed)
    }
}
