import GTFSRealtime
import RealtimeCore
import TransitModel

/// What one operation did to the live state: the batches of the PUB stream.
public struct LiveChanges: Sendable, Hashable {
    public var trips: [LiveTrip] = []
    public var removedTrips: [TripInstanceKey] = []
    public var vehicles: [LiveVehicle] = []
    public var removedVehicles: [String] = []
    public var alerts: [LiveAlert] = []
    public var removedAlerts: [String] = []
    public var detours: [LiveDetour] = []
    public var removedDetours: [String] = []
    /// Some source's status changed (counters, timestamps, staleness).
    public var sourcesChanged = false

    public init() {}

    public var hasTrips: Bool { !trips.isEmpty || !removedTrips.isEmpty }
    public var hasVehicles: Bool { !vehicles.isEmpty || !removedVehicles.isEmpty }
    public var hasAlerts: Bool { !alerts.isEmpty || !removedAlerts.isEmpty }
    public var hasDetours: Bool { !detours.isEmpty || !removedDetours.isEmpty }
}

public struct LiveStateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
}

/// The realtime service's live state: what every source said, resolved, and the merged view published.
///
/// Trip updates are keyed by trip instance (trip id, service date, start for frequency-based and copied
/// trips). When several sources name the same instance, the one with the newest feed header wins. Vehicles
/// and alerts are keyed by "<source>/<entity id>". A value type driven by one task (the engine): feed
/// events in, `LiveChanges` out.
///
/// Order for a fetched body: `screen` (older or identical feeds stop here), `tripIds(of:source:)` (fetch the
/// missing schedules), `apply`. Fetch and decode failures: `recordFailure` (the state is kept).
public struct LiveState: Sendable {
    var sources: [SourceState]
    private var indexByName: [String: Int]
    public private(set) var trips: [TripInstanceKey: LiveTrip] = [:]
    public private(set) var vehicles: [String: LiveVehicle] = [:]
    public private(set) var alerts: [String: LiveAlert] = [:]
    /// By key ("<source>/<modifications id>/<trip id>").
    public private(set) var detours: [String: LiveDetour] = [:]

    public init(sources settings: [SourceSettings]) throws(LiveStateError) {
        indexByName = try Self.index(settings)
        sources = settings.map(SourceState.init(settings:))
    }

    /// Each source's position by name; sources must have names, all different.
    private static func index(_ settings: [SourceSettings]) throws(LiveStateError) -> [String: Int] {
        var index: [String: Int] = [:]
        for (i, s) in settings.enumerated() {
            guard !s.name.isEmpty else { throw LiveStateError(description: "source \(i + 1) has an empty name") }
            guard index[s.name] == nil else { throw LiveStateError(description: "two sources are named \"\(s.name)\"") }
            index[s.name] = i
        }
        return index
    }

    /// Takes a new list of sources (a re-read config). A source whose settings did not change keeps what it
    /// holds; a new source, or one whose settings changed, starts empty; what a removed or changed source
    /// said leaves the merged view (returned as removals, or as the version another source holds). On an
    /// error nothing changes.
    public mutating func replaceSources(with settings: [SourceSettings]) throws(LiveStateError) -> LiveChanges {
        let index = try Self.index(settings)
        var kept: [String: SourceState] = [:]
        var dropped: [SourceState] = []
        for source in sources {
            if let s = index[source.name], settings[s] == source.settings {
                kept[source.name] = source
            } else {
                dropped.append(source)
            }
        }
        sources = settings.map { kept[$0.name] ?? SourceState(settings: $0) }
        indexByName = index
        var changes = LiveChanges()
        changes.sourcesChanged = true
        var tripKeys = Set<TripInstanceKey>()
        for source in dropped {
            tripKeys.formUnion(source.trips.keys)
            // Vehicle and alert keys start with the source's name: only that source ever held them.
            for key in source.vehicles.keys {
                if vehicles.removeValue(forKey: key) != nil { changes.removedVehicles.append(key) }
            }
            for key in source.alerts.keys {
                if alerts.removeValue(forKey: key) != nil { changes.removedAlerts.append(key) }
            }
            for key in source.detours.keys {
                if detours.removeValue(forKey: key) != nil { changes.removedDetours.append(key) }
            }
        }
        mergeTrips(tripKeys, into: &changes)
        return changes
    }

    public func sourceIndex(named name: String) -> Int? { indexByName[name] }
    public func settings(of source: Int) -> SourceSettings { sources[source].settings }

    public func statuses(now: Int64) -> [LiveSourceStatus] { sources.map { $0.status(now: now) } }

    // MARK: events without a usable feed

    /// A fetch or decode failure: counted with its message; the source's state is kept.
    public mutating func recordFailure(source: Int, message: String, at unix: Int64) -> LiveChanges {
        sources[source].fail(message, at: unix)
        var changes = LiveChanges()
        changes.sourcesChanged = true
        return changes
    }

    /// A fetched body that could not be used (it did not decode): a failure that lasts through "not
    /// modified" answers until a body that decodes arrives; the source's state is kept.
    public mutating func recordRefusedBody(source: Int, message: String, at unix: Int64) -> LiveChanges {
        sources[source].refuse(message, at: unix)
        var changes = LiveChanges()
        changes.sourcesChanged = true
        return changes
    }

    /// The server said the feed did not change (HTTP 304, or an unchanged file): a success when the body held
    /// is one that decoded, one more failure when it is a refused one (`recordRefusedBody`).
    public mutating func recordNotModified(source: Int, at unix: Int64) -> LiveChanges {
        sources[source].unchanged(at: unix)
        var changes = LiveChanges()
        changes.sourcesChanged = true
        return changes
    }

    /// Decides whether a decoded feed is to be applied: not when its header timestamp is older than the last
    /// applied one (counted in `older_ignored`), nor when it is the very same body again (`not_modified`),
    /// nor when its incrementality is unknown (an error). Records the fetch either way.
    public mutating func screen(_ feed: FeedMessage, bodyHash: Int, source s: Int, fetchedAt: Int64) -> Bool {
        sources[s].lastFetchUnix = fetchedAt
        if case .unknown(let value) = feed.header.incrementality {
            sources[s].refuse("unsupported incrementality \(value) in the feed header", at: fetchedAt)
            return false
        }
        sources[s].succeed(at: fetchedAt)
        let timestamp = feed.header.timestamp
        if let timestamp, let last = sources[s].lastHeaderTimestamp, timestamp < last {
            sources[s].olderIgnored += 1
            return false
        }
        if bodyHash == sources[s].lastBodyHash, timestamp == sources[s].lastHeaderTimestamp {
            sources[s].notModified += 1
            return false
        }
        return true
    }

    /// The trip ids (static, with the source's prefix) resolving `feed` may need schedules for.
    public func tripIds(of feed: FeedMessage, source: Int) -> [String] {
        sources[source].scheduleNeeds(of: feed).tripIds
    }

    /// The trip ids, and the descriptors without trip_id (route id prefixed), resolving `feed` needs.
    func scheduleNeeds(of feed: FeedMessage, source: Int) -> ScheduleNeeds { sources[source].scheduleNeeds(of: feed) }

    /// The same for everything held, for resolving it all again.
    var heldNeeds: ScheduleNeeds {
        var all = ScheduleNeeds()
        for source in sources {
            let needs = source.heldNeeds
            all.tripIds += needs.tripIds
            all.descriptors += needs.descriptors
        }
        return all
    }

    // MARK: applying

    /// Applies a screened feed: resolves its trip updates (once) and its vehicles' trip instances against
    /// `schedules`, replaces what the source said (FULL_DATASET) or entity by entity (DIFFERENTIAL), and
    /// returns what changed in the merged view.
    public mutating func apply(
        _ feed: FeedMessage, bodyHash: Int, source s: Int, fetchedAt: Int64, schedules: ScheduleCache, now: Int64
    ) -> LiveChanges {
        sources[s].beginMatchTally()
        let touched = sources[s].apply(
            feed, schedules: schedules, otherModifications: otherModifications(than: s), now: now)
        sources[s].finishMatchTally(now: now)
        sources[s].feedVersion = feed.header.feedVersion
        sources[s].lastHeaderTimestamp = feed.header.timestamp ?? sources[s].lastHeaderTimestamp
        sources[s].lastBodyHash = bodyHash
        // Never in the future: a producer's clock ahead of ours must not keep data fresh longer.
        sources[s].dataUnix = feed.header.timestamp.map { min(Int64(clamping: $0), fetchedAt) } ?? fetchedAt
        sources[s].updatesApplied += 1
        var changes = LiveChanges()
        changes.sourcesChanged = true
        merge(touched, source: s, into: &changes)
        return changes
    }

    /// Resolves every held trip update and vehicle again (a new static database version).
    public mutating func resolveAgain(schedules: ScheduleCache, now: Int64) -> LiveChanges {
        var changes = LiveChanges()
        for s in sources.indices {
            sources[s].beginMatchTally()
            let touched = sources[s].resolveAgain(
                schedules: schedules, otherModifications: otherModifications(than: s), now: now)
            sources[s].finishMatchTally(now: now)
            merge(touched, source: s, into: &changes)
        }
        changes.sourcesChanged = true  // their timetable match was counted again
        return changes
    }

    /// Re-evaluates staleness at `now`; true when some source's stale flag flipped.
    public mutating func refreshStaleness(now: Int64) -> Bool {
        var flipped = false
        for s in sources.indices {
            let stale = sources[s].isStale(now: now)
            if stale != sources[s].reportedStale {
                sources[s].reportedStale = stale
                flipped = true
            }
        }
        return flipped
    }

    /// The detours of every source but `s` (a trip update may name a modified trip of another feed).
    private func otherModifications(than s: Int) -> [TripModificationSet] {
        sources.indices.compactMap { $0 == s || sources[$0].modifications.isEmpty ? nil : sources[$0].modifications }
    }

    // MARK: merged view

    private mutating func merge(_ touched: TouchedKeys, source s: Int, into changes: inout LiveChanges) {
        mergeTrips(touched.trips, into: &changes)
        for key in touched.vehicles {
            let current = sources[s].vehicles[key]
            guard current != vehicles[key] else { continue }
            vehicles[key] = current
            if let current { changes.vehicles.append(current) } else { changes.removedVehicles.append(key) }
        }
        for key in touched.alerts {
            let current = sources[s].alerts[key]
            guard current != alerts[key] else { continue }
            alerts[key] = current
            if let current { changes.alerts.append(current) } else { changes.removedAlerts.append(key) }
        }
        for key in touched.detours {
            let current = sources[s].detours[key]
            guard current != detours[key] else { continue }
            detours[key] = current
            if let current { changes.detours.append(current) } else { changes.removedDetours.append(key) }
        }
    }

    /// Publishes for each of `keys` the version the sources now hold (or its removal).
    private mutating func mergeTrips(_ keys: Set<TripInstanceKey>, into changes: inout LiveChanges) {
        changes.trips.reserveCapacity(keys.count)
        for key in keys {
            let merged = mergedTrip(key)
            // Compared and replaced in place (through the index and the values' modify accessor): `trips[key]`,
            // and even `trips.values[index]` read, would copy the whole trip out.
            if let index = trips.index(forKey: key) {
                guard let merged else {
                    trips.remove(at: index)
                    changes.removedTrips.append(key)
                    continue
                }
                guard Self.replace(&trips.values[index], with: merged) else { continue }
                changes.trips.append(merged)
            } else if let merged {
                trips[key] = merged
                changes.trips.append(merged)
            }
        }
    }

    /// Replaces `held` by `new` unless they are equal; true when replaced.
    private static func replace(_ held: inout LiveTrip, with new: LiveTrip) -> Bool {
        guard held != new else { return false }
        held = new
        return true
    }

    /// The version of an instance to publish: from the source with the newest feed header (ties: the first
    /// configured source); the stops it leaves without a prediction take a vehicle's estimate
    /// (`StopPredictions.combine`), and an instance no trip update names is the vehicle's estimate alone.
    private func mergedTrip(_ key: TripInstanceKey) -> LiveTrip? {
        var best: (trip: LiveTrip, timestamp: UInt64)?
        var estimate: (trip: LiveTrip, timestamp: UInt64)?
        for i in sources.indices {  // by index: no copy of a source per key
            if let trip = sources[i].vehicleTrips[key] {
                let timestamp = trip.timestamp ?? 0
                if estimate == nil || timestamp > estimate!.timestamp { estimate = (trip, timestamp) }
            }
            guard let trip = sources[i].trips[key] else { continue }
            let timestamp = sources[i].lastHeaderTimestamp ?? 0
            if best == nil || timestamp > best!.timestamp { best = (trip, timestamp) }
        }
        guard var trip = best?.trip else { return estimate?.trip }
        // Stops are combined by stop_sequence: only when both number them alike (a detour's or the schedule's).
        if let estimate, trip.relationship == .scheduled || trip.relationship == .unscheduled,
            estimate.trip.modificationsId == trip.modificationsId
        {
            StopPredictions.combine(&trip.stops, with: estimate.trip.stops)
        }
        return trip
    }
}
