import GTFSRealtime
import Testing
import TransitModel

@testable import RealtimeCore

/// A stop's prediction stays until the vehicle is past it or its predicted time has passed.
@Suite struct PredictionCarryTests {
    typealias F = Fixture

    /// The default trip resolved from `update` as the service stores it.
    static func live(_ update: TripUpdate) throws -> LiveTrip {
        let trip = try #require(F.resolve(update).resolvedTrip)
        return LiveTrip(
            instance: trip.key, relationship: trip.relationship == .canceled ? .canceled : .scheduled,
            stops: trip.stops.map {
                LiveStop(
                    stopId: $0.stopId, stopSequence: $0.stopSequence, scheduledArrival: $0.scheduledArrival,
                    scheduledDeparture: $0.scheduledDeparture, predictedArrival: $0.predictedArrival,
                    predictedDeparture: $0.predictedDeparture, arrivalDelay: $0.arrivalDelay,
                    departureDelay: $0.departureDelay,
                    status: $0.status == .scheduled
                        ? .predicted
                        : $0.status == .noPrediction ? .noPrediction : .noData)
            },
            source: "s")
    }

    /// Stops 2…6 (0-based 1…5) 2 min late; S3 (index 2) is scheduled at 08:10:00 and predicted at 08:12:30.
    static let late = F.update([F.stu(seq: 20, arrivalDelay: 120)])
    /// The producer already dropped S3: its first update is S4, still 2 min late.
    static let dropped = F.update([F.stu(seq: 40, arrivalDelay: 120)])

    @Test func aDroppedStopWhosePredictionIsAheadKeepsIt() throws {
        let before = try Self.live(Self.late)
        var after = try Self.live(Self.dropped)
        #expect(after.stops[2].status == .noPrediction)  // the resolver alone: S3 would fall back to its schedule
        // 08:11:00: S3's schedule (08:10:30 departure) is past, its prediction (08:12:30) is not.
        let now = F.dayUnix + 8 * 3600 + 660
        PredictionCarry.carry(into: &after, from: before, now: now)
        #expect(after.stops[2].status == .predicted)
        #expect(after.stops[2].predictedDeparture == F.departure(2) + 120)
        #expect(after.stops[2].departureDelay == 120)
        // Stops already behind the prediction's time go: S1, S2 were predicted before now.
        #expect(after.stops[0].status == .noPrediction)
        #expect(after.stops[1].status == .noPrediction)
        #expect(after.stops[3].departureDelay == 120)
    }

    @Test func aPredictionWhoseTimeHasPassedGoes() throws {
        let before = try Self.live(Self.late)
        var after = try Self.live(Self.dropped)
        let now = F.departure(2) + 121  // just after S3's predicted departure
        PredictionCarry.carry(into: &after, from: before, now: now)
        #expect(after.stops[2].status == .noPrediction)
    }

    @Test func aVehicleAlreadyAtALaterStopIsPastIt() throws {
        let before = try Self.live(Self.late)
        // The new update says the vehicle arrived at S4 (index 3) at 08:12:00, which is now: before S3's
        // predicted departure (08:12:30), so only the vehicle's progress tells S3 is passed.
        let now = F.arrival(3) - 180
        var after = try Self.live(F.update([F.stu(seq: 40, arrivalTime: now)]))
        PredictionCarry.carry(into: &after, from: before, now: now)
        #expect(after.stops[2].status == .noPrediction)
    }

    @Test func aCanceledTripGetsNoPredictions() throws {
        let before = try Self.live(Self.late)
        var after = try Self.live(F.update(relationship: .canceled))
        PredictionCarry.carry(into: &after, from: before, now: F.departure(2))
        #expect(after.stops.allSatisfy { $0.status == .noPrediction })
    }

    @Test func anotherInstanceIsNotCarriedFrom() throws {
        var before = try Self.live(Self.late)
        before.instance.serviceDate = 20250315
        var after = try Self.live(Self.dropped)
        PredictionCarry.carry(into: &after, from: before, now: F.departure(2))
        #expect(after.stops[2].status == .noPrediction)
    }
}
