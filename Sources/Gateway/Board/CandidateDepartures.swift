import GatewayProtocol
import TransitCore
import TransitModel

/// Departure rows for live visits the static board did not list, from the trip's static detail when the
/// gateway has it, else from the live data alone.
enum CandidateDepartures {
    /// From the trip's static detail (the instance's own, or for a copy the copied trip's: then its route and
    /// headsign only). Nil when the trip offers no departure there (no pickup, its last stop, not a stop of it).
    static func fromDetail(_ detail: TripDetail, _ c: LiveCandidate, platforms: [String: String?], origin: Int64?)
        -> DepartureRow?
    {
        let stop = c.stop
        guard !c.trip.added else {
            return fromLive(
                c, route: detail.route, headsign: detail.headsign, platforms: platforms,
                origin: origin ?? originOf(detail))
        }
        guard let index = detail.stops.firstIndex(where: { $0.stopSequence == stop.stopSequence }),
            index < detail.stops.count - 1, detail.stops[index].pickupType != 1
        else { return nil }
        let s = detail.stops[index]
        let boardStop = stop.assignedStopId ?? s.stopId
        let departure = Departure(
            tripId: c.trip.key.tripId, startTime: detail.startTime, route: detail.route,
            headsign: s.stopHeadsign ?? detail.headsign, stopId: boardStop, stopSequence: s.stopSequence,
            stopIndex: UInt32(index), serviceDate: detail.serviceDate, scheduledSecs: s.departureSecs,
            scheduledUnix: s.departureUnix, platform: s.platformCode,  // the change is the realtime part's
            wheelchairAccessible: detail.wheelchairAccessible, directionId: detail.directionId,
            frequencyBased: detail.frequencyBased)
        return DepartureRow(departure: departure, realtime: nil)
    }

    /// From the live data alone: an added trip, or any trip while the static service cannot be asked.
    /// `origin` is the unix time of the service day's noon minus 12 h (for `*_secs`). The headsign: the
    /// update's stop_headsign, else its trip_headsign, else `headsign` (the static one, when known). The start
    /// is the live instance key's (then part of the row's identity, as `frequencyBased` says), nil when it has none.
    static func fromLive(
        _ c: LiveCandidate, route: Route, headsign: String?, platforms: [String: String?], origin: Int64
    ) -> DepartureRow {
        let stop = c.stop
        let boardStop = stop.assignedStopId ?? stop.stopId
        let scheduled = stop.scheduledUnix ?? c.time
        let departure = Departure(
            tripId: c.trip.key.tripId, startTime: c.trip.key.startTime, route: route,
            headsign: stop.stopHeadsign ?? c.trip.headsign ?? headsign,
            stopId: boardStop, stopSequence: stop.stopSequence, stopIndex: UInt32(c.index),
            serviceDate: c.trip.key.serviceDate, scheduledSecs: Int32(clamping: scheduled - origin),
            scheduledUnix: scheduled, platform: platforms[stop.stopId] ?? nil, wheelchairAccessible: 0,
            directionId: c.trip.directionId, frequencyBased: c.trip.key.startTime != nil)
        return DepartureRow(departure: departure, realtime: nil)
    }

    /// The service day's origin of a trip detail (its first stop's unix minus secs).
    static func originOf(_ detail: TripDetail) -> Int64 {
        guard let first = detail.stops.first else { return 0 }
        return first.departureUnix - Int64(first.departureSecs)
    }

    /// A route the gateway knows nothing about (the static service was never reached): its id only, mode
    /// "other" (GTFS extended type 1700, miscellaneous).
    static func unknownRoute(_ id: String?) -> Route {
        Route(routeId: id ?? "", routeType: 1700, mode: Mode(routeType: 1700).rawValue, section: "#")
    }
}

/// Service-day origins (noon minus 12 h) by timezone and date, for rows built from live data.
enum ServiceDayOrigin {
    static func unix(serviceDate: ServiceDate, timezone: String?) -> Int64? {
        guard let timezone, let zone = try? ServiceTimeZone(identifier: timezone),
            let date = GTFSDate(yyyymmdd: Int(serviceDate))
        else { return nil }
        return zone.referenceUnix(of: date)
    }
}
