import GTFSRealtime
import RealtimeCore
import TransitCore
import TransitModel

/// The keys of the live state one operation on a source may have changed.
struct TouchedKeys {
    var trips = Set<TripInstanceKey>()
    var vehicles = Set<String>()
    var alerts = Set<String>()
    var detours = Set<String>()
}

extension SourceState {
    /// Applies a decoded feed (already screened): FULL_DATASET replaces everything the source said before;
    /// DIFFERENTIAL replaces entity by entity and removes entities marked is_deleted. Trip updates are
    /// resolved here, once, against `schedules`.
    /// `otherModifications`: the other sources' detours, for trip updates naming a modified trip whose
    /// TripModifications another feed carries.
    mutating func apply(
        _ feed: FeedMessage, schedules: ScheduleCache, otherModifications: [TripModificationSet] = [], now: Int64
    ) -> TouchedKeys {
        let full: Bool
        switch feed.header.incrementality ?? .fullDataset {
        case .differential: full = false
        default: full = true  // FULL_DATASET (unknown values are refused before: LiveState.screen)
        }
        var touched = TouchedKeys()
        for problem in feed.problems { drop(DropReason(problem), problem.description) }
        countSkipped(feed.skippedFields)
        var kinds = Set<LiveSourceKind>()

        // Detours first: trip updates of modified trips are resolved against them.
        if takeDetourEntities(of: feed, full: full) {
            touched.detours = rebuildDetours(schedules: schedules, countDrops: true)
        }
        let modificationSets = [modifications] + otherModifications

        // Resolution first (it reads only the feed and the schedules; split across threads for big feeds).
        var prepared = prepareTrips(
            feed, full: full, schedules: schedules, modifications: modificationSets, now: now)

        var previous: (trips: [TripInstanceKey: LiveTrip], keys: [String: TripInstanceKey])?
        if full {
            touched.trips = Set(trips.keys)
            touched.vehicles = Set(vehicles.keys)
            touched.trips.formUnion(vehicleTrips.keys)
            touched.alerts = Set(alerts.keys)
            previous = (trips, tripKeyByEntity)
            rawTripUpdates = [:]
            tripKeyByEntity = [:]
            trips = [:]
            rawVehicles = [:]
            vehicles = [:]
            vehicleTrips = [:]
            vehicleTripKey = [:]
            alerts = [:]
            rawTripUpdates.reserveCapacity(feed.entities.count)
            trips.reserveCapacity(feed.entities.count)
        }

        // Entities are read in place (a copy of each would retain and release all its strings and arrays).
        feed.entities.withUnsafeBufferPointer { entities in
            for index in entities.indices {
                let entity = entities.baseAddress! + index
                let id = entity.pointee.id
                if !full, entity.pointee.isDeleted == true {
                    if entity.pointee.tripUpdate != nil { kinds.insert(.tripUpdates) }
                    if entity.pointee.vehicle != nil { kinds.insert(.vehiclePositions) }
                    if entity.pointee.alert != nil { kinds.insert(.alerts) }
                    remove(entity: id, &touched)
                    continue
                }
                if let update = entity.pointee.tripUpdate {
                    kinds.insert(.tripUpdates)
                    if settings.accepts(.tripUpdates) {
                        // Taken out of `prepared`: the live trip is then this apply's alone, changed in place.
                        applyTripUpdate(
                            update, entityId: id, prepared: prepared[index].take(), schedules: schedules,
                            modifications: modificationSets, now: now, previous: &previous, countDrops: true,
                            &touched)
                    } else {
                        drop(.wrongKind, "entity '\(id)': a trip update in a \(settings.kind.rawValue) source")
                    }
                }
                if let vehicle = entity.pointee.vehicle {
                    kinds.insert(.vehiclePositions)
                    if settings.accepts(.vehiclePositions) {
                        applyVehicle(
                            vehicle, entityId: id, schedules: schedules, modifications: modificationSets, now: now,
                            &touched)
                    } else {
                        drop(.wrongKind, "entity '\(id)': a vehicle position in a \(settings.kind.rawValue) source")
                    }
                }
                if let alert = entity.pointee.alert {
                    kinds.insert(.alerts)
                    if settings.accepts(.alerts) {
                        let live = AlertConversion.liveAlert(alert, entityId: id, settings: settings)
                        alerts[live.key] = live
                        touched.alerts.insert(live.key)
                    } else {
                        drop(.wrongKind, "entity '\(id)': an alert in a \(settings.kind.rawValue) source")
                    }
                }
            }
        }
        detected = kinds
        return touched
    }

    /// Resolves every held trip update and vehicle again (a new static database): same rules as a full
    /// update from the stored raw entities; drops are not counted twice.
    mutating func resolveAgain(
        schedules: ScheduleCache, otherModifications: [TripModificationSet] = [], now: Int64
    ) -> TouchedKeys {
        var touched = TouchedKeys()
        touched.detours = rebuildDetours(schedules: schedules, countDrops: false)
        let modificationSets = [modifications] + otherModifications
        touched.trips = Set(trips.keys)
        var previous: (trips: [TripInstanceKey: LiveTrip], keys: [String: TripInstanceKey])? = (trips, tripKeyByEntity)
        trips = [:]
        tripKeyByEntity = [:]
        for (id, update) in rawTripUpdates {
            applyTripUpdate(
                update, entityId: id, prepared: nil, schedules: schedules, modifications: modificationSets, now: now,
                previous: &previous, countDrops: false, &touched)
        }
        touched.trips.formUnion(vehicleTrips.keys)
        vehicleTrips = [:]
        vehicleTripKey = [:]
        for (id, vehicle) in rawVehicles {
            applyVehicle(
                vehicle, entityId: id, schedules: schedules, modifications: modificationSets, now: now, &touched)
        }
        return touched
    }

    /// The trip ids (static, prefixed) whose schedules resolving `feed` may need, and the descriptors
    /// without trip_id whose matching trips must be asked for.
    func scheduleNeeds(of feed: FeedMessage) -> ScheduleNeeds {
        var needs = ScheduleNeeds()
        needs.tripIds.reserveCapacity(feed.entities.count)
        for entity in feed.entities {
            if settings.accepts(.tripUpdates), let trip = entity.tripUpdate?.trip {
                needs.add(trip, idPrefix: settings.idPrefix)
            }
            if settings.accepts(.vehiclePositions), let trip = entity.vehicle?.trip {
                needs.add(trip, idPrefix: settings.idPrefix)
            }
            if let modifications = entity.tripModifications {
                for selected in modifications.selectedTrips {
                    for id in selected.tripIds { needs.tripIds.append(settings.idPrefix + id) }
                }
            }
        }
        return needs
    }

    /// The same for everything held (for resolving again).
    var heldNeeds: ScheduleNeeds {
        var needs = ScheduleNeeds()
        for update in rawTripUpdates.values { needs.add(update.trip, idPrefix: settings.idPrefix) }
        for vehicle in rawVehicles.values {
            if let trip = vehicle.trip { needs.add(trip, idPrefix: settings.idPrefix) }
        }
        needs.tripIds += detourTripIds
        return needs
    }

    // MARK: parts

    /// `prepared`: the update already resolved (`prepareTrips`); nil resolves it here.
    private mutating func applyTripUpdate(
        _ update: TripUpdate, entityId id: String, prepared: consuming PreparedTrip?, schedules: ScheduleCache,
        modifications: [TripModificationSet], now: Int64,
        previous: inout (trips: [TripInstanceKey: LiveTrip], keys: [String: TripInstanceKey])?, countDrops: Bool,
        _ touched: inout TouchedKeys
    ) {
        rawTripUpdates[id] = update
        var prepared =
            (consume prepared)
            ?? Self.prepare(
                update, entityId: id, source: settings.name, resolver: &resolver,
                schedules: schedules, modifications: modifications, now: now)
        // The enum is taken apart and put back (not matched with `if case`, which copies the whole live trip).
        let resolution: TripResolution?
        switch consume prepared {
        case .live(var live, let key, let unmatched, let mismatches, let firstMismatch):
            // Predictions the new update no longer covers, from the instance as last published (before the
            // differential replacement below removes it).
            if PredictionCarry.takesCarry(live) {
                if previous != nil {
                    Self.carryPredictions(into: &live, key: key, from: &previous!.trips, now: now)
                } else {
                    Self.carryPredictions(into: &live, key: key, from: &trips, now: now)
                }
            }
            prepared = .live(
                live, key: key, unmatchedStopUpdates: unmatched, mismatches: mismatches, firstMismatch: firstMismatch)
            resolution = nil
        case .other(let other):
            prepared = .other(other)
            resolution = other
        }
        tallyTripUpdate(update.trip, resolution, schedules)
        // What this entity said before: in the previous full state, or still in place (differential).
        let oldKey = previous?.keys[id] ?? tripKeyByEntity[id]
        if previous == nil, let oldKey {
            // Differential: the entity's new content replaces its old one, unless it cannot be resolved for
            // want of a schedule (then the old one is kept: a brief static outage must not blank predictions).
            if case .dropped(let d)? = resolution, classify(d, schedules) == .scheduleUnavailable {
                if countDrops {
                    drop(.scheduleUnavailable, Self.unavailableMessage(id, d) + " (previous prediction kept)")
                }
                return
            }
            if let index = trips.index(forKey: oldKey), Self.entityId(at: index, in: &trips) == id {
                trips.remove(at: index)
            }
            tripKeyByEntity[id] = nil
            touched.trips.insert(oldKey)
        }
        switch consume prepared {
        case .live(let live, let key, let unmatched, let mismatches, let firstMismatch):
            if countDrops, unmatched > 0 {
                drop(
                    .unmatchedStopUpdate, "\(unmatched) stop time update(s) of \(key) match no stop",
                    count: UInt64(unmatched))
            }
            if countDrops, mismatches > 0 {
                stopMismatches += UInt64(mismatches)
                if firstStopMismatch == nil { firstStopMismatch = "entity '\(id)', " + (firstMismatch ?? "\(key)") }
            }
            store(live, key: key, entityId: id, countDrops: countDrops, &touched)
        case .other(.resolved):
            break  // not produced: resolved updates are prepared as `.live`
        case .other(.deleted(let key)):
            let tombstone = TripConversion.deletedTrip(
                key, update: update, idPrefix: settings.idPrefix,
                source: settings.name, entityId: id)
            store(tombstone, key: key, entityId: id, countDrops: countDrops, &touched)
        case .other(.dropped(let d)):
            let reason = classify(d, schedules)
            if countDrops {
                drop(
                    reason,
                    reason == .scheduleUnavailable ? Self.unavailableMessage(id, d) : "entity '\(id)': \(d.description)"
                )
            }
            if reason == .scheduleUnavailable, let previous, let oldKey, let oldTrip = previous.trips[oldKey] {
                store(oldTrip, key: oldKey, entityId: id, countDrops: false, &touched)  // keep the last good one
            }
        }
    }

    /// PredictionCarry from the instance `key` as last published, where it is held (the previous full state,
    /// or the current one). `held` is inout only to reach the trip in place through `Dictionary.Values`'s
    /// modify accessor; it is not changed (reading it through the getter would copy the whole trip out and
    /// retain every string of it, for each of thousands of trips per update).
    private static func carryPredictions(
        into live: inout LiveTrip, key: TripInstanceKey, from held: inout [TripInstanceKey: LiveTrip], now: Int64
    ) {
        guard let index = held.index(forKey: key) else { return }
        carry(into: &live, from: &held.values[index], now: now)
    }

    private static func carry(into live: inout LiveTrip, from previous: inout LiveTrip, now: Int64) {
        PredictionCarry.carry(into: &live, from: previous, now: now)
    }

    /// The entity id of the trip at `index`, read in place like the carry's (`trips[key]?.entityId`, or the
    /// values' getter, would copy the whole trip out).
    private static func entityId(
        at index: [TripInstanceKey: LiveTrip].Index, in trips: inout [TripInstanceKey: LiveTrip]
    ) -> String? {
        func read(_ trip: inout LiveTrip) -> String? { trip.entityId }
        return read(&trips.values[index])
    }

    private mutating func store(
        _ trip: consuming LiveTrip, key: TripInstanceKey, entityId: String, countDrops: Bool,
        _ touched: inout TouchedKeys
    ) {
        if let index = trips.index(forKey: key), let other = Self.entityId(at: index, in: &trips), other != entityId {
            if countDrops {
                drop(
                    .duplicateTripInstance, "entities '\(other)' and '\(entityId)' are both \(key); '\(entityId)' kept")
            }
            tripKeyByEntity[other] = nil
        }
        trips[key] = trip
        tripKeyByEntity[entityId] = key
        touched.trips.insert(key)
    }

    private static func unavailableMessage(_ id: String, _ d: TripUpdateDrop) -> String {
        guard let tripId = d.tripId else { return "entity '\(id)': \(d.message)" }  // a descriptor without trip_id
        return "entity '\(id)': no schedule for trip \"\(tripId)\" (the static service did not answer)"
    }

    /// A trip update the resolver refused: an unknown trip whose schedule was never fetched (the static
    /// service did not answer) is "schedule_unavailable", not "unknown_trip".
    func classify(_ d: TripUpdateDrop, _ schedules: ScheduleCache) -> DropReason {
        let reason = DropReason(d.reason)
        guard reason == .unknownTrip, let tripId = d.tripId else { return reason }
        let staticId = settings.idPrefix + tripId
        if schedules.schedule(tripId: staticId) == nil, !schedules.isKnownUnknown(staticId) {
            return .scheduleUnavailable
        }
        return reason
    }

    /// `modifications`: the detours a descriptor naming a modified trip is resolved against (its
    /// current_stop_sequence is then the modified trip's, and so are the estimate's stops).
    private mutating func applyVehicle(
        _ vehicle: VehiclePosition, entityId id: String, schedules: ScheduleCache,
        modifications: [TripModificationSet] = [], now: Int64, _ touched: inout TouchedKeys
    ) {
        rawVehicles[id] = vehicle
        var instance: TripInstanceKey?
        var instanceStart: String?
        var estimate: LiveTrip?
        if let descriptor = vehicle.trip,
            descriptor.tripId.nonEmptyText != nil || descriptor.routeId.nonEmptyText != nil
                || descriptor.modifiedTrip != nil
        {
            // The vehicle's trip instance, by the same rules as a trip update's (start date inferred from the
            // position's timestamp when the descriptor has none). A vehicle on an unknown trip is kept.
            let probe = TripUpdate(trip: descriptor, timestamp: vehicle.timestamp)
            let (resolution, modificationsId) = Self.resolve(
                probe, resolver: &resolver, schedules: schedules, modifications: modifications, now: now)
            tallyVehicle(descriptor, resolution, schedules)
            if case .resolved(let trip) = resolution {
                instance = trip.key
                instanceStart = Self.startTime(of: trip.key, schedules: schedules)
                estimate = Self.vehicleEstimate(
                    trip, probe: probe, vehicle: vehicle, entityId: id, source: settings.name,
                    timepoints: Self.timepoints(of: trip, schedules: schedules))
                estimate?.modificationsId = modificationsId
            }
        }
        var live = VehicleConversion.liveVehicle(vehicle, entityId: id, settings: settings, trip: instance)
        if live.startTime.nonEmptyText == nil { live.startTime = instanceStart }
        vehicles[live.key] = live
        touched.vehicles.insert(live.key)
        setVehicleTrip(estimate, vehicleKey: live.key, &touched)
    }

    /// The instance's stops predicted from the vehicle's position; nil when the position gives no estimate
    /// (no stop of the trip named, no timestamp, a canceled or added instance).
    static func vehicleEstimate(
        _ trip: ResolvedTrip, probe: TripUpdate, vehicle: VehiclePosition, entityId: String, source: String,
        timepoints: [Bool]? = nil
    ) -> LiveTrip? {
        guard trip.relationship == .scheduled || trip.relationship == .unscheduled,
            let timestamp = vehicle.timestamp, timestamp > 0,
            vehicle.currentStopSequence != nil || vehicle.stopId.nonEmptyText != nil
        else { return nil }
        var live = TripConversion.liveTrip(trip, update: probe, source: source, entityId: entityId)
        let report = StopPredictions.VehicleReport(
            stopSequence: vehicle.currentStopSequence, stopId: vehicle.stopId,
            status: .init(name: vehicle.currentStatus?.name), timestamp: Int64(clamping: timestamp))
        guard StopPredictions.vehicleEstimate(into: &live.stops, vehicle: report, timepoints: timepoints) else {
            return nil
        }
        return live
    }

    /// Which stops of the instance's pattern are timepoints; nil when all are (or the pattern is not held).
    static func timepoints(of trip: ResolvedTrip, schedules: ScheduleCache) -> [Bool]? {
        guard let id = trip.staticTripId, let schedule = schedules.schedule(tripId: id),
            let stops = schedules.pattern(id: schedule.patternId)?.stops,
            stops.count == trip.stops.count, stops.contains(where: { !$0.timepoint })
        else { return nil }
        return stops.map(\.timepoint)
    }

    /// Replaces what a vehicle estimated (nil: nothing now); the instances it touches are re-merged.
    mutating func setVehicleTrip(_ estimate: LiveTrip?, vehicleKey: String, _ touched: inout TouchedKeys) {
        if let old = vehicleTripKey.removeValue(forKey: vehicleKey) {
            if vehicleTrips[old]?.entityId == vehicles[vehicleKey]?.entityId { vehicleTrips[old] = nil }
            touched.trips.insert(old)
        }
        guard let estimate else { return }
        vehicleTrips[estimate.instance] = estimate
        vehicleTripKey[vehicleKey] = estimate.instance
        touched.trips.insert(estimate.instance)
    }

    /// "HH:MM:SS" a resolved instance starts: a frequency instance's own start, else the scheduled trip's first
    /// departure (its first time plus the first stop's dwell). Nil when the schedule is not held.
    static func startTime(of key: TripInstanceKey, schedules: ScheduleCache) -> String? {
        if let start = key.startSecs { return GTFSTime.format(Int(start)) }
        guard let schedule = schedules.schedule(tripId: key.tripId) else { return nil }
        let dwell = schedules.pattern(id: schedule.patternId)?.stops.first?.departureOffset ?? 0
        return GTFSTime.format(Int(schedule.startSecs) + Int(dwell))
    }

    /// Differential is_deleted: whatever the entity held goes.
    private mutating func remove(entity id: String, _ touched: inout TouchedKeys) {
        rawTripUpdates[id] = nil
        if let key = tripKeyByEntity.removeValue(forKey: id) {
            if trips[key]?.entityId == id { trips[key] = nil }
            touched.trips.insert(key)
        }
        let key = settings.name + "/" + id
        rawVehicles[id] = nil
        setVehicleTrip(nil, vehicleKey: key, &touched)
        if vehicles.removeValue(forKey: key) != nil { touched.vehicles.insert(key) }
        if alerts.removeValue(forKey: key) != nil { touched.alerts.insert(key) }
    }
}

/// What resolving a feed needs from the static service: schedules of trip ids, and the trips descriptors
/// without trip_id match. Descriptors are collected only from entities without trip_id, so feeds that name
/// every trip pay nothing for them.
struct ScheduleNeeds {
    var tripIds: [String] = []
    var descriptors: [TripStartDescriptor] = []

    mutating func add(_ trip: TripDescriptor, idPrefix: String) {
        if let id = trip.tripId, !id.isEmpty {
            tripIds.append(idPrefix + id)
        } else if trip.routeId.nonEmptyText != nil,
            let descriptor = try? TripUpdateResolver.startDescriptor(of: trip, idPrefix: idPrefix)
        {
            descriptors.append(descriptor)  // incomplete or malformed ones are dropped when resolved
        }
    }
}

extension Optional where Wrapped == String {
    /// nil for an absent or empty string.
    var nonEmptyText: String? {
        guard let value = self, !value.isEmpty else { return nil }
        return value
    }
}
