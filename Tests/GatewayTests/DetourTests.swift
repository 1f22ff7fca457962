import Foundation
import GatewayProtocol
import Testing
import TransitModel

@testable import Gateway

/// Detours (GTFS-Realtime trip modifications) on boards and trips (GATEWAY.md "detour"): a stop the detour
/// leaves out leaves the board; the trip's other rows say a detour applies and name its alert; a trip answer
/// lists the stops in the detour's travel order with the replacement stops and their times.
@Suite struct DetourTests {
    private let at: Int64 = 1_766_394_000  // 2025-12-22 20:00 AEDT
    private let date: ServiceDate = 20_251_222
    private let route = Route(routeId: "R", shortName: "R1", routeType: 3, mode: "bus", section: "R")
    /// 20:00 in GTFS seconds of the service day.
    private let base: Int32 = 72_000

    /// Trip T over p1, p2, p3 (stop_sequence 1…3, 5 minutes apart from 20:00); the detour M1 replaces p2 by
    /// r1, 200 s after p1, with alert A1.
    private var detour: LiveDetour {
        LiveDetour(
            key: "tu/M1/T", source: "tu", modificationsId: "M1", tripId: "T", serviceDates: [date],
            tripStartSecs: base, shapeId: "SH1", shapePolyline: "_p~iF~ps|U_ulLnnqC", alertIds: ["A1"],
            stops: [
                LiveDetourStop(
                    stopId: "p1", role: .kept, originalSequence: 1, stopSequence: 1, arrivalOffset: 0,
                    departureOffset: 0),
                LiveDetourStop(
                    stopId: "p2", role: .detoured, originalSequence: 2, arrivalOffset: 300, departureOffset: 300),
                LiveDetourStop(
                    stopId: "r1", role: .replacement, stopSequence: 2, arrivalOffset: 200, departureOffset: 200,
                    lat: -33.87, lon: 151.2),
                LiveDetourStop(
                    stopId: "p3", role: .kept, originalSequence: 3, stopSequence: 3, arrivalOffset: 600,
                    departureOffset: 600),
            ])
    }

    private func state(_ trips: [LiveTrip] = [], detours: [LiveDetour]? = nil, alerts: [LiveAlert] = [])
        -> RealtimeState
    {
        var assembler = LiveStateAssembler()
        assembler.applySnapshot(.tripUpdates(LiveTripBatch(trips: trips)))
        assembler.applySnapshot(.detours(LiveDetourBatch(detours: detours ?? [detour])))
        assembler.applySnapshot(.alerts(LiveAlertBatch(alerts: alerts)))
        assembler.applySnapshot(.sources([LiveFixtures.freshSource("tu", now: at)]))
        return assembler.state
    }

    private func reading(_ state: RealtimeState) -> RealtimeReading {
        RealtimeReading(configured: true, status: .ok, state: state, sources: state.sources, version: 1)
    }

    private func departure(_ trip: String, _ sequence: UInt32, stop: String) -> Departure {
        let offset = Int64(sequence - 1) * 300
        return Departure(
            tripId: trip, route: route, headsign: nil, stopId: stop, stopSequence: sequence,
            stopIndex: UInt32(sequence - 1), serviceDate: date, scheduledSecs: base + Int32(offset),
            scheduledUnix: at + offset)
    }

    private var detail: TripDetail {
        TripDetail(
            tripId: "T", route: route, headsign: "Town", directionId: 0, serviceDate: date, startTime: "20:00:00",
            frequencyBased: false, timezone: "Australia/Sydney",
            stops: (1...3).map { k in
                let offset = Int32(k - 1) * 300
                return TripStop(
                    stopId: "p\(k)", stopName: "Stop \(k)", stopSequence: UInt32(k), arrivalSecs: base + offset,
                    departureSecs: base + offset, arrivalUnix: at + Int64(offset), departureUnix: at + Int64(offset),
                    lat: -33.8, lon: 151.1)
            })
    }

    @Test func aDetouredStopLeavesTheBoardAndTheTripsOtherRowsSaySo() {
        let rows = [
            departure("T", 1, stop: "p1"), departure("T", 2, stop: "p2"), departure("T", 3, stop: "p3"),
            departure("U", 2, stop: "p2"),
        ]
        let merged = BoardAssembly.merge(rows, state: state()).rows
        #expect(merged.map { "\($0.departure.tripId)@\($0.departure.stopSequence)" } == ["T@1", "T@3", "U@2"])
        #expect(merged[0].detour == detour && merged[1].detour == detour)
        #expect(merged[2].detour == nil)
        // On another date the detour is not in effect: the row stays.
        var other = departure("T", 2, stop: "p2")
        other.serviceDate = date + 1
        #expect(BoardAssembly.merge([other], state: state()).rows.count == 1)
    }

    /// A trip update numbered as the modified trip (modifications_id set): the static row p3 (sequence 3)
    /// takes the prediction of the modified trip's stop 3, wherever the numbering differs.
    @Test func anUpdateOfTheModifiedTripPredictsTheKeptStops() {
        var live = LiveFixtures.trip(
            "T", date: date, stops: [("p1", at, at + 60), ("r1", at + 200, at + 260), ("p3", at + 600, at + 660)])
        live.modificationsId = "M1"
        let merged = BoardAssembly.merge([departure("T", 3, stop: "p3")], state: state([live])).rows
        #expect(merged.first?.realtime?.predictedUnix == at + 660)
        #expect(merged.first?.delay == 60)
    }

    @Test func aTripAnswerListsTheDetourInTravelOrder() throws {
        var live = LiveFixtures.trip(
            "T", date: date, stops: [("p1", at, at + 60), ("r1", at + 200, at + 290), ("p3", at + 600, at + 660)])
        live.modificationsId = "M1"
        let alert = LiveAlert(
            key: "tu/A1", source: "tu", entityId: "A1", informedEntities: [LiveInformedEntity(routeId: "OTHER")],
            cause: "CONSTRUCTION", effect: "DETOUR", severity: "WARNING")
        let reading = reading(state([live], alerts: [alert]))
        let (unmodified, _) = LiveMerge.trip(detail, reading: reading, at: at, now: at)
        let (trip, realtime) = LiveMerge.detoured(detail, unmodified, reading: reading)
        #expect(trip.stops.map(\.stopId) == ["p1", "p2", "r1", "p3"])
        #expect(realtime?.detourRoles == [.kept, .detoured, .replacement, .kept])
        #expect(trip.stops[2].departureUnix == at + 200)
        #expect(realtime?.stops.map { $0?.predictedDeparture } == [at + 60, nil, at + 290, at + 660])

        let alerts = LiveMerge.alerts(trip, realtime, index: reading.state.alertIndex)
        var writer = JSONWriter()
        writer.tripData(trip, realtime: realtime, at: at, alerts: alerts.views, alertIds: alerts.idsByRow)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
        let detour = try #require(json["detour"] as? [String: Any])
        #expect(detour["modifications_id"] as? String == "M1")
        #expect(detour["alert_ids"] as? [String] == ["A1"])
        #expect(detour["shape_id"] as? String == "SH1" && detour["polyline"] as? String == "_p~iF~ps|U_ulLnnqC")
        let stops = try #require(json["stops"] as? [[String: Any]])
        #expect(stops.map { $0["detour_role"] as? String } == ["kept", "detoured", "replacement", "kept"])
        #expect(stops.map { $0["status"] as? String } == ["on_time", "detoured", "late", "on_time"])
        #expect(stops[2]["stop_sequence"] is NSNull && stops[2]["stop_name"] is NSNull)
        #expect(stops[2]["lat"] as? Double == -33.87)
        #expect(stops[2]["realtime_departure_unix"] as? Int64 == at + 290)
        // The alert the detour names is on every stop, though its informed entity names another route.
        #expect(stops.allSatisfy { ($0["alert_ids"] as? [String]) == ["A1"] })
        #expect((json["alerts"] as? [[String: Any]])?.first?["id"] as? String == "A1")
    }

    /// A propagated modification delay moves the kept stops after it: their schedule is the modified one.
    @Test func keptStopsAfterADetourTakeItsPropagatedDelay() {
        var shifted = detour
        shifted.stops[3].propagatedDelay = 120
        shifted.stops[3].arrivalOffset = 720
        shifted.stops[3].departureOffset = 720
        let (trip, _) = LiveMerge.detoured(detail, nil, reading: reading(state(detours: [shifted])))
        #expect(trip.stops.last?.departureUnix == at + 720)
        #expect(trip.stops.last?.departureSecs == base + 720)
    }

    /// A planned ride on the detoured trip (the planner rides it as an added trip over the stops it serves, from
    /// the replacement stop r1 to p3): its row is T's, says the detour, and is numbered by the detour's sequences.
    @Test func aPlannedRideOnADetouredTripSaysTheDetour() throws {
        var trip = LiveFixtures.trip(
            "T", stops: [("p1", at, at), ("r1", nil, at + 200), ("p3", at + 600, at + 660)])
        trip.modificationsId = "M1"
        func stop(_ id: String, _ offset: Int64) -> TripStop {
            TripStop(
                stopId: id, stopName: "Stop \(id)", stopSequence: 0, arrivalSecs: 0, departureSecs: 0,
                arrivalUnix: at + offset, departureUnix: at + offset, lat: -33.87, lon: 151.2)
        }
        let ride = PlanRide(
            board: nil, stops: [stop("r1", 200), stop("p3", 660)], plannedDepartureUnix: at + 200,
            plannedArrivalUnix: at + 660, live: true, addedTripId: "T")
        let answer = PlanAnswer(
            journeys: [
                PlanJourney(
                    departureUnix: at + 200, arrivalUnix: at + 660, transfers: 0, walkSeconds: 0, legs: [.ride(ride)])
            ], timezone: "Australia/Sydney")
        let view = PlanLiveCheck.view(
            answer, query: PlanRequest(from: .stop("r1"), to: .stop("p3")), state: state([trip]),
            alerts: AlertIndex([]), now: at, routes: { $0 == "R" ? route : nil })
        guard case .ride(let r) = try #require(view.journeys.first?.legs.first, "\(view)") else {
            Issue.record("not a ride")
            return
        }
        #expect(r.row?.departure.tripId == "T" && r.row?.detour?.modificationsId == "M1")
        #expect(r.ride.stops.map(\.stopSequence) == [2, 3])
        #expect(r.departureUnix == at + 200 && r.arrivalUnix == at + 660, "p3 predicted a minute late")
    }
}

/// Through a real gateway: a detour's Shape entity is answered by `shape` (GATEWAY.md "shape").
@Suite struct DetourShapeTests {
    @Test func aDetoursShapeIsAnsweredFromTheLiveState() async throws {
        let view = RealtimeView(configured: true)
        try await withGateway(realtime: view) { fixture in
            var assembler = LiveStateAssembler()
            assembler.applySnapshot(
                .detours(
                    LiveDetourBatch(detours: [
                        LiveDetour(
                            key: "tu/M1/T", source: "tu", modificationsId: "M1", tripId: "T",
                            serviceDates: [20_251_222],
                            shapeId: "DETOUR_SH", shapePolyline: "_p~iF~ps|U_ulLnnqC_mqNvxq`@", stops: [])
                    ])))
            assembler.applySnapshot(
                .sources([LiveFixtures.freshSource("tu", now: Int64(Date().timeIntervalSince1970))]))
            view.replace(assembler.state)
            let client = try fixture.client()
            let shape = try await client.ask(#"{"id":1,"op":"shape","shape_id":"DETOUR_SH","format":"geojson"}"#)
            #expect(shape.ok, "\(shape)")
            #expect(shape.data["source"] as? String == "detour")
            #expect(shape.data["point_count"] as? Int == 3)
            #expect(shape.data["polyline"] as? String == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
            let unknown = try await client.ask(#"{"id":2,"op":"shape","shape_id":"NOPE"}"#)
            #expect(unknown.errorCode == "NOT_FOUND")
        }
    }
}
