import GTFSRealtime
import TransitCore
import TransitModel

/// Resolves GTFS-Realtime trip updates against the static schedule, once per feed update.
///
/// For a static trip instance the result has every stop of the trip in order, with predictions per the
/// GTFS-Realtime rules (see `DelayPropagation`): stop time updates are matched to stops by stop_sequence,
/// else stop_id; a delay propagates downstream until the next update; a time wins over a delay; a
/// trip-level delay covers the stops before the first update; without it those stops have no prediction;
/// SKIPPED stops are marked and the delay carries past them; NO_DATA (and an update without times) stops
/// predictions until the next update with data. Trip relationships:
/// - SCHEDULED / UNSCHEDULED: the instance named by trip_id, start_date (inferred when missing, see
///   `StartDateInference`) and, for frequency-based trips, start_time. Without trip_id: the one static
///   trip route_id, direction_id, start_date and start_time name (`TripStartMatching`; none or several:
///   dropped). The same for CANCELED and DELETED.
/// - CANCELED: the instance with its schedule and no predictions. DELETED: `.deleted(key)`.
/// - DUPLICATED: the static trip shifted to trip_properties' start_date/start_time, under
///   trip_properties.trip_id (key: new id, date, start).
/// - NEW: the update's own stops (stop_id) and times; no schedule needed.
/// - ADDED (deprecated): with a static trip_id and a start_time it is a shifted copy, like DUPLICATED but
///   under the same trip id (key includes the start); otherwise like NEW.
/// - REPLACEMENT: the update's own stops replace those of the static instance (same key); a replaced
///   stop that is also in the static pattern keeps its scheduled time.
/// Updates that cannot be resolved come back as `.dropped` with a countable reason. A value type whose
/// `resolve` is `mutating` (it keeps zone handles and a scratch buffer): keep one per feed-processing task.
/// Feed-level rules stay with the caller: e.g. ignore an ADDED trip whose trip_id is also DUPLICATED in
/// the same feed (the migration guide's transition rule), or count `unmatchedStopUpdates`.
public struct TripUpdateResolver: Sendable {
    public struct Options: Sendable, Hashable {
        /// IANA zone for trips without a static schedule (NEW/ADDED): the feed's agency_timezone.
        public var timeZone: String
        /// The static import's id prefix for this feed ("" for none): trip and route ids of the realtime
        /// feed get it before they are compared with (or stored as) static ids; stop ids never do (the
        /// static import does not prefix them).
        public var idPrefix: String
        /// Delays (or time − schedule) beyond ± this are rejected as absurd.
        public var maxDelaySecs: Int64
        /// See `StartDateInference`.
        public var inferenceMaxDistanceSecs: Int64
        public var inferenceAmbiguityMarginSecs: Int64

        public init(
            timeZone: String, idPrefix: String = "", maxDelaySecs: Int64 = 86_400,
            inferenceMaxDistanceSecs: Int64 = StartDateInference.defaultMaxDistance,
            inferenceAmbiguityMarginSecs: Int64 = StartDateInference.defaultAmbiguityMargin
        ) {
            self.timeZone = timeZone
            self.idPrefix = idPrefix
            self.maxDelaySecs = maxDelaySecs
            self.inferenceMaxDistanceSecs = inferenceMaxDistanceSecs
            self.inferenceAmbiguityMarginSecs = inferenceAmbiguityMarginSecs
        }
    }

    public let options: Options
    let ids: RealtimeIds
    var clock = ServiceDayClock()
    var matcher = StopUpdateMatcher()

    public init(options: Options) {
        self.options = options
        ids = RealtimeIds(prefix: options.idPrefix)
    }

    /// The service dates whose schedules the resolver may need at `now` (for trip_schedules queries):
    /// from two days before the local date in `timeZone` (trips past 24:00:00, start-date inference) to
    /// the day after (trips of the next service day already in the feed). nil for an unknown zone.
    public static func serviceDates(around now: Int64, timeZone: String) -> ClosedRange<ServiceDate>? {
        var clock = ServiceDayClock()
        guard let zone = clock.zone(timeZone) else { return nil }
        let today = clock.localDate(zone: zone, unix: now)
        return today.adding(days: -2).serviceDate...today.adding(days: 1).serviceDate
    }

    /// Resolves one trip update. `now` (POSIX seconds) anchors start-date inference when the update
    /// carries neither times nor a timestamp.
    public mutating func resolve(_ update: TripUpdate, schedules: some TripScheduleLookup, now: Int64) -> TripResolution
    {
        do {
            return try resolveOrThrow(update, schedules: schedules, now: now)
        } catch {
            return .dropped(error)
        }
    }

    /// The same for a caller that looked the trip up itself (`schedule` nil: not in the static data).
    public mutating func resolve(_ update: TripUpdate, schedule: TripSchedule?, pattern: Pattern?, now: Int64)
        -> TripResolution
    {
        resolve(update, schedules: SingleTripLookup(schedule: schedule, pattern: pattern), now: now)
    }

    private mutating func resolveOrThrow(
        _ update: TripUpdate, schedules: some TripScheduleLookup, now: Int64
    ) throws(TripUpdateDrop) -> TripResolution {
        let rtTripId = update.trip.tripId.nonEmpty
        matcher.stations = schedules.stations
        if let delay = update.delay, Int64(delay).magnitude > options.maxDelaySecs {
            throw TripUpdateDrop(
                .absurdDelay, tripId: rtTripId, "trip delay \(delay) s is beyond ±\(options.maxDelaySecs) s")
        }
        let relationship = update.trip.scheduleRelationship ?? .scheduled
        let staticTrip = rtTripId.flatMap { id -> StaticTrip? in
            guard let schedule = schedules.schedule(tripId: ids.staticId(id)) else { return nil }
            guard let pattern = schedules.pattern(id: schedule.patternId), !pattern.stops.isEmpty else { return nil }
            return StaticTrip(schedule: schedule, stops: pattern.stops)
        }

        switch relationship {
        case .scheduled, .unscheduled, .canceled, .deleted:
            guard let rtTripId else {
                // Named by route_id, direction_id, start_date and start_time (TripStartMatching).
                return try resolveStatic(
                    update, relationship: relationship,
                    trip: tripByStart(update, schedules: schedules), now: now)
            }
            guard let trip = staticTrip else {
                if relationship == .deleted, let key = try addedTripKey(update, tripId: rtTripId) {
                    return .deleted(key)  // an earlier NEW/ADDED trip going away
                }
                throw unknownTrip(rtTripId, schedules: schedules)
            }
            return try resolveStatic(update, relationship: relationship, trip: trip, now: now)
        case .duplicated:
            guard let trip = staticTrip else {
                throw rtTripId.map { unknownTrip($0, schedules: schedules) }
                    ?? TripUpdateDrop(.malformed, tripId: nil, "DUPLICATED trip without trip_id")
            }
            return try resolveCopy(update, relationship: .duplicated, trip: trip, now: now)
        case .added:
            if let trip = staticTrip, update.trip.startTime.nonEmpty != nil {
                return try resolveCopy(update, relationship: .added, trip: trip, now: now)
            }
            return try resolveOwnStops(update, relationship: .added, now: now)
        case .new:
            return try resolveOwnStops(update, relationship: .new, now: now)
        case .replacement:
            if let trip = staticTrip {
                if update.stopTimeUpdates.isEmpty {
                    return try resolveStatic(update, relationship: .scheduled, trip: trip, now: now)
                }
                return try resolveReplacement(update, trip: trip, now: now)
            }
            return try resolveOwnStops(update, relationship: .replacement, now: now)
        case .unknown(let value):
            throw TripUpdateDrop(.malformed, tripId: rtTripId, "unknown trip schedule_relationship \(value)")
        }
    }

    func unknownTrip(_ tripId: String, schedules: some TripScheduleLookup) -> TripUpdateDrop {
        if let schedule = schedules.schedule(tripId: ids.staticId(tripId)) {
            return TripUpdateDrop(
                .unknownTrip, tripId: tripId, "pattern \(schedule.patternId) of the trip is not loaded or has no stops")
        }
        return TripUpdateDrop(.unknownTrip, tripId: tripId, "trip_id not in the static schedule")
    }

    /// The realtime-side info every result carries.
    func header(
        _ update: TripUpdate, key: TripInstanceKey, relationship: ResolvedTrip.Relationship, staticTripId: String?,
        routeId: String?, directionId: Int?, stops: [LiveStop], unmatched: Int
    ) -> ResolvedTrip {
        ResolvedTrip(
            key: key, relationship: relationship, staticTripId: staticTripId, routeId: routeId,
            directionId: directionId, vehicleId: update.vehicle?.id.nonEmpty,
            vehicleLabel: update.vehicle?.label.nonEmpty,
            timestamp: update.timestamp, tripDelay: update.delay, stops: stops, unmatchedStopUpdates: unmatched)
    }
}

/// A static trip with the stops of its pattern (never empty).
struct StaticTrip {
    let schedule: TripSchedule
    let stops: [PatternStop]
}

/// A lookup holding the one trip a caller already found.
private struct SingleTripLookup: TripScheduleLookup {
    let schedule: TripSchedule?
    let pattern: Pattern?
    func schedule(tripId: String) -> TripSchedule? { schedule?.tripId == tripId ? schedule : nil }
    func pattern(id: UInt32) -> Pattern? { pattern?.patternId == id ? pattern : nil }
}
