import Foundation
import GatewayProtocol
import Testing
import TransitModel

@testable import Gateway

/// A plan's legs as the answer carries them (GATEWAY.md "plan"): a ride's boarding stop is a board row merged
/// with the live state as a board's (delay, platform change, occupancy, prediction source, alert ids with the
/// alerts once in `data.alerts`), its alighting stop with its live time, the stops between; walk legs with their
/// ends, distance and duration; the journey's ends moved by the live times.
@Suite struct PlanLegViewTests {
    static let at: Int64 = 1_766_394_000
    static let route = Route(routeId: "R1", routeType: 3, mode: "bus", section: "#")

    static func stop(_ id: String, _ sequence: UInt32, _ offset: Int64, platform: String? = nil) -> TripStop {
        TripStop(
            stopId: id, stopName: "Stop \(id)", stopSequence: sequence, arrivalSecs: Int32(72_000 + offset),
            departureSecs: Int32(72_000 + offset), arrivalUnix: at + offset, departureUnix: at + offset, lat: -33.87,
            lon: 151.2, platformCode: platform)
    }

    /// Walk 100 s to p1, ride T1 p1 (+600 s) → mid → x (+1200 s), walk 100 s from x.
    static let answer: PlanAnswer = {
        let board = Departure(
            tripId: "T1", route: route, headsign: "Harbour", stopId: "p1", stopSequence: 2, stopIndex: 1,
            serviceDate: 20_251_222, scheduledSecs: 72_600, scheduledUnix: at + 600, platform: "1")
        let ride = PlanRide(
            board: board, stops: [stop("p1", 2, 600, platform: "1"), stop("mid", 3, 900), stop("x", 4, 1200)],
            plannedDepartureUnix: at + 600, plannedArrivalUnix: at + 1200, live: false, polyline: "_p~iF~ps|U")
        let journey = PlanJourney(
            departureUnix: at + 500, arrivalUnix: at + 1300, transfers: 0, walkSeconds: 200,
            legs: [
                .walk(
                    PlanWalk(
                        fromStopId: nil, toStopId: "p1", toStopName: "Central, Platform 1", distanceMetres: 120,
                        durationSeconds: 100)),
                .ride(ride),
                .walk(
                    PlanWalk(
                        fromStopId: "x", toStopId: nil, fromStopName: "Exit", distanceMetres: 110.5,
                        durationSeconds: 100)),
            ])
        return PlanAnswer(journeys: [journey], timezone: "Australia/Sydney")
    }()

    /// T1 2 min late at p1, served at platform 3 (stop p1b) with few seats, 90 s late at x.
    static let state: RealtimeState = {
        var trip = LiveFixtures.trip(
            "T1", stops: [("p1", at + 600, at + 720), ("mid", at + 900, at + 1000), ("x", at + 1200, at + 1290)],
            firstSequence: 2)
        trip.stops[0].assignedStopId = "p1b"
        trip.stops[0].assignedPlatform = "3"
        trip.stops[0].departureOccupancy = "FEW_SEATS_AVAILABLE"
        return RealtimeState(
            trips: [TripPrediction(trip)], sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)])
    }()

    static let alerts = AlertIndex([
        AlertRecord(id: "A1", severity: "WARNING", activePeriods: [], informedEntities: [.init(routeId: "R1")])
    ])

    static func json(_ view: PlanView) throws -> [String: Any] {
        var writer = JSONWriter()
        writer.planData(view, at: at)
        return try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
    }

    static let query = PlanRequest(
        from: .coordinate(lat: -33.87, lon: 151.2), to: .coordinate(lat: -33.86, lon: 151.21))

    @Test func aRidesBoardingStopIsALiveBoardRowAndItsWalksKeepTheirEnds() throws {
        let view = PlanLiveCheck.view(
            Self.answer, query: Self.query, state: Self.state, alerts: Self.alerts, now: Self.at)
        #expect(view.liveDropped.isEmpty)
        let data = try Self.json(view)
        let journey = try #require((data["journeys"] as? [[String: Any]])?.first)
        // The walks around the ride move with its live times.
        #expect(journey["departure_unix"] as? Int64 == Self.at + 720 - 100)
        #expect(journey["arrival_unix"] as? Int64 == Self.at + 1290 + 100)
        let legs = try #require(journey["legs"] as? [[String: Any]])
        #expect(legs.map { $0["type"] as? String } == ["walk", "transit", "walk"])
        #expect(legs[0]["from_stop_id"] is NSNull && legs[0]["to_stop_id"] as? String == "p1")
        #expect(legs[0]["from_stop_name"] is NSNull && legs[0]["to_stop_name"] as? String == "Central, Platform 1")
        #expect(legs[0]["distance_m"] as? Double == 120 && legs[0]["duration_s"] as? Int == 100)
        #expect(legs[2]["from_stop_id"] as? String == "x" && legs[2]["to_stop_id"] is NSNull)
        #expect(legs[2]["from_stop_name"] as? String == "Exit" && legs[2]["to_stop_name"] is NSNull)
        #expect(legs[2]["distance_m"] as? Double == 110.5)

        let ride = legs[1]
        #expect(ride["live"] as? Bool == true)
        #expect(ride["departure_unix"] as? Int64 == Self.at + 720 && ride["arrival_unix"] as? Int64 == Self.at + 1290)
        let board = try #require(ride["board"] as? [String: Any])
        #expect(board["trip_id"] as? String == "T1" && board["route_id"] as? String == "R1")
        #expect(board["realtime_unix"] as? Int64 == Self.at + 720 && board["delay_s"] as? Int == 120)
        #expect(board["prediction_source"] as? String != "schedule", "\(board)")
        #expect(board["delay_badge"] is [String: Any])
        #expect(board["platform"] as? String == "3" && board["scheduled_platform"] as? String == "1")
        #expect(board["platform_changed"] as? Bool == true)
        #expect(board["occupancy_status"] as? String == "FEW_SEATS_AVAILABLE")
        #expect(board["alert_ids"] as? [String] == ["A1"])
        let alight = try #require(ride["alight"] as? [String: Any])
        #expect(alight["stop_id"] as? String == "x" && alight["realtime_unix"] as? Int64 == Self.at + 1290)
        #expect(alight["delay_s"] as? Int == 90)
        #expect((ride["intermediate_stops"] as? [[String: Any]])?.map { $0["stop_id"] as? String } == ["mid"])
        #expect(ride["polyline"] as? String == "_p~iF~ps|U")
        // The alert once, in data.alerts.
        #expect((data["alerts"] as? [[String: Any]])?.map { $0["id"] as? String } == ["A1"])
    }

    /// A ride on added trip X9 (the planner named its stops; it has no schedule): p1 at +300 → x at +900.
    static let addedAnswer: PlanAnswer = {
        func stop(_ id: String, _ offset: Int64) -> TripStop {
            TripStop(
                stopId: id, stopName: "Stop \(id)", stopSequence: 0, arrivalSecs: 0, departureSecs: 0,
                arrivalUnix: at + offset, departureUnix: at + offset, lat: -33.87, lon: 151.2,
                platformCode: id == "p1" ? "1" : nil)
        }
        let ride = PlanRide(
            board: nil, stops: [stop("p1", 300), stop("mid", 600), stop("x", 900)], plannedDepartureUnix: at + 300,
            plannedArrivalUnix: at + 900, live: true, addedTripId: "X9")
        let journey = PlanJourney(
            departureUnix: at + 300, arrivalUnix: at + 900, transfers: 0, walkSeconds: 0, legs: [.ride(ride)])
        return PlanAnswer(journeys: [journey], timezone: "Australia/Sydney")
    }()

    /// X9 as the live state has it: it calls at a stop the database does not know first (numbered 7), then p1 (8)
    /// 60 s later than planned, mid, x (10) at +930.
    static func addedState(calls: Bool = true) -> RealtimeState {
        let trip = LiveFixtures.trip(
            "X9", relationship: .added, routeId: "R1",
            stops: [
                ("unknown", nil, at + 100), ("p1", nil, at + 360), ("mid", nil, at + 640),
                (calls ? "x" : "y", nil, at + 930),
            ], firstSequence: 7)
        return RealtimeState(
            trips: [TripPrediction(trip)], sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)])
    }

    @Test func aRideOnAnAddedTripIsALiveRowFromItsTripUpdate() throws {
        let view = PlanLiveCheck.view(
            Self.addedAnswer, query: Self.query, state: Self.addedState(), alerts: AlertIndex([]), now: Self.at,
            routes: { $0 == "R1" ? Self.route : nil })
        #expect(view.liveDropped.isEmpty)
        let journey = try #require((try Self.json(view)["journeys"] as? [[String: Any]])?.first)
        #expect(
            journey["departure_unix"] as? Int64 == Self.at + 360 && journey["arrival_unix"] as? Int64 == Self.at + 930)
        let ride = try #require((journey["legs"] as? [[String: Any]])?.first)
        #expect(ride["added_trip_id"] as? String == "X9" && ride["live"] as? Bool == true)
        #expect(ride["board_stop_name"] as? String == "Stop p1")
        let board = try #require(ride["board"] as? [String: Any], "\(ride)")
        #expect(board["trip_id"] as? String == "X9" && board["route_id"] as? String == "R1")
        #expect(board["mode"] as? String == "bus", "the route as the gateway knows it, not an unknown one")
        #expect(board["stop_id"] as? String == "p1" && board["stop_sequence"] as? Int == 8)
        #expect(board["realtime_unix"] as? Int64 == Self.at + 360 && board["scheduled_unix"] is NSNull)
        #expect(board["platform"] as? String == "1")
        let alight = try #require(ride["alight"] as? [String: Any])
        #expect(alight["stop_id"] as? String == "x" && alight["stop_sequence"] as? Int == 10)
        #expect(alight["scheduled_unix"] is NSNull && alight["delay_s"] is NSNull)
        #expect(alight["realtime_unix"] as? Int64 == Self.at + 930)
        let between = try #require(ride["intermediate_stops"] as? [[String: Any]])
        #expect(between.map { $0["stop_id"] as? String } == ["mid"])
        #expect(between.first?["scheduled_arrival_unix"] is NSNull)
    }

    /// A loop calls at p1 twice: the ride is the call at the planned time (+300), not the first one.
    @Test func aRideOnALoopingAddedTripIsTheCallAtItsPlannedTime() throws {
        let trip = LiveFixtures.trip(
            "X9", relationship: .added, routeId: "R1",
            stops: [
                ("p1", nil, Self.at - 600), ("x", nil, Self.at - 100), ("p1", nil, Self.at + 310),
                ("mid", nil, Self.at + 600),
                ("x", nil, Self.at + 900),
            ], firstSequence: 1)
        let state = RealtimeState(
            trips: [TripPrediction(trip)], sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)])
        let view = PlanLiveCheck.view(
            Self.addedAnswer, query: Self.query, state: state, alerts: AlertIndex([]), now: Self.at)
        guard case .ride(let r) = try #require(view.journeys.first?.legs.first, "\(view)") else {
            Issue.record("not a ride")
            return
        }
        #expect(r.row?.departure.stopSequence == 3 && r.ride.stops.last?.stopSequence == 5)
        #expect(r.departureUnix == Self.at + 310 && r.arrivalUnix == Self.at + 900)
    }

    @Test func aRideOnAnAddedTripThatNoLongerCallsThereIsDropped() throws {
        let view = PlanLiveCheck.view(
            Self.addedAnswer, query: Self.query, state: Self.addedState(calls: false), alerts: AlertIndex([]),
            now: Self.at)
        #expect(view.journeys.isEmpty)
        #expect(view.liveDropped.count == 1 && view.liveDropped.first?.contains("added trip X9") == true, "\(view)")
        let gone = PlanLiveCheck.view(
            Self.addedAnswer, query: Self.query,
            state: RealtimeState(trips: [], sources: [RealtimeSourceStatus(name: "tu", kind: .tripUpdates)]),
            alerts: AlertIndex([]), now: Self.at)
        #expect(gone.journeys.isEmpty && gone.reason?.contains("no longer runs") == true, "\(gone)")
        // The static service could not name the ride's stops: no way to say where to board, so no journey.
        var unnamed = Self.addedAnswer
        guard case .ride(var ride) = unnamed.journeys[0].legs[0] else { throw CancellationError() }
        ride.stops = []
        unnamed.journeys[0].legs[0] = .ride(ride)
        let blind = PlanLiveCheck.view(
            unnamed, query: Self.query, state: Self.addedState(), alerts: AlertIndex([]), now: Self.at)
        #expect(blind.journeys.isEmpty && blind.liveDropped.first?.contains("its stops are unknown") == true)
    }

    @Test func withoutALiveStateTheRideIsTheSchedule() throws {
        let view = PlanLiveCheck.view(Self.answer, query: Self.query, state: nil, alerts: AlertIndex([]), now: Self.at)
        let journey = try #require((try Self.json(view)["journeys"] as? [[String: Any]])?.first)
        #expect(journey["departure_unix"] as? Int64 == Self.at + 500)
        let ride = try #require((journey["legs"] as? [[String: Any]])?[1])
        let board = try #require(ride["board"] as? [String: Any])
        #expect(ride["live"] as? Bool == false && board["realtime_unix"] is NSNull)
        #expect(board["platform"] as? String == "1" && board["platform_changed"] as? Bool == false)
        #expect(board["alert_ids"] as? [String] == [])
    }
}
