// Journey planning's query and answer (PlanRequest, PlanAnswer) <-> protobuf-c, like MapCodec: optional Swift
// fields are absent when nil; required ones must be on the wire.
import TransitModel
import TransitProtoC

extension ProtoArena {
    func proto(_ p: PlanPlace) -> UnsafeMutablePointer<Transit__PlanPlace> {
        message(transit__plan_place__init) { m in
            switch p {
            case .stop(let id):
                m.stop_id = string(id)
            case .coordinate(let lat, let lon):
                (m.has_lat, m.lat) = present(lat)
                (m.has_lon, m.lon) = present(lon)
            }
        }
    }

    func proto(_ q: PlanRequest) -> UnsafeMutablePointer<Transit__PlanRequest> {
        message(transit__plan_request__init) { m in
            m.from = proto(q.from)
            m.to = proto(q.to)
            (m.has_at, m.at) = ifPresent(q.at)
            (m.has_arrive_by, m.arrive_by) = ifPresent(q.arriveBy)
            (m.has_max_transfers, m.max_transfers) = present(UInt32(clamping: q.maxTransfers))
            (m.has_transfer_slack_s, m.transfer_slack_s) = present(UInt32(clamping: q.transferSlackSeconds))
            (m.has_walk_radius_m, m.walk_radius_m) = present(q.walkRadiusMetres)
            (m.has_walk_speed_mps, m.walk_speed_mps) = present(q.walkSpeed)
            (m.has_access_radius_m, m.access_radius_m) = present(q.accessRadiusMetres)
            (m.n_modes, m.modes) = strings(q.modes)
            (m.has_wheelchair, m.wheelchair) = present(cBool(q.wheelchair))
            (m.has_window_s, m.window_s) = present(UInt32(clamping: q.windowSeconds))
            (m.has_limit, m.limit) = present(UInt32(clamping: q.limit))
            (m.has_realtime, m.realtime) = present(cBool(q.realtime))
            (m.has_budget_ms, m.budget_ms) = present(UInt32(clamping: q.budgetMilliseconds))
        }
    }

    func proto(_ a: PlanAnswer) -> UnsafeMutablePointer<Transit__PlanAnswer> {
        message(transit__plan_answer__init) { m in
            (m.n_journeys, m.journeys) = messages(a.journeys) { j in
                message(transit__plan_journey__init) { m in
                    (m.has_departure_unix, m.departure_unix) = present(j.departureUnix)
                    (m.has_arrival_unix, m.arrival_unix) = present(j.arrivalUnix)
                    (m.has_transfers, m.transfers) = present(UInt32(clamping: j.transfers))
                    (m.has_walk_s, m.walk_s) = present(UInt32(clamping: j.walkSeconds))
                    (m.n_legs, m.legs) = messages(j.legs) { proto($0) }
                }
            }
            (m.has_cut, m.cut) = present(cBool(a.cut))
            m.reason = string(a.reason)
            (m.has_later_at, m.later_at) = ifPresent(a.laterAt)
            (m.has_realtime_used, m.realtime_used) = present(cBool(a.realtimeUsed))
            m.timezone = string(a.timezone)
        }
    }

    func proto(_ leg: PlanLeg) -> UnsafeMutablePointer<Transit__PlanLeg> {
        message(transit__plan_leg__init) { m in
            switch leg {
            case .ride(let r):
                m.board = r.board.map { proto($0) }
                (m.n_stops, m.stops) = messages(r.stops) { proto($0) }
                (m.has_planned_departure_unix, m.planned_departure_unix) = present(r.plannedDepartureUnix)
                (m.has_planned_arrival_unix, m.planned_arrival_unix) = present(r.plannedArrivalUnix)
                (m.has_live, m.live) = present(cBool(r.live))
                m.polyline = string(r.polyline)
                m.added_trip_id = string(r.addedTripId)
            case .walk(let w):
                (m.has_walk, m.walk) = present(1)
                m.from_stop_id = string(w.fromStopId)
                m.to_stop_id = string(w.toStopId)
                m.from_stop_name = string(w.fromStopName)
                m.to_stop_name = string(w.toStopName)
                (m.has_distance_m, m.distance_m) = present(w.distanceMetres)
                (m.has_duration_s, m.duration_s) = present(UInt32(clamping: w.durationSeconds))
            }
        }
    }
}

extension PlanPlace {
    init(proto m: borrowing Transit__PlanPlace) throws(ProtoDecodeError) {
        if let id = optionalString(m.stop_id) {
            self = .stop(id)
        } else {
            self = .coordinate(
                lat: try requiredValue(m.has_lat, m.lat, "lat"), lon: try requiredValue(m.has_lon, m.lon, "lon"))
        }
    }
}

extension PlanRequest {
    init(proto m: borrowing Transit__PlanRequest) throws(ProtoDecodeError) {
        self.init(
            from: try requiredMessage(m.from, "from", PlanPlace.init(proto:)),
            to: try requiredMessage(m.to, "to", PlanPlace.init(proto:)),
            at: optionalValue(m.has_at, m.at), arriveBy: optionalValue(m.has_arrive_by, m.arrive_by))
        if let v = optionalValue(m.has_max_transfers, m.max_transfers) { maxTransfers = Int(v) }
        if let v = optionalValue(m.has_transfer_slack_s, m.transfer_slack_s) { transferSlackSeconds = Int(v) }
        if let v = optionalValue(m.has_walk_radius_m, m.walk_radius_m) { walkRadiusMetres = v }
        if let v = optionalValue(m.has_walk_speed_mps, m.walk_speed_mps) { walkSpeed = v }
        if let v = optionalValue(m.has_access_radius_m, m.access_radius_m) { accessRadiusMetres = v }
        modes = repeatedStrings(m.n_modes, m.modes)
        wheelchair = (optionalValue(m.has_wheelchair, m.wheelchair) ?? 0) != 0
        if let v = optionalValue(m.has_window_s, m.window_s) { windowSeconds = Int(v) }
        if let v = optionalValue(m.has_limit, m.limit) { limit = Int(v) }
        realtime = (optionalValue(m.has_realtime, m.realtime) ?? 1) != 0
        if let v = optionalValue(m.has_budget_ms, m.budget_ms) { budgetMilliseconds = Int(v) }
    }
}

extension PlanAnswer {
    init(proto m: borrowing Transit__PlanAnswer) throws(ProtoDecodeError) {
        self.init(
            journeys: try repeatedMessages(m.n_journeys, m.journeys, "journeys", PlanJourney.init(proto:)),
            cut: (optionalValue(m.has_cut, m.cut) ?? 0) != 0, reason: optionalString(m.reason),
            laterAt: optionalValue(m.has_later_at, m.later_at),
            realtimeUsed: (optionalValue(m.has_realtime_used, m.realtime_used) ?? 0) != 0,
            timezone: optionalString(m.timezone))
    }
}

extension PlanJourney {
    init(proto m: borrowing Transit__PlanJourney) throws(ProtoDecodeError) {
        self.init(
            departureUnix: try requiredValue(m.has_departure_unix, m.departure_unix, "departure_unix"),
            arrivalUnix: try requiredValue(m.has_arrival_unix, m.arrival_unix, "arrival_unix"),
            transfers: Int(try requiredValue(m.has_transfers, m.transfers, "transfers")),
            walkSeconds: Int(optionalValue(m.has_walk_s, m.walk_s) ?? 0),
            legs: try repeatedMessages(m.n_legs, m.legs, "legs", PlanLeg.init(proto:)))
    }
}

extension PlanLeg {
    init(proto m: borrowing Transit__PlanLeg) throws(ProtoDecodeError) {
        if (optionalValue(m.has_walk, m.walk) ?? 0) != 0 {
            self = .walk(
                PlanWalk(
                    fromStopId: optionalString(m.from_stop_id), toStopId: optionalString(m.to_stop_id),
                    fromStopName: optionalString(m.from_stop_name), toStopName: optionalString(m.to_stop_name),
                    distanceMetres: optionalValue(m.has_distance_m, m.distance_m) ?? 0,
                    durationSeconds: Int(try requiredValue(m.has_duration_s, m.duration_s, "duration_s"))))
            return
        }
        self = .ride(
            PlanRide(
                board: try optionalMessage(m.board, "board", Departure.init(proto:)),
                stops: try repeatedMessages(m.n_stops, m.stops, "stops", TripStop.init(proto:)),
                plannedDepartureUnix: try requiredValue(
                    m.has_planned_departure_unix, m.planned_departure_unix, "planned_departure_unix"),
                plannedArrivalUnix: try requiredValue(
                    m.has_planned_arrival_unix, m.planned_arrival_unix, "planned_arrival_unix"),
                live: (optionalValue(m.has_live, m.live) ?? 0) != 0, polyline: optionalString(m.polyline),
                addedTripId: optionalString(m.added_trip_id)))
    }
}
