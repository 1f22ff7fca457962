import GatewayProtocol
import Testing
import TransitModel

@testable import Gateway

/// Which live changes ask a plan subscription's plan again (`ConnectionSubscriptions.PlanWatch`): those naming a
/// trip instance it rides, wholesale ones, and, while its last event had no journey, any change.
@Suite struct PlanWatchTests {
    static let at: Int64 = 1_766_394_000
    static let t1 = TripInstanceKey(tripId: "T1", serviceDate: 20_251_222)
    static let other = RealtimeChange(stops: ["q"], trips: [TripInstanceKey(tripId: "T9", serviceDate: 20_251_222)])

    static func watch(_ journeys: [PlanJourney]) -> ConnectionSubscriptions.PlanWatch {
        let query = PlanRequest(from: .stop("p1"), to: .stop("x"), at: at)
        let answer = PlanAnswer(journeys: journeys, timezone: "Australia/Sydney")
        let view = PlanLiveCheck.view(answer, query: query, state: nil, alerts: AlertIndex([]), now: at)
        return .init(
            PlannedJourneys(query: query, answer: answer, view: view, meta: LiveMeta(at: at, source: .staticOnly)))
    }

    @Test func aRiddenTripOrAWholesaleChangeAsksAgain() {
        let board = Departure(
            tripId: "T1", route: Route(routeId: "R1", routeType: 3, mode: "bus", section: "#"), headsign: nil,
            stopId: "p1", stopSequence: 1, stopIndex: 0, serviceDate: 20_251_222, scheduledSecs: 72_600,
            scheduledUnix: Self.at + 600)
        let ride = PlanRide(
            board: board, stops: [], plannedDepartureUnix: Self.at + 600, plannedArrivalUnix: Self.at + 900, live: false
        )
        let watch = Self.watch([
            PlanJourney(
                departureUnix: Self.at + 600, arrivalUnix: Self.at + 900, transfers: 0, walkSeconds: 0,
                legs: [.ride(ride)])
        ])
        #expect(watch.touched(by: RealtimeChange(stops: ["p1"], trips: [Self.t1])))
        #expect(watch.touched(by: .everything))
        #expect(!watch.touched(by: Self.other), "another trip's update leaves the journeys as they are")
    }

    /// A ride on an added trip is followed by the live trip's id, also when the planner named the instance
    /// (`X9@20251222`: that id was added twice).
    @Test func anUpdateOfARiddenAddedTripAsksAgain() throws {
        var answer = PlanLegViewTests.addedAnswer
        guard case .ride(var ride) = answer.journeys[0].legs[0] else { throw CancellationError() }
        ride.addedTripId = "X9@20251222"
        answer.journeys[0].legs[0] = .ride(ride)
        let query = PlanRequest(from: .stop("p1"), to: .stop("x"), at: Self.at)
        let view = PlanLiveCheck.view(
            answer, query: query, state: PlanLegViewTests.addedState(), alerts: AlertIndex([]), now: Self.at)
        #expect(view.journeys.count == 1, "\(view)")
        let watch = ConnectionSubscriptions.PlanWatch(
            PlannedJourneys(query: query, answer: answer, view: view, meta: LiveMeta(at: Self.at, source: .staticOnly)))
        #expect(
            watch.touched(
                by: RealtimeChange(stops: [], trips: [TripInstanceKey(tripId: "X9", serviceDate: 20_251_222)])))
        #expect(!watch.touched(by: Self.other))
    }

    @Test func withNoJourneyAnyChangeAsksAgain() {
        // Nothing connected (or the live state broke every journey): a reinstated or added trip may connect.
        #expect(Self.watch([]).touched(by: Self.other))
    }
}
