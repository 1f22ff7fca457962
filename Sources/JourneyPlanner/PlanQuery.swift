import TransitCore

/// Where a journey starts or ends: stops (a station's platforms, see `Timetable.stopsMeant(by:)`) or a point
/// walked to and from stops within the query's `accessRadius`.
public enum PlanPlace: Sendable, Equatable {
    case stops([Int])
    case coordinate(lat: Double, lon: Double)
}

/// One journey-planning question (the gateway's `plan` op after its checks). Defaults are the op's.
public struct PlanQuery: Sendable {
    public enum Time: Sendable, Equatable {
        /// Depart at or after (unix seconds).
        case departAt(Int64)
        /// Arrive at or before (unix seconds); answered by a reverse search.
        case arriveBy(Int64)
    }
    public var from: PlanPlace
    public var to: PlanPlace
    public var time: Time
    public var maxTransfers = 4
    public var transferSlack = 60
    public var walkRadius = Self.defaultWalkRadius
    public var walkSpeed = 1.2
    public var accessRadius = 600.0
    /// Allowed modes (every mode when empty).
    public var modes: Set<Mode> = []
    public var wheelchair = false
    /// Range query: every Pareto-optimal journey departing in [at, at + window] (depart-at only).
    public var window = 0
    public var limit = 5
    /// How long the search may run; past it the answer is what was found, with `cut` set.
    public var budget: Duration? = nil

    public init(from: PlanPlace, to: PlanPlace, time: Time) {
        self.from = from
        self.to = to
        self.time = time
    }

    /// The default `walk_radius_m`; the timetable stores the walks within it (`Timetable.init`).
    public static let defaultWalkRadius = 400.0
    /// The ranges of the op (GATEWAY.md: limits are errors, not clamps).
    public static let maxTransfersRange = 0...8
    public static let transferSlackRange = 0...1800
    public static let walkRadiusRange = 0.0...2000
    public static let walkSpeedRange = 0.3...3
    public static let accessRadiusRange = 0.0...2000
    public static let windowRange = 0...10800
    public static let limitRange = 1...20
    /// Journeys may arrive up to this long after `at` (or depart this long before `arrive_by`).
    public static let horizon: Int64 = 86_400
    /// How far outside the served stops' bounding box a coordinate may lie.
    public static let maxDistanceOutsideStops = 5000.0

    /// The first value out of its range, as a message naming the range.
    public func validate() throws(PlanError) {
        func check<T: Comparable>(_ name: String, _ value: T, _ range: ClosedRange<T>) throws(PlanError) {
            guard range.contains(value) else {
                throw .invalidArgument(
                    "\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
            }
        }
        try check("max_transfers", maxTransfers, Self.maxTransfersRange)
        try check("transfer_slack_s", transferSlack, Self.transferSlackRange)
        try check("walk_radius_m", walkRadius, Self.walkRadiusRange)
        try check("walk_speed_mps", walkSpeed, Self.walkSpeedRange)
        try check("access_radius_m", accessRadius, Self.accessRadiusRange)
        try check("window_s", window, Self.windowRange)
        try check("limit", limit, Self.limitRange)
        if window > 0, case .arriveBy = time { throw .invalidArgument("window_s applies to at, not to arrive_by") }
        if from == to { throw .invalidArgument("from and to are the same place") }
    }
}

public enum PlanError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidArgument(String)
    case notFound(String)

    public var description: String {
        switch self {
        case .invalidArgument(let m): "invalid argument: \(m)"
        case .notFound(let m): "not found: \(m)"
        }
    }
}

/// A journey: its legs in travel order, departure (leaving the origin, walk included) and arrival.
public struct Journey: Sendable, Equatable {
    public var departure: Int64
    public var arrival: Int64
    public var transfers: Int
    public var legs: [Leg]

    /// Seconds spent walking.
    public var walkSeconds: Int {
        legs.reduce(0) { sum, leg in if case .walk(let w) = leg { sum + w.duration } else { sum } }
    }
}

public enum Leg: Sendable, Equatable {
    case transit(TransitLeg)
    case walk(WalkLeg)
}

/// A ride on one trip instance: `run` (see `Timetable.runIdentity`), boarded at position `boardPosition` of its
/// stops and left at `alightPosition`.
public struct TransitLeg: Sendable, Equatable {
    public var run: Int
    public var boardStop: Int
    public var alightStop: Int
    public var boardPosition: Int
    public var alightPosition: Int
    public var departure: Int64
    public var arrival: Int64
    /// Whether the times are live predictions.
    public var isLive: Bool
}

/// A walk; nil `from`/`to` is the query's coordinate.
public struct WalkLeg: Sendable, Equatable {
    public var from: Int?
    public var to: Int?
    public var distance: Double
    public var duration: Int
}

/// The answer: journeys (a Pareto set, see `JourneyPlanner.plan`), whether the budget cut the search short, and
/// for a range query where to continue (`at` of the next query, the window shortened to end where it did).
public struct PlanResult: Sendable, Equatable {
    public var journeys: [Journey]
    public var cut: Bool
    public var laterAt: Int64?
    /// Why `journeys` is empty: nothing connects within the horizon, nothing departs within a range query's window,
    /// or the time is outside the timetable's days.
    public var reason: String?
    /// A range query with no journey departing within its window: the earliest arriving journey from `at` on (a
    /// depart-at plan's last), which departs after the window, so that the answer can say when; nil otherwise.
    public var earliestAfterWindow: Journey?

    public init(
        journeys: [Journey], cut: Bool, laterAt: Int64? = nil, reason: String? = nil,
        earliestAfterWindow: Journey? = nil
    ) {
        self.journeys = journeys
        self.cut = cut
        self.laterAt = laterAt
        self.reason = journeys.isEmpty ? (reason ?? (cut ? Self.outOfBudget : Self.noConnection)) : nil
        self.earliestAfterWindow = journeys.isEmpty ? earliestAfterWindow : nil
    }

    public static let noConnection = "nothing connects within 24 h"
    /// A range query's window that no journey departs in (`earliestAfterWindow` says whether one departs later).
    public static func noneInWindow(_ window: Int) -> String { "no journey departs within window_s \(window) s of at" }
    public static let outOfBudget = "the search ran out of its time budget before finding a journey"
}
