import TransitModel

/// Where the resolver finds static trips and their patterns (ids as stored: with the feed's prefix).
public protocol TripScheduleLookup {
    func schedule(tripId: String) -> TripSchedule?
    func pattern(id: UInt32) -> Pattern?
}

/// A `TripScheduleLookup` over the static service's bulk trip-schedule answer(s).
public struct TripScheduleIndex: TripScheduleLookup, Sendable {
    public private(set) var trips: [String: TripSchedule]
    public private(set) var patterns: [UInt32: Pattern]

    public init(_ schedules: TripSchedules? = nil) {
        trips = [:]
        patterns = [:]
        if let schedules { add(schedules) }
    }

    /// Adds (or replaces) the trips and patterns of one answer.
    public mutating func add(_ schedules: TripSchedules) {
        trips.reserveCapacity(trips.count + schedules.trips.count)
        for trip in schedules.trips { trips[trip.tripId] = trip }
        for pattern in schedules.patterns { patterns[pattern.patternId] = pattern }
    }

    public mutating func add(_ trip: TripSchedule) { trips[trip.tripId] = trip }
    public mutating func add(_ pattern: Pattern) { patterns[pattern.patternId] = pattern }

    public func schedule(tripId: String) -> TripSchedule? { trips[tripId] }
    public func pattern(id: UInt32) -> Pattern? { patterns[id] }
}
