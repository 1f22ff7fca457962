import TransitModel

/// The REP queries other than snapshots, answered from a published state.
enum LiveQueries {
    static func trip(_ q: LiveTripQuery, in state: PublishedState) -> Result<RealtimeResult, ServiceError> {
        guard !q.tripId.isEmpty else { return .failure(ServiceError(.invalidArgument, "trip_id is empty")) }
        var found: [LiveTrip] = []
        for (instance, trip) in state.trips where instance.tripId == q.tripId {
            if let date = q.serviceDate, instance.serviceDate != date { continue }
            if let start = q.startSecs, instance.startSecs != start { continue }
            found.append(trip)
        }
        guard !found.isEmpty else {
            return .failure(
                ServiceError(
                    .notFound,
                    "no live trip update for trip \"\(q.tripId)\""
                        + (q.serviceDate.map { " on \($0)" } ?? "")))
        }
        found.sort {
            ($0.instance.serviceDate, $0.instance.startSecs ?? -1) < (
                $1.instance.serviceDate, $1.instance.startSecs ?? -1
            )
        }
        return .success(.trips(found))
    }

    /// The instances with a stop at `stopId` (or assigned to it), by predicted-else-scheduled time.
    static func stop(_ q: LiveStopQuery, in state: PublishedState) -> Result<RealtimeResult, ServiceError> {
        guard !q.stopId.isEmpty else { return .failure(ServiceError(.invalidArgument, "stop_id is empty")) }
        guard (1...LiveStopQuery.maxLimit).contains(q.limit) else {
            return .failure(ServiceError(.invalidArgument, "limit must be 1…\(LiveStopQuery.maxLimit), got \(q.limit)"))
        }
        if let from = q.fromUnix, let to = q.toUnix, from > to {
            return .failure(ServiceError(.invalidArgument, "from_unix \(from) is after to_unix \(to)"))
        }
        var visits: [(time: Int64, visit: LiveStopVisit)] = []
        for trip in state.trips.values {
            for (index, stop) in trip.stops.enumerated()
            where stop.stopId == q.stopId || stop.assignedStopId == q.stopId {
                let time = stop.time ?? 0
                if let from = q.fromUnix, time < from { continue }
                if let to = q.toUnix, time > to { continue }
                visits.append(
                    (
                        time,
                        LiveStopVisit(
                            trip: trip.instance, relationship: trip.relationship, routeId: trip.routeId,
                            source: trip.source,
                            stop: stop, stopIndex: index, isLastStop: index == trip.stops.count - 1)
                    ))
            }
        }
        visits.sort { ($0.time, $0.visit.trip.tripId) < ($1.time, $1.visit.trip.tripId) }
        return .success(.visits(visits.prefix(q.limit).map(\.visit)))
    }

    static func vehicles(_ q: LiveVehicleQuery, in state: PublishedState) -> Result<RealtimeResult, ServiceError> {
        let matches: (LiveVehicle) -> Bool
        switch q {
        case .all: matches = { _ in true }
        case .trip(let id): matches = { $0.tripId == id || $0.trip?.tripId == id }
        case .route(let id): matches = { $0.routeId == id }
        case .vehicle(let id): matches = { $0.vehicleId == id }
        }
        var found = state.vehicles.values.filter(matches)
        found.sort { ($0.vehicleId ?? "", $0.key) < ($1.vehicleId ?? "", $1.key) }
        return .success(.vehicles(found))
    }

    /// Alerts for which every given field is named by some informed entity (and active at `activeAt`).
    static func alerts(_ q: LiveAlertQuery, in state: PublishedState) -> Result<RealtimeResult, ServiceError> {
        var found: [LiveAlert] = []
        for alert in state.alerts.values {
            if let at = q.activeAt, !alert.isActive(at: at) { continue }
            let entities = alert.informedEntities
            if let id = q.stopId, !entities.contains(where: { $0.stopId == id }) { continue }
            if let id = q.routeId, !entities.contains(where: { $0.routeId == id }) { continue }
            if let type = q.routeType, !entities.contains(where: { $0.routeType == type }) { continue }
            if let id = q.tripId, !entities.contains(where: { $0.tripId == id }) { continue }
            if let id = q.agencyId, !entities.contains(where: { $0.agencyId == id }) { continue }
            found.append(alert)
        }
        found.sort { $0.key < $1.key }
        return .success(.alerts(found))
    }
}
