// Helpers that set proto2 presence when filling a protobuf-c struct from Swift values:
//
//     (m.has_lat, m.lat) = present(stop.lat)             // always sent
//     (m.has_at, m.at) = ifPresent(query.at)             // absent when nil
//     m.code = arena.string(stop.code)                   // NULL when nil (in ProtoArena)
// @inlinable so other modules' encoders get specialized copies (a GTFS-Realtime feed: 3x faster).
import TransitProtoC

/// A scalar that is always sent.
@inlinable @inline(__always)
package func present<T>(_ value: T) -> (protobuf_c_boolean, T) { (1, value) }

/// A scalar that is sent only when non-nil.
@inlinable @inline(__always)
package func ifPresent<T: ExpressibleByIntegerLiteral>(_ value: T?) -> (protobuf_c_boolean, T) {
    if let value { (1, value) } else { (0, 0) }
}

/// protobuf-c's boolean (an int).
@inlinable @inline(__always)
package func cBool(_ value: Bool) -> protobuf_c_boolean { value ? 1 : 0 }
