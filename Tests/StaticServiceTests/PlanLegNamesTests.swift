import Testing
import TransitCore
import TransitModel

@testable import StaticService

/// A plan's legs as the static service names them: a walk says which stops it joins by name as well as by id
/// (the gateway shows walks as riders read them), and a coordinate end has neither.
@Suite struct PlanLegNamesTests {
    @Test func walksNameTheirStopsAndACoordinateHasNoName() throws {
        let (planning, store, _) = try PlannerDatesTests.planning()
        // Beside STA1 to beside END: walk to the platform, TA 08:05 → 08:20, walk from Harbour End.
        let request = PlanRequest(
            from: .coordinate(lat: -33.8827, lon: 151.2065), to: .coordinate(lat: -33.8614, lon: 151.2108),
            at: PlannerDatesTests.now, budgetMilliseconds: 10_000)
        let (result, _) = planning.answer(request, servedStore: store)
        guard case .plan(let answer) = try result.get() else {
            Issue.record("not a plan answer: \(result)")
            return
        }
        let legs = try #require(answer.journeys.first?.legs, "\(answer)")
        guard legs.count == 3, case .walk(let first) = legs[0], case .ride = legs[1], case .walk(let last) = legs[2]
        else {
            Issue.record("not walk, ride, walk: \(legs)")
            return
        }
        #expect(first.fromStopId == nil && first.fromStopName == nil)
        #expect(first.toStopId == "STA1" && first.toStopName == "Central Test Station, Platform 1")
        #expect(last.fromStopId == "END" && last.fromStopName == "Harbour End")
        #expect(last.toStopId == nil && last.toStopName == nil)
    }

    /// A ride on an added trip has no schedule to name it from: its stops come from the live trip the planner rode,
    /// named from the database, with the times it was planned with.
    @Test func aRideOnAnAddedTripNamesItsStops() throws {
        let (planning, store, _) = try PlannerDatesTests.planning()
        let now = PlannerDatesTests.now
        func stop(_ id: String, _ sequence: UInt32, _ offset: Int64) -> LiveStop {
            LiveStop(
                stopId: id, stopSequence: sequence, predictedArrival: now + offset, predictedDeparture: now + offset,
                status: .predicted)
        }
        // STA1 08:02 → MID → END 08:08, before TA (08:05 → 08:20).
        let added = LiveTrip(
            instance: TripInstanceKey(tripId: "EXTRA1", serviceDate: 20_250_312), relationship: .added,
            routeId: "R2", stops: [stop("STA1", 1, 120), stop("MID", 2, 300), stop("END", 3, 480)], source: "tu")
        planning.noteRealtimeHeard()
        planning.updateLive([added.instance: added], staleSources: [])
        let request = PlanRequest(
            from: .stop("STA1"), to: .stop("END"), at: now, maxTransfers: 0, budgetMilliseconds: 10_000)
        let (result, _) = planning.answer(request, servedStore: store)
        guard case .plan(let answer) = try result.get() else {
            Issue.record("not a plan answer: \(result)")
            return
        }
        let legs = try #require(answer.journeys.first?.legs, "\(answer)")
        guard legs.count == 1, case .ride(let ride) = legs[0] else {
            Issue.record("not one ride: \(legs)")
            return
        }
        #expect(ride.addedTripId == "EXTRA1" && ride.board == nil)
        #expect(ride.stops.map(\.stopId) == ["STA1", "MID", "END"])
        #expect(ride.stops.map(\.stopName) == ["Central Test Station, Platform 1", "Middle Road", "Harbour End"])
        #expect(ride.stops.first?.platformCode == "1" && ride.stops.first?.parentStation == "STA")
        #expect(ride.stops.map(\.departureUnix) == [now + 120, now + 300, now + 480])
    }
}
