import JourneyPlanner
import RealtimeFollowing
import TransitCore
import TransitModel

/// The static service's consumer of the realtime stream (protocol/README.md flow 8, "Live trips"): the `tu` topic
/// kept as the latest state per trip instance, with the sources' staleness from the heartbeats, laid over the
/// planner's timetable (`JourneyPlanning.updateLive`) after a change, at most once per `minInterval`. It runs on
/// the subscriber's thread, so the overlay is built off the request workers; plans go on with the previous
/// timetable until the new one is swapped in.
struct PlannerLiveFeed: RealtimeStreamConsumer {
    let planning: JourneyPlanning
    /// The shortest time between two overlays (a batch of the changes in between).
    let minInterval: Duration
    var trips: [TripInstanceKey: LiveTrip] = [:]
    var staleSources: Set<String> = []
    /// A change not laid over yet.
    var dirty = false
    var lastOverlay: ContinuousClock.Instant?

    init(planning: JourneyPlanning, minInterval: Duration = .seconds(1)) {
        self.planning = planning
        self.minInterval = minInterval
    }

    mutating func applySnapshot(_ payload: LivePayload) {
        guard case .tripUpdates(let batch) = payload else { return }
        trips = Dictionary(batch.trips.map { ($0.instance, $0) }, uniquingKeysWith: { _, later in later })
        dirty = true
    }

    mutating func apply(_ payload: LivePayload) {
        guard case .tripUpdates(let batch) = payload else { return }
        for key in batch.removed { trips[key] = nil }
        for trip in batch.trips { trips[trip.instance] = trip }
        dirty = true
    }

    mutating func heartbeat(_ beat: LiveHeartbeat) {
        let stale = Set(beat.sources.filter(\.stale).map(\.name))
        if stale != staleSources {
            staleSources = stale
            dirty = true
        }
    }

    mutating func silenceNoticed() {}

    mutating func handOver(heard: Bool) {
        if heard { planning.noteRealtimeHeard() }
        guard dirty else { return }
        let now = ContinuousClock.now
        if let lastOverlay, now - lastOverlay < minInterval { return }
        planning.updateLive(trips, staleSources: staleSources)
        lastOverlay = now
        dirty = false
    }
}

/// The realtime service's trip instances as the planner's `LiveTrips`, over the indexes of one timetable.
///
/// - A cancelled or deleted instance: its run is left out of the search.
/// - A scheduled instance (scheduled, unscheduled, replacement): its run at the predicted times of its stops
///   (a stop's predicted departure, else its arrival; without a prediction the schedule), skipped stops neither
///   boarded nor left. Times are made non-decreasing along the trip (a later stop is never reached earlier).
/// - A detoured instance (it names trip modifications): the scheduled run is left out and its served stops run
///   as an added trip.
/// - An added, new or duplicated instance: an added trip over the stops the database knows (at least two).
/// - Instances of a stale source are left as scheduled (their predictions are not trusted, as on the boards).
struct LiveTripsConversion {
    let timetable: Timetable
    let tripIndex: [String: Int]
    let stopIndex: [String: Int]
    /// Mode of each trip index.
    let tripModes: [Mode]
    /// Mode of each route id (an added trip's).
    let routeModes: [String: Mode]

    func convert(_ trips: [TripInstanceKey: LiveTrip], staleSources: Set<String>) -> LiveTrips {
        var live = LiveTrips()
        for (key, trip) in trips where !staleSources.contains(trip.source) {
            guard let date = GTFSDate(yyyymmdd: Int(key.serviceDate)) else { continue }
            let scheduled = tripIndex[key.tripId].map { run(trip: $0, date: date, start: key.startSecs) }
            switch trip.relationship {
            case .canceled, .deleted:
                if let scheduled { live.runs[scheduled] = .cancelled }
            case .added, .new, .duplicated:
                if let added = addedTrip(trip) { live.added[addedId(key, in: live)] = added }
            case .scheduled, .unscheduled, .replacement:
                guard let scheduled else { continue }
                if trip.modificationsId != nil {
                    live.runs[scheduled] = .cancelled
                    if let added = addedTrip(trip) { live.added[addedId(key, in: live)] = added }
                } else if let times = Self.times(trip.stops) {
                    live.runs[scheduled] = .times(times)
                }
            }
        }
        return live
    }

    /// The run of a trip instance: with its start when the timetable has the trip's instances by start (a
    /// frequency-based trip), else the trip's one run of the date.
    func run(trip: Int, date: GTFSDate, start: Int32?) -> RunKey {
        let exact = RunKey(trip: trip, date: date, start: start.map(Int.init) ?? -1)
        guard start != nil, timetable.run(exact) == nil else { return exact }
        return RunKey(trip: trip, date: date)
    }

    /// An added trip's id in the planner (its `added_trip_id`): the realtime trip id, made unique by the
    /// instance when another instance of that id was added already.
    func addedId(_ key: TripInstanceKey, in live: LiveTrips) -> String {
        live.added[key.tripId] == nil ? key.tripId : key.description
    }

    /// The live time of each stop, made non-decreasing; nil when a stop has no time at all.
    static func times(_ stops: [LiveStop]) -> [LiveStopTime]? {
        var result: [LiveStopTime] = []
        result.reserveCapacity(stops.count)
        var previous = Int64.min
        for stop in stops {
            let predicted = stop.status == .predicted
            let arrival =
                (predicted ? stop.predictedArrival ?? stop.predictedDeparture : nil) ?? stop.scheduledArrival
                ?? stop.scheduledDeparture
            let departure =
                (predicted ? stop.predictedDeparture ?? stop.predictedArrival : nil) ?? stop.scheduledDeparture
                ?? stop.scheduledArrival
            let skipped = stop.status == .skipped
            guard var a = arrival ?? (skipped && previous > .min ? previous : nil), var d = departure ?? Optional(a)
            else { return nil }
            a = max(a, previous)
            d = max(d, a)
            previous = d
            result.append(LiveStopTime(arrival: a, departure: d, skipped: skipped))
        }
        return result
    }

    /// An added trip over the served stops the database knows; nil when fewer than two are left.
    func addedTrip(_ trip: LiveTrip) -> AddedTrip? {
        let served = trip.stops.filter { $0.status != .skipped }
        guard let times = Self.times(served) else { return nil }
        var stops: [Int] = [], arrivals: [Int64] = [], departures: [Int64] = []
        for (stop, time) in zip(served, times) {
            guard let index = stopIndex[stop.assignedStopId ?? stop.stopId] ?? stopIndex[stop.stopId] else { continue }
            stops.append(index)
            arrivals.append(time.arrival)
            departures.append(time.departure)
        }
        guard stops.count >= 2 else { return nil }
        let mode =
            (tripIndex[trip.staticTripId ?? trip.instance.tripId]).map { tripModes[$0] }
            ?? trip.routeId.flatMap { routeModes[$0] } ?? .other
        return AddedTrip(mode: mode, stops: stops, arrivals: arrivals, departures: departures)
    }
}
