// Swift enums <-> proto enums. Unknown numbers on the wire are decode errors naming the field.
import TransitModel
import TransitProtoC

extension BoardDirection {
    var proto: Transit__Direction {
        switch self {
        case .future: TRANSIT__DIRECTION__FUTURE
        case .past: TRANSIT__DIRECTION__PAST
        }
    }

    init(proto: Transit__Direction, field: StaticString) throws(ProtoDecodeError) {
        switch proto {
        case TRANSIT__DIRECTION__FUTURE: self = .future
        case TRANSIT__DIRECTION__PAST: self = .past
        default: throw .unknownEnum(field, proto.rawValue)
        }
    }
}

extension ServiceStatus {
    var proto: Transit__Status {
        switch self {
        case .ok: TRANSIT__STATUS__OK
        case .notFound: TRANSIT__STATUS__NOT_FOUND
        case .invalidArgument: TRANSIT__STATUS__INVALID_ARGUMENT
        case .unavailable: TRANSIT__STATUS__UNAVAILABLE
        case .internal: TRANSIT__STATUS__INTERNAL
        case .badRequest: TRANSIT__STATUS__BAD_REQUEST
        }
    }

    init(proto: Transit__Status, field: StaticString) throws(ProtoDecodeError) {
        switch proto {
        case TRANSIT__STATUS__OK: self = .ok
        case TRANSIT__STATUS__NOT_FOUND: self = .notFound
        case TRANSIT__STATUS__INVALID_ARGUMENT: self = .invalidArgument
        case TRANSIT__STATUS__UNAVAILABLE: self = .unavailable
        case TRANSIT__STATUS__INTERNAL: self = .internal
        case TRANSIT__STATUS__BAD_REQUEST: self = .badRequest
        default: throw .unknownEnum(field, proto.rawValue)
        }
    }
}
