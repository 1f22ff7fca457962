// GTFS-Realtime enums <-> the C enums protoc-c generates. protobuf-c stores whatever number the wire holds,
// so a value newer than our schema arrives intact and becomes `.unknown(n)`.
import TransitProtoC

/// The Swift enum for a C enum field, nil when the field is absent.
@inline(__always)
func optionalEnum<C: RawRepresentable, E: GTFSRealtimeEnum>(_ has: protobuf_c_boolean, _ value: C) -> E?
where C.RawValue: BinaryInteger {
    has != 0 ? E(rawValue: Int32(truncatingIfNeeded: value.rawValue)) : nil
}

/// `(has_xxx, xxx)` for a C enum field: absent when `value` is nil.
@inline(__always)
func cEnum<C: RawRepresentable, E: GTFSRealtimeEnum>(_ value: E?) -> (protobuf_c_boolean, C)
where C.RawValue: BinaryInteger {
    // Imported C enums accept every raw value; the force unwrap cannot fail.
    (value == nil ? 0 : 1, C(rawValue: C.RawValue(truncatingIfNeeded: value?.rawValue ?? 0))!)
}
