// Departures observed from vehicle positions (protocol/README.md flow 6, "Observed departures"): what a
// sequence of positions records, how it replaces the final prediction, and a replayed whole-state sequence
// through the hub that counts each departure once.
import Foundation
import Synchronization
import Testing
import TransitCore
import TransitModel
import TransitTesting

@testable import DelayStore
@testable import RealtimeService

/// Positions of the `DelayTrips` instance (stops S0, S1, S2 at 08:00, 08:10, 08:20).
enum Positions {
    static let instance = TripInstanceKey(tripId: "T1", serviceDate: 20_251_222)

    /// A position at stop index `stop` (by stop sequence, or by stop id when `bySequence` is false) at the
    /// unix time `at`.
    static func at(
        _ stop: Int, _ status: String?, _ at: Int64, bySequence: Bool = true, trip: TripInstanceKey? = instance
    ) -> LiveVehicle {
        LiveVehicle(
            key: "vp/bus1", source: "vp", entityId: "bus1", trip: trip,
            currentStopSequence: bySequence ? UInt32(stop + 1) : nil, stopId: bySequence ? nil : "S\(stop)",
            currentStatus: status, timestamp: UInt64(at))
    }

    /// The unix time `plus` seconds after stop `i`'s scheduled departure.
    static func t(_ i: Int, _ plus: Int64) -> Int64 { DelayTrips.at(stop: i, plus: plus) }

    /// Feeds the positions in order; the samples they record.
    static func replay(_ capture: inout DepartureCapture, _ positions: [LiveVehicle], trip: LiveTrip) -> [DelaySample] {
        positions.flatMap { capture.observe(position: $0, trip: trip) }
    }
}

@Suite struct ObservedDepartureTests {
    let schedule = DelayTrips.trip([nil, nil, nil])

    @Test func aVehicleStoppedThenInTransitDepartedAtItsLastStoppedTimestamp() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let samples = Positions.replay(
            &capture,
            [
                Positions.at(0, "STOPPED_AT", Positions.t(0, 20)),
                Positions.at(0, "STOPPED_AT", Positions.t(0, 70)),
                Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 100)),
                Positions.at(1, "INCOMING_AT", Positions.t(0, 400)),
            ], trip: schedule)
        #expect(samples.map(\.stopId) == ["S0"])
        #expect(samples.first?.delay == 70)
        #expect(samples.first?.hour == 8 && samples.first?.routeId == "R1")
    }

    @Test func stoppedAtALaterStopOrASequenceBeyondEndsTheDwell() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        // By stop id: stopped at S0, then stopped at S1 (no in-transit position seen between).
        var samples = Positions.replay(
            &capture,
            [
                Positions.at(0, "STOPPED_AT", Positions.t(0, -30), bySequence: false),
                Positions.at(1, "STOPPED_AT", Positions.t(1, 0), bySequence: false),
            ], trip: schedule)
        #expect(samples.map(\.stopId) == ["S0"])
        #expect(samples.first?.delay == -30)
        // Then a stop sequence two stops on: S1 left at its last stopped timestamp.
        samples = Positions.replay(&capture, [Positions.at(2, "INCOMING_AT", Positions.t(1, 300))], trip: schedule)
        #expect(samples.map(\.stopId) == ["S1"])
        #expect(samples.first?.delay == 0)
    }

    @Test func inTransitOnlyRecordsNoObservation() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let samples = Positions.replay(
            &capture,
            [
                Positions.at(0, "IN_TRANSIT_TO", Positions.t(0, -120)),
                Positions.at(0, nil, Positions.t(0, -60)),
                Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 90)),
                Positions.at(2, "IN_TRANSIT_TO", Positions.t(1, 90)),
            ], trip: schedule)
        #expect(samples.isEmpty)
    }

    @Test func repeatedAndBackwardTimestampsAndEarlierStopsAreIgnored() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        var samples = Positions.replay(
            &capture,
            [
                Positions.at(0, "STOPPED_AT", Positions.t(0, 40)),
                // Backwards: would move the last stopped time to before the first.
                Positions.at(0, "STOPPED_AT", Positions.t(0, 10)),
                Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 100)),
                // A repeat of the last one, and an old position stopped at S0 again.
                Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 100)),
                Positions.at(0, "STOPPED_AT", Positions.t(0, 90)),
            ], trip: schedule)
        #expect(samples.map(\.delay) == [40])
        // Later but naming an earlier stop: ignored, S0 is not counted again.
        samples = Positions.replay(
            &capture,
            [
                Positions.at(0, "STOPPED_AT", Positions.t(0, 200)),
                Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 260)),
            ], trip: schedule)
        #expect(samples.isEmpty)
    }

    @Test func instancesWithoutASchedulePositionsWithoutTimeOrStopAreIgnored() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        var unscheduled = schedule
        for i in unscheduled.stops.indices {
            unscheduled.stops[i].scheduledDeparture = nil
            unscheduled.stops[i].scheduledArrival = nil
        }
        let sequence = [
            Positions.at(0, "STOPPED_AT", Positions.t(0, 0)), Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 60)),
        ]
        #expect(Positions.replay(&capture, sequence, trip: unscheduled).isEmpty)
        var other = DepartureCapture(zone: DelayTrips.zone)
        let added = DelayTrips.trip([nil, nil, nil], relationship: .added)
        #expect(Positions.replay(&other, sequence, trip: added).isEmpty)
        var third = DepartureCapture(zone: DelayTrips.zone)
        var noTime = sequence
        noTime[0].timestamp = nil
        noTime[1].stopId = "NOT-ON-THE-TRIP"
        noTime[1].currentStopSequence = nil
        #expect(Positions.replay(&third, noTime, trip: schedule).isEmpty)
        #expect(third.progress.isEmpty)
        // A position naming another instance than the trip given records nothing.
        var fourth = DepartureCapture(zone: DelayTrips.zone)
        let elsewhere = TripInstanceKey(tripId: "T2", serviceDate: 20_251_222)
        #expect(
            Positions.replay(
                &fourth,
                sequence.map {
                    var v = $0; v.trip = elsewhere; return v
                }, trip: schedule
            ).isEmpty)
    }

    @Test func theObservationWinsOverTheFinalPredictionAndIsRecordedOnce() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let predicted = DelayTrips.trip([30, 30, 30])
        #expect(capture.observe(old: nil, new: predicted, now: Positions.t(0, -300)).isEmpty)
        // The vehicle is at S0; its predicted departure (+30 s) passes while it still stands there.
        #expect(capture.observe(position: Positions.at(0, "STOPPED_AT", Positions.t(0, 10)), trip: predicted).isEmpty)
        #expect(capture.observe(old: predicted, new: predicted, now: Positions.t(0, 60)).isEmpty)
        #expect(capture.observe(position: Positions.at(0, "STOPPED_AT", Positions.t(0, 150)), trip: predicted).isEmpty)
        let left = capture.observe(position: Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 180)), trip: predicted)
        #expect(left.map(\.stopId) == ["S0"])
        #expect(left.first?.delay == 150)
        // The next update still predicts S0 (a stale carry): it is not counted again.
        #expect(capture.observe(old: predicted, new: predicted, now: Positions.t(0, 240)).isEmpty)
    }

    @Test func anObservationBeforeThePredictionPassesKeepsItOut() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let early = DelayTrips.trip([300, 300, 300])
        _ = capture.observe(old: nil, new: early, now: Positions.t(0, -600))
        let seen = Positions.replay(
            &capture,
            [
                Positions.at(0, "STOPPED_AT", Positions.t(0, -20)),
                Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 40)),
            ], trip: early)
        #expect(seen.map(\.delay) == [-20])
        #expect(capture.observe(old: early, new: early, now: Positions.t(0, 400)).isEmpty)
    }

    @Test func aPassedStopNotSeenStoppedKeepsItsHeldPrediction() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let predicted = DelayTrips.trip([45, 45, 45])
        _ = capture.observe(position: Positions.at(0, "IN_TRANSIT_TO", Positions.t(0, -200)), trip: predicted)
        // S0's prediction passes before the vehicle is seen past it: held.
        #expect(capture.observe(old: nil, new: predicted, now: Positions.t(0, 50)).isEmpty)
        let passed = capture.observe(position: Positions.at(2, "IN_TRANSIT_TO", Positions.t(1, 0)), trip: predicted)
        #expect(passed.map(\.stopId) == ["S0"])
        #expect(passed.first?.delay == 45)
        // S1's prediction passes after the vehicle was seen past it: recorded at once.
        #expect(capture.observe(old: predicted, new: predicted, now: Positions.t(1, 50)).map(\.stopId) == ["S1"])
    }

    /// Trip updates and vehicle positions are separate feeds: which of two of the same moment is applied
    /// first must not change what is recorded (it did: a prediction was recorded at once when the update came
    /// first, held for the vehicle when the position came first; the launcher's examples flickered).
    @Test func theOrderOfAnUpdateAndAPositionOfTheSameMomentDoesNotMatter() {
        let predicted = DelayTrips.trip([40, 40, 40])
        let now = Positions.t(1, 45)
        // S0 and S1 departed by their predictions; the vehicle stands at S1.
        let position = Positions.at(1, "STOPPED_AT", Positions.t(1, 30))
        var updateFirst = DepartureCapture(zone: DelayTrips.zone)
        var recordedA = updateFirst.observe(old: nil, new: predicted, now: now)
        recordedA += updateFirst.observe(position: position, trip: predicted)
        recordedA += updateFirst.release(now: now)
        var positionFirst = DepartureCapture(zone: DelayTrips.zone)
        var recordedB = positionFirst.observe(position: position, trip: predicted)
        recordedB += positionFirst.observe(old: nil, new: predicted, now: now)
        recordedB += positionFirst.release(now: now)
        // S0 (passed, not seen stopped) keeps its prediction; S1 waits for the vehicle to leave.
        #expect(recordedA.map(\.stopId) == ["S0"])
        #expect(recordedB.map(\.stopId) == recordedA.map(\.stopId))
        #expect(recordedB.map(\.delay) == recordedA.map(\.delay))
        let left = Positions.at(2, "IN_TRANSIT_TO", Positions.t(1, 90))
        let observedA = updateFirst.observe(position: left, trip: predicted)
        #expect(observedA.map(\.stopId) == ["S1"] && observedA.first?.delay == 30)
        #expect(positionFirst.observe(position: left, trip: predicted).map(\.delay) == observedA.map(\.delay))
    }

    @Test func heldPredictionsAreReleasedWhenTheInstanceLeavesOrAfterTheHoldLimit() {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        let predicted = DelayTrips.trip([60, 60, 60])
        _ = capture.observe(position: Positions.at(0, "STOPPED_AT", Positions.t(0, -100)), trip: predicted)
        #expect(capture.observe(old: nil, new: predicted, now: Positions.t(0, 70)).isEmpty)
        // The vehicle stops reporting: the prediction is recorded after the hold limit, once.
        #expect(capture.release(now: Positions.t(0, 70) + DepartureCapture.holdLimit - 1).isEmpty)
        #expect(capture.release(now: Positions.t(0, 70) + DepartureCapture.holdLimit).map(\.delay) == [60])
        #expect(capture.release(now: Positions.t(0, 70) + 2 * DepartureCapture.holdLimit).isEmpty)
        // Another held prediction goes with the instance leaving the live state.
        #expect(capture.observe(old: predicted, new: predicted, now: Positions.t(1, 70)).isEmpty)
        #expect(capture.observe(old: predicted, new: nil, now: Positions.t(1, 80)).map(\.stopId) == ["S1"])
        #expect(capture.progress.isEmpty)
    }
}

@Suite struct StopIndexSetTests {
    @Test func indexesBelowAndAbove64AreEachAddedOnce() {
        var set = DepartureCapture.StopIndexSet()
        for index in [0, 63, 64, 200] {
            #expect(!set.contains(index))
            #expect(set.insert(index).inserted)
            #expect(!set.insert(index).inserted)
            #expect(set.contains(index))
        }
        #expect(!set.contains(1) && !set.contains(65))
    }
}

@Suite struct ObservedDepartureHubTests {
    /// A whole-state feed replayed through the hub with an injected clock: every fetch sends every trip
    /// update and every vehicle again, changed or not. Each stop is recorded once, observed ones with their
    /// observed delay.
    @Test func aReplayedWholeStateSequenceCountsEachDepartureOnce() throws {
        let folder = try TemporaryFolder("observed")
        let clock = Mutex<Int64>(Positions.t(0, -300))
        let now: @Sendable () -> Int64 = { clock.withLock { $0 } }
        let delays = try TypicalDelays(path: folder.path("delays.db"), timeZone: "Australia/Sydney", clock: now)
        let hub = RealtimeHub(sink: NullSink(), nowMs: { now() * 1000 }, delays: delays)
        let predicted = DelayTrips.trip([30, 30, 30])
        // (clock, vehicle position) of each fetch, 30 s apart; positions repeat when the vehicle sent none.
        let fetches: [(Int64, LiveVehicle)] = [
            (Positions.t(0, -60), Positions.at(0, "INCOMING_AT", Positions.t(0, -70))),
            (Positions.t(0, -30), Positions.at(0, "STOPPED_AT", Positions.t(0, -40))),
            (Positions.t(0, 0), Positions.at(0, "STOPPED_AT", Positions.t(0, -40))),
            (Positions.t(0, 30), Positions.at(0, "STOPPED_AT", Positions.t(0, 25))),
            (Positions.t(0, 60), Positions.at(0, "STOPPED_AT", Positions.t(0, 55))),
            (Positions.t(0, 90), Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 85))),
            (Positions.t(0, 120), Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 85))),
            // S1 passed without a stopped position; S2 reached.
            (Positions.t(2, 0), Positions.at(2, "STOPPED_AT", Positions.t(2, 0))),
            (Positions.t(2, 30), Positions.at(2, "STOPPED_AT", Positions.t(2, 0))),
            (Positions.t(2, 60), Positions.at(2, "STOPPED_AT", Positions.t(2, 0))),
        ]
        for (at, position) in fetches {
            clock.withLock { $0 = at }
            var changes = LiveChanges()
            changes.trips = [predicted]
            changes.vehicles = [position]
            hub.publish(changes, sources: nil)
        }
        // The trip ends: its last stop's prediction is released with it (the vehicle never left S2).
        clock.withLock { $0 = Positions.t(2, 600) }
        var end = LiveChanges()
        end.removedTrips = [Positions.instance]
        end.removedVehicles = ["vp/bus1"]
        hub.publish(end, sources: nil)
        guard
            case .success(.delayHistograms(let answer)) = hub.answer(
                .delayHistograms(
                    (0..<3).map { DelaySlice(routeId: "R1", stopId: "S\($0)", hour: 8, dayType: .weekday) }
                        + [DelaySlice(routeId: "R1", stopId: nil)]))
        else {
            Issue.record("no histograms")
            return
        }
        #expect(answer.map(\.histogram.samples) == [1, 1, 1, 3])
        // S0 observed (left at +55 s, bucket [0, 60)); S1 and S2 their predictions (+30 s, same bucket).
        #expect(answer[0].histogram.counts[DelayHistogram.bucket(ofDelay: 55)] == 1)
        try delays.close()
    }

    @Test func observedDelaysReachTheHistogramsInsteadOfPredictions() throws {
        let folder = try TemporaryFolder("observed-late")
        let clock = Mutex<Int64>(Positions.t(0, -300))
        let now: @Sendable () -> Int64 = { clock.withLock { $0 } }
        let delays = try TypicalDelays(path: folder.path("delays.db"), timeZone: "Australia/Sydney", clock: now)
        let hub = RealtimeHub(sink: NullSink(), nowMs: { now() * 1000 }, delays: delays)
        // Predicted on time, the bus stands at S0 until +400 s.
        let predicted = DelayTrips.trip([0, 0, 0])
        for (at, position) in [
            (Positions.t(0, -10), Positions.at(0, "STOPPED_AT", Positions.t(0, -10))),
            (Positions.t(0, 400), Positions.at(0, "STOPPED_AT", Positions.t(0, 400))),
            (Positions.t(0, 430), Positions.at(1, "IN_TRANSIT_TO", Positions.t(0, 430))),
        ] {
            clock.withLock { $0 = at }
            var changes = LiveChanges()
            changes.trips = [predicted]
            changes.vehicles = [position]
            hub.publish(changes, sources: nil)
        }
        guard
            case .success(.delayHistograms(let answer)) = hub.answer(
                .delayHistograms([DelaySlice(routeId: "R1", stopId: "S0")]))
        else {
            Issue.record("no histograms")
            return
        }
        #expect(answer.first?.histogram.samples == 1)
        #expect(answer.first?.histogram.counts[DelayHistogram.bucket(ofDelay: 400)] == 1)
        try delays.close()
    }
}

@Suite struct CalendarDayTypeTests {
    /// Monday 22 December 2025 declared a Sunday-timetable day: its samples are Sunday's, from predictions
    /// and from positions alike; the hub's store answers them under Sunday.
    @Test func samplesOfAHolidayMondayAreSundays() throws {
        var capture = DepartureCapture(zone: DelayTrips.zone)
        #expect(
            capture.observeWritten(old: nil, new: DelayTrips.trip([60, 60, 60]), now: Positions.t(0, 90)).first?.dayType
                == .weekday)
        var holiday = DepartureCapture(zone: DelayTrips.zone)
        holiday.dayTypes = DayTypeCalendar(runsAs: [20_251_222: 7])
        let trip = DelayTrips.trip([60, 60, 60])
        #expect(holiday.observeWritten(old: nil, new: trip, now: Positions.t(0, 90)).map(\.dayType) == [.sunday])
        let observed = Positions.replay(
            &holiday,
            [Positions.at(1, "STOPPED_AT", Positions.t(1, 0)), Positions.at(2, "IN_TRANSIT_TO", Positions.t(1, 30))],
            trip: trip)
        #expect(observed.map(\.dayType) == [.sunday])

        let folder = try TemporaryFolder("holiday")
        let clock = Mutex<Int64>(Positions.t(0, -60))
        let now: @Sendable () -> Int64 = { clock.withLock { $0 } }
        let delays = try TypicalDelays(path: folder.path("delays.db"), timeZone: "Australia/Sydney", clock: now)
        delays.setDayTypes(DayTypeCalendar(runsAs: [20_251_222: 7]))
        let hub = RealtimeHub(sink: NullSink(), nowMs: { now() * 1000 }, delays: delays)
        var changes = LiveChanges()
        changes.trips = [trip]
        hub.publish(changes, sources: nil)
        clock.withLock { $0 = Positions.t(0, 90) }
        hub.publish(changes, sources: nil)
        guard
            case .success(.delayHistograms(let answer)) = hub.answer(
                .delayHistograms([
                    DelaySlice(routeId: "R1", stopId: "S0", dayType: .sunday),
                    DelaySlice(routeId: "R1", stopId: "S0", dayType: .weekday),
                ]))
        else {
            Issue.record("no histograms")
            return
        }
        #expect(answer.map(\.histogram.samples) == [1, 0])
        try delays.close()
    }
}

@Suite struct EngineDayTypeTests {
    /// The engine's periodic feed_info check hands the served calendar's day types to the recorder.
    @Test func theVersionCheckBringsTheCalendarsDayTypes() async throws {
        let folder = try TemporaryFolder("engine-day-types")
        let schedules = FakeSchedules()
        schedules.data.withLock { $0.dayTypes = DayTypeCalendar(runsAs: [20_251_222: 7]) }
        let delays = try TypicalDelays(path: folder.path("delays.db"), timeZone: "UTC", clock: { 0 })
        let harness = try EngineHarness(schedules: schedules, delays: delays)
        #expect(delays.dayTypes.runsAs.isEmpty)
        await harness.engine.tick()
        #expect(delays.dayTypes.runsAs == [20_251_222: 7])
        try delays.close()
    }
}
