import TransitModel

/// Where the resolver finds static trips and their patterns (ids as stored: with the feed's prefix).
public protocol TripScheduleLookup {
    func schedule(tripId: String) -> TripSchedule?
    func pattern(id: UInt32) -> Pattern?
    /// The static trip ids a descriptor without trip_id matches (`TripSchedules.descriptorMatches`); nil
    /// when the static service was not asked or did not answer.
    func tripIds(matching descriptor: TripStartDescriptor) -> [String]?
    /// The stations of the patterns' stops and their platforms (`TripSchedules.stations`); empty when not told.
    var stations: StationIndex { get }
}

extension TripScheduleLookup {
    public func tripIds(matching descriptor: TripStartDescriptor) -> [String]? { nil }
    public var stations: StationIndex { StationIndex() }
}

/// A `TripScheduleLookup` over the static service's bulk trip-schedule answer(s).
public struct TripScheduleIndex: TripScheduleLookup, Sendable {
    public private(set) var trips: [String: TripSchedule]
    public private(set) var patterns: [UInt32: Pattern]
    public private(set) var matches: [TripStartDescriptor: [String]]
    public private(set) var stations = StationIndex()

    public init(_ schedules: TripSchedules? = nil, descriptors: [TripStartDescriptor] = []) {
        trips = [:]
        patterns = [:]
        matches = [:]
        if let schedules { add(schedules, descriptors: descriptors) }
    }

    /// Adds (or replaces) the trips and patterns of one answer, and its matches of the `descriptors` it was
    /// asked for (in the query's order).
    public mutating func add(_ schedules: TripSchedules, descriptors: [TripStartDescriptor] = []) {
        trips.reserveCapacity(trips.count + schedules.trips.count)
        for trip in schedules.trips { trips[trip.tripId] = trip }
        for pattern in schedules.patterns { patterns[pattern.patternId] = pattern }
        for (descriptor, ids) in zip(descriptors, schedules.descriptorMatches) { matches[descriptor] = ids }
        stations.add(schedules.stations)
    }

    public mutating func add(_ stations: [StationPlatforms]) { self.stations.add(stations) }

    public mutating func add(matches ids: [String], for descriptor: TripStartDescriptor) { matches[descriptor] = ids }

    public mutating func add(_ trip: TripSchedule) { trips[trip.tripId] = trip }
    public mutating func add(_ pattern: Pattern) { patterns[pattern.patternId] = pattern }

    public func schedule(tripId: String) -> TripSchedule? { trips[tripId] }
    public func pattern(id: UInt32) -> Pattern? { patterns[id] }
    public func tripIds(matching descriptor: TripStartDescriptor) -> [String]? { matches[descriptor] }
}
