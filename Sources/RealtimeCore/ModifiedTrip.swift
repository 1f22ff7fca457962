import GTFSRealtime
import TransitModel

/// A static trip as a TripModifications entity changed it (a detour): its stops in travel order, the
/// detoured ones marked, with the modified schedule as offsets from the trip's start (the same origin as the
/// original pattern's, so one base time serves both). Built by `TripModificationApplier`; date-independent:
/// `TripModificationSet` says on which service dates (and start times) it is in effect.
public struct ModifiedTrip: Sendable, Hashable {
    /// The FeedEntity id of the TripModifications (what a ModifiedTripSelector's modifications_id names).
    public var modificationsId: String
    /// The static trip modified (as stored: with the feed's id prefix).
    public var tripId: String
    /// SelectedTrips.shape_id: the path while modified (a Shape entity of the feed, or a static shape).
    public var shapeId: String?
    /// The points of `shapeId` when it is a Shape entity of the feed that parses; else nil.
    public var shapePoints: [GeoPoint]?
    /// Every stop in travel order: the original stops kept and detoured, and the replacement stops
    /// (each modification's replacement stops right after the stops they replace).
    public var stops: [ModifiedTripStop]

    public init(
        modificationsId: String, tripId: String, shapeId: String? = nil, shapePoints: [GeoPoint]? = nil,
        stops: [ModifiedTripStop]
    ) {
        self.modificationsId = modificationsId
        self.tripId = tripId
        self.shapeId = shapeId
        self.shapePoints = shapePoints
        self.stops = stops
    }

    /// The stops the modified trip serves (detoured ones left out), numbered 1...n as the spec renumbers
    /// them: what the stop_sequence and stop_id of a trip update naming the modified trip refer to.
    public var servedStops: [PatternStop] {
        stops.compactMap { stop in
            guard let sequence = stop.stopSequence else { return nil }
            return PatternStop(
                stopId: stop.stopId, stopSequence: sequence, arrivalOffset: stop.arrivalOffset,
                departureOffset: stop.departureOffset, pickupType: stop.pickupType, dropOffType: stop.dropOffType,
                timepoint: stop.timepoint)
        }
    }

    /// The original stops the detour leaves out.
    public var detouredStops: [ModifiedTripStop] { stops.filter { $0.role.isDetoured } }
}

/// One stop of a `ModifiedTrip`.
public struct ModifiedTripStop: Sendable, Hashable {
    /// What the modification made of the stop.
    public enum Role: Sendable, Hashable {
        /// An original stop still served; its times carry the propagated delays of the modifications
        /// before it.
        case kept(originalSequence: UInt32)
        /// An original stop between a modification's start and end selectors: not served. Its offsets
        /// are the original schedule's.
        case detoured(originalSequence: UInt32, modification: Int)
        /// A stop a modification (index in `TripModifications.modifications`) serves instead.
        case replacement(modification: Int)

        public var isDetoured: Bool {
            if case .detoured = self { return true }
            return false
        }
    }

    public var stopId: String
    /// 1...n along the served stops; nil for a detoured stop.
    public var stopSequence: UInt32?
    /// Seconds after the trip's start.
    public var arrivalOffset: Int32
    /// Seconds after the trip's start; a replacement stop's equals its arrival (the spec's rule).
    public var departureOffset: Int32
    public var role: Role
    /// The propagated modification delays of the modifications before the stop (added to a kept stop's
    /// original times; 0 for replacement and detoured stops).
    public var propagatedDelay: Int32 = 0
    /// Where a replacement stop is (its Stop entity, or the static stop); nil for original stops.
    public var location: GeoPoint?
    /// An original stop's stop_times values; the defaults (regular, exact) for replacement stops, as
    /// the spec sets every optional stop_times.txt field of a replacement stop to its default.
    public var pickupType: Int = 0
    public var dropOffType: Int = 0
    public var timepoint: Bool = true

    public init(
        stopId: String, stopSequence: UInt32?, arrivalOffset: Int32, departureOffset: Int32, role: Role,
        location: GeoPoint? = nil
    ) {
        self.stopId = stopId
        self.stopSequence = stopSequence
        self.arrivalOffset = arrivalOffset
        self.departureOffset = departureOffset
        self.role = role
        self.location = location
    }
}

/// A WGS-84 position in degrees.
public struct GeoPoint: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
