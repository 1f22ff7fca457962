// The public face of this module for the static-data service: TransitModel values <-> protobuf bytes of
// protocol/transit.proto. No caller sees a protobuf-c pointer.
import TransitModel

/// Encodes and decodes the static-data service's request and response envelopes.
///
/// Encoding never fails. Decoding is structural only (presence, enum values, oneofs); it never traps on
/// bad input and throws a `ProtoDecodeError` naming the message and field instead.
public enum StaticCodec {
    public static func encode(_ request: StaticRequest) -> [UInt8] {
        RequestCodec.encode(request)
    }

    public static func decodeRequest(_ bytes: UnsafeRawBufferPointer) throws(ProtoDecodeError) -> StaticRequest {
        try RequestCodec.decode(bytes)
    }

    public static func decodeRequest(_ bytes: [UInt8]) throws(ProtoDecodeError) -> StaticRequest {
        try withBytes(bytes, RequestCodec.decode)
    }

    public static func encode(_ response: StaticResponse) -> [UInt8] {
        ResponseCodec.encode(response)
    }

    /// The response encoded through protobuf-c even where `encode` writes the bytes directly (for tests:
    /// both must give the same bytes).
    package static func encodeWithProtobufC(_ response: StaticResponse) -> [UInt8] {
        ResponseCodec.encodeWithProtobufC(response)
    }

    public static func decodeResponse(_ bytes: UnsafeRawBufferPointer) throws(ProtoDecodeError) -> StaticResponse {
        try ResponseCodec.decode(bytes)
    }

    public static func decodeResponse(_ bytes: [UInt8]) throws(ProtoDecodeError) -> StaticResponse {
        try withBytes(bytes, ResponseCodec.decode)
    }

    /// `Array.withUnsafeBytes` only rethrows `any Error`; carry the typed error through a `Result`.
    private static func withBytes<T>(
        _ bytes: [UInt8], _ decode: (UnsafeRawBufferPointer) throws(ProtoDecodeError) -> T
    ) throws(ProtoDecodeError) -> T {
        try bytes.withUnsafeBytes { raw in Result { () throws(ProtoDecodeError) in try decode(raw) } }.get()
    }
}
