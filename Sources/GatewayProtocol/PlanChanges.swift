import TransitModel

// What changed between two events of a `plan` subscription (GATEWAY.md "subscribe / unsubscribe", `plan`):
// rides whose times moved, journeys the live state broke or that better ones replaced, new journeys.

/// One entry of a plan event's `changes`.
public enum PlanChange: Sendable, Hashable {
    /// A ride of a journey still offered has other times (indexes into the new event).
    case times(
        journey: Int, leg: Int, tripId: String, departureUnix: Int64, arrivalUnix: Int64,
        previousDepartureUnix: Int64, previousArrivalUnix: Int64)
    /// A journey of the last event is no longer possible, and why.
    case broken(previousJourney: Int, reason: String)
    /// A journey of the last event is still possible but no longer among the best.
    case replaced(previousJourney: Int)
    /// A journey the last event did not have.
    case new(journey: Int)

    /// The changes from `previous` to `next`. `brokenReason` says why a journey of `previous` that `next` lacks is
    /// impossible now (nil: it is still possible, so it was replaced).
    public static func between(
        _ previous: [PlanJourneyView], _ next: [PlanJourneyView], brokenReason: (PlanJourneyView) -> String?
    ) -> [PlanChange] {
        var changes: [PlanChange] = []
        let previousKeys = previous.map(JourneyIdentity.init)
        var previousIndex: [JourneyIdentity: Int] = [:]
        for (i, key) in previousKeys.enumerated() where previousIndex[key] == nil { previousIndex[key] = i }
        var kept = Set<Int>()
        for (j, journey) in next.enumerated() {
            guard let i = previousIndex[JourneyIdentity(journey)] else {
                changes.append(.new(journey: j))
                continue
            }
            kept.insert(i)
            for (l, (old, new)) in zip(previous[i].legs, journey.legs).enumerated() {
                guard case .ride(let before) = old, case .ride(let after) = new,
                    before.departureUnix != after.departureUnix || before.arrivalUnix != after.arrivalUnix
                else { continue }
                changes.append(
                    .times(
                        journey: j, leg: l, tripId: after.tripId, departureUnix: after.departureUnix,
                        arrivalUnix: after.arrivalUnix, previousDepartureUnix: before.departureUnix,
                        previousArrivalUnix: before.arrivalUnix))
            }
        }
        for (i, journey) in previous.enumerated() where !kept.contains(i) {
            if let reason = brokenReason(journey) {
                changes.append(.broken(previousJourney: i, reason: reason))
            } else {
                changes.append(.replaced(previousJourney: i))
            }
        }
        return changes
    }
}

/// Which journey a journey is: the trips it rides (trip or added trip id, service date) from which stop to which.
public struct JourneyIdentity: Hashable, Sendable {
    struct Ride: Hashable, Sendable {
        var trip: String
        var serviceDate: UInt32?
        var board: String?
        var alight: String?
    }
    var rides: [Ride]

    public init(_ journey: PlanJourneyView) {
        rides = journey.legs.compactMap { leg in
            guard case .ride(let r) = leg else { return nil }
            return Ride(
                trip: r.tripId, serviceDate: r.ride.board?.serviceDate, board: r.ride.board?.stopId,
                alight: r.ride.stops.last?.stopId)
        }
    }
}

extension PlanRideView {
    /// The trip ridden: the boarding row's trip, else the added trip's id.
    public var tripId: String { ride.board?.tripId ?? ride.addedTripId ?? "" }
}

extension JSONWriter {
    mutating func planChange(_ change: PlanChange) {
        beginObject()
        switch change {
        case .times(
            let journey, let leg, let tripId, let departure, let arrival, let previousDeparture, let previousArrival):
            key("type"); string("times")
            key("journey"); int(journey)
            key("leg"); int(leg)
            key("trip_id"); string(tripId)
            key("departure_unix"); int(departure)
            key("arrival_unix"); int(arrival)
            key("previous_departure_unix"); int(previousDeparture)
            key("previous_arrival_unix"); int(previousArrival)
        case .broken(let previous, let reason):
            key("type"); string("broken")
            key("previous_journey"); int(previous)
            key("reason"); string(reason)
        case .replaced(let previous):
            key("type"); string("replaced")
            key("previous_journey"); int(previous)
        case .new(let journey):
            key("type"); string("new")
            key("journey"); int(journey)
        }
        endObject()
    }
}

extension GatewayResponse {
    /// A `plan` subscription's event: what changed since the last one, and the plan's data (countdowns from
    /// `now`) and meta.
    public static func planEvent(
        sub: Int, changes: [PlanChange], plan: PlanView, meta: ResponseMeta, now: Int64
    ) -> [UInt8] {
        var w = JSONWriter(capacity: 4096 + plan.journeys.reduce(0) { $0 + 1500 * $1.legs.count })
        w.beginObject()
        w.key("event"); w.string("plan")
        w.key("sub"); w.int(sub)
        w.key("changes"); w.beginArray()
        for change in changes { w.planChange(change) }
        w.endArray()
        w.key("data"); w.planData(plan, at: now)
        w.key("meta"); w.meta(meta)
        w.endObject()
        w.newline()
        return w.finish()
    }
}
