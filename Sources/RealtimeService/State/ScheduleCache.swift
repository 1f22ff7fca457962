import RealtimeCore
import TransitModel

/// The static schedules the resolver needs, fetched in bulk from the static service and kept between feed
/// updates: trips for the current window of service dates, patterns by (database version, pattern id),
/// and the ids the static service said it does not know; and which trips descriptors without trip_id
/// (route, direction, start date and time) match, kept per database version (they name their own date).
///
/// A new database version (a new import) empties everything: the caller then fetches again and resolves
/// the live trip updates again. A new date window (the day moved on) drops the trips (their service dates
/// are per window) but keeps the patterns.
public struct ScheduleCache: TripScheduleLookup, Sendable {
    public private(set) var databaseVersion: String?
    public private(set) var dates: ClosedRange<ServiceDate>?
    private var trips: [String: TripSchedule] = [:]
    private var patterns: [UInt32: Pattern] = [:]
    private var unknown: Set<String> = []
    private var matches: [TripStartDescriptor: [String]] = [:]
    /// The stations of the cached patterns' stops (sent with the patterns, kept like them).
    public private(set) var stations = StationIndex()

    public init() {}

    public var tripCount: Int { trips.count }
    public var patternCount: Int { patterns.count }
    /// The patterns held, for `TripSchedulesQuery.knownPatternIds` (the answer then leaves them out).
    public var patternIds: [UInt32] { patterns.keys.sorted() }

    public func schedule(tripId: String) -> TripSchedule? { trips[tripId] }
    public func pattern(id: UInt32) -> Pattern? { patterns[id] }
    public func tripIds(matching descriptor: TripStartDescriptor) -> [String]? { matches[descriptor] }

    /// The static service answered that it has no such trip (in this database version).
    public func isKnownUnknown(_ tripId: String) -> Bool { unknown.contains(tripId) }

    /// Sets the window of service dates the cached trips must cover; a different window drops the trips.
    public mutating func use(dates window: ClosedRange<ServiceDate>) {
        guard window != dates else { return }
        dates = window
        trips.removeAll(keepingCapacity: true)
        unknown.removeAll(keepingCapacity: true)
    }

    /// The ids (static, prefixed) neither cached nor known to be unknown, without duplicates, in order.
    public func missing(_ tripIds: some Sequence<String>) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for id in tripIds where trips[id] == nil && !unknown.contains(id) && seen.insert(id).inserted {
            out.append(id)
        }
        return out
    }

    /// The descriptors whose matches are not cached, without duplicates, in order.
    public func missing(descriptors: [TripStartDescriptor]) -> [TripStartDescriptor] {
        guard !descriptors.isEmpty else { return [] }
        var seen = Set<TripStartDescriptor>()
        return descriptors.filter { matches[$0] == nil && seen.insert($0).inserted }
    }

    /// The trip ids the cached matches of `descriptors` name (their schedules are needed too).
    public func matchedTripIds(_ descriptors: [TripStartDescriptor]) -> [String] {
        var ids: [String] = []
        for descriptor in descriptors { if let found = matches[descriptor] { ids += found } }
        return ids
    }

    /// Adds a bulk answer (to a query that named `descriptors`, in that order). Returns true when its
    /// database version differs from the cache's (the cache was emptied first: every live trip update must
    /// be resolved again).
    @discardableResult
    public mutating func add(_ answer: TripSchedules, descriptors: [TripStartDescriptor] = []) -> Bool {
        let changed = databaseVersion != nil && databaseVersion != answer.databaseVersion
        if changed { clear() }
        databaseVersion = answer.databaseVersion
        trips.reserveCapacity(trips.count + answer.trips.count)
        for trip in answer.trips { trips[trip.tripId] = trip }
        for pattern in answer.patterns { patterns[pattern.patternId] = pattern }
        unknown.formUnion(answer.unknownTripIds)
        for (descriptor, ids) in zip(descriptors, answer.descriptorMatches) { matches[descriptor] = ids }
        stations.add(answer.stations)
        return changed
    }

    /// Forgets everything (a new database version was seen elsewhere, e.g. in feed_info).
    public mutating func clear() {
        databaseVersion = nil
        trips.removeAll()
        patterns.removeAll()
        unknown.removeAll()
        matches.removeAll()
        stations = StationIndex()
    }
}
