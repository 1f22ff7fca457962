import TransitCore
import TransitModel
import TransitPresentation

// A trip answered from the live state (GATEWAY.md "trip": an added trip the static data does not know, or
// any live trip while the static service is down). Unlike `TripDetail`, every static fact may be missing.

/// One stop of a live trip: the times the realtime service resolved, the static stop facts where known.
public struct LiveTripStop: Sendable, Hashable {
    public var stopId: String
    public var stopSequence: UInt32
    /// The schedule the realtime service resolved the stop against (unix); nil for an added trip's stops.
    public var scheduledArrivalUnix: Int64?
    public var scheduledDepartureUnix: Int64?
    /// Predicted times (unix); nil without a prediction.
    public var predictedArrivalUnix: Int64?
    public var predictedDepartureUnix: Int64?
    public var skipped: Bool
    /// From the static stop, nil when unknown.
    public var stopName: String?
    public var lat: Double?
    public var lon: Double?
    public var platformCode: String?
    public var wheelchairBoarding: Int?
    public var parentStation: String?
    public var pickupType: Int?
    public var dropOffType: Int?
    public var stopHeadsign: String?
    /// The platform the vehicle serves instead of the scheduled one; nil: no change.
    public var platformChange: PlatformChange?
    /// Where the predicted times come from and how old they are (as on departure rows).
    public var predictionSource: LivePredictionSource = .schedule
    public var predictionAgeSeconds: Int64?

    public init(
        stopId: String, stopSequence: UInt32, scheduledArrivalUnix: Int64? = nil, scheduledDepartureUnix: Int64? = nil,
        predictedArrivalUnix: Int64? = nil, predictedDepartureUnix: Int64? = nil, skipped: Bool = false,
        stopName: String? = nil, lat: Double? = nil, lon: Double? = nil, platformCode: String? = nil,
        wheelchairBoarding: Int? = nil, parentStation: String? = nil, pickupType: Int? = nil, dropOffType: Int? = nil,
        stopHeadsign: String? = nil
    ) {
        self.stopId = stopId
        self.stopSequence = stopSequence
        self.scheduledArrivalUnix = scheduledArrivalUnix
        self.scheduledDepartureUnix = scheduledDepartureUnix
        self.predictedArrivalUnix = predictedArrivalUnix
        self.predictedDepartureUnix = predictedDepartureUnix
        self.skipped = skipped
        self.stopName = stopName
        self.lat = lat
        self.lon = lon
        self.platformCode = platformCode
        self.wheelchairBoarding = wheelchairBoarding
        self.parentStation = parentStation
        self.pickupType = pickupType
        self.dropOffType = dropOffType
        self.stopHeadsign = stopHeadsign
    }
}

/// A trip instance as the live state knows it, with what the gateway learnt from the static data.
public struct LiveTripView: Sendable, Hashable {
    public var tripId: String
    public var serviceDate: ServiceDate
    /// `HH:MM:SS` of the instance (its own start time, else its first departure); nil when unknown.
    public var startTime: String?
    public var frequencyBased: Bool
    public var route: Route
    public var headsign: String?
    public var shortName: String?
    public var directionId: Int?
    public var blockId: String?
    /// GTFS shape_id of the static trip; nil when unknown or not given.
    public var shapeId: String?
    public var wheelchairAccessible: Int?
    public var bikesAllowed: Int?
    public var timezone: String?
    /// Unix time of the service day's origin (noon minus 12 h) in `timezone`, for `*_secs`; nil when unknown.
    public var origin: Int64?
    public var cancelled: Bool
    /// Not in the schedule: no scheduled times, status `added`.
    public var added: Bool
    public var vehicle: VehicleSnapshot?
    /// In stop_sequence order.
    public var stops: [LiveTripStop]

    public init(
        tripId: String, serviceDate: ServiceDate, startTime: String? = nil, frequencyBased: Bool = false, route: Route,
        headsign: String? = nil, shortName: String? = nil, directionId: Int? = nil, blockId: String? = nil,
        shapeId: String? = nil, wheelchairAccessible: Int? = nil, bikesAllowed: Int? = nil, timezone: String? = nil,
        origin: Int64? = nil,
        cancelled: Bool = false, added: Bool = false, vehicle: VehicleSnapshot? = nil, stops: [LiveTripStop]
    ) {
        self.tripId = tripId
        self.serviceDate = serviceDate
        self.startTime = startTime
        self.frequencyBased = frequencyBased
        self.route = route
        self.headsign = headsign
        self.shortName = shortName
        self.directionId = directionId
        self.blockId = blockId
        self.shapeId = shapeId
        self.wheelchairAccessible = wheelchairAccessible
        self.bikesAllowed = bikesAllowed
        self.timezone = timezone
        self.origin = origin
        self.cancelled = cancelled
        self.added = added
        self.vehicle = vehicle
        self.stops = stops
    }

    // MARK: the rules (as `TripRows` for a static trip)

    /// Departure delay (arrival delay at the last stop), else the other one; nil without a prediction, without
    /// a schedule and for added trips.
    public func delay(_ index: Int) -> Int? {
        guard !added, !cancelled else { return nil }
        let stop = stops[index]
        var arrival: Int?
        if let p = stop.predictedArrivalUnix, let s = stop.scheduledArrivalUnix { arrival = Int(p - s) }
        var departure: Int?
        if let p = stop.predictedDepartureUnix, let s = stop.scheduledDepartureUnix { departure = Int(p - s) }
        return index == stops.count - 1 ? (arrival ?? departure) : (departure ?? arrival)
    }

    public func status(_ index: Int) -> DepartureStatus {
        DepartureStatus(delay: delay(index), cancelled: cancelled, skipped: stops[index].skipped, added: added)
    }

    /// Live data applies: cancelled, added, or some stop predicted or skipped.
    public var realtime: Bool {
        cancelled || added
            || stops.contains { $0.predictedArrivalUnix != nil || $0.predictedDepartureUnix != nil || $0.skipped }
    }

    /// cancelled, added, else the status of the next stop: the first stop, not skipped, not yet departed at
    /// `at` (predicted, else scheduled; the arrival at the last stop); the last stop once all passed. Stops
    /// with no time at all are passed over.
    public func status(at: Int64) -> DepartureStatus {
        if cancelled { return .cancelled }
        if added { return .added }
        guard !stops.isEmpty else { return .scheduled }
        let last = stops.count - 1
        for index in stops.indices where !stops[index].skipped {
            let s = stops[index]
            let time =
                index == last
                ? s.predictedArrivalUnix ?? s.scheduledArrivalUnix ?? s.predictedDepartureUnix
                    ?? s.scheduledDepartureUnix
                : s.predictedDepartureUnix ?? s.scheduledDepartureUnix ?? s.predictedArrivalUnix
                    ?? s.scheduledArrivalUnix
            if let time, time >= at { return status(index) }
        }
        return status(last)
    }
}
