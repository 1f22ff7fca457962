import GTFSRealtime
import TransitCore
import TransitModel

/// The detours of one feed: every TripModifications entity applied to each trip it selects
/// (`TripModificationApplier`), and which modified trip is in effect for a trip on a service date.
///
/// Selection, per the spec: an entity applies to the trips of its selected_trips on its service_dates
/// and, when it lists start_times, only to the runs starting then (frequency-based trips; a trip with
/// fixed times runs at its scheduled start). A trip is selected by one entity per date: a later entity
/// selecting it again on a date it already has (for a start time it already has) is left out for it.
/// Deleted entities are ignored. Bad parts are left out with a counted problem, the rest applied: unknown
/// trips, bad dates and start times, unparsable Shape entities, and whatever `TripModificationApplier`
/// refuses for a trip. Built once per feed update (the spec expects detours to change about hourly).
public struct TripModificationSet: Sendable {
    /// What was left out, in feed order.
    public private(set) var problems: [TripModificationProblem] = []
    /// The feed's Shape entities that parse, by shape_id.
    public private(set) var shapes: [String: [GeoPoint]] = [:]
    /// Per entity id, its modified trips by static trip id (where they are in effect: `selections`).
    private var entries: [String: [String: ModifiedTrip]] = [:]
    /// Per static trip id and date, the entities selecting it, with their start times (nil: every run).
    private var selections: [TripDate: [(entityId: String, startSecs: Set<Int32>?)]] = [:]

    private struct TripDate: Hashable, Sendable {
        let tripId: String
        let date: ServiceDate
    }

    public init() {}

    /// The detours of `entities` (a decoded feed's), applied to the trips of `schedules`. `idPrefix` is the
    /// static import's prefix of this feed's trip ids (see `TripUpdateResolver.Options.idPrefix`);
    /// `staticStops` the coordinates of static stops a replacement stop may name.
    /// `keepsUnlocatedStops`: `TripModificationApplier`'s.
    public init(
        entities: [FeedEntity], schedules: some TripScheduleLookup, idPrefix: String = "",
        staticStops: [String: GeoPoint] = [:], keepsUnlocatedStops: Bool = false
    ) {
        let ids = RealtimeIds(prefix: idPrefix)
        var feedStops: [RealtimeStop] = []
        for entity in entities where entity.isDeleted != true {
            if let stop = entity.stop { feedStops.append(stop) }
            if let shape = entity.shape {
                if let points = Polyline.decode(shape.encodedPolyline), points.count >= 2 {
                    shapes[shape.shapeId] = points.map { GeoPoint(latitude: $0.lat, longitude: $0.lon) }
                } else {
                    problems.append(
                        TripModificationProblem(
                            .unparsableShape, entityId: entity.id,
                            "shape \"\(shape.shapeId)\": encoded_polyline is not a polyline of two points or more"))
                }
            }
        }
        let applier = TripModificationApplier(
            feedStops: feedStops, staticStops: staticStops, keepsUnlocatedStops: keepsUnlocatedStops)
        for entity in entities where entity.isDeleted != true {
            guard let modifications = entity.tripModifications else { continue }
            add(modifications, entityId: entity.id, applier: applier, schedules: schedules, ids: ids)
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The modified trip in effect for static trip `tripId` (as stored, with the prefix) on `serviceDate`
    /// for the run starting at `startSecs` (GTFS seconds; a fixed-time trip's scheduled start), if any.
    public func modifiedTrip(tripId: String, serviceDate: ServiceDate, startSecs: Int32) -> ModifiedTrip? {
        guard let selecting = selections[TripDate(tripId: tripId, date: serviceDate)] else { return nil }
        for selection in selecting where selection.startSecs?.contains(startSecs) ?? true {
            return entries[selection.entityId]?[tripId]
        }
        return nil
    }

    /// The modified trip of entity `modificationsId` for static trip `tripId`, whatever the date.
    public func modifiedTrip(modificationsId: String, tripId: String) -> ModifiedTrip? {
        entries[modificationsId]?[tripId]
    }

    /// Whether entity `modificationsId` is the one modifying trip `tripId` on `serviceDate` for the run
    /// starting at `startSecs`.
    public func isInEffect(modificationsId: String, tripId: String, serviceDate: ServiceDate, startSecs: Int32) -> Bool
    {
        modifiedTrip(tripId: tripId, serviceDate: serviceDate, startSecs: startSecs)?.modificationsId == modificationsId
    }

    private mutating func add(
        _ modifications: TripModifications, entityId: String, applier: TripModificationApplier,
        schedules: some TripScheduleLookup, ids: RealtimeIds
    ) {
        var dates = Set<ServiceDate>()
        for text in modifications.serviceDates {
            if let date = GTFSTimeText.parseDate(text) {
                dates.insert(date)
            } else {
                problems.append(
                    TripModificationProblem(
                        .badDateOrTime, entityId: entityId, "service date \"\(text)\" is not YYYYMMDD"))
            }
        }
        var starts: Set<Int32>?
        for text in modifications.startTimes {
            if let secs = GTFSTimeText.parseTime(text) {
                starts = (starts ?? []).union([secs])
            } else {
                problems.append(
                    TripModificationProblem(
                        .badDateOrTime, entityId: entityId, "start time \"\(text)\" is not HH:MM:SS"))
            }
        }
        // Every start time listed is bad: it meant some runs only, so it applies to none.
        if !modifications.startTimes.isEmpty, starts == nil { return }
        guard !dates.isEmpty else { return }

        var trips: [String: ModifiedTrip] = [:]
        for selected in modifications.selectedTrips {
            let points = selected.shapeId.flatMap { shapes[$0] }
            for realtimeId in selected.tripIds {
                let tripId = ids.staticId(realtimeId)
                guard trips[tripId] == nil else { continue }  // listed twice: once is enough
                guard let schedule = schedules.schedule(tripId: tripId),
                    let pattern = schedules.pattern(id: schedule.patternId), !pattern.stops.isEmpty
                else {
                    problems.append(
                        TripModificationProblem(
                            .unknownTrip, entityId: entityId, tripId: realtimeId,
                            "selected trip is not in the static schedule (or its pattern is not loaded)"))
                    continue
                }
                let taken = dates.sorted().filter { !isFree(tripId: tripId, date: $0, startSecs: starts) }
                if !taken.isEmpty {
                    problems.append(
                        TripModificationProblem(
                            .tripSelectedTwice, entityId: entityId, tripId: realtimeId,
                            "already selected by another TripModifications on "
                                + taken.map { "\($0)" }.joined(separator: ", ") + "; left out on "
                                + (taken.count == dates.count ? "all its dates" : "those dates")))
                    if taken.count == dates.count { continue }
                }
                let outcome = applier.apply(
                    modifications, entityId: entityId, tripId: tripId, stops: pattern.stops, shapeId: selected.shapeId,
                    shapePoints: points)
                problems += outcome.problems.map { problem in
                    var named = problem
                    named.tripId = realtimeId
                    return named
                }
                guard let trip = outcome.modifiedTrip else { continue }
                trips[tripId] = trip
                for date in dates where !taken.contains(date) {
                    selections[TripDate(tripId: tripId, date: date), default: []].append((entityId, starts))
                }
            }
        }
        if !trips.isEmpty { entries[entityId] = trips }
    }

    /// Every modified trip with where it is in effect: the dates its entity selects it on (ascending) and
    /// the runs (nil: every run), ordered by entity id and trip id.
    public var inEffect: [(trip: ModifiedTrip, dates: [ServiceDate], startSecs: Set<Int32>?)] {
        var byEntityTrip: [String: [String: (dates: [ServiceDate], starts: Set<Int32>?)]] = [:]
        for (tripDate, selecting) in selections {
            for selection in selecting {
                byEntityTrip[selection.entityId, default: [:]][tripDate.tripId, default: ([], selection.startSecs)]
                    .dates.append(tripDate.date)
            }
        }
        var out: [(trip: ModifiedTrip, dates: [ServiceDate], startSecs: Set<Int32>?)] = []
        for entityId in byEntityTrip.keys.sorted() {
            for (tripId, found) in byEntityTrip[entityId]!.sorted(by: { $0.key < $1.key }) {
                guard let trip = entries[entityId]?[tripId] else { continue }
                out.append((trip, found.dates.sorted(), found.starts))
            }
        }
        return out
    }

    /// Whether no entity selects the trip on `date` for any of `startSecs` (nil: every run) yet.
    private func isFree(tripId: String, date: ServiceDate, startSecs: Set<Int32>?) -> Bool {
        guard let selecting = selections[TripDate(tripId: tripId, date: date)] else { return true }
        return selecting.allSatisfy { other in
            guard let mine = startSecs, let theirs = other.startSecs else { return false }
            return mine.isDisjoint(with: theirs)
        }
    }
}
