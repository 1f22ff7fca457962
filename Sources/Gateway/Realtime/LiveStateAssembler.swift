import GatewayProtocol
import TransitModel

/// What changed in the live state since the last hand-over to the view: the stop ids whose boards may
/// differ and the trip instances a trip update named, or `nil` for "any" (a snapshot, a source turning stale or
/// fresh, alerts and detours).
public struct RealtimeChange: Sendable, Equatable {
    public var stops: Set<String>?
    public var trips: Set<TripInstanceKey>?

    public init(stops: Set<String>?, trips: Set<TripInstanceKey>? = []) {
        self.stops = stops
        self.trips = stops == nil ? nil : trips
    }

    public static let everything = RealtimeChange(stops: nil, trips: nil)

    /// Could the board of these stops have changed?
    public func touches(_ boardStops: Set<String>) -> Bool {
        guard let stops else { return true }
        return !stops.isDisjoint(with: boardStops)
    }

    /// Could the live state of one of these trip instances have changed (a plan subscription's rides)?
    public func touches(trips instances: Set<TripInstanceKey>) -> Bool {
        guard let trips else { return true }
        return !trips.isDisjoint(with: instances)
    }
}

/// The subscriber's working copy of the live state: snapshots and PUB payloads applied to it, with the
/// changes collected until `takeChange` hands them over.
struct LiveStateAssembler {
    private(set) var state = RealtimeState()
    private var changedStops: Set<String> = []
    private var changedTrips: Set<TripInstanceKey> = []
    private var everything = false
    /// Something changed since the last `takeChange`.
    private(set) var dirty = false

    /// A snapshot replaces everything the topic held.
    mutating func applySnapshot(_ payload: LivePayload) {
        switch payload {
        case .tripUpdates(let batch):
            state.setTrips(batch.trips.map(TripPrediction.init))
            everything = true
        case .vehicles(let batch):
            state.setVehicles(batch.vehicles.map { ($0.key, VehicleEntry($0)) })
            everything = true
        case .alerts(let batch):
            state.setAlerts(batch.alerts.map { ($0.key, AlertRecord($0)) })
            everything = true  // boards carry the alerts of their rows
        case .sources(let list):
            setSources(list)
        case .detours(let batch):
            state.setDetours(batch.detours)
            everything = true
        case .heartbeat(let beat):
            setSources(beat.sources)
        }
        dirty = true
    }

    /// One PUB message's payload on top of the state.
    mutating func apply(_ payload: LivePayload) {
        switch payload {
        case .tripUpdates(let batch):
            state.apply(
                trips: batch.trips.map(TripPrediction.init), removed: batch.removed,
                changedStops: &changedStops)
            for trip in batch.trips { changedTrips.insert(trip.instance) }
            changedTrips.formUnion(batch.removed)
        case .vehicles(let batch):
            state.apply(
                vehicles: batch.vehicles.map { ($0.key, VehicleEntry($0)) }, removed: batch.removed,
                changedStops: &changedStops)
        case .alerts(let batch):
            state.apply(alerts: batch.alerts.map { ($0.key, AlertRecord($0)) }, removed: batch.removed)
            // Boards carry the alerts of their rows; alerts change rarely, so every board is looked at again.
            if !batch.alerts.isEmpty || !batch.removed.isEmpty { everything = true }
        case .sources(let list):
            setSources(list)
        case .detours(let batch):
            state.apply(detours: batch.detours, removed: batch.removed)
            // Detours change rarely and touch the boards of every stop of their trips: all are looked at again.
            if !batch.detours.isEmpty || !batch.removed.isEmpty { everything = true }
        case .heartbeat(let beat):
            setSources(beat.sources)
        }
        dirty = true
    }

    /// Source statuses (from `st` or a heartbeat). Only a change of what boards use (staleness) touches
    /// every board; counters and ages do not.
    mutating func setSources(_ list: [LiveSourceStatus]) {
        let sources = list.map(RealtimeSourceStatus.init)
        guard sources != state.sources else { return }
        let staleBefore = Dictionary(state.sources.map { ($0.name, $0.stale) }, uniquingKeysWith: { a, _ in a })
        let staleAfter = Dictionary(sources.map { ($0.name, $0.stale) }, uniquingKeysWith: { a, _ in a })
        if staleBefore != staleAfter { everything = true }
        state.sources = sources
        dirty = true
    }

    /// The changes since the last call (nil when nothing changed).
    mutating func takeChange() -> RealtimeChange? {
        guard dirty else { return nil }
        let change =
            everything ? RealtimeChange.everything : RealtimeChange(stops: changedStops, trips: changedTrips)
        changedStops.removeAll(keepingCapacity: true)
        changedTrips.removeAll(keepingCapacity: true)
        everything = false
        dirty = false
        return change
    }
}
