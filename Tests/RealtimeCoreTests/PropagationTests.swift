import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// The GTFS-Realtime delay rules over a 6-stop trip (stop_sequence 10…60, 300 s apart, 30 s dwell).
@Suite struct PropagationTests {
    typealias F = Fixture

    @Test func delayPropagatesToFollowingStopsUntilTheNextUpdate() throws {
        let update = F.update([F.stu(seq: 20, arrivalDelay: 300), F.stu(seq: 40, arrivalDelay: 60)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, 300, 300, 60, 60, 60])
        #expect(trip.departureDelays == [nil, 300, 300, 60, 60, 60])
        #expect(trip.statuses == [.noPrediction, .predicted, .predicted, .predicted, .predicted, .predicted])
        #expect(trip.stops[2].predictedArrival == F.arrival(2) + 300)
        #expect(trip.stops[2].predictedDeparture == F.departure(2) + 300)
        #expect(trip.stops[5].predictedArrival == F.arrival(5) + 60)
        #expect(trip.stops[5].scheduledArrival == F.arrival(5))
        #expect(trip.stops.map(\.stopId) == ["S1", "S2", "S3", "S4", "S5", "S6"])
        #expect(trip.stops.map(\.stopSequence) == [10, 20, 30, 40, 50, 60])
    }

    @Test func stopsBeforeTheFirstUpdateHaveNoPrediction() throws {
        let trip = try #require(F.resolve(F.update([F.stu(seq: 40, arrivalDelay: 120)])).resolvedTrip)
        for k in 0..<3 {
            #expect(trip.stops[k].predictedArrival == nil)
            #expect(trip.stops[k].predictedDeparture == nil)
            #expect(trip.stops[k].arrivalDelay == nil)
            #expect(trip.stops[k].status == .noPrediction)
        }
        #expect(trip.arrivalDelays[3...] == [120, 120, 120])
    }

    @Test func timeOnlyUpdateBecomesADelayThatPropagates() throws {
        let update = F.update([F.stu(seq: 30, arrivalTime: F.arrival(2) + 200)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, nil, 200, 200, 200, 200])
        #expect(trip.stops[2].predictedArrival == F.arrival(2) + 200)
        #expect(trip.stops[4].predictedDeparture == F.departure(4) + 200)
    }

    @Test func absoluteTimeWinsOverDelay() throws {
        let update = F.update([F.stu(seq: 20, arrivalDelay: 999, arrivalTime: F.arrival(1) + 100)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.stops[1].predictedArrival == F.arrival(1) + 100)
        #expect(trip.arrivalDelays == [nil, 100, 100, 100, 100, 100])
    }

    @Test func zeroTimeIsTreatedAsUnsetAndTheDelayIsUsed() throws {
        let update = F.update([F.stu(seq: 20, arrivalDelay: 45, arrivalTime: 0)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.stops[1].arrivalDelay == 45)
    }

    @Test func arrivalOnlyGivesTheDepartureTheSameDelay() throws {
        let update = F.update([F.stu(seq: 30, arrivalDelay: -40)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.stops[2].arrivalDelay == -40)
        #expect(trip.stops[2].departureDelay == -40)
        #expect(trip.stops[2].predictedDeparture == F.departure(2) - 40)
        #expect(trip.stops[3].predictedArrival == F.arrival(3) - 40)
    }

    @Test func departureOnlyTakesTheArrivalFromUpstreamAndClampsIt() throws {
        // Upstream delay 600; departure only, 300 late at S4: the arrival would be 600 late, after the
        // departure, so the derived arrival is pulled back to the departure.
        let update = F.update([F.stu(seq: 20, arrivalDelay: 600), F.stu(seq: 40, departureDelay: 300)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.stops[3].predictedDeparture == F.departure(3) + 300)
        #expect(trip.stops[3].predictedArrival == F.departure(3) + 300)
        #expect(trip.stops[3].arrivalDelay == 330)
        #expect(trip.departureDelays[4...] == [300, 300])
    }

    @Test func departureOnlyWithoutUpstreamUsesItsOwnDelayForTheArrival() throws {
        let update = F.update([F.stu(seq: 10, departureDelay: 90)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.stops[0].arrivalDelay == 90)
        #expect(trip.stops[0].departureDelay == 90)
        #expect(trip.arrivalDelays == [90, 90, 90, 90, 90, 90])
    }

    @Test func departureBeforeArrivalIsRaisedToTheArrival() throws {
        let update = F.update([F.stu(seq: 30, arrivalTime: F.arrival(2) + 120, departureTime: F.arrival(2) + 60)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        let stop = trip.stops[2]
        #expect(stop.predictedArrival == F.arrival(2) + 120)
        #expect(stop.predictedDeparture == F.arrival(2) + 120)
        #expect(stop.departureDelay == 90)
        // What propagates is the (clamped) departure delay.
        #expect(trip.stops[3].arrivalDelay == 90)
    }

    @Test func tripDelayWithoutStopUpdatesAppliesToAllStops() throws {
        let trip = try #require(F.resolve(F.update(delay: 150)).resolvedTrip)
        #expect(trip.arrivalDelays == Array(repeating: 150, count: 6))
        #expect(trip.departureDelays == Array(repeating: 150, count: 6))
        #expect(trip.tripDelay == 150)
        #expect(trip.stops[0].predictedDeparture == F.departure(0) + 150)
    }

    @Test func tripDelayCoversOnlyTheStopsBeforeTheFirstStopUpdate() throws {
        let update = F.update(delay: 150, [F.stu(seq: 40, arrivalDelay: 20)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [150, 150, 150, 20, 20, 20])
    }

    @Test func noUpdatesAndNoTripDelayMeansNoPredictionAnywhere() throws {
        let trip = try #require(F.resolve(F.update()).resolvedTrip)
        #expect(trip.statuses == Array(repeating: .noPrediction, count: 6))
        #expect(trip.stops.allSatisfy { $0.predictedArrival == nil && $0.predictedDeparture == nil })
        #expect(trip.stops[3].scheduledArrival == F.arrival(3))
    }

    @Test func skippedStopIsMarkedAndTheDelayPropagatesPastIt() throws {
        let update = F.update([F.stu(seq: 20, arrivalDelay: 120), F.stu(seq: 30, .skipped), F.stu(seq: 40, .skipped)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.statuses == [.noPrediction, .predicted, .skipped, .skipped, .predicted, .predicted])
        #expect(trip.stops[2].predictedArrival == nil)
        #expect(trip.arrivalDelays == [nil, 120, nil, nil, 120, 120])
    }

    @Test func skippedStopWithTimesDoesNotChangeWhatPropagates() throws {
        let update = F.update([F.stu(seq: 20, arrivalDelay: 120), F.stu(seq: 30, arrivalDelay: 900, .skipped)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, 120, nil, 120, 120, 120])
    }

    @Test func tripDelayPropagatesPastASkippedFirstUpdate() throws {
        let update = F.update(delay: 60, [F.stu(seq: 30, .skipped)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [60, 60, nil, 60, 60, 60])
    }

    @Test func skippedFirstUpdateWithoutDataLeavesLaterStopsWithoutPrediction() throws {
        let trip = try #require(F.resolve(F.update([F.stu(seq: 30, .skipped)])).resolvedTrip)
        #expect(trip.statuses == [.noPrediction, .noPrediction, .skipped, .noPrediction, .noPrediction, .noPrediction])
    }

    @Test func noDataGapThenResumption() throws {
        let update = F.update([
            F.stu(seq: 10, arrivalDelay: 60), F.stu(seq: 30, .noData), F.stu(seq: 50, arrivalDelay: 30),
        ])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.statuses == [.predicted, .predicted, .noData, .noData, .predicted, .predicted])
        #expect(trip.arrivalDelays == [60, 60, nil, nil, 30, 30])
        #expect(trip.stops[3].predictedDeparture == nil)
    }

    @Test func skippedStopDoesNotEndANoDataGap() throws {
        let update = F.update([F.stu(seq: 20, .noData), F.stu(seq: 40, .skipped)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.statuses == [.noPrediction, .noData, .noData, .skipped, .noData, .noData])
    }

    @Test func updateWithoutTimesMeansUnknownFromThere() throws {
        // The reference's example: 300 s at seq 3, 60 s at seq 8, unspecified at seq 10 → unknown after.
        let update = F.update([F.stu(seq: 20, arrivalDelay: 300), F.stu(seq: 40)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [nil, 300, 300, nil, nil, nil])
        #expect(trip.statuses[3...] == [.noData, .noData, .noData])
    }

    @Test func trailingNoDataEndsPredictions() throws {
        let update = F.update(delay: 30, [F.stu(seq: 50, .noData)])
        let trip = try #require(F.resolve(update).resolvedTrip)
        #expect(trip.arrivalDelays == [30, 30, 30, 30, nil, nil])
    }

    @Test func assignedStopIsReported() throws {
        var stopUpdate = F.stu(seq: 30, arrivalDelay: 0)
        stopUpdate.stopTimeProperties = StopTimeProperties(assignedStopId: "S3b")
        let trip = try #require(F.resolve(F.update([stopUpdate])).resolvedTrip)
        #expect(trip.stops[2].assignedStopId == "S3b")
        #expect(trip.stops[2].stopId == "S3")
        #expect(trip.stops[3].assignedStopId == nil)
    }

    @Test func resultCarriesTheTripsIdentity() throws {
        let trip = try #require(
            F.resolve(F.update(timestamp: 1_741_940_000, [F.stu(seq: 10, arrivalDelay: 0)])).resolvedTrip)
        #expect(trip.key == TripInstanceKey(tripId: "T1", serviceDate: F.day))
        #expect(trip.relationship == .scheduled)
        #expect(trip.staticTripId == "T1")
        #expect(trip.routeId == "R1")
        #expect(trip.directionId == 1)
        #expect(trip.vehicleId == "V7")
        #expect(trip.vehicleLabel == "Bus 7")
        #expect(trip.timestamp == 1_741_940_000)
        #expect(trip.tripDelay == nil)
    }
}
