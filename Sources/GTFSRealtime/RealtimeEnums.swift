// The GTFS-Realtime enums as Swift enums. Each keeps the wire number (`rawValue`) and the spec's name
// (`name`, e.g. "MANY_SEATS_AVAILABLE", which the gateway prints). A number this code does not know (a newer
// spec value) decodes to `.unknown(n)` and encodes back unchanged, so a feed is never refused for it.

/// What every GTFS-Realtime enum offers.
public protocol GTFSRealtimeEnum: Hashable, Sendable, CustomStringConvertible {
    /// The case for a wire number; numbers without a case give `.unknown(number)`.
    init(rawValue: Int32)
    /// The wire number.
    var rawValue: Int32 { get }
    /// The GTFS-Realtime name ("MANY_SEATS_AVAILABLE"); for `.unknown(n)` the number in decimal, as
    /// protobuf's JSON mapping prints values it does not know.
    var name: String { get }
    /// The cases with a name, in wire-number order.
    static var knownCases: [Self] { get }
}

extension GTFSRealtimeEnum {
    public var description: String { name }

    /// The case with this GTFS-Realtime name, or nil.
    public init?(name: String) {
        guard let match = Self.knownCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}

/// FeedHeader.Incrementality: whether a feed replaces everything (FULL_DATASET) or updates entity by entity.
public enum Incrementality: GTFSRealtimeEnum {
    /// FULL_DATASET = 0
    case fullDataset
    /// DIFFERENTIAL = 1
    case differential
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [Incrementality] = [.fullDataset, .differential]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .fullDataset
        case 1: self = .differential
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .fullDataset: 0
        case .differential: 1
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .fullDataset: "FULL_DATASET"
        case .differential: "DIFFERENTIAL"
        case .unknown(let value): String(value)
        }
    }
}

/// TripDescriptor.ScheduleRelationship: how a trip relates to the static schedule.
public enum TripScheduleRelationship: GTFSRealtimeEnum {
    /// SCHEDULED = 0
    case scheduled
    /// ADDED = 1
    case added
    /// UNSCHEDULED = 2
    case unscheduled
    /// CANCELED = 3
    case canceled
    /// REPLACEMENT = 5
    case replacement
    /// DUPLICATED = 6
    case duplicated
    /// DELETED = 7
    case deleted
    /// NEW = 8
    case `new`
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [TripScheduleRelationship] = [
        .scheduled, .added, .unscheduled, .canceled, .replacement, .duplicated, .deleted, .new,
    ]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .scheduled
        case 1: self = .added
        case 2: self = .unscheduled
        case 3: self = .canceled
        case 5: self = .replacement
        case 6: self = .duplicated
        case 7: self = .deleted
        case 8: self = .new
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .scheduled: 0
        case .added: 1
        case .unscheduled: 2
        case .canceled: 3
        case .replacement: 5
        case .duplicated: 6
        case .deleted: 7
        case .new: 8
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .scheduled: "SCHEDULED"
        case .added: "ADDED"
        case .unscheduled: "UNSCHEDULED"
        case .canceled: "CANCELED"
        case .replacement: "REPLACEMENT"
        case .duplicated: "DUPLICATED"
        case .deleted: "DELETED"
        case .new: "NEW"
        case .unknown(let value): String(value)
        }
    }
}

/// TripUpdate.StopTimeUpdate.ScheduleRelationship: how one stop of a trip relates to the schedule.
public enum StopTimeScheduleRelationship: GTFSRealtimeEnum {
    /// SCHEDULED = 0
    case scheduled
    /// SKIPPED = 1
    case skipped
    /// NO_DATA = 2
    case noData
    /// UNSCHEDULED = 3
    case unscheduled
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [StopTimeScheduleRelationship] = [.scheduled, .skipped, .noData, .unscheduled]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .scheduled
        case 1: self = .skipped
        case 2: self = .noData
        case 3: self = .unscheduled
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .scheduled: 0
        case .skipped: 1
        case .noData: 2
        case .unscheduled: 3
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .scheduled: "SCHEDULED"
        case .skipped: "SKIPPED"
        case .noData: "NO_DATA"
        case .unscheduled: "UNSCHEDULED"
        case .unknown(let value): String(value)
        }
    }
}

/// TripUpdate.StopTimeUpdate.StopTimeProperties.DropOffPickupType: pickup/drop-off at an updated stop.
/// The spec's NONE is `.notAvailable` here: `.none` would be taken for Optional.none.
public enum DropOffPickupType: GTFSRealtimeEnum {
    /// REGULAR = 0
    case regular
    /// NONE = 1
    case notAvailable
    /// PHONE_AGENCY = 2
    case phoneAgency
    /// COORDINATE_WITH_DRIVER = 3
    case coordinateWithDriver
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [DropOffPickupType] = [.regular, .notAvailable, .phoneAgency, .coordinateWithDriver]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .regular
        case 1: self = .notAvailable
        case 2: self = .phoneAgency
        case 3: self = .coordinateWithDriver
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .regular: 0
        case .notAvailable: 1
        case .phoneAgency: 2
        case .coordinateWithDriver: 3
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .regular: "REGULAR"
        case .notAvailable: "NONE"
        case .phoneAgency: "PHONE_AGENCY"
        case .coordinateWithDriver: "COORDINATE_WITH_DRIVER"
        case .unknown(let value): String(value)
        }
    }
}

/// VehiclePosition.VehicleStopStatus: where the vehicle is relative to its current stop.
public enum VehicleStopStatus: GTFSRealtimeEnum {
    /// INCOMING_AT = 0
    case incomingAt
    /// STOPPED_AT = 1
    case stoppedAt
    /// IN_TRANSIT_TO = 2
    case inTransitTo
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [VehicleStopStatus] = [.incomingAt, .stoppedAt, .inTransitTo]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .incomingAt
        case 1: self = .stoppedAt
        case 2: self = .inTransitTo
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .incomingAt: 0
        case .stoppedAt: 1
        case .inTransitTo: 2
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .incomingAt: "INCOMING_AT"
        case .stoppedAt: "STOPPED_AT"
        case .inTransitTo: "IN_TRANSIT_TO"
        case .unknown(let value): String(value)
        }
    }
}

/// VehiclePosition.CongestionLevel: traffic around the vehicle.
public enum CongestionLevel: GTFSRealtimeEnum {
    /// UNKNOWN_CONGESTION_LEVEL = 0
    case unknownCongestionLevel
    /// RUNNING_SMOOTHLY = 1
    case runningSmoothly
    /// STOP_AND_GO = 2
    case stopAndGo
    /// CONGESTION = 3
    case congestion
    /// SEVERE_CONGESTION = 4
    case severeCongestion
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [CongestionLevel] = [
        .unknownCongestionLevel, .runningSmoothly, .stopAndGo, .congestion, .severeCongestion,
    ]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .unknownCongestionLevel
        case 1: self = .runningSmoothly
        case 2: self = .stopAndGo
        case 3: self = .congestion
        case 4: self = .severeCongestion
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .unknownCongestionLevel: 0
        case .runningSmoothly: 1
        case .stopAndGo: 2
        case .congestion: 3
        case .severeCongestion: 4
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .unknownCongestionLevel: "UNKNOWN_CONGESTION_LEVEL"
        case .runningSmoothly: "RUNNING_SMOOTHLY"
        case .stopAndGo: "STOP_AND_GO"
        case .congestion: "CONGESTION"
        case .severeCongestion: "SEVERE_CONGESTION"
        case .unknown(let value): String(value)
        }
    }
}

/// VehiclePosition.OccupancyStatus: how full a vehicle (or carriage, or departure) is.
public enum OccupancyStatus: GTFSRealtimeEnum {
    /// EMPTY = 0
    case empty
    /// MANY_SEATS_AVAILABLE = 1
    case manySeatsAvailable
    /// FEW_SEATS_AVAILABLE = 2
    case fewSeatsAvailable
    /// STANDING_ROOM_ONLY = 3
    case standingRoomOnly
    /// CRUSHED_STANDING_ROOM_ONLY = 4
    case crushedStandingRoomOnly
    /// FULL = 5
    case full
    /// NOT_ACCEPTING_PASSENGERS = 6
    case notAcceptingPassengers
    /// NO_DATA_AVAILABLE = 7
    case noDataAvailable
    /// NOT_BOARDABLE = 8
    case notBoardable
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [OccupancyStatus] = [
        .empty, .manySeatsAvailable, .fewSeatsAvailable, .standingRoomOnly, .crushedStandingRoomOnly, .full,
        .notAcceptingPassengers, .noDataAvailable, .notBoardable,
    ]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .empty
        case 1: self = .manySeatsAvailable
        case 2: self = .fewSeatsAvailable
        case 3: self = .standingRoomOnly
        case 4: self = .crushedStandingRoomOnly
        case 5: self = .full
        case 6: self = .notAcceptingPassengers
        case 7: self = .noDataAvailable
        case 8: self = .notBoardable
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .empty: 0
        case .manySeatsAvailable: 1
        case .fewSeatsAvailable: 2
        case .standingRoomOnly: 3
        case .crushedStandingRoomOnly: 4
        case .full: 5
        case .notAcceptingPassengers: 6
        case .noDataAvailable: 7
        case .notBoardable: 8
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .empty: "EMPTY"
        case .manySeatsAvailable: "MANY_SEATS_AVAILABLE"
        case .fewSeatsAvailable: "FEW_SEATS_AVAILABLE"
        case .standingRoomOnly: "STANDING_ROOM_ONLY"
        case .crushedStandingRoomOnly: "CRUSHED_STANDING_ROOM_ONLY"
        case .full: "FULL"
        case .notAcceptingPassengers: "NOT_ACCEPTING_PASSENGERS"
        case .noDataAvailable: "NO_DATA_AVAILABLE"
        case .notBoardable: "NOT_BOARDABLE"
        case .unknown(let value): String(value)
        }
    }
}

/// VehicleDescriptor.WheelchairAccessible. The spec's UNKNOWN is `.accessibilityUnknown` here (`.unknown(_)` is
/// the catch-all for numbers we do not know).
public enum WheelchairAccessible: GTFSRealtimeEnum {
    /// NO_VALUE = 0
    case noValue
    /// UNKNOWN = 1
    case accessibilityUnknown
    /// WHEELCHAIR_ACCESSIBLE = 2
    case wheelchairAccessible
    /// WHEELCHAIR_INACCESSIBLE = 3
    case wheelchairInaccessible
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [WheelchairAccessible] = [
        .noValue, .accessibilityUnknown, .wheelchairAccessible, .wheelchairInaccessible,
    ]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .noValue
        case 1: self = .accessibilityUnknown
        case 2: self = .wheelchairAccessible
        case 3: self = .wheelchairInaccessible
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .noValue: 0
        case .accessibilityUnknown: 1
        case .wheelchairAccessible: 2
        case .wheelchairInaccessible: 3
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .noValue: "NO_VALUE"
        case .accessibilityUnknown: "UNKNOWN"
        case .wheelchairAccessible: "WHEELCHAIR_ACCESSIBLE"
        case .wheelchairInaccessible: "WHEELCHAIR_INACCESSIBLE"
        case .unknown(let value): String(value)
        }
    }
}

/// Alert.Cause.
public enum AlertCause: GTFSRealtimeEnum {
    /// UNKNOWN_CAUSE = 1
    case unknownCause
    /// OTHER_CAUSE = 2
    case otherCause
    /// TECHNICAL_PROBLEM = 3
    case technicalProblem
    /// STRIKE = 4
    case strike
    /// DEMONSTRATION = 5
    case demonstration
    /// ACCIDENT = 6
    case accident
    /// HOLIDAY = 7
    case holiday
    /// WEATHER = 8
    case weather
    /// MAINTENANCE = 9
    case maintenance
    /// CONSTRUCTION = 10
    case construction
    /// POLICE_ACTIVITY = 11
    case policeActivity
    /// MEDICAL_EMERGENCY = 12
    case medicalEmergency
    /// SPECIAL_EVENT = 13
    case specialEvent
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [AlertCause] = [
        .unknownCause, .otherCause, .technicalProblem, .strike, .demonstration, .accident, .holiday, .weather,
        .maintenance, .construction, .policeActivity, .medicalEmergency, .specialEvent,
    ]

    public init(rawValue: Int32) {
        switch rawValue {
        case 1: self = .unknownCause
        case 2: self = .otherCause
        case 3: self = .technicalProblem
        case 4: self = .strike
        case 5: self = .demonstration
        case 6: self = .accident
        case 7: self = .holiday
        case 8: self = .weather
        case 9: self = .maintenance
        case 10: self = .construction
        case 11: self = .policeActivity
        case 12: self = .medicalEmergency
        case 13: self = .specialEvent
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .unknownCause: 1
        case .otherCause: 2
        case .technicalProblem: 3
        case .strike: 4
        case .demonstration: 5
        case .accident: 6
        case .holiday: 7
        case .weather: 8
        case .maintenance: 9
        case .construction: 10
        case .policeActivity: 11
        case .medicalEmergency: 12
        case .specialEvent: 13
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .unknownCause: "UNKNOWN_CAUSE"
        case .otherCause: "OTHER_CAUSE"
        case .technicalProblem: "TECHNICAL_PROBLEM"
        case .strike: "STRIKE"
        case .demonstration: "DEMONSTRATION"
        case .accident: "ACCIDENT"
        case .holiday: "HOLIDAY"
        case .weather: "WEATHER"
        case .maintenance: "MAINTENANCE"
        case .construction: "CONSTRUCTION"
        case .policeActivity: "POLICE_ACTIVITY"
        case .medicalEmergency: "MEDICAL_EMERGENCY"
        case .specialEvent: "SPECIAL_EVENT"
        case .unknown(let value): String(value)
        }
    }
}

/// Alert.Effect.
public enum AlertEffect: GTFSRealtimeEnum {
    /// NO_SERVICE = 1
    case noService
    /// REDUCED_SERVICE = 2
    case reducedService
    /// SIGNIFICANT_DELAYS = 3
    case significantDelays
    /// DETOUR = 4
    case detour
    /// ADDITIONAL_SERVICE = 5
    case additionalService
    /// MODIFIED_SERVICE = 6
    case modifiedService
    /// OTHER_EFFECT = 7
    case otherEffect
    /// UNKNOWN_EFFECT = 8
    case unknownEffect
    /// STOP_MOVED = 9
    case stopMoved
    /// NO_EFFECT = 10
    case noEffect
    /// ACCESSIBILITY_ISSUE = 11
    case accessibilityIssue
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [AlertEffect] = [
        .noService, .reducedService, .significantDelays, .detour, .additionalService, .modifiedService, .otherEffect,
        .unknownEffect, .stopMoved, .noEffect, .accessibilityIssue,
    ]

    public init(rawValue: Int32) {
        switch rawValue {
        case 1: self = .noService
        case 2: self = .reducedService
        case 3: self = .significantDelays
        case 4: self = .detour
        case 5: self = .additionalService
        case 6: self = .modifiedService
        case 7: self = .otherEffect
        case 8: self = .unknownEffect
        case 9: self = .stopMoved
        case 10: self = .noEffect
        case 11: self = .accessibilityIssue
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .noService: 1
        case .reducedService: 2
        case .significantDelays: 3
        case .detour: 4
        case .additionalService: 5
        case .modifiedService: 6
        case .otherEffect: 7
        case .unknownEffect: 8
        case .stopMoved: 9
        case .noEffect: 10
        case .accessibilityIssue: 11
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .noService: "NO_SERVICE"
        case .reducedService: "REDUCED_SERVICE"
        case .significantDelays: "SIGNIFICANT_DELAYS"
        case .detour: "DETOUR"
        case .additionalService: "ADDITIONAL_SERVICE"
        case .modifiedService: "MODIFIED_SERVICE"
        case .otherEffect: "OTHER_EFFECT"
        case .unknownEffect: "UNKNOWN_EFFECT"
        case .stopMoved: "STOP_MOVED"
        case .noEffect: "NO_EFFECT"
        case .accessibilityIssue: "ACCESSIBILITY_ISSUE"
        case .unknown(let value): String(value)
        }
    }
}

/// Alert.SeverityLevel.
public enum AlertSeverityLevel: GTFSRealtimeEnum {
    /// UNKNOWN_SEVERITY = 1
    case unknownSeverity
    /// INFO = 2
    case info
    /// WARNING = 3
    case warning
    /// SEVERE = 4
    case severe
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [AlertSeverityLevel] = [.unknownSeverity, .info, .warning, .severe]

    public init(rawValue: Int32) {
        switch rawValue {
        case 1: self = .unknownSeverity
        case 2: self = .info
        case 3: self = .warning
        case 4: self = .severe
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .unknownSeverity: 1
        case .info: 2
        case .warning: 3
        case .severe: 4
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .unknownSeverity: "UNKNOWN_SEVERITY"
        case .info: "INFO"
        case .warning: "WARNING"
        case .severe: "SEVERE"
        case .unknown(let value): String(value)
        }
    }
}

/// Stop.WheelchairBoarding (experimental Stop entities). The spec's UNKNOWN is `.boardingUnknown` here
/// (`.unknown(_)` is the catch-all for numbers we do not know).
public enum WheelchairBoarding: GTFSRealtimeEnum {
    /// UNKNOWN = 0
    case boardingUnknown
    /// AVAILABLE = 1
    case available
    /// NOT_AVAILABLE = 2
    case notAvailable
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [WheelchairBoarding] = [.boardingUnknown, .available, .notAvailable]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .boardingUnknown
        case 1: self = .available
        case 2: self = .notAvailable
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .boardingUnknown: 0
        case .available: 1
        case .notAvailable: 2
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .boardingUnknown: "UNKNOWN"
        case .available: "AVAILABLE"
        case .notAvailable: "NOT_AVAILABLE"
        case .unknown(let value): String(value)
        }
    }
}
