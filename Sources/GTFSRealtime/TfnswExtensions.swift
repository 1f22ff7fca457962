// Transport for NSW's additions to GTFS-Realtime. They use extension number 1007 (TfNSW's slot in the spec's
// 1000-1999 range), which protobuf-c keeps as an unknown field on the message it extends; the decoder reads
// them from there. TfNSW's schema (tfnsw-gtfs-realtime.proto), as seen in Sydney's feeds:
//   extend VehicleDescriptor { optional TfnswVehicleDescriptor tfnsw_vehicle_descriptor = 1007; }
//   extend VehiclePosition { repeated CarriageDescriptor consist = 1007; }
//   extend TripUpdate.StopTimeUpdate { repeated CarriageDescriptor carriage_seq_predictive_occupancy = 1007; }
//   TfnswVehicleDescriptor: 1 air_conditioned (bool), 2 wheelchair_accessible (int32), 3 vehicle_model,
//     4 performing_prior_trip (bool), 5 special_vehicle_attributes (int32)
//   CarriageDescriptor: 1 name, 2 position_in_consist (int32), 3 occupancy_status, 4 quiet_carriage (bool),
//     5 toilet (ToiletStatus), 6 luggage_rack (bool), 7 departure_occupancy_status
// TfNSW's StopTimeUpdate also has its own field 6, a varint: the departure occupancy at the stop (an
// OccupancyStatus number), where the official schema has since put the stop_time_properties message. The
// wire check skips it as a mismatch (renamed to an unknown number, WireCheck.swift); the decoder reads it
// from there into `StopTimeUpdate.departureOccupancyStatus`.
// TfNSW's TripUpdate extension 1007 (a small message of two strings, one an internal source name such as
// "RTTA_DEF") means nothing to riders and is left unread, as any other unknown field.
import TransitProtoC

/// TfNSW's CarriageDescriptor: one carriage of a train (VehiclePosition) or the predicted occupancy of one
/// carriage on departure from a stop (StopTimeUpdate, where only the position and the departure occupancy
/// are sent). Every property is nil when not sent.
public struct TfnswCarriage: Sendable, Hashable {
    /// e.g. "DTC1".
    public var name: String?
    /// The carriage's place in the train, 1 for the first (TfNSW's schema requires it).
    public var positionInConsist: Int32?
    /// How full the carriage is now.
    public var occupancyStatus: OccupancyStatus?
    public var quietCarriage: Bool?
    public var toilet: TfnswToiletStatus?
    public var luggageRack: Bool?
    /// How full the carriage is predicted to be on departure.
    public var departureOccupancyStatus: OccupancyStatus?

    public init(
        name: String? = nil, positionInConsist: Int32? = nil, occupancyStatus: OccupancyStatus? = nil,
        quietCarriage: Bool? = nil, toilet: TfnswToiletStatus? = nil, luggageRack: Bool? = nil,
        departureOccupancyStatus: OccupancyStatus? = nil
    ) {
        self.name = name
        self.positionInConsist = positionInConsist
        self.occupancyStatus = occupancyStatus
        self.quietCarriage = quietCarriage
        self.toilet = toilet
        self.luggageRack = luggageRack
        self.departureOccupancyStatus = departureOccupancyStatus
    }
}

/// TfNSW's TfnswVehicleDescriptor. Every property is nil when not sent.
public struct TfnswVehicleDescriptor: Sendable, Hashable {
    public var airConditioned: Bool?
    /// TfNSW's own number (not the official WheelchairAccessible enum).
    public var wheelchairAccessible: Int32?
    /// e.g. "Volvo~B8RLE~Bustech~VST", "Alstom Metropolis", "T".
    public var vehicleModel: String?
    /// The vehicle is still running its previous trip.
    public var performingPriorTrip: Bool?
    /// TfNSW's code for special vehicles (0: none).
    public var specialVehicleAttributes: Int32?

    public init(
        airConditioned: Bool? = nil, wheelchairAccessible: Int32? = nil, vehicleModel: String? = nil,
        performingPriorTrip: Bool? = nil, specialVehicleAttributes: Int32? = nil
    ) {
        self.airConditioned = airConditioned
        self.wheelchairAccessible = wheelchairAccessible
        self.vehicleModel = vehicleModel
        self.performingPriorTrip = performingPriorTrip
        self.specialVehicleAttributes = specialVehicleAttributes
    }
}

/// TfNSW's CarriageDescriptor.ToiletStatus.
public enum TfnswToiletStatus: GTFSRealtimeEnum {
    /// NONE = 0
    case none
    /// NORMAL = 1
    case normal
    /// ACCESSIBLE = 2
    case accessible
    /// A number this code has no case for.
    case unknown(Int32)

    public static let knownCases: [TfnswToiletStatus] = [.none, .normal, .accessible]

    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .none
        case 1: self = .normal
        case 2: self = .accessible
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: Int32 {
        switch self {
        case .none: 0
        case .normal: 1
        case .accessible: 2
        case .unknown(let value): value
        }
    }

    public var name: String {
        switch self {
        case .none: "NONE"
        case .normal: "NORMAL"
        case .accessible: "ACCESSIBLE"
        case .unknown(let value): String(value)
        }
    }
}

// MARK: decoding

enum TfnswExtensions {
    static let extensionNumber: UInt32 = 1007

    /// The number TfNSW's StopTimeUpdate field 6 varint carries after the wire check renamed it.
    static let stopOccupancyNumber = WireSchema.gtfsRealtime.spare(
        of: 6, in: "transit_realtime.TripUpdate.StopTimeUpdate")!

    /// TfNSW's additions kept among a StopTimeUpdate's unknown fields.
    static func read(_ base: borrowing ProtobufCMessage, into u: UnsafeMutablePointer<StopTimeUpdate>) {
        forEachUnknown(base) { number, wireType, value in
            if number == extensionNumber, wireType == 2, let carriage = carriage(value) {
                u.pointee.tfnswCarriages.append(carriage)
            } else if number == stopOccupancyNumber, wireType == 0, u.pointee.departureOccupancyStatus == nil {
                var reader = WireReader(value)
                if let n = reader.varint() { u.pointee.departureOccupancyStatus = OccupancyStatus(rawValue: int32(n)) }
            }
        }
    }

    /// The consist (extension 1007) kept among a VehiclePosition's unknown fields.
    static func consist(_ base: borrowing ProtobufCMessage) -> [TfnswCarriage] {
        var out: [TfnswCarriage] = []
        forEachUnknown(base) { number, wireType, value in
            if number == extensionNumber, wireType == 2, let carriage = carriage(value) { out.append(carriage) }
        }
        return out
    }

    /// The TfnswVehicleDescriptor (extension 1007) kept among a VehicleDescriptor's unknown fields.
    static func vehicleDescriptor(_ base: borrowing ProtobufCMessage) -> TfnswVehicleDescriptor? {
        var out: TfnswVehicleDescriptor?
        forEachUnknown(base) { number, wireType, value in
            guard number == extensionNumber, wireType == 2 else { return }
            var d = out ?? TfnswVehicleDescriptor()  // repeated occurrences merge, as protobuf's do
            let complete = forEachField(payload(value)) { field, value in
                switch (field, value) {
                case (1, .varint(let v)): d.airConditioned = v != 0
                case (2, .varint(let v)): d.wheelchairAccessible = int32(v)
                case (3, .bytes(let b)): d.vehicleModel = string(b)
                case (4, .varint(let v)): d.performingPriorTrip = v != 0
                case (5, .varint(let v)): d.specialVehicleAttributes = int32(v)
                default: break  // other fields, or a known one with another wire type: skipped
                }
            }
            if complete { out = d }
        }
        // An extension 1007 none of whose fields reads as TfNSW's is someone else's: nothing to show.
        return out == TfnswVehicleDescriptor() ? nil : out
    }

    /// A CarriageDescriptor, or nil when its bytes do not read as a message or hold none of its fields.
    private static func carriage(_ value: UnsafeRawBufferPointer) -> TfnswCarriage? {
        var c = TfnswCarriage()
        let complete = forEachField(payload(value)) { field, value in
            switch (field, value) {
            case (1, .bytes(let b)): c.name = string(b)
            case (2, .varint(let v)): c.positionInConsist = int32(v)
            case (3, .varint(let v)): c.occupancyStatus = OccupancyStatus(rawValue: int32(v))
            case (4, .varint(let v)): c.quietCarriage = v != 0
            case (5, .varint(let v)): c.toilet = TfnswToiletStatus(rawValue: int32(v))
            case (6, .varint(let v)): c.luggageRack = v != 0
            case (7, .varint(let v)): c.departureOccupancyStatus = OccupancyStatus(rawValue: int32(v))
            default: break
            }
        }
        return complete && c != TfnswCarriage() ? c : nil
    }

    // MARK: wire helpers

    private static func int32(_ value: UInt64) -> Int32 { Int32(truncatingIfNeeded: value) }

    private static func string(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Calls `body` with each unknown field's number, wire type and value bytes (for a length-delimited one,
    /// its length prefix and payload, as protobuf-c keeps them).
    @inline(__always)
    private static func forEachUnknown(
        _ base: borrowing ProtobufCMessage, _ body: (UInt32, UInt32, UnsafeRawBufferPointer) -> Void
    ) {
        guard base.n_unknown_fields > 0, let fields = base.unknown_fields else { return }
        for i in 0..<Int(base.n_unknown_fields) {
            let f = fields[i]
            body(f.tag, f.wire_type.rawValue, UnsafeRawBufferPointer(start: f.data, count: f.len))
        }
    }

    /// The payload of a length-delimited value kept by protobuf-c (after its length prefix).
    private static func payload(_ value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var reader = WireReader(value)
        guard let range = reader.lengthDelimited() else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: value[range])
    }

    /// A field's value as read from the wire.
    private enum Value {
        case varint(UInt64)
        case bytes(UnsafeRawBufferPointer)
        case fixed
    }

    /// Calls `body` with each field of a small message. False when the bytes are not a well-formed message
    /// (then some fields may have been passed already).
    private static func forEachField(_ bytes: UnsafeRawBufferPointer, _ body: (UInt64, Value) -> Void) -> Bool {
        var reader = WireReader(bytes)
        while !reader.atEnd {
            guard let tag = reader.varint(), tag >> 3 != 0 else { return false }
            switch tag & 7 {
            case 0:
                guard let v = reader.varint() else { return false }
                body(tag >> 3, .varint(v))
            case 2:
                guard let range = reader.lengthDelimited() else { return false }
                body(tag >> 3, .bytes(UnsafeRawBufferPointer(rebasing: bytes[range])))
            case 1, 5:
                guard reader.skip(tag & 7 == 1 ? 8 : 4) else { return false }
                body(tag >> 3, .fixed)
            default:
                return false
            }
        }
        return true
    }
}
