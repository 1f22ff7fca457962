import TransitModel

/// The live state exactly as a subscriber holds it after applying every message sent so far, with the
/// sequence number of each topic: what snapshots and queries are answered from.
struct PublishedState: Sendable {
    var sequences: [RealtimeTopic: UInt64] = [:]
    var trips: [TripInstanceKey: LiveTrip] = [:]
    var vehicles: [String: LiveVehicle] = [:]
    var alerts: [String: LiveAlert] = [:]
    var detours: [String: LiveDetour] = [:]
    var sources: [LiveSourceStatus] = []
    var databaseVersion: String?

    func sequence(_ topic: RealtimeTopic) -> UInt64 { sequences[topic] ?? 0 }

    /// Takes the next sequence number of `topic`.
    mutating func next(_ topic: RealtimeTopic) -> UInt64 {
        let seq = sequence(topic) + 1
        sequences[topic] = seq
        return seq
    }

    /// Applies `changes` and returns the payloads to send, one per topic that changed, in topic order.
    /// The trips it replaces or removes are appended to `retired` (the caller frees them off the hot path).
    mutating func apply(
        _ changes: LiveChanges, sources statuses: [LiveSourceStatus]?, retired: inout [LiveTrip]
    ) -> [LivePayload] {
        var payloads: [LivePayload] = []
        // Detours first: a subscriber reads the trips of modified trips through them.
        if changes.hasDetours {
            for key in changes.removedDetours { detours[key] = nil }
            for detour in changes.detours { detours[detour.key] = detour }
            payloads.append(.detours(LiveDetourBatch(detours: changes.detours, removed: changes.removedDetours)))
        }
        if changes.hasTrips {
            retired.reserveCapacity(changes.trips.count + changes.removedTrips.count)
            for instance in changes.removedTrips {
                if let old = trips.removeValue(forKey: instance) { retired.append(old) }
            }
            for trip in changes.trips {
                if let old = trips.updateValue(trip, forKey: trip.instance) { retired.append(old) }
            }
            payloads.append(.tripUpdates(LiveTripBatch(trips: changes.trips, removed: changes.removedTrips)))
        }
        if changes.hasVehicles {
            for key in changes.removedVehicles { vehicles[key] = nil }
            for vehicle in changes.vehicles { vehicles[vehicle.key] = vehicle }
            payloads.append(.vehicles(LiveVehicleBatch(vehicles: changes.vehicles, removed: changes.removedVehicles)))
        }
        if changes.hasAlerts {
            for key in changes.removedAlerts { alerts[key] = nil }
            for alert in changes.alerts { alerts[alert.key] = alert }
            payloads.append(.alerts(LiveAlertBatch(alerts: changes.alerts, removed: changes.removedAlerts)))
        }
        if let statuses {
            sources = statuses
            payloads.append(.sources(statuses))  // `st` always carries every source: it replaces the list
        }
        return payloads
    }

    /// The whole state of a stateful topic, as a batch without removals.
    func payload(_ topic: RealtimeTopic) -> LivePayload? {
        switch topic {
        case .tripUpdates: .tripUpdates(LiveTripBatch(trips: Array(trips.values)))
        case .vehicles: .vehicles(LiveVehicleBatch(vehicles: Array(vehicles.values)))
        case .alerts: .alerts(LiveAlertBatch(alerts: Array(alerts.values)))
        case .sources: .sources(sources)
        case .detours: .detours(LiveDetourBatch(detours: Array(detours.values)))
        case .heartbeat: nil
        }
    }
}
