import JourneyPlanner
import Testing
import TransitModel

/// The gateway checks `plan` against `PlanLimits` (TransitModel), the planner against `PlanQuery`'s own table (it
/// does not depend on TransitModel): the two must hold the same ranges and defaults.
@Suite struct PlanLimitsTests {
    @Test func theGatewaysLimitsAreThePlanners() {
        func same(_ gateway: ClosedRange<some BinaryInteger>, _ planner: ClosedRange<some BinaryInteger>) -> Bool {
            Int64(gateway.lowerBound) == Int64(planner.lowerBound)
                && Int64(gateway.upperBound) == Int64(planner.upperBound)
        }
        #expect(same(PlanLimits.maxTransfers, PlanQuery.maxTransfersRange))
        #expect(same(PlanLimits.transferSlack, PlanQuery.transferSlackRange))
        #expect(PlanLimits.walkRadius == PlanQuery.walkRadiusRange)
        #expect(PlanLimits.walkSpeed == PlanQuery.walkSpeedRange)
        #expect(PlanLimits.accessRadius == PlanQuery.accessRadiusRange)
        #expect(same(PlanLimits.window, PlanQuery.windowRange))
        #expect(same(PlanLimits.limit, PlanQuery.limitRange))

        let request = PlanRequest(from: .stop("A"), to: .stop("B"))
        let query = PlanQuery(from: .stops([0]), to: .stops([1]), time: .departAt(0))
        #expect(PlanLimits.defaultMaxTransfers == query.maxTransfers)
        #expect(PlanLimits.defaultTransferSlack == query.transferSlack)
        #expect(PlanLimits.defaultWalkRadius == query.walkRadius)
        #expect(PlanLimits.defaultWalkSpeed == query.walkSpeed)
        #expect(PlanLimits.defaultAccessRadius == query.accessRadius)
        #expect(request.windowSeconds == query.window)
        #expect(PlanLimits.defaultLimit == query.limit)
    }
}
