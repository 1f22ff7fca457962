// Realtime Swift enums <-> proto enums (protocol/realtime.proto). Unknown numbers are decode errors.
import TransitModel
import TransitProtoC

extension LiveTripRelationship {
    var proto: Transit__TripRelationship {
        switch self {
        case .scheduled: TRANSIT__TRIP_RELATIONSHIP__TRIP_SCHEDULED
        case .unscheduled: TRANSIT__TRIP_RELATIONSHIP__TRIP_UNSCHEDULED
        case .canceled: TRANSIT__TRIP_RELATIONSHIP__TRIP_CANCELED
        case .added: TRANSIT__TRIP_RELATIONSHIP__TRIP_ADDED
        case .new: TRANSIT__TRIP_RELATIONSHIP__TRIP_NEW
        case .replacement: TRANSIT__TRIP_RELATIONSHIP__TRIP_REPLACEMENT
        case .duplicated: TRANSIT__TRIP_RELATIONSHIP__TRIP_DUPLICATED
        case .deleted: TRANSIT__TRIP_RELATIONSHIP__TRIP_DELETED
        }
    }

    init(proto: Transit__TripRelationship, field: StaticString) throws(ProtoDecodeError) {
        switch proto {
        case TRANSIT__TRIP_RELATIONSHIP__TRIP_SCHEDULED: self = .scheduled
        case TRANSIT__TRIP_RELATIONSHIP__TRIP_UNSCHEDULED: self = .unscheduled
        case TRANSIT__TRIP_RELATIONSHIP__TRIP_CANCELED: self = .canceled
        case TRANSIT__TRIP_RELATIONSHIP__TRIP_ADDED: self = .added
        case TRANSIT__TRIP_RELATIONSHIP__TRIP_NEW: self = .new
        case TRANSIT__TRIP_RELATIONSHIP__TRIP_REPLACEMENT: self = .replacement
        case TRANSIT__TRIP_RELATIONSHIP__TRIP_DUPLICATED: self = .duplicated
        case TRANSIT__TRIP_RELATIONSHIP__TRIP_DELETED: self = .deleted
        default: throw .unknownEnum(field, proto.rawValue)
        }
    }
}

extension LiveStopStatus {
    var proto: Transit__StopStatus {
        switch self {
        case .predicted: TRANSIT__STOP_STATUS__STOP_PREDICTED
        case .skipped: TRANSIT__STOP_STATUS__STOP_SKIPPED
        case .noData: TRANSIT__STOP_STATUS__STOP_NO_DATA
        case .noPrediction: TRANSIT__STOP_STATUS__STOP_NO_PREDICTION
        }
    }

    init(proto: Transit__StopStatus, field: StaticString) throws(ProtoDecodeError) {
        switch proto {
        case TRANSIT__STOP_STATUS__STOP_PREDICTED: self = .predicted
        case TRANSIT__STOP_STATUS__STOP_SKIPPED: self = .skipped
        case TRANSIT__STOP_STATUS__STOP_NO_DATA: self = .noData
        case TRANSIT__STOP_STATUS__STOP_NO_PREDICTION: self = .noPrediction
        default: throw .unknownEnum(field, proto.rawValue)
        }
    }
}

extension LivePredictionSource {
    var proto: Transit__PredictionSource {
        switch self {
        case .stopUpdate: TRANSIT__PREDICTION_SOURCE__PREDICTION_STOP_UPDATE
        case .propagated: TRANSIT__PREDICTION_SOURCE__PREDICTION_PROPAGATED
        case .tripDelay: TRANSIT__PREDICTION_SOURCE__PREDICTION_TRIP_DELAY
        case .vehicle: TRANSIT__PREDICTION_SOURCE__PREDICTION_VEHICLE
        case .schedule: TRANSIT__PREDICTION_SOURCE__PREDICTION_SCHEDULE
        }
    }

    init(proto: Transit__PredictionSource, field: StaticString) throws(ProtoDecodeError) {
        switch proto {
        case TRANSIT__PREDICTION_SOURCE__PREDICTION_STOP_UPDATE: self = .stopUpdate
        case TRANSIT__PREDICTION_SOURCE__PREDICTION_PROPAGATED: self = .propagated
        case TRANSIT__PREDICTION_SOURCE__PREDICTION_TRIP_DELAY: self = .tripDelay
        case TRANSIT__PREDICTION_SOURCE__PREDICTION_VEHICLE: self = .vehicle
        case TRANSIT__PREDICTION_SOURCE__PREDICTION_SCHEDULE: self = .schedule
        default: throw .unknownEnum(field, proto.rawValue)
        }
    }

    /// Sent only when there is a prediction (absent reads as `schedule`).
    var sent: LivePredictionSource? { self == .schedule ? nil : self }
}

extension LiveSourceKind {
    var proto: Transit__SourceKind {
        switch self {
        case .auto: TRANSIT__SOURCE_KIND__SOURCE_AUTO
        case .tripUpdates: TRANSIT__SOURCE_KIND__SOURCE_TRIP_UPDATES
        case .vehiclePositions: TRANSIT__SOURCE_KIND__SOURCE_VEHICLE_POSITIONS
        case .alerts: TRANSIT__SOURCE_KIND__SOURCE_ALERTS
        }
    }

    init(proto: Transit__SourceKind, field: StaticString) throws(ProtoDecodeError) {
        switch proto {
        case TRANSIT__SOURCE_KIND__SOURCE_AUTO: self = .auto
        case TRANSIT__SOURCE_KIND__SOURCE_TRIP_UPDATES: self = .tripUpdates
        case TRANSIT__SOURCE_KIND__SOURCE_VEHICLE_POSITIONS: self = .vehiclePositions
        case TRANSIT__SOURCE_KIND__SOURCE_ALERTS: self = .alerts
        default: throw .unknownEnum(field, proto.rawValue)
        }
    }
}

extension RealtimeTopic {
    /// A topic string from the wire; an unknown one is reported as an unknown enum value (-1).
    init(wire: UnsafePointer<CChar>?, field: StaticString) throws(ProtoDecodeError) {
        let text = try requiredString(wire, field)
        guard let topic = RealtimeTopic(rawValue: text) else { throw .unknownEnum(field, -1) }
        self = topic
    }
}
