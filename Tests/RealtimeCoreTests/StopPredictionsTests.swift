import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// Where each stop's prediction comes from (stop_update > propagated > trip_delay > vehicle > schedule), the
/// estimate from a vehicle's position, and how old a prediction is.
@Suite struct StopPredictionsTests {
    typealias F = Fixture

    // MARK: sources from a trip update

    @Test func aStopUpdateIsTheStopsOwnAndItsDelayPropagates() throws {
        let trip = try #require(F.resolve(F.update([F.stu(seq: 30, arrivalDelay: 60)])).resolvedTrip)
        #expect(
            trip.stops.map(\.predictionSource) == [
                .schedule, .schedule, .stopUpdate, .propagated, .propagated, .propagated,
            ])
    }

    @Test func theTripDelayCoversTheStopsBeforeTheFirstUpdate() throws {
        let update = F.update("T1", delay: 120, [F.stu(seq: 40, arrivalDelay: 60)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(
            trip.stops.map(\.predictionSource) == [
                .tripDelay, .tripDelay, .tripDelay, .stopUpdate, .propagated, .propagated,
            ])
        #expect(trip.departureDelays[0...2] == [120, 120, 120])
    }

    @Test func aTripDelayAloneCoversEveryStop() throws {
        let trip = try #require(F.resolve(F.update("T1", delay: 30, [])).resolvedTrip)
        #expect(trip.stops.allSatisfy { $0.predictionSource == .tripDelay })
    }

    @Test func noDataAndSkippedStopsShowTheSchedule() throws {
        let update = F.update([
            F.stu(seq: 20, arrivalDelay: 60), F.stu(seq: 30, .skipped),
            F.stu(seq: 50, .noData),
        ])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(
            trip.stops.map(\.predictionSource) == [
                .schedule, .stopUpdate, .schedule, .propagated, .schedule, .schedule,
            ])
    }

    @Test func aPredictionKeptFromThePreviousUpdateIsPropagated() throws {
        let before = try PredictionCarryTests.live(PredictionCarryTests.late)
        var after = try PredictionCarryTests.live(PredictionCarryTests.dropped)
        PredictionCarry.carry(into: &after, from: before, now: F.dayUnix + 8 * 3600 + 660)
        #expect(after.stops[2].status == .predicted)
        #expect(after.stops[2].predictionSource == .propagated)
    }

    // MARK: the vehicle estimate

    /// Six stops, 300 s apart with 30 s dwell (the standard pattern at 08:00), no prediction.
    static func scheduleOnly() -> [LiveStop] {
        (0..<6).map { k in
            LiveStop(
                stopId: "S\(k + 1)", stopSequence: UInt32((k + 1) * 10), scheduledArrival: F.arrival(k),
                scheduledDeparture: F.departure(k), status: .noPrediction)
        }
    }

    @Test func stoppedAtAStopIsLateByTheTimeSinceItsScheduledDeparture() {
        var stops = Self.scheduleOnly()
        let report = StopPredictions.VehicleReport(
            stopSequence: 30, stopId: nil, status: .stoppedAt, timestamp: F.departure(2) + 90)
        #expect(StopPredictions.vehicleEstimate(into: &stops, vehicle: report))
        #expect(stops.map(\.departureDelay) == [nil, nil, 90, 90, 90, 90])
        #expect(stops.map(\.predictionSource) == [.schedule, .schedule, .vehicle, .vehicle, .vehicle, .vehicle])
        #expect(stops[2].predictedDeparture == F.departure(2) + 90)
        #expect(stops[2].predictedArrival! <= report.timestamp)  // it is there already
        #expect(stops[4].predictedArrival == F.arrival(4) + 90)
        #expect(stops[0].status == .noPrediction)  // passed stops get nothing
    }

    @Test func stoppedEarlyAtATimepointIsNeverNegative() {
        var stops = Self.scheduleOnly()
        let report = StopPredictions.VehicleReport(
            stopSequence: nil, stopId: "S3", status: .stoppedAt, timestamp: F.departure(2) - 120)
        StopPredictions.vehicleEstimate(into: &stops, vehicle: report)
        #expect(stops.map(\.departureDelay) == [nil, nil, 0, 0, 0, 0])
    }

    @Test func stoppedEarlyAtAStopThatIsNoTimepointIsEarly() {
        var stops = Self.scheduleOnly()
        let report = StopPredictions.VehicleReport(
            stopSequence: 30, stopId: nil, status: .stoppedAt, timestamp: F.departure(2) - 120)
        // S3 and S4 are no timepoints, S5 is one: the vehicle waits there.
        let timepoints = [true, true, false, false, true, true]
        StopPredictions.vehicleEstimate(into: &stops, vehicle: report, timepoints: timepoints)
        #expect(stops.map(\.departureDelay) == [nil, nil, -120, -120, 0, 0])
        #expect(stops[4].arrivalDelay == -120)  // early there, leaves on time
    }

    @Test func inTransitTheStopBeforeWasLeftAtTheTimestamp() {
        for status in [StopPredictions.VehicleReport.Status.inTransitTo, .incomingAt] {
            var stops = Self.scheduleOnly()
            let report = StopPredictions.VehicleReport(
                stopSequence: 40, stopId: nil, status: status, timestamp: F.departure(2) + 200)
            #expect(StopPredictions.vehicleEstimate(into: &stops, vehicle: report))
            #expect(stops.map(\.departureDelay) == [nil, nil, nil, 200, 200, 200])
            #expect(stops[3].predictedArrival == F.arrival(3) + 200)
        }
    }

    @Test func inTransitToTheFirstStopGivesNoEstimate() {
        var stops = Self.scheduleOnly()
        let report = StopPredictions.VehicleReport(
            stopSequence: 10, stopId: nil, status: .inTransitTo, timestamp: F.departure(0) + 200)
        #expect(!StopPredictions.vehicleEstimate(into: &stops, vehicle: report))
        #expect(stops.allSatisfy { $0.status == .noPrediction && $0.predictionSource == .schedule })
    }

    @Test func aStopTheTripDoesNotHaveGivesNoEstimate() {
        var stops = Self.scheduleOnly()
        let report = StopPredictions.VehicleReport(
            stopSequence: 99, stopId: "elsewhere", status: .stoppedAt, timestamp: F.departure(2))
        #expect(!StopPredictions.vehicleEstimate(into: &stops, vehicle: report))
    }

    @Test func theStatusNameDefaultsToInTransit() {
        #expect(StopPredictions.VehicleReport.Status(name: "STOPPED_AT") == .stoppedAt)
        #expect(StopPredictions.VehicleReport.Status(name: "INCOMING_AT") == .incomingAt)
        #expect(StopPredictions.VehicleReport.Status(name: nil) == .inTransitTo)
    }

    // MARK: precedence

    @Test func aTripUpdateWinsWhereItPredictsAndTheVehicleFillsTheRest() throws {
        // The update covers S5 on (stop_update, then propagated); the vehicle stopped at S3, 90 s late.
        var trip = try PredictionCarryTests.live(F.update([F.stu(seq: 50, arrivalDelay: 30)]))
        trip.stops[4].predictionSource = .stopUpdate
        trip.stops[5].predictionSource = .propagated
        var vehicle = Self.scheduleOnly()
        StopPredictions.vehicleEstimate(
            into: &vehicle,
            vehicle: .init(stopSequence: 30, stopId: nil, status: .stoppedAt, timestamp: F.departure(2) + 90))
        #expect(StopPredictions.combine(&trip.stops, with: vehicle))
        #expect(
            trip.stops.map(\.predictionSource) == [.schedule, .schedule, .vehicle, .vehicle, .stopUpdate, .propagated])
        #expect(trip.stops.map(\.departureDelay) == [nil, nil, 90, 90, 30, 30])
    }

    @Test func aTripDelayWinsOverTheVehicle() throws {
        var trip = try PredictionCarryTests.live(F.update("T1", delay: 300, []))
        for i in trip.stops.indices { trip.stops[i].predictionSource = .tripDelay }
        var vehicle = Self.scheduleOnly()
        StopPredictions.vehicleEstimate(
            into: &vehicle,
            vehicle: .init(stopSequence: 30, stopId: nil, status: .stoppedAt, timestamp: F.departure(2) + 90))
        #expect(!StopPredictions.combine(&trip.stops, with: vehicle))
        #expect(trip.stops.allSatisfy { $0.predictionSource == .tripDelay && $0.departureDelay == 300 })
    }

    @Test func noDataAndSkippedStopsAreNotFilledByTheVehicle() {
        var trip = Self.scheduleOnly()
        trip[3].status = .noData
        trip[4].status = .skipped
        var vehicle = Self.scheduleOnly()
        StopPredictions.vehicleEstimate(
            into: &vehicle,
            vehicle: .init(stopSequence: 30, stopId: nil, status: .stoppedAt, timestamp: F.departure(2) + 90))
        StopPredictions.combine(&trip, with: vehicle)
        #expect(trip.map(\.predictionSource) == [.schedule, .schedule, .vehicle, .schedule, .schedule, .vehicle])
    }

    @Test func theRanksFollowThePrecedence() {
        let order: [LivePredictionSource] = [.stopUpdate, .propagated, .tripDelay, .vehicle, .schedule]
        #expect(order.map(\.rank) == [0, 1, 2, 3, 4])
        for (i, a) in order.enumerated() {
            for b in order[i...] {
                #expect(LivePredictionSource.strongest(a, b) == a)
                #expect(LivePredictionSource.strongest(b, a) == a)
            }
        }
    }

    // MARK: age

    @Test func theAgeCountsFromTheTripTimestampElseTheFeedHeader() {
        #expect(LivePredictionSource.stopUpdate.age(tripTimestamp: 1000, feedTimestamp: 1500, now: 1030) == 30)
        #expect(LivePredictionSource.propagated.age(tripTimestamp: nil, feedTimestamp: 1000, now: 1045) == 45)
        #expect(LivePredictionSource.vehicle.age(tripTimestamp: 1100, feedTimestamp: nil, now: 1000) == 0)
        #expect(LivePredictionSource.tripDelay.age(tripTimestamp: nil, feedTimestamp: nil, now: 1000) == nil)
        #expect(LivePredictionSource.schedule.age(tripTimestamp: 900, feedTimestamp: 900, now: 1000) == nil)
    }
}
