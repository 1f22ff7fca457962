import GTFSRealtime
import RealtimeCore

/// Why an entity (or a part of it) of a feed was left out of the live state. The raw value is the name in
/// `SourceStatus.drops`.
public enum DropReason: String, Sendable, Hashable, CaseIterable {
    /// The trip id is not in the static schedule.
    case unknownTrip = "unknown_trip"
    /// The descriptor names no running of the trip (date off its service days, start time off its
    /// frequencies, times that fit no day).
    case noMatchingInstance = "no_matching_instance"
    /// Several instances fit (no start date or start time to tell them apart).
    case ambiguousInstance = "ambiguous_instance"
    /// A delay (or a time's distance from its schedule) beyond ±1 day.
    case absurdDelay = "absurd_delay"
    /// A trip update the resolver could not use (no trip id, bad dates or times, ...).
    case malformedTripUpdate = "malformed_trip_update"
    /// A second entity with an id already seen in the feed (the first is kept).
    case duplicateEntityId = "duplicate_entity_id"
    /// Two entities of one feed resolve to the same trip instance (the last one is kept).
    case duplicateTripInstance = "duplicate_trip_instance"
    /// An alert without informed_entity (the spec requires one).
    case alertWithoutInformedEntity = "alert_without_informed_entity"
    /// Any other part the decoder refused (missing required field, unknown enum value, ...).
    case invalidEntity = "invalid_entity"
    /// A part of another kind than the source is configured for.
    case wrongKind = "wrong_kind"
    /// The trip's schedule could not be fetched from the static service.
    case scheduleUnavailable = "schedule_unavailable"
    /// Stop time updates that matched no stop of their trip (the trip itself is kept).
    case unmatchedStopUpdate = "unmatched_stop_update"
    /// A TripModifications entity selects a trip the static schedule does not have (that trip is left out).
    case detourUnknownTrip = "detour_unknown_trip"
    /// A TripModifications service date or start time that does not parse.
    case detourBadDate = "detour_bad_date"
    /// A trip already selected by another TripModifications on that date (the later selection is left out).
    case detourOverlap = "detour_overlap"
    /// A TripModifications the trip's stops do not fit (a selector naming no stop of it, overlapping
    /// modifications, decreasing travel times): the trip keeps its schedule.
    case detourNotApplicable = "detour_not_applicable"
    /// A replacement stop without coordinates (left out of its detour).
    case detourStopWithoutCoordinates = "detour_stop_without_coordinates"
    /// A Shape entity whose encoded polyline does not parse.
    case unparsableShape = "unparsable_shape"

    init(_ reason: TripUpdateDrop.Reason) {
        switch reason {
        case .unknownTrip: self = .unknownTrip
        case .noMatchingInstance: self = .noMatchingInstance
        case .ambiguousInstance: self = .ambiguousInstance
        case .absurdDelay: self = .absurdDelay
        case .malformed: self = .malformedTripUpdate
        case .scheduleUnavailable: self = .scheduleUnavailable
        }
    }

    init(_ reason: TripModificationProblem.Reason) {
        switch reason {
        case .unknownTrip: self = .detourUnknownTrip
        case .badDateOrTime: self = .detourBadDate
        case .tripSelectedTwice, .overlappingModifications:
            self = reason == .tripSelectedTwice ? .detourOverlap : .detourNotApplicable
        case .stopNotInTrip, .badTravelTime: self = .detourNotApplicable
        case .replacementStopWithoutCoordinates: self = .detourStopWithoutCoordinates
        case .unparsableShape: self = .unparsableShape
        }
    }

    /// The reason for a part the GTFS-Realtime decoder left out.
    init(_ problem: EntityProblem) {
        if problem.field == "id", problem.reason.hasPrefix("duplicate") {
            self = .duplicateEntityId
        } else if problem.field.hasSuffix("informed_entity") {
            self = .alertWithoutInformedEntity
        } else {
            self = .invalidEntity
        }
    }
}
