import GatewayProtocol
import TransitCore
import TransitModel

/// The pure steps of a `trip` answered from the live state (GATEWAY.md "trip"): which live instance the
/// request means, and the answer built from it and the static facts the gateway could learn.
enum LiveTripAssembly {
    /// The fresh, not deleted live instance of `tripId` on `serviceDate` (any date when nil) starting at
    /// `startTime` (any start when nil; `H:MM:SS` or `HH:MM:SS`), the one running nearest to `at` when several
    /// match: a running one wins, then the nearest, ties to the later. Nil when the live state holds none.
    static func instance(
        tripId: String, serviceDate: ServiceDate?, startTime: String?, at: Int64, state: RealtimeState
    ) -> TripPrediction? {
        let wantedStart = startTime.flatMap { try? GTFSTime.parse($0) }
        var best: (trip: TripPrediction, distance: Int64, first: Int64)?
        for (key, trip) in state.trips where key.tripId == tripId {
            if trip.deleted || state.isStale(source: trip.source) { continue }
            if let serviceDate, key.serviceDate != serviceDate { continue }
            if let wantedStart, key.startSecs.map({ Int($0) }) != wantedStart { continue }
            let (first, last) = span(trip)
            let distance: Int64
            switch (first, last) {
            case let (first?, _) where at < first: distance = first - at
            case let (_, last?) where at > last: distance = at - last
            case (nil, nil): distance = .max
            default: distance = 0
            }
            let start = first ?? .min
            if let current = best,
                distance > current.distance || (distance == current.distance && start <= current.first)
            {
                continue
            }
            best = (trip, distance, start)
        }
        return best?.trip
    }

    /// From the first departure to the last arrival, predicted else scheduled; nil when no stop has a time.
    static func span(_ trip: TripPrediction) -> (first: Int64?, last: Int64?) {
        var first: Int64?, last: Int64?
        for stop in trip.stops {
            let leave =
                stop.predictedDeparture ?? stop.predictedArrival ?? stop.scheduledDeparture ?? stop.scheduledArrival
            let arrive =
                stop.predictedArrival ?? stop.predictedDeparture ?? stop.scheduledArrival ?? stop.scheduledDeparture
            if let leave { first = min(first ?? leave, leave) }
            if let arrive { last = max(last ?? arrive, arrive) }
        }
        return (first, last)
    }

    /// Each stop's `alert_ids` and the trip's `alerts`, as for a static trip (`LiveMerge.alerts`).
    static func alerts(_ view: LiveTripView, index: AlertIndex) -> RowAlerts {
        let rows = view.stops.map { stop in
            AlertIndex.Row(
                stopId: stop.stopId, parentStation: stop.parentStation, routeId: view.route.routeId,
                routeType: view.route.routeType, agencyId: view.route.agencyId, directionId: view.directionId,
                tripId: view.tripId,
                time: stop.predictedDepartureUnix ?? stop.predictedArrivalUnix ?? stop.scheduledDepartureUnix
                    ?? stop.scheduledArrivalUnix ?? 0)
        }
        return RowAlerts(rows, index: index)
    }

    /// The static trip whose details describe a live copy (DUPLICATED, or ADDED with a static trip_id): the
    /// copied trip on the copy's date; nil for other instances.
    static func copiedKey(_ trip: TripPrediction) -> TripInstanceKey? {
        guard trip.added, let copied = trip.staticTripId, copied != trip.key.tripId else { return nil }
        return TripInstanceKey(tripId: copied, serviceDate: trip.key.serviceDate)
    }

    /// What the gateway learnt from the static data about a live trip; every part may be missing.
    struct Known {
        /// The trip's static detail: the copied trip's for a copy, the instance's own (cached) otherwise.
        var detail: TripDetail?
        var route: Route?
        /// Static stops by stop id.
        var stops: [String: Stop] = [:]
        /// The timezone to count `*_secs` in when the detail gives none.
        var timezone: String?
    }

    /// The answer for `trip` with what is known. Predictions of a cancelled trip and of skipped stops are left
    /// out (as on boards).
    static func view(
        _ trip: TripPrediction, known: Known, vehicle: VehicleSnapshot?, madeUnix: Int64? = nil, now: Int64 = 0
    ) -> LiveTripView {
        let detail = known.detail
        var detailStops: [UInt32: TripStop] = [:]
        for stop in detail?.stops ?? [] { detailStops[stop.stopSequence] = stop }
        let timezone = detail?.timezone ?? known.timezone
        let origin = ServiceDayOrigin.unix(serviceDate: trip.key.serviceDate, timezone: timezone)

        var stops: [LiveTripStop] = []
        stops.reserveCapacity(trip.stops.count)
        for s in trip.stops {
            let stopId = s.stopId
            let predicted = !trip.cancelled && !s.skipped
            var stop = LiveTripStop(
                stopId: stopId, stopSequence: s.stopSequence, scheduledArrivalUnix: s.scheduledArrival,
                scheduledDepartureUnix: s.scheduledDeparture,
                predictedArrivalUnix: predicted ? s.predictedArrival : nil,
                predictedDepartureUnix: predicted ? s.predictedDeparture : nil,
                skipped: s.skipped, stopHeadsign: s.stopHeadsign)
            if !trip.cancelled { stop.platformChange = s.platformChange }
            // The update's pickup/drop-off replace the schedule's (below) where it gives them.
            stop.pickupType = s.pickupType.map(Int.init)
            stop.dropOffType = s.dropOffType.map(Int.init)
            if predicted, s.predictedArrival != nil || s.predictedDeparture != nil {
                stop.predictionSource = s.predictionSource
                stop.predictionAgeSeconds = s.predictionSource.age(
                    tripTimestamp: madeUnix, feedTimestamp: nil, now: now)
            }
            if let d = detailStops[s.stopSequence], d.stopId == stopId {
                stop.stopName = d.stopName
                stop.lat = d.lat
                stop.lon = d.lon
                stop.platformCode = d.platformCode
                stop.wheelchairBoarding = d.wheelchairBoarding
                stop.parentStation = d.parentStation
                stop.pickupType = stop.pickupType ?? d.pickupType
                stop.dropOffType = stop.dropOffType ?? d.dropOffType
                stop.stopHeadsign = s.stopHeadsign ?? d.stopHeadsign
            } else if let info = known.stops[stopId] {
                stop.stopName = info.name
                stop.lat = info.lat
                stop.lon = info.lon
                stop.platformCode = info.platformCode
                stop.wheelchairBoarding = info.wheelchairBoarding
                stop.parentStation = info.parentStation
            }
            stops.append(stop)
        }

        var startTime = trip.key.startTime
        if startTime == nil, let origin, let first = trip.stops.first {
            let time =
                first.scheduledDeparture ?? first.scheduledArrival ?? first.predictedDeparture ?? first.predictedArrival
            startTime = time.map { GTFSTime.format(Int($0 - origin)) }
        }
        let knownRoute = detail?.route ?? known.route
        let headsign = trip.headsign ?? detail?.headsign
        return LiveTripView(
            tripId: trip.key.tripId, serviceDate: trip.key.serviceDate, startTime: startTime,
            frequencyBased: !trip.added && trip.key.startSecs != nil,
            route: knownRoute ?? CandidateDepartures.unknownRoute(trip.routeId),
            headsign: headsign, shortName: detail?.shortName,
            directionId: trip.directionId ?? detail?.directionId,
            blockId: detail?.blockId, shapeId: detail?.shapeId, wheelchairAccessible: detail?.wheelchairAccessible,
            bikesAllowed: detail?.bikesAllowed,
            timezone: timezone, origin: origin, cancelled: trip.cancelled, added: trip.added,
            vehicle: vehicle?.described(route: knownRoute, headsign: headsign), stops: stops)
    }
}
