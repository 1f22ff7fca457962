import Testing
import TransitModel

@testable import GatewayProtocol

/// A plan subscription's `changes` between two events: moved times, broken, replaced and new journeys, and how
/// they are written.
@Suite struct PlanChangesTests {
    /// A ride on trip `trip` (an added trip: no static row needed) at the given times.
    static func ride(_ trip: String, _ departure: Int64, _ arrival: Int64) -> PlanLegView {
        .ride(
            PlanRideView(
                ride: PlanRide(
                    board: nil, stops: [], plannedDepartureUnix: departure, plannedArrivalUnix: arrival, live: false,
                    addedTripId: trip),
                row: nil, alightPredictedUnix: nil, departureUnix: departure, arrivalUnix: arrival, live: false))
    }

    static func journey(_ legs: PlanLegView...) -> PlanJourneyView {
        var departure: Int64 = 0, arrival: Int64 = 0
        if case .ride(let first) = legs.first { departure = first.departureUnix }
        if case .ride(let last) = legs.last { arrival = last.arrivalUnix }
        return PlanJourneyView(
            departureUnix: departure, arrivalUnix: arrival, transfers: legs.count - 1, walkSeconds: 0, legs: legs)
    }

    @Test func nothingChangedIsNoChange() {
        let journeys = [Self.journey(Self.ride("T1", 100, 200), Self.ride("U1", 300, 400))]
        #expect(PlanChange.between(journeys, journeys) { _ in "never asked" }.isEmpty)
    }

    @Test func movedTimesOfAKeptJourney() {
        let before = [Self.journey(Self.ride("T1", 100, 200), Self.ride("U1", 300, 400))]
        let after = [Self.journey(Self.ride("T1", 100, 260), Self.ride("U1", 300, 400))]
        #expect(
            PlanChange.between(before, after) { _ in nil } == [
                .times(
                    journey: 0, leg: 0, tripId: "T1", departureUnix: 100, arrivalUnix: 260, previousDepartureUnix: 100,
                    previousArrivalUnix: 200)
            ])
    }

    @Test func aBrokenChangeAndItsReplacement() {
        let before = [Self.journey(Self.ride("T1", 100, 200), Self.ride("U1", 300, 400))]
        let after = [Self.journey(Self.ride("T1", 100, 350), Self.ride("U2", 500, 600))]
        let changes = PlanChange.between(before, after) { journey in
            #expect(JourneyIdentity(journey) == JourneyIdentity(before[0]))
            return "ride 2: the change to trip U1 broke"
        }
        #expect(
            changes == [.new(journey: 0), .broken(previousJourney: 0, reason: "ride 2: the change to trip U1 broke")])
        // Still possible but no longer the best: replaced.
        #expect(PlanChange.between(before, after) { _ in nil } == [.new(journey: 0), .replaced(previousJourney: 0)])
    }

    @Test func theEventWritesTheChangesBeforeTheData() throws {
        let view = PlanView(journeys: [Self.journey(Self.ride("T1", 100, 260))])
        let line = GatewayResponse.planEvent(
            sub: 3,
            changes: [
                .times(
                    journey: 0, leg: 0, tripId: "T1", departureUnix: 100, arrivalUnix: 260, previousDepartureUnix: 100,
                    previousArrivalUnix: 200), .broken(previousJourney: 1, reason: "why"),
            ],
            plan: view, meta: ResponseMeta(op: .plan, elapsedMicros: 5, live: LiveMeta(at: 50, source: .staticOnly)),
            now: 50)
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix(#"{"event":"plan","sub":3,"changes":[{"type":"times","journey":0,"leg":0,"#))
        #expect(text.contains(#""previous_arrival_unix":200},{"type":"broken","previous_journey":1,"reason":"why"}]"#))
        #expect(text.contains(#""data":{"timezone":null,"journeys":[{"#) && text.hasSuffix("}\n"))
        #expect(text.contains(#""meta":{"op":"plan","#))
    }
}
