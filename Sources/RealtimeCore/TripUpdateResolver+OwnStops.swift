import GTFSRealtime
import TransitCore
import TransitModel

/// Trips whose stops and times come from the update itself: NEW, ADDED without a static copy, and
/// REPLACEMENT.
///
/// Each stop time update with a stop_id (or, for a replacement, a stop of the replaced pattern, or an
/// assigned stop) becomes a stop, in feed order; others are counted as unmatched. Scheduled times come
/// from StopTimeEvent.scheduled_time, else (replacement) from the replaced instance's schedule when the
/// update names one of its stops; predictions from `time`, else scheduled + `delay`. A missing arrival
/// takes the departure and vice versa; the departure is never before the arrival. SKIPPED stops are
/// marked; NO_DATA stops and stops without any time have status `.noData`. There is no propagation:
/// such trips list all their stops.
extension TripUpdateResolver {
    /// The scheduled times of the instance a REPLACEMENT replaces, per update.
    struct ReplacedSchedule {
        var stops: [PatternStop]
        var baseUnix: Int64
        /// Index into `stops` per stop time update, -1 when it names none of them.
        var stopIndexOfUpdate: [Int]
    }

    mutating func resolveReplacement(_ update: TripUpdate, trip: StaticTrip, now: Int64) throws(TripUpdateDrop)
        -> TripResolution
    {
        let instance = try staticInstance(update, trip: trip, now: now)
        var stopIndexOfUpdate = [Int](repeating: -1, count: update.stopTimeUpdates.count)
        for pair in matcher.pairs {
            stopIndexOfUpdate[StopUpdateMatcher.updateIndex(pair)] = StopUpdateMatcher.stopIndex(pair)
        }
        let replaced = ReplacedSchedule(
            stops: trip.stops, baseUnix: instance.baseUnix, stopIndexOfUpdate: stopIndexOfUpdate)
        let (stops, unmatched) = try ownStops(update, replaced: replaced)
        let schedule = trip.schedule
        return .resolved(
            header(
                update, key: instance.key, relationship: .replacement, staticTripId: schedule.tripId,
                routeId: schedule.routeId, directionId: schedule.directionId, stops: stops, unmatched: unmatched))
    }

    mutating func resolveOwnStops(
        _ update: TripUpdate, relationship: ResolvedTrip.Relationship, now: Int64
    ) throws(TripUpdateDrop) -> TripResolution {
        let properties = update.tripProperties
        guard let rtTripId = update.trip.tripId.nonEmpty ?? properties?.tripId.nonEmpty else {
            throw TripUpdateDrop(.malformed, tripId: nil, "\(relationship.rawValue) trip without trip_id")
        }
        let (stops, unmatched) = try ownStops(update, replaced: nil)
        guard !stops.isEmpty else {
            throw TripUpdateDrop(
                .malformed, tripId: rtTripId,
                "\(relationship.rawValue) trip not in the static schedule and without stop_time_updates naming stops")
        }
        guard let key = try addedTripKey(update, tripId: rtTripId, firstTime: Self.firstTime(stops), now: now) else {
            throw TripUpdateDrop(.malformed, tripId: rtTripId, "cannot date the trip")
        }
        return .resolved(
            header(
                update, key: key, relationship: relationship, staticTripId: nil,
                routeId: update.trip.routeId.nonEmpty.map(ids.staticId),
                directionId: update.trip.directionId.map { Int($0) },
                stops: stops, unmatched: unmatched))
    }

    /// The key of a trip that is not in the static data: its id, start_date (else the local date of its
    /// first time, taking start_time into account; else of `now`) and start_time. nil when there is
    /// nothing to date it by (no start_date, no times, no `now`).
    mutating func addedTripKey(
        _ update: TripUpdate, tripId: String, firstTime: Int64? = nil, now: Int64? = nil
    ) throws(TripUpdateDrop) -> TripInstanceKey? {
        let properties = update.tripProperties
        let startText = update.trip.startTime.nonEmpty ?? properties?.startTime.nonEmpty
        let start = try startText.map { text throws(TripUpdateDrop) in try parseStartTime(text, tripId: tripId) }
        let date: ServiceDate
        if let text = update.trip.startDate.nonEmpty ?? properties?.startDate.nonEmpty {
            guard let parsed = GTFSTimeText.parseDate(text) else {
                throw TripUpdateDrop(.malformed, tripId: tripId, "start_date \"\(text)\" is not a YYYYMMDD date")
            }
            date = parsed
        } else {
            guard let anchor = firstTime ?? now else { return nil }
            let zone = try self.zone(options.timeZone, tripId: tripId)
            // The service day's reference is at (about) local midnight: from the first time minus the start
            // plus half a day, the local date is the service date even for starts past 24:00:00.
            let probe = start.map { anchor - Int64($0) + 43_200 } ?? anchor
            date = clock.localDate(zone: zone, unix: probe).serviceDate
        }
        return TripInstanceKey(tripId: ids.staticId(tripId), serviceDate: date, startSecs: start)
    }

    /// The update's own stops, one per stop time update (each takes its update's times and properties).
    func ownStops(_ update: TripUpdate, replaced: ReplacedSchedule?) throws(TripUpdateDrop) -> ([LiveStop], Int) {
        var result: [LiveStop] = []
        result.reserveCapacity(update.stopTimeUpdates.count)
        var unmatched = 0
        for (updateIndex, stopUpdate) in update.stopTimeUpdates.enumerated() {
            var patternStop: PatternStop?
            if let replaced, replaced.stopIndexOfUpdate[updateIndex] >= 0 {
                patternStop = replaced.stops[replaced.stopIndexOfUpdate[updateIndex]]
            }
            let assigned = stopUpdate.stopTimeProperties?.assignedStopId.nonEmpty
            guard let stopId = stopUpdate.stopId.nonEmpty ?? patternStop?.stopId ?? assigned else {
                unmatched += 1
                continue
            }
            var scheduledArrival = PlausibleTime.filter(stopUpdate.arrival?.scheduledTime)
            var scheduledDeparture = PlausibleTime.filter(stopUpdate.departure?.scheduledTime)
            if scheduledArrival == nil, scheduledDeparture == nil, let patternStop, let replaced {
                scheduledArrival = replaced.baseUnix + Int64(patternStop.arrivalOffset)
                scheduledDeparture = replaced.baseUnix + Int64(patternStop.departureOffset)
            }
            scheduledArrival = scheduledArrival ?? scheduledDeparture
            scheduledDeparture = scheduledDeparture ?? scheduledArrival
            var stop = LiveStop(
                stopId: stopId,
                stopSequence: stopUpdate.stopSequence ?? patternStop?.stopSequence ?? UInt32(result.count),
                assignedStopId: assigned == stopId ? nil : assigned, scheduledArrival: scheduledArrival,
                scheduledDeparture: scheduledDeparture, status: .noData)
            switch stopUpdate.scheduleRelationship ?? .scheduled {
            case .skipped:
                stop.status = .skipped
            case .scheduled, .unscheduled:
                let arrival = try eventTime(
                    stopUpdate.arrival, scheduled: scheduledArrival, update, patternStop, "arrival")
                let departure = try eventTime(
                    stopUpdate.departure, scheduled: scheduledDeparture, update, patternStop, "departure")
                if let predictedArrival = arrival ?? departure, let predictedDeparture = departure ?? arrival {
                    stop.setPrediction(arrival: predictedArrival, departure: predictedDeparture)
                }
            case .noData, .unknown:
                break
            }
            stop.takeProperties(of: stopUpdate)
            result.append(stop)
        }
        return (result, unmatched)
    }

    static func firstTime(_ stops: [LiveStop]) -> Int64? {
        for stop in stops {
            if let time = stop.scheduledDeparture ?? stop.scheduledArrival ?? stop.predictedDeparture
                ?? stop.predictedArrival
            {
                return time
            }
        }
        return nil
    }
}
