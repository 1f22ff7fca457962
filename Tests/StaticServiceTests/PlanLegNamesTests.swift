import Testing
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
}
