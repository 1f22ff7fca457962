// The journey-planning query and answer of the static-data service (protocol/transit.proto `PlanRequest`,
// `PlanAnswer`; protocol/README.md flow 8). The gateway parses `plan` into a `PlanRequest` after checking the
// ranges below; the static service plans and names each leg by its ids; the gateway decorates the legs.

/// Where a journey starts or ends: a stop (a station: any of its platforms) or a coordinate.
public enum PlanPlace: Sendable, Hashable {
    /// A stop, platform or station by its stop_id.
    case stop(String)
    /// A point (WGS 84 degrees), walked to and from stops within the access radius.
    case coordinate(lat: Double, lon: Double)
}

/// The `plan` op's fields after the gateway's checks (GATEWAY.md "plan").
public struct PlanRequest: Sendable, Hashable {
    /// Where the journey starts.
    public var from: PlanPlace
    /// Where the journey ends.
    public var to: PlanPlace
    /// Depart at or after (unix seconds); nil with `arriveBy` nil: now.
    public var at: Int64?
    /// Arrive at or before (unix seconds).
    public var arriveBy: Int64?
    /// Changes between trips at most (`max_transfers`).
    public var maxTransfers: Int
    /// Extra time for a change at the same stop (`transfer_slack_s`).
    public var transferSlackSeconds: Int
    /// Walks between different stops after a trip reach this far (`walk_radius_m`).
    public var walkRadiusMetres: Double
    /// Walking speed in metres per second (`walk_speed_mps`).
    public var walkSpeed: Double
    /// A coordinate reaches stops this far (`access_radius_m`).
    public var accessRadiusMetres: Double
    /// Allowed modes (`mode` values); empty: all.
    public var modes: [String]
    /// Only accessible trips and stops.
    public var wheelchair: Bool
    /// A range query over departures in [at, at + window] (`window_s`); 0: one departure.
    public var windowSeconds: Int
    /// Journeys of a range query at most.
    public var limit: Int
    /// False: plan on the schedule alone.
    public var realtime: Bool
    /// How long the search may run, in milliseconds (the gateway's `--plan-budget-ms`).
    public var budgetMilliseconds: Int

    /// Made from its fields; the optional ones default to the op's defaults or to not given.
    public init(
        from: PlanPlace, to: PlanPlace, at: Int64? = nil, arriveBy: Int64? = nil,
        maxTransfers: Int = PlanLimits.defaultMaxTransfers, transferSlackSeconds: Int = PlanLimits.defaultTransferSlack,
        walkRadiusMetres: Double = PlanLimits.defaultWalkRadius, walkSpeed: Double = PlanLimits.defaultWalkSpeed,
        accessRadiusMetres: Double = PlanLimits.defaultAccessRadius, modes: [String] = [], wheelchair: Bool = false,
        windowSeconds: Int = 0, limit: Int = PlanLimits.defaultLimit, realtime: Bool = true,
        budgetMilliseconds: Int = PlanLimits.defaultBudgetMilliseconds
    ) {
        self.from = from
        self.to = to
        self.at = at
        self.arriveBy = arriveBy
        self.maxTransfers = maxTransfers
        self.transferSlackSeconds = transferSlackSeconds
        self.walkRadiusMetres = walkRadiusMetres
        self.walkSpeed = walkSpeed
        self.accessRadiusMetres = accessRadiusMetres
        self.modes = modes
        self.wheelchair = wheelchair
        self.windowSeconds = windowSeconds
        self.limit = limit
        self.realtime = realtime
        self.budgetMilliseconds = budgetMilliseconds
    }
}

/// The ranges and defaults of `plan` (GATEWAY.md "plan"; issue 27). The planner's own `PlanQuery.validate` checks
/// the same ranges (JourneyPlannerTests compares the two tables).
public enum PlanLimits {
    /// `max_transfers`.
    public static let maxTransfers: ClosedRange<Int64> = 0...8
    /// `max_transfers` when not given.
    public static let defaultMaxTransfers = 4
    /// `transfer_slack_s`.
    public static let transferSlack: ClosedRange<Int64> = 0...1800
    /// `transfer_slack_s` when not given.
    public static let defaultTransferSlack = 60
    /// `walk_radius_m`.
    public static let walkRadius: ClosedRange<Double> = 0...2000
    /// `walk_radius_m` when not given.
    public static let defaultWalkRadius = 400.0
    /// `walk_speed_mps`.
    public static let walkSpeed: ClosedRange<Double> = 0.3...3
    /// `walk_speed_mps` when not given.
    public static let defaultWalkSpeed = 1.2
    /// `access_radius_m`.
    public static let accessRadius: ClosedRange<Double> = 0...2000
    /// `access_radius_m` when not given.
    public static let defaultAccessRadius = 600.0
    /// `window_s`.
    public static let window: ClosedRange<Int64> = 0...10800
    /// `limit`.
    public static let limit: ClosedRange<Int64> = 1...20
    /// `limit` when not given.
    public static let defaultLimit = 5
    /// `--plan-budget-ms` when not given.
    public static let defaultBudgetMilliseconds = 500
    /// The most `budget_ms` a request may carry (`--plan-budget-ms`).
    public static let budgetMilliseconds: ClosedRange<Int> = 1...60_000
}

/// One leg of a journey: a ride on a trip instance, or a walk.
public enum PlanLeg: Sendable, Hashable {
    case ride(PlanRide)
    case walk(PlanWalk)
}

/// A ride: `board` is the boarding stop as a departures row holds it (nil for a trip the realtime feed added,
/// named by `addedTripId`), `stops` the stops from boarding to alighting with their scheduled times, the planned
/// times those the search used (live predictions when `live`), `polyline` the shape between the two stops.
public struct PlanRide: Sendable, Hashable {
    /// The boarding stop as a departures row (nil for an added trip).
    public var board: Departure?
    /// The stops from boarding to alighting, with their scheduled times.
    public var stops: [TripStop]
    /// When the ride leaves the boarding stop in the plan.
    public var plannedDepartureUnix: Int64
    /// When the ride reaches the alighting stop in the plan.
    public var plannedArrivalUnix: Int64
    /// Whether the planned times are live predictions.
    public var live: Bool
    /// The shape between the two stops (encoded polyline); nil when unknown.
    public var polyline: String?
    /// The realtime trip id of a ride on an added trip.
    public var addedTripId: String?

    /// Made from its fields; the optional ones default to the op's defaults or to not given.
    public init(
        board: Departure?, stops: [TripStop], plannedDepartureUnix: Int64, plannedArrivalUnix: Int64, live: Bool,
        polyline: String? = nil, addedTripId: String? = nil
    ) {
        self.board = board
        self.stops = stops
        self.plannedDepartureUnix = plannedDepartureUnix
        self.plannedArrivalUnix = plannedArrivalUnix
        self.live = live
        self.polyline = polyline
        self.addedTripId = addedTripId
    }
}

/// A walk between two stops; a nil end is the request's coordinate.
public struct PlanWalk: Sendable, Hashable {
    /// Where the walk starts (nil: the request's coordinate).
    public var fromStopId: String?
    /// Where the walk ends (nil: the request's coordinate).
    public var toStopId: String?
    /// The name of the stop the walk starts at, as riders read it (nil with a nil id).
    public var fromStopName: String?
    /// The name of the stop the walk ends at (nil with a nil id).
    public var toStopName: String?
    /// Straight-line distance in metres.
    public var distanceMetres: Double
    /// Walking time in seconds.
    public var durationSeconds: Int

    /// A walk.
    public init(
        fromStopId: String?, toStopId: String?, fromStopName: String? = nil, toStopName: String? = nil,
        distanceMetres: Double, durationSeconds: Int
    ) {
        self.fromStopId = fromStopId
        self.toStopId = toStopId
        self.fromStopName = fromStopName
        self.toStopName = toStopName
        self.distanceMetres = distanceMetres
        self.durationSeconds = durationSeconds
    }
}

/// One journey: its legs in travel order.
public struct PlanJourney: Sendable, Hashable {
    /// Leaving the origin (a first walk included).
    public var departureUnix: Int64
    /// Reaching the destination (a last walk included).
    public var arrivalUnix: Int64
    /// Changes between trips.
    public var transfers: Int
    /// Seconds spent walking.
    public var walkSeconds: Int
    /// Rides and walks in travel order.
    public var legs: [PlanLeg]

    /// A journey.
    public init(departureUnix: Int64, arrivalUnix: Int64, transfers: Int, walkSeconds: Int, legs: [PlanLeg]) {
        self.departureUnix = departureUnix
        self.arrivalUnix = arrivalUnix
        self.transfers = transfers
        self.walkSeconds = walkSeconds
        self.legs = legs
    }
}

/// The static service's answer to a `PlanRequest`.
public struct PlanAnswer: Sendable, Hashable {
    /// The journeys found (a Pareto set; GATEWAY.md "plan").
    public var journeys: [PlanJourney]
    /// The search ran out of its budget; `journeys` are what it had found.
    public var cut: Bool
    /// Why `journeys` is empty.
    public var reason: String?
    /// A range query's next page starts here.
    public var laterAt: Int64?
    /// Live trips were laid over the timetable.
    public var realtimeUsed: Bool
    /// The feed's timezone.
    public var timezone: String?

    /// Made from its fields; the optional ones default to the op's defaults or to not given.
    public init(
        journeys: [PlanJourney], cut: Bool = false, reason: String? = nil, laterAt: Int64? = nil,
        realtimeUsed: Bool = false, timezone: String? = nil
    ) {
        self.journeys = journeys
        self.cut = cut
        self.reason = reason
        self.laterAt = laterAt
        self.realtimeUsed = realtimeUsed
        self.timezone = timezone
    }
}
