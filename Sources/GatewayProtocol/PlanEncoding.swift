import TransitModel

// The `plan` answer (GATEWAY.md "plan"): the planner's journeys, each ride decorated as a departures row at its
// boarding stop (the same row and encoder as a board: live times, prediction source, delay badge, occupancy,
// alerts), its alighting stop with its live arrival, its stops and its shape; walks; the alerts once.

/// A ride of a planned journey as the answer shows it.
public struct PlanRideView: Sendable, Hashable {
    public var ride: PlanRide
    /// The boarding stop as a departures row with its live part (nil for an added trip without static data).
    public var row: DepartureRow?
    /// Predicted arrival at the alighting stop (nil: none, the schedule holds).
    public var alightPredictedUnix: Int64?
    /// The times the journey uses (live when predicted).
    public var departureUnix: Int64
    public var arrivalUnix: Int64
    /// Whether those times are live predictions.
    public var live: Bool

    public init(
        ride: PlanRide, row: DepartureRow?, alightPredictedUnix: Int64?, departureUnix: Int64, arrivalUnix: Int64,
        live: Bool
    ) {
        self.ride = ride
        self.row = row
        self.alightPredictedUnix = alightPredictedUnix
        self.departureUnix = departureUnix
        self.arrivalUnix = arrivalUnix
        self.live = live
    }
}

public enum PlanLegView: Sendable, Hashable {
    case ride(PlanRideView)
    case walk(PlanWalk)
}

public struct PlanJourneyView: Sendable, Hashable {
    public var departureUnix: Int64
    public var arrivalUnix: Int64
    public var transfers: Int
    public var walkSeconds: Int
    public var legs: [PlanLegView]

    public init(departureUnix: Int64, arrivalUnix: Int64, transfers: Int, walkSeconds: Int, legs: [PlanLegView]) {
        self.departureUnix = departureUnix
        self.arrivalUnix = arrivalUnix
        self.transfers = transfers
        self.walkSeconds = walkSeconds
        self.legs = legs
    }
}

/// `data` of a `plan` answer.
public struct PlanView: Sendable, Hashable {
    public var journeys: [PlanJourneyView]
    public var alerts: [AlertView]
    public var laterCursor: String?
    public var cut: Bool
    public var reason: String?
    public var timezone: String?
    /// Journeys the planner found that the live state made impossible (a cancelled ride, a skipped stop, a
    /// change a delay broke), left out, each with why.
    public var liveDropped: [String]
    /// Live times were asked for (`realtime`) but the planner searched the schedule: it has no current live state
    /// (the realtime publisher silent for its silence limit, or not followed by the static service).
    public var realtimeStale: Bool

    public init(
        journeys: [PlanJourneyView], alerts: [AlertView] = [], laterCursor: String? = nil, cut: Bool = false,
        reason: String? = nil, timezone: String? = nil, liveDropped: [String] = [], realtimeStale: Bool = false
    ) {
        self.realtimeStale = realtimeStale
        self.journeys = journeys
        self.alerts = alerts
        self.laterCursor = laterCursor
        self.cut = cut
        self.reason = reason
        self.timezone = timezone
        self.liveDropped = liveDropped
    }
}

extension PlanView {
    /// The planner's answer as it stands, without a live view (the static debug client's).
    public init(schedule answer: PlanAnswer) {
        let journeys = answer.journeys.map { j in
            PlanJourneyView(
                departureUnix: j.departureUnix, arrivalUnix: j.arrivalUnix, transfers: j.transfers,
                walkSeconds: j.walkSeconds,
                legs: j.legs.map { leg in
                    switch leg {
                    case .walk(let w): .walk(w)
                    case .ride(let r):
                        .ride(
                            PlanRideView(
                                ride: r, row: r.board.map { DepartureRow(departure: $0) }, alightPredictedUnix: nil,
                                departureUnix: r.plannedDepartureUnix, arrivalUnix: r.plannedArrivalUnix, live: r.live))
                    }
                })
        }
        self.init(journeys: journeys, cut: answer.cut, reason: answer.reason, timezone: answer.timezone)
    }
}

extension JSONWriter {
    public mutating func planData(_ plan: PlanView, at: Int64) {
        beginObject()
        key("timezone"); string(plan.timezone)
        key("journeys"); beginArray()
        for j in plan.journeys { planJourney(j, at: at) }
        endArray()
        key("later_cursor"); string(plan.laterCursor)
        key("cut"); bool(plan.cut)
        key("reason"); string(plan.reason)
        key("live_dropped"); strings(plan.liveDropped)
        key("realtime_stale"); bool(plan.realtimeStale)
        key("alerts"); beginArray()
        for a in plan.alerts { alert(a) }
        endArray()
        endObject()
    }

    mutating func planJourney(_ j: PlanJourneyView, at: Int64) {
        beginObject()
        key("departure_unix"); int(j.departureUnix)
        key("arrival_unix"); int(j.arrivalUnix)
        key("duration_s"); int(j.arrivalUnix - j.departureUnix)
        key("transfers"); int(j.transfers)
        key("walk_s"); int(j.walkSeconds)
        key("legs"); beginArray()
        for leg in j.legs {
            switch leg {
            case .ride(let r): planRide(r, at: at)
            case .walk(let w): planWalk(w)
            }
        }
        endArray()
        endObject()
    }

    mutating func planRide(_ r: PlanRideView, at: Int64) {
        let ride = r.ride
        // An added trip has no schedule: its stops' times are the live ones it was planned with.
        let scheduled = ride.addedTripId == nil
        beginObject()
        key("type"); string("transit")
        key("departure_unix"); int(r.departureUnix)
        key("arrival_unix"); int(r.arrivalUnix)
        key("live"); bool(r.live)
        key("added_trip_id"); string(ride.addedTripId)
        key("board")
        if let row = r.row { departure(row, at: at) } else { null() }
        key("board_stop_name"); string(ride.stops.first?.stopName)
        key("alight")
        if let last = ride.stops.last {
            beginObject()
            key("stop_id"); string(last.stopId)
            key("stop_name"); string(last.stopName)
            key("platform"); string(last.platformCode)
            key("stop_sequence"); int(last.stopSequence)
            key("scheduled_unix"); int(scheduled ? last.arrivalUnix : nil)
            key("realtime_unix"); int(r.alightPredictedUnix ?? (scheduled ? nil : last.arrivalUnix))
            key("delay_s"); int(scheduled ? r.alightPredictedUnix.map { $0 - last.arrivalUnix } : nil)
            endObject()
        } else {
            null()
        }
        key("intermediate_stops"); beginArray()
        if ride.stops.count > 2 {
            for s in ride.stops[1..<(ride.stops.count - 1)] {
                beginObject()
                key("stop_id"); string(s.stopId)
                key("stop_name"); string(s.stopName)
                key("scheduled_arrival_unix"); int(scheduled ? s.arrivalUnix : nil)
                key("scheduled_departure_unix"); int(scheduled ? s.departureUnix : nil)
                endObject()
            }
        }
        endArray()
        key("polyline"); string(ride.polyline)
        endObject()
    }

    mutating func planWalk(_ w: PlanWalk) {
        beginObject()
        key("type"); string("walk")
        key("from_stop_id"); string(w.fromStopId)
        key("to_stop_id"); string(w.toStopId)
        key("from_stop_name"); string(w.fromStopName)
        key("to_stop_name"); string(w.toStopName)
        key("distance_m"); double(w.distanceMetres)
        key("duration_s"); int(w.durationSeconds)
        endObject()
    }
}
