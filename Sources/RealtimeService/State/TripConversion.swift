import GTFSRealtime
import RealtimeCore
import TransitModel

// RealtimeCore's resolved trips -> the Live values the service stores and publishes.

extension LiveTripRelationship {
    init(_ r: ResolvedTrip.Relationship) {
        switch r {
        case .scheduled: self = .scheduled
        case .unscheduled: self = .unscheduled
        case .canceled: self = .canceled
        case .added: self = .added
        case .new: self = .new
        case .replacement: self = .replacement
        case .duplicated: self = .duplicated
        }
    }
}

enum TripConversion {
    /// The Live value of a resolved trip: its stops are the resolver's, as they are.
    static func liveTrip(
        _ trip: ResolvedTrip, update: TripUpdate, source: String, entityId: String
    ) -> LiveTrip {
        LiveTrip(
            instance: trip.key, relationship: LiveTripRelationship(trip.relationship),
            staticTripId: trip.staticTripId, routeId: trip.routeId, directionId: trip.directionId,
            vehicleId: trip.vehicleId, vehicleLabel: trip.vehicleLabel, timestamp: trip.timestamp,
            tripDelay: trip.tripDelay, stops: trip.stops, source: source, entityId: entityId,
            tripHeadsign: update.tripProperties?.tripHeadsign.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The tombstone of a DELETED instance: no stops.
    static func deletedTrip(
        _ key: TripInstanceKey, update: TripUpdate, idPrefix: String, source: String,
        entityId: String
    ) -> LiveTrip {
        LiveTrip(
            instance: key, relationship: .deleted,
            routeId: update.trip.routeId.map { idPrefix + $0 }, directionId: update.trip.directionId.map { Int($0) },
            vehicleId: update.vehicle?.id, vehicleLabel: update.vehicle?.label, timestamp: update.timestamp,
            source: source, entityId: entityId)
    }
}
