import GTFSRealtime
import RealtimeCore
import TransitCore
import TransitModel

// Trip modifications (detours) of a source: the raw entities kept, applied to the static trips they select
// (`TripModificationSet`), and published as `LiveDetour`s on `dt` (protocol/realtime.proto `TripDetour`).

extension FeedEntity {
    /// Whether the entity is part of a detour: a TripModifications, or the Shape or Stop entities they use.
    var isDetourPart: Bool { tripModifications != nil || shape != nil || stop != nil }
}

extension SourceState {
    /// Takes the detour entities of `feed` (FULL_DATASET: replacing all held; DIFFERENTIAL: entity by
    /// entity, is_deleted removing). True when what is held changed (a feed repeating the same detours
    /// changes nothing, so they are not applied again).
    mutating func takeDetourEntities(of feed: FeedMessage, full: Bool) -> Bool {
        var held = full ? [] : detourEntities
        for entity in feed.entities {
            // Most entities are trip updates and vehicles: looked at once, never searched for among the held.
            let deleted = !full && entity.isDeleted == true
            guard deleted || entity.isDetourPart else { continue }
            let index = held.isEmpty ? nil : held.firstIndex { $0.id == entity.id }
            if deleted {
                if let index { held.remove(at: index) }
            } else if let index {
                held[index] = entity
            } else {
                held.append(entity)
            }
        }
        guard held != detourEntities else { return false }
        detourEntities = held
        return true
    }

    /// The trip ids (static, prefixed) the held detours select: their schedules are needed.
    var detourTripIds: [String] {
        var ids: [String] = []
        for entity in detourEntities {
            guard let modifications = entity.tripModifications else { continue }
            for selected in modifications.selectedTrips {
                for id in selected.tripIds { ids.append(settings.idPrefix + id) }
            }
        }
        return ids
    }

    /// Applies the held detour entities to `schedules` again and returns the detour keys whose value changed
    /// (added, changed or gone). Problems are counted as drops when `countDrops`.
    mutating func rebuildDetours(schedules: ScheduleCache, countDrops: Bool) -> Set<String> {
        modifications = TripModificationSet(
            entities: detourEntities, schedules: schedules, idPrefix: settings.idPrefix, keepsUnlocatedStops: true)
        if countDrops {
            for problem in modifications.problems { drop(DropReason(problem.reason), problem.description) }
        }
        var alertIds: [String: [String]] = [:]
        var polylines: [String: String] = [:]
        for entity in detourEntities {
            if let m = entity.tripModifications {
                var ids: [String] = []
                for id in m.modifications.compactMap(\.serviceAlertId) where !id.isEmpty && !ids.contains(id) {
                    ids.append(id)
                }
                alertIds[entity.id] = ids
            }
            if let shape = entity.shape, modifications.shapes[shape.shapeId] != nil {
                polylines[shape.shapeId] = shape.encodedPolyline
            }
        }
        var next: [String: LiveDetour] = [:]
        for (trip, dates, starts) in modifications.inEffect {
            let key = settings.name + "/" + trip.modificationsId + "/" + trip.tripId
            next[key] = LiveDetour(
                key: key, source: settings.name, modificationsId: trip.modificationsId, tripId: trip.tripId,
                serviceDates: dates, startSecs: starts.map { $0.sorted() } ?? [],
                tripStartSecs: schedules.schedule(tripId: trip.tripId)?.startSecs,
                shapeId: trip.shapeId, shapePolyline: trip.shapeId.flatMap { polylines[$0] },
                alertIds: alertIds[trip.modificationsId] ?? [], stops: trip.stops.map(LiveDetourStop.init))
        }
        var touched = Set<String>()
        for (key, detour) in next where detours[key] != detour { touched.insert(key) }
        for key in detours.keys where next[key] == nil { touched.insert(key) }
        detours = next
        return touched
    }
}

extension LiveDetourStop {
    init(_ stop: ModifiedTripStop) {
        let role: Role
        var original: UInt32?
        switch stop.role {
        case .kept(let sequence):
            role = .kept
            original = sequence
        case .detoured(let sequence, _):
            role = .detoured
            original = sequence
        case .replacement:
            role = .replacement
        }
        self.init(
            stopId: stop.stopId, role: role, originalSequence: original, stopSequence: stop.stopSequence,
            arrivalOffset: stop.arrivalOffset, departureOffset: stop.departureOffset,
            propagatedDelay: stop.propagatedDelay, lat: stop.location?.latitude, lon: stop.location?.longitude)
    }
}
