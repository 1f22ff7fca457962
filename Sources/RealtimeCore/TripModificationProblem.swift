/// Why (part of) a TripModifications entity was not applied: a countable reason and a message naming the
/// entity, the trip and the cause. The rest of the entity (and of the feed) is applied.
public struct TripModificationProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// A selected trip id is not in the static schedule: that trip is left out.
        case unknownTrip
        /// A service_dates entry is not YYYYMMDD, or a start_times entry not HH:MM:SS: that entry is left out
        /// (and the entity with it, when no date is left).
        case badDateOrTime
        /// The trip is already selected by an earlier TripModifications on that date (the spec allows one):
        /// the later selection of the trip is left out.
        case tripSelectedTwice
        /// A stop selector names no stop of the trip, or the end comes before the start: the trip keeps its
        /// schedule.
        case stopNotInTrip
        /// Two modifications' spans overlap (or touch: the spec requires such spans merged into one) in a
        /// trip: the trip keeps its schedule.
        case overlappingModifications
        /// travel_time_to_stop decreases along the replacement stops, or is negative while the reference
        /// stop is not the trip's first: the trip keeps its schedule.
        case badTravelTime
        /// A replacement stop with no coordinates: neither a Stop entity with stop_lat and stop_lon nor a
        /// known static stop. That replacement stop is left out.
        case replacementStopWithoutCoordinates
        /// A Shape entity whose encoded polyline does not parse (or has fewer than two points): the
        /// modified trips have no shape points.
        case unparsableShape
    }

    public var reason: Reason
    /// The TripModifications entity's id (or the Shape entity's).
    public var entityId: String
    /// The trip concerned, when one is.
    public var tripId: String?
    public var message: String

    public init(_ reason: Reason, entityId: String, tripId: String? = nil, _ message: String) {
        self.reason = reason
        self.entityId = entityId
        self.tripId = tripId
        self.message = message
    }

    public var description: String {
        "\(reason.rawValue) (entity \"\(entityId)\"" + (tripId.map { ", trip \"\($0)\"" } ?? "") + "): \(message)"
    }
}
