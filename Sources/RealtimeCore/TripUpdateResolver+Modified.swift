import GTFSRealtime
import TransitModel

/// Trip updates about modified trips (detours), per the spec's linkage rules: a TripUpdate whose
/// TripDescriptor has a modified_trip (ModifiedTripSelector) is about the trip modifications_id's
/// TripModifications made of affected_trip_id; its stop_sequence and stop_id refer to the modified trip's
/// served stops (renumbered 1...n), and its delays to the modified schedule, "as if the static GTFS had
/// been modified". The instance (and its key) is the affected trip's: a modified trip replaces its trip,
/// it is no extra run. A TripUpdate for the original trip_id instead (`projecting`) keeps the original
/// schedule at the stops both trips share, and the replacement stops get no prediction.
extension TripUpdateResolver {
    /// Resolves `update`, whose `trip.modifiedTrip` is set, against the modified trip `modifications`
    /// holds. Dropped (with a countable reason) when the selector lacks its ids, names a trip not in
    /// `schedules` or modifications that are not in the feed for that trip, or a date (start_date, else
    /// inferred as for any trip) or run on which those modifications are not in effect.
    public mutating func resolveModified(
        _ update: TripUpdate, modifications: TripModificationSet, schedules: some TripScheduleLookup, now: Int64
    ) -> ModifiedTripResolution {
        do {
            return try resolveModifiedOrThrow(update, modifications: modifications, schedules: schedules, now: now)
        } catch {
            return ModifiedTripResolution(resolution: .dropped(error), modifiedTrip: nil)
        }
    }

    private mutating func resolveModifiedOrThrow(
        _ update: TripUpdate, modifications: TripModificationSet, schedules: some TripScheduleLookup, now: Int64
    ) throws(TripUpdateDrop) -> ModifiedTripResolution {
        guard let selector = update.trip.modifiedTrip else {
            throw TripUpdateDrop(.malformed, tripId: update.trip.tripId, "no modified_trip in the trip descriptor")
        }
        guard let modificationsId = selector.modificationsId.nonEmpty, let affected = selector.affectedTripId.nonEmpty
        else {
            throw TripUpdateDrop(
                .malformed, tripId: selector.affectedTripId,
                "modified_trip without modifications_id or affected_trip_id")
        }
        matcher.stations = schedules.stations
        let tripId = ids.staticId(affected)
        guard let schedule = schedules.schedule(tripId: tripId),
            let pattern = schedules.pattern(id: schedule.patternId), !pattern.stops.isEmpty
        else { throw unknownTrip(affected, schedules: schedules) }
        guard let modified = modifications.modifiedTrip(modificationsId: modificationsId, tripId: tripId) else {
            throw TripUpdateDrop(
                .unknownTrip, tripId: affected,
                "modifications_id \"\(modificationsId)\" is no TripModifications of the feed applied to the trip")
        }
        let served = modified.servedStops
        guard !served.isEmpty else {
            throw TripUpdateDrop(.malformed, tripId: affected, "the modified trip serves no stop")
        }
        // The descriptor the selector stands for, over the modified stops.
        var named = update
        named.trip = TripDescriptor(
            tripId: affected, startTime: selector.startTime, startDate: selector.startDate,
            scheduleRelationship: .scheduled)
        let instance = try staticInstance(
            named, trip: StaticTrip(schedule: schedule, stops: served), now: now,
            firstDepartureOffset: pattern.stops[0].departureOffset)
        let start = instance.key.startSecs ?? schedule.startSecs
        guard
            modifications.isInEffect(
                modificationsId: modificationsId, tripId: tripId, serviceDate: instance.key.serviceDate,
                startSecs: start)
        else {
            throw TripUpdateDrop(
                .noMatchingInstance, tripId: affected,
                "modifications \"\(modificationsId)\" are not in effect for the trip on \(instance.key.serviceDate) "
                    + "starting \(GTFSTimeText.format(start))")
        }
        let stops = try propagate(named, stops: served, baseUnix: instance.baseUnix)
        var resolved = header(
            named, key: instance.key, relationship: .scheduled, staticTripId: schedule.tripId,
            routeId: schedule.routeId,
            directionId: schedule.directionId, stops: stops, unmatched: matcher.unmatched)
        noteMismatches(&resolved)
        return ModifiedTripResolution(resolution: .resolved(resolved), modifiedTrip: modified)
    }
}

/// A trip update about a modified trip, resolved: the outcome as for any update (the resolved trip's stops
/// are the modified trip's served stops), and the modified trip it was matched against (with its detoured
/// stops), when it was.
public struct ModifiedTripResolution: Sendable, Hashable {
    public var resolution: TripResolution
    public var modifiedTrip: ModifiedTrip?

    public init(resolution: TripResolution, modifiedTrip: ModifiedTrip?) {
        self.resolution = resolution
        self.modifiedTrip = modifiedTrip
    }
}

extension ModifiedTrip {
    /// The modified trip's served stops from a trip resolved for the original trip_id (the spec's rule when
    /// no trip update names the modified trip): a kept stop is its original stop as resolved (schedule and
    /// prediction of the unmodified trip), a replacement stop has its modified schedule and no prediction.
    /// Stop sequences are the modified trip's. nil when no kept stop is in `original` (nothing to place the
    /// schedule by).
    public func projecting(_ original: ResolvedTrip) -> ResolvedTrip? {
        var bySequence: [UInt32: LiveStop] = [:]
        for stop in original.stops { bySequence[stop.stopSequence] = stop }
        // The unix time of offset 0, from a kept stop: its original offset is the modified one less the delay.
        var baseUnix: Int64?
        for stop in stops {
            guard case .kept(let sequence) = stop.role, let live = bySequence[sequence],
                let scheduled = live.scheduledArrival
            else { continue }
            baseUnix = scheduled - (Int64(stop.arrivalOffset) - Int64(stop.propagatedDelay))
            break
        }
        guard let baseUnix else { return nil }
        var result = original
        result.stops = []
        for stop in stops {
            guard let sequence = stop.stopSequence else { continue }
            switch stop.role {
            case .kept(let originalSequence):
                guard var live = bySequence[originalSequence] else { continue }
                live.stopSequence = sequence
                result.stops.append(live)
            case .replacement:
                result.stops.append(
                    LiveStop(
                        stopId: stop.stopId, stopSequence: sequence,
                        scheduledArrival: baseUnix + Int64(stop.arrivalOffset),
                        scheduledDeparture: baseUnix + Int64(stop.departureOffset), status: .noPrediction))
            case .detoured:
                continue
            }
        }
        return result
    }
}
