import GTFSRealtime
import TransitCore
import TransitModel

/// Updates about static trips: scheduled/unscheduled instances, cancellations, deletions and shifted
/// copies (DUPLICATED, ADDED with a start_time).
extension TripUpdateResolver {
    mutating func resolveStatic(
        _ update: TripUpdate, relationship: TripScheduleRelationship, trip: StaticTrip, now: Int64
    ) throws(TripUpdateDrop) -> TripResolution {
        let instance = try staticInstance(update, trip: trip, now: now)
        let schedule = trip.schedule
        let kind: ResolvedTrip.Relationship
        let stops: [LiveStop]
        var unmatched = matcher.unmatched
        switch relationship {
        case .deleted:
            return .deleted(instance.key)
        case .canceled:
            kind = .canceled
            stops = scheduleOnly(trip.stops, baseUnix: instance.baseUnix)
            unmatched = 0
        case .unscheduled:
            kind = .unscheduled
            stops = try propagate(update, stops: trip.stops, baseUnix: instance.baseUnix)
        default:
            kind = .scheduled
            stops = try propagate(update, stops: trip.stops, baseUnix: instance.baseUnix)
        }
        var resolved = header(
            update, key: instance.key, relationship: kind, staticTripId: schedule.tripId, routeId: schedule.routeId,
            directionId: schedule.directionId, stops: stops, unmatched: unmatched)
        if kind != .canceled { noteMismatches(&resolved) }
        return .resolved(resolved)
    }

    /// The static trip shifted so its first departure is at the new start (trip_properties for
    /// DUPLICATED, the descriptor for ADDED), on the new date; stop time updates apply to the copy with
    /// the usual rules (delays relative to the shifted schedule, times as given).
    mutating func resolveCopy(
        _ update: TripUpdate, relationship: ResolvedTrip.Relationship, trip: StaticTrip, now: Int64
    ) throws(TripUpdateDrop) -> TripResolution {
        let schedule = trip.schedule
        let tripId = update.trip.tripId
        let newTripId: String
        let startText: String?
        let dateText: String?
        if relationship == .duplicated {
            let properties = update.tripProperties
            guard let id = properties?.tripId.nonEmpty else {
                throw TripUpdateDrop(.malformed, tripId: tripId, "DUPLICATED trip without trip_properties.trip_id")
            }
            newTripId = id
            startText = properties?.startTime.nonEmpty ?? update.trip.startTime.nonEmpty
            dateText = properties?.startDate.nonEmpty ?? update.trip.startDate.nonEmpty
        } else {
            newTripId = tripId ?? ""
            startText = update.trip.startTime.nonEmpty
            dateText = update.trip.startDate.nonEmpty
        }
        guard let startText else {
            throw TripUpdateDrop(.malformed, tripId: tripId, "\(relationship.rawValue) trip without a start_time")
        }
        let start = try parseStartTime(startText, tripId: tripId)
        let zone = try self.zone(schedule.timezone, tripId: tripId)
        let baseSecs = Int64(start) - Int64(trip.stops[0].departureOffset)
        matcher.match(update.stopTimeUpdates, stops: trip.stops)
        // A copy may run on any date (not only those of the original's service).
        let date = try serviceDate(
            update, explicit: dateText, zone: zone, stops: trip.stops, baseSecs: baseSecs, runsOn: nil, now: now)
        let baseUnix = clock.referenceUnix(zone: zone, date: date) + baseSecs
        let stops = try propagate(update, stops: trip.stops, baseUnix: baseUnix)
        let key = TripInstanceKey(tripId: ids.staticId(newTripId), serviceDate: date.serviceDate, startSecs: start)
        var resolved = header(
            update, key: key, relationship: relationship, staticTripId: schedule.tripId, routeId: schedule.routeId,
            directionId: schedule.directionId, stops: stops, unmatched: matcher.unmatched)
        noteMismatches(&resolved)
        return .resolved(resolved)
    }

    /// The stop_sequence/stop_id mismatches of the last `matcher.match`, with the trip named.
    func noteMismatches(_ trip: inout ResolvedTrip) {
        trip.stopMismatches = matcher.mismatches
        trip.firstStopMismatch = matcher.firstMismatch.map { "trip \(trip.key.tripId): \($0)" }
    }
}
