import GatewayProtocol
import TransitModel

// The live state as the gateway holds it: resolved trip updates (indexed by trip instance and by stop),
// vehicle positions, alerts and the status of every realtime source. A value: the subscriber changes its own
// copy batch by batch and hands `RealtimeView` the result, so a request reads one consistent state without
// locks (copy-on-write keeps the hand-over cheap).

/// One visit of a trip instance at a stop: the instance and the position of the stop in its `stops`.
public struct StopVisitRef: Sendable, Hashable {
    public var key: TripInstanceKey
    public var index: Int
    /// The visit's `lateScheduledUnix`, kept here so a board counts its late visits without looking up
    /// every trip at its stops (a hash of the trip's key per visit was 5 % of the gateway's CPU).
    public var lateScheduledUnix: Int64?
}

/// A vehicle and the trip instance it serves (when the realtime service resolved one): the gateway's index
/// entry, since the snapshot keeps only what the JSON shows.
struct VehicleEntry: Sendable, Hashable {
    var vehicle: VehicleSnapshot
    var instance: TripInstanceKey?
}

/// The whole live state at one moment.
public struct RealtimeState: Sendable {
    public private(set) var trips: [TripInstanceKey: TripPrediction] = [:]
    /// Visits by stop id (the planned stop and a realtime platform change), for boards: which trips at a stop
    /// are delayed, early, cancelled or added.
    public private(set) var tripsByStop: [String: [StopVisitRef]] = [:]
    /// By vehicle id (then key), the order `vehicles` answers in.
    public private(set) var vehicles: [VehicleSnapshot] = []
    public private(set) var alerts: [AlertRecord] = []
    public var sources: [RealtimeSourceStatus]

    private var vehiclesByKey: [String: VehicleEntry] = [:]
    /// The vehicle serving each resolved trip instance.
    private(set) var vehicleByTrip: [TripInstanceKey: VehicleSnapshot] = [:]
    private var alertsByKey: [String: AlertRecord] = [:]
    /// Detours (GTFS-Realtime trip modifications) by key, and by static trip id: most states have none, and
    /// a board row of a trip without one costs one dictionary miss (`detour(for:)`).
    private var detoursByKey: [String: LiveDetour] = [:]
    private(set) var detoursByTrip: [String: [LiveDetour]] = [:]
    /// `alerts` indexed for per-row matching, rebuilt when they change.
    private(set) var alertIndex = AlertIndex()
    /// The hash values of the instances `trips` and `vehicleByTrip` hold, rebuilt when either changes. Most of
    /// a board's static rows are of instances without live data, and a miss in a dictionary of trip keys
    /// compares the key of every bucket it probes (a memcmp of trip ids of one length); an `Int` set rules most
    /// rows out at a fraction of that (`mayBeLive`).
    private var liveInstanceHashes: Set<Int> = []

    public init(
        trips: [TripPrediction] = [], vehicles: [VehicleSnapshot] = [], alerts: [AlertRecord] = [],
        sources: [RealtimeSourceStatus] = []
    ) {
        self.sources = sources
        setTrips(trips)
        var keyed: [(String, VehicleEntry)] = []
        for (index, vehicle) in vehicles.enumerated() {
            let instance = vehicle.tripId.flatMap { id in
                vehicle.serviceDate.map { TripInstanceKey(tripId: id, serviceDate: $0) }
            }
            keyed.append(("#\(index)", VehicleEntry(vehicle: vehicle, instance: instance)))
        }
        setVehicles(keyed)
        setAlerts(alerts.map { ($0.id, $0) })
    }

    public static let empty = RealtimeState()

    /// Sources whose data must not be used (stale).
    func isStale(source: String) -> Bool {
        sources.first { $0.name == source }?.stale ?? false
    }

    /// Counts every source stale (the publisher is silent): predictions are left out, lasting facts kept.
    mutating func markEveryStale() {
        for i in sources.indices { sources[i].stale = true }
    }

    /// True when there are sources and every one is stale.
    var allSourcesStale: Bool { !sources.isEmpty && sources.allSatisfy(\.stale) }

    /// The vehicle serving a trip instance: the one resolved to it, else one naming its trip (and date).
    func vehicle(for key: TripInstanceKey, frequencyBased: Bool) -> VehicleSnapshot? {
        if let vehicle = vehicleByTrip[key] { return vehicle }
        return vehicles.first {
            $0.tripId == key.tripId && ($0.serviceDate == nil || $0.serviceDate == key.serviceDate)
                && (!frequencyBased || $0.startTime == nil || $0.startTime == key.startTime)
        }
    }

    /// False when neither `trips` nor `vehicleByTrip` holds `key` (true: look it up, it is there unless two
    /// keys share a hash value).
    func mayBeLive(_ key: TripInstanceKey) -> Bool {
        liveInstanceHashes.contains(key.hashValue)
    }

    private mutating func rehashLiveInstances() {
        var hashes = Set<Int>(minimumCapacity: trips.count + vehicleByTrip.count)
        for key in trips.keys { hashes.insert(key.hashValue) }
        for key in vehicleByTrip.keys { hashes.insert(key.hashValue) }
        liveInstanceHashes = hashes
    }

    // MARK: trip updates

    /// Replaces every trip instance (a `tu` snapshot).
    mutating func setTrips(_ list: [TripPrediction]) {
        trips = [:]
        trips.reserveCapacity(list.count)
        tripsByStop = [:]
        for trip in list {
            if trips[trip.key] != nil { unindex(trips[trip.key]!) }
            trips[trip.key] = trip
            index(trip)
        }
        rehashLiveInstances()
    }

    /// New or changed instances (full content) and removed ones; adds the stop ids whose boards may change.
    mutating func apply(trips changed: [TripPrediction], removed: [TripInstanceKey], changedStops: inout Set<String>) {
        for key in removed {
            guard let old = trips.removeValue(forKey: key) else { continue }
            unindex(old)
            old.stops.forEach { changedStops.formUnion($0.indexedStopIds) }
        }
        for trip in changed {
            if let old = trips[trip.key] {
                if old == trip { continue }
                old.stops.forEach { changedStops.formUnion($0.indexedStopIds) }
                trips[trip.key] = trip
                trip.stops.forEach { changedStops.formUnion($0.indexedStopIds) }
                // Usually only the times changed: the index entries stay as they are (unless a visit became
                // late or stopped being late: the entries carry that).
                if !Self.sameIndexEntries(old, trip) {
                    unindex(old)
                    index(trip)
                }
                continue
            }
            trips[trip.key] = trip
            index(trip)
            trip.stops.forEach { changedStops.formUnion($0.indexedStopIds) }
        }
        // Removals rebuild the set (two keys may share a hash value); additions only add.
        if !removed.isEmpty {
            rehashLiveInstances()
        } else {
            for trip in changed { liveInstanceHashes.insert(trip.key.hashValue) }
        }
    }

    private static func sameIndexEntries(_ a: TripPrediction, _ b: TripPrediction) -> Bool {
        guard a.stops.count == b.stops.count else { return false }
        for i in a.stops.indices
        where a.stops[i].stopId != b.stops[i].stopId || a.stops[i].assignedStopId != b.stops[i].assignedStopId
            || a.stops[i].lateScheduledUnix != b.stops[i].lateScheduledUnix
        {
            return false
        }
        return true
    }

    private mutating func index(_ trip: TripPrediction) {
        for (position, stop) in trip.stops.enumerated() {
            for id in stop.indexedStopIds {
                tripsByStop[id, default: []].append(
                    StopVisitRef(key: trip.key, index: position, lateScheduledUnix: stop.lateScheduledUnix))
            }
        }
    }

    private mutating func unindex(_ trip: TripPrediction) {
        for stop in trip.stops {
            for id in stop.indexedStopIds {
                tripsByStop[id]?.removeAll { $0.key == trip.key }
                if tripsByStop[id]?.isEmpty == true { tripsByStop[id] = nil }
            }
        }
    }

    // MARK: vehicles

    /// Replaces every vehicle (a `vp` snapshot), by key.
    mutating func setVehicles(_ list: [(String, VehicleEntry)]) {
        vehiclesByKey = Dictionary(list, uniquingKeysWith: { _, last in last })
        reindexVehicles()
    }

    /// Changed and removed vehicles; adds the stops of the trips whose occupancy (shown on boards) changed.
    mutating func apply(vehicles changed: [(String, VehicleEntry)], removed: [String], changedStops: inout Set<String>)
    {
        var touched: [TripInstanceKey] = []
        for key in removed {
            if let old = vehiclesByKey.removeValue(forKey: key), let instance = old.instance {
                touched.append(instance)
            }
        }
        for (key, entry) in changed {
            let old = vehiclesByKey.updateValue(entry, forKey: key)
            if old?.vehicle.occupancyStatus != entry.vehicle.occupancyStatus || old?.instance != entry.instance {
                if let instance = old?.instance { touched.append(instance) }
                if let instance = entry.instance { touched.append(instance) }
            }
        }
        reindexVehicles()
        for instance in touched {
            trips[instance]?.stops.forEach { changedStops.formUnion($0.indexedStopIds) }
        }
    }

    private mutating func reindexVehicles() {
        let sorted = vehiclesByKey.sorted { a, b in
            let ai = a.value.vehicle.vehicleId ?? "\u{10FFFF}", bi = b.value.vehicle.vehicleId ?? "\u{10FFFF}"
            return ai != bi ? ai < bi : a.key < b.key
        }
        vehicles = sorted.map(\.value.vehicle)
        vehicleByTrip = [:]
        for (_, entry) in sorted {
            if let instance = entry.instance, vehicleByTrip[instance] == nil { vehicleByTrip[instance] = entry.vehicle }
        }
        rehashLiveInstances()
    }

    // MARK: alerts

    mutating func setAlerts(_ list: [(String, AlertRecord)]) {
        alertsByKey = Dictionary(list, uniquingKeysWith: { _, last in last })
        alerts = alertsByKey.sorted { $0.key < $1.key }.map(\.value)
        alertIndex = AlertIndex(alerts)
    }

    // MARK: detours

    /// The detour in effect for the instance `key` (its trip on its date, for its run), if any.
    func detour(for key: TripInstanceKey) -> LiveDetour? {
        guard !detoursByTrip.isEmpty, let list = detoursByTrip[key.tripId] else { return nil }
        return list.first { $0.applies(serviceDate: key.serviceDate, runStartSecs: key.startSecs) }
    }

    /// Every detour of this state, by key.
    var detours: [LiveDetour] { detoursByKey.keys.sorted().map { detoursByKey[$0]! } }

    /// Replaces every detour (a `dt` snapshot).
    mutating func setDetours(_ list: [LiveDetour]) {
        detoursByKey = Dictionary(list.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
        indexDetours()
    }

    mutating func apply(detours changed: [LiveDetour], removed: [String]) {
        for key in removed { detoursByKey[key] = nil }
        for detour in changed { detoursByKey[detour.key] = detour }
        indexDetours()
    }

    private mutating func indexDetours() {
        var byTrip: [String: [LiveDetour]] = [:]
        for key in detoursByKey.keys.sorted() {
            let detour = detoursByKey[key]!
            byTrip[detour.tripId, default: []].append(detour)
        }
        detoursByTrip = byTrip
    }

    mutating func apply(alerts changed: [(String, AlertRecord)], removed: [String]) {
        for key in removed { alertsByKey[key] = nil }
        for (key, alert) in changed { alertsByKey[key] = alert }
        alerts = alertsByKey.sorted { $0.key < $1.key }.map(\.value)
        alertIndex = AlertIndex(alerts)
    }
}
