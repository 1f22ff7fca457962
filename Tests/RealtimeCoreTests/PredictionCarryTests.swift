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
                    status: $0.status == .predicted
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
    /// An update that covers the trip from its first stop leaves no stop to carry into: the previous instance is
    /// not even looked up.
    @Test func anUpdateCoveringEveryStopTakesNoCarry() throws {
        let covering = try Self.live(F.update([F.stu(seq: 10, arrivalDelay: 60)]))
        #expect(covering.stops.allSatisfy { $0.status == .predicted })
        #expect(!PredictionCarry.takesCarry(covering))
        #expect(PredictionCarry.takesCarry(try Self.live(Self.dropped)))
        var canceled = try Self.live(Self.dropped)
        canceled.relationship = .canceled
        #expect(!PredictionCarry.takesCarry(canceled))
    }

    /// The previous instance passed in parts (read where it is held) carries exactly what the whole one does.
    @Test func partsOfThePreviousInstanceCarryLikeTheWhole() throws {
        let before = try Self.live(Self.late)
        var other = before
        other.instance.serviceDate = 20250315
        var canceled = before
        canceled.relationship = .canceled
        for previous in [before, other, canceled] {
            for now in [F.dayUnix + 8 * 3600 + 660, F.departure(2) + 121] {
                var whole = try Self.live(Self.dropped)
                var parts = whole
                PredictionCarry.carry(into: &whole, from: previous, now: now)
                PredictionCarry.carry(
                    into: &parts, previousInstance: previous.instance, previousRelationship: previous.relationship,
                    previousStops: previous.stops, now: now)
                #expect(parts == whole)
            }
        }
    }

    /// Nothing to carry (the previous update had no prediction there either): the stops are not written, so
    /// a list still shared with another holder is not copied.
    @Test func nothingToCarryLeavesTheStopsUntouched() throws {
        let before = try Self.live(Self.dropped)
        let after = try Self.live(Self.dropped)
        var stops = after.stops
        let shared = stops
        PredictionCarry.carry(into: &stops, from: before.stops, now: F.departure(2))
        #expect(stops == shared)
        let sameStorage = stops.withUnsafeBufferPointer { a in
            shared.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
        #expect(sameStorage)
    }
}
