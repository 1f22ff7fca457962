// The one error this module throws: bytes that are not the message we expected.

/// Bytes that did not decode into the expected message: which message, which field, and why.
public struct ProtoDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// protobuf-c could not unpack the bytes: truncated, or not a protobuf message at all.
        case malformed(byteCount: Int)
        /// A field we need is absent: a non-optional Swift property, a required sub-message or a oneof.
        case missingField
        /// An enum field holds a number our enum has no case for.
        case unknownEnumValue(Int64)
    }

    /// The top-level message being decoded, e.g. "transit.StaticResponse".
    public var message: String
    /// Where in it, in proto field names: "departures.departures[3].route.route_id". Empty for `.malformed`.
    public var field: String
    public var reason: Reason

    public init(message: String, field: String, reason: Reason) {
        self.message = message
        self.field = field
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .malformed(let byteCount):
            "cannot decode \(message): \(byteCount) bytes are not a valid protobuf message (truncated or garbage)"
        case .missingField:
            "cannot decode \(message): missing field \(field)"
        case .unknownEnumValue(let value):
            "cannot decode \(message): field \(field) has unknown enum value \(value)"
        }
    }
}

extension ProtoDecodeError {
    /// A field-level error; the enclosing decoders prefix the path and the entry point names the message.
    @usableFromInline
    package static func missing(_ field: StaticString) -> ProtoDecodeError {
        ProtoDecodeError(message: "", field: "\(field)", reason: .missingField)
    }

    package static func unknownEnum(_ field: StaticString, _ value: some BinaryInteger) -> ProtoDecodeError {
        ProtoDecodeError(message: "", field: "\(field)", reason: .unknownEnumValue(Int64(truncatingIfNeeded: value)))
    }

    /// The same error one level up: `route_id` inside `route` becomes `route.route_id`.
    @usableFromInline
    package func inside(_ parent: String) -> ProtoDecodeError {
        var copy = self
        copy.field = field.isEmpty ? parent : parent + "." + field
        return copy
    }
}
