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

extension LiveStopStatus {
    init(_ s: StopPredictionStatus) {
        switch s {
        case .scheduled: self = .predicted
        case .skipped: self = .skipped
        case .noData: self = .noData
        case .noPrediction: self = .noPrediction
        }
    }
}

enum TripConversion {
    /// The Live value of a resolved trip; `update` supplies per-stop occupancy (departure_occupancy_status).
    static func liveTrip(
        _ trip: ResolvedTrip, update: TripUpdate, source: String, entityId: String
    ) -> LiveTrip {
        // ResolvedStops read through a pointer: copying one out would retain and release its strings (this
        // runs for every stop of every feed update).
        var stops: [LiveStop] = []
        stops.reserveCapacity(trip.stops.count)
        trip.stops.withUnsafeBufferPointer { resolved in
            guard let base = resolved.baseAddress else { return }
            for i in 0..<resolved.count {
                let s = base + i
                stops.append(
                    LiveStop(
                        stopId: s.pointee.stopId, stopSequence: s.pointee.stopSequence,
                        assignedStopId: s.pointee.assignedStopId, scheduledArrival: s.pointee.scheduledArrival,
                        scheduledDeparture: s.pointee.scheduledDeparture, predictedArrival: s.pointee.predictedArrival,
                        predictedDeparture: s.pointee.predictedDeparture, arrivalDelay: s.pointee.arrivalDelay,
                        departureDelay: s.pointee.departureDelay, status: LiveStopStatus(s.pointee.status),
                        predictionSource: s.pointee.source))
            }
        }
        addStopProperties(update.stopTimeUpdates, to: &stops)
        return LiveTrip(
            instance: trip.key, relationship: LiveTripRelationship(trip.relationship),
            staticTripId: trip.staticTripId, routeId: trip.routeId, directionId: trip.directionId,
            vehicleId: trip.vehicleId, vehicleLabel: trip.vehicleLabel, timestamp: trip.timestamp,
            tripDelay: trip.tripDelay, stops: stops, source: source, entityId: entityId,
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

    /// Copies departure_occupancy_status, stop_headsign and the carriages' predicted occupancy (TfNSW) onto the
    /// stops they name (by stop_sequence, else stop_id). Rare in feeds, so the common case costs one scan of
    /// the updates.
    private static func addStopProperties(_ updates: [StopTimeUpdate], to stops: inout [LiveStop]) {
        for k in updates.indices {  // by index: no copy of each update that has neither
            let occupancy = updates[k].departureOccupancyStatus
            let headsign = updates[k].stopTimeProperties?.stopHeadsign.flatMap { $0.isEmpty ? nil : $0 }
            guard occupancy != nil || headsign != nil || !updates[k].tfnswCarriages.isEmpty else { continue }
            let u = updates[k]
            let index: Int?
            if let sequence = u.stopSequence {
                index = stops.firstIndex { $0.stopSequence == sequence }
            } else if let stopId = u.stopId {
                index = stops.firstIndex { $0.stopId == stopId }
            } else {
                index = nil
            }
            guard let index else { continue }
            if let occupancy { stops[index].departureOccupancy = occupancy.name }
            if let headsign { stops[index].stopHeadsign = headsign }
            if !u.tfnswCarriages.isEmpty { stops[index].carriages = u.tfnswCarriages.map(LiveCarriage.init) }
        }
    }
}
