import GTFSRealtime
import RealtimeCore
import Testing
import TransitModel

@testable import RealtimeService

/// Trips with vehicle positions but no trip update get predictions estimated from the positions; where a trip
/// update predicts a stop, it wins (StopPredictions' precedence), stop by stop.
@Suite struct VehicleEstimateStateTests {
    typealias F = StateFixture

    static func stopped(_ id: String, trip: String, sequence: UInt32, at timestamp: Int64, status: VehicleStopStatus)
        -> FeedEntity
    {
        FeedEntity(
            id: id,
            vehicle: VehiclePosition(
                trip: TripDescriptor(tripId: trip, startDate: F.dayText), vehicle: VehicleDescriptor(id: "bus-\(id)"),
                currentStopSequence: sequence, currentStatus: status, timestamp: UInt64(timestamp)))
    }

    static let sources = [
        SourceSettings(name: "tu", kind: .tripUpdates, timeZone: "UTC"),
        SourceSettings(name: "vp", kind: .vehiclePositions, timeZone: "UTC"),
    ]

    @Test func aVehicleWithoutTripUpdateGivesItsTripPredictions() throws {
        var state = F.state(Self.sources)
        // T2 stopped at S2 (08:15 scheduled) two minutes late.
        let changes = try mustApply(
            &state,
            F.feed([Self.stopped("v", trip: "T2", sequence: 2, at: F.scheduled(2, 1) + 120, status: .stoppedAt)]),
            source: 1)
        let trip = try #require(changes.trips.first { $0.instance == F.key(2) })
        #expect(trip.source == "vp" && trip.relationship == .scheduled)
        #expect(trip.timestamp == UInt64(F.scheduled(2, 1) + 120))
        #expect(trip.stops.map(\.predictionSource) == [.schedule, .vehicle, .vehicle, .vehicle])
        #expect(trip.stops.map(\.departureDelay) == [nil, 120, 120, 120])

        // In transit to S3 a minute after S2's scheduled departure: one minute late from S3 on.
        let moved = try mustApply(
            &state,
            F.feed(
                [Self.stopped("v", trip: "T2", sequence: 3, at: F.scheduled(2, 1) + 60, status: .inTransitTo)],
                timestamp: UInt64(F.now + 30)),
            source: 1)
        let after = try #require(moved.trips.first { $0.instance == F.key(2) })
        #expect(after.stops.map(\.departureDelay) == [nil, nil, 60, 60])

        // The vehicle gone, so is its estimate.
        let gone = try mustApply(&state, F.feed([], timestamp: UInt64(F.now + 60)), source: 1)
        #expect(gone.removedTrips.contains(F.key(2)))
        #expect(state.trips[F.key(2)] == nil)
    }

    @Test func aTripUpdateWinsWhereItPredictsAndTheVehicleFillsTheStopsBefore() throws {
        var state = F.state(Self.sources)
        // The update names S3 only, 30 s late; the vehicle stopped at S2, 120 s late.
        try mustApply(&state, F.feed([F.entity("e", F.tripUpdate("T2", delay: 30, seq: 3))]), source: 0)
        #expect(
            state.trips[F.key(2)]?.stops.map(\.predictionSource) == [.schedule, .schedule, .stopUpdate, .propagated])
        try mustApply(
            &state,
            F.feed([Self.stopped("v", trip: "T2", sequence: 2, at: F.scheduled(2, 1) + 120, status: .stoppedAt)]),
            source: 1)
        let trip = try #require(state.trips[F.key(2)])
        #expect(trip.source == "tu")
        #expect(trip.stops.map(\.predictionSource) == [.schedule, .vehicle, .stopUpdate, .propagated])
        #expect(trip.stops.map(\.departureDelay) == [nil, 120, 30, 30])
    }

    @Test func aPositionNamingNoStopGivesNoEstimate() throws {
        var state = F.state(Self.sources)
        let changes = try mustApply(&state, F.feed([F.vehicle("v", trip: "T2")]), source: 1)
        #expect(changes.trips.isEmpty)
        #expect(changes.vehicles.count == 1)
    }
}
